# SPDX-License-Identifier: BSD-3-Clause
"""Reads the MPI_ and PMPI_ prototypes out of C headers (vmpi's hand-written ones and the generated one), as
text: vmpi's handle types are all `int`, so a C compiler would take MPI_Comm for MPI_Datatype; the names of
the types are what has to match the standard.

Enough C for MPI headers: prototypes whose parameter types are words, `*` and `[]` (function pointers go
through typedefs), `...`, and the VMPI_DECL(ret, name, (params)) macro of include/mpi.h.
"""
import os
import re

QUALIFIERS = {"const", "volatile"}
BUILTIN = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned"}
PROTO = re.compile(r"^(?P<ret>[\w\s\*]+?)\s*\b(?P<name>P?MPI_\w+)\s*\((?P<params>.*)\)$", re.S)


class Param:
    def __init__(self, text):
        self.text = " ".join(text.split())  # as written, for messages
        self.type, self.name, self.array = canonical(text)


class Proto:
    def __init__(self, ret, name, params, where):
        self.ret = " ".join(ret.split()).replace(" *", "*")
        self.name = name
        self.params = params  # [Param]; [] for (void)
        self.where = where  # the file that declares it

    def types(self):
        return [p.type for p in self.params]


def canonical(decl):
    """A parameter's type as the compiler sees it, written one way, and its name: `const int counts[]` and
    `const int *counts` both give ('const int*', 'counts', True); `int ranges[][3]` gives 'int(*)[3]'."""
    tokens = re.findall(r"\.\.\.|[A-Za-z_]\w*|\*|\[[^\]]*\]", decl)
    if tokens == ["..."]:
        return "...", None, False
    words = []
    while tokens and re.match(r"[A-Za-z_]", tokens[0]):
        words.append(tokens.pop(0))
    name = None
    stars, dims = 0, []
    for t in tokens:
        if t == "*":
            stars += 1
        elif t.startswith("["):
            dims.append(t[1:-1].strip())
        elif t in QUALIFIERS:
            words.append(t)  # `T *const p`: not in MPI's prototypes; kept visible, not dropped
        else:
            name = t
    typewords = [w for w in words if w not in QUALIFIERS]
    if name is None and len(typewords) >= 2 and typewords[-1] not in BUILTIN:
        name = typewords[-1]
        words.remove(name)
    quals = sorted(w for w in words if w in QUALIFIERS)
    base = " ".join(quals + [w for w in words if w not in QUALIFIERS])
    ptr = "*" * stars
    if not dims:
        return base + ptr, name, False
    # a parameter declared as an array is a pointer to its element (C11 6.7.6.3p7)
    rest = "".join(f"[{d}]" for d in dims[1:])
    return (base + ptr + ("(*)" + rest if rest else "*")), name, True


def split_params(text):
    """Top-level commas only."""
    out, depth, cur = [], 0, ""
    for c in text:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    out.append(cur)
    out = [p.strip() for p in out]
    return [] if out in ([""], ["void"]) else out


def _read(path, include_dir, seen):
    """The file's text, comments and preprocessor lines removed, with its `#include "x"` files found in
    include_dir read in place (once each); <x> includes and files not there are skipped."""
    if path in seen:
        return ""
    seen.add(path)
    with open(path) as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"\\\n", " ", text)
    out = []
    for line in text.split("\n"):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if m:
            inc = os.path.join(include_dir, m.group(1))
            if os.path.exists(inc):
                out.append(_read(inc, include_dir, seen))
        elif not line.lstrip().startswith("#"):
            out.append(line)
    return "\n".join(out)


def _macro_args(text, start):
    """The arguments of the macro call whose '(' is at text[start], and the index after its ')'."""
    depth, i = 0, start
    while True:
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return split_params(text[start + 1:i]), i + 1
        i += 1


def _expand_vmpi_decl(text):
    """include/mpi.h's VMPI_DECL(ret, name, (params)): `ret MPI_name params; ret PMPI_name params;`."""
    out, pos = [], 0
    for m in re.finditer(r"\bVMPI_DECL\s*\(", text):
        if m.start() < pos:
            continue
        args, end = _macro_args(text, m.end() - 1)
        ret, name, params = args
        out.append(text[pos:m.start()])
        out.append(f"{ret} MPI_{name}{params}; {ret} PMPI_{name}{params};")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _statements(text):
    """Top-level declarations: split at ';' outside braces (struct bodies), extern "C" dropped."""
    text = re.sub(r'extern\s+"C"\s*\{', " ", text)
    out, depth, cur = [], 0, ""
    for c in text:
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)  # the '}' closing extern "C"
        if c == ";" and depth == 0:
            out.append(" ".join(cur.split()))
            cur = ""
        else:
            cur += c
    return out


def prototypes(path, include_dir=None):
    """{name: Proto} of every MPI_/PMPI_ function declared by `path` and the headers it includes from
    include_dir (default: the directory above path's, as for <mpi.h> and "vmpi/x.h")."""
    include_dir = include_dir or os.path.dirname(os.path.abspath(path))
    text = _expand_vmpi_decl(_read(os.path.abspath(path), include_dir, set()))
    protos = {}
    for s in _statements(text):
        if s.startswith("typedef"):
            continue
        m = PROTO.match(s)
        if not m:
            continue
        p = Proto(m.group("ret"), m.group("name"), [Param(t) for t in split_params(m.group("params"))], path)
        if p.name in protos:
            raise SystemExit(f"{path}: {p.name} declared twice")
        protos[p.name] = p
    return protos
