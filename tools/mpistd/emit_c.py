# SPDX-License-Identifier: BSD-3-Clause
"""--what c --area A: the MPI_ entry points of area A (those of src/binding/spec/A.toml, when the file says
entry_points = "generated"), each PMPI_X with MPI_X its weak alias, and the _c form (MPI_X_c) where the
standard has one.  --what centry --area A: their bodies, each a static inline vmpi_entry_X (binding/A_entry.h)
that PMPI_X calls and the Fortran glue inlines too (emit_f77: a call from mpi_f08 costs no second frame).

Each entry point checks its arguments as its parameters' kinds say (kinds.py; the spec's `tag`, `checks` and
`extra` where the kinds are too coarse), in the order vmpi has always checked them: the caller is a rank
between MPI_Init and MPI_Finalize (or as the spec's `caller` says: spec.CALLER_CHECK), the call's object (its
communicator, window or session), then the parameters in order, a buffer after its count and datatype.  It
then calls the area's hand-written implementation, vmpi_b_X (binding/impl.h: checked arguments, handles
resolved, counts MPI_Count, shared by the int and _c forms), and reports a failure through that object's
error handler (REPORTERS; MPI_COMM_WORLD's without one, or as the spec's `report` says) under the name the
program called.
The checks are check.h's static inline helpers, as in the hand-written entry points, so they inline into the
entry point (the implementation too, with LTO); nothing is allocated.
Where the spec says so, an entry point checks less and passes more (`arguments = "implementation"`: the
collectives and the datatype constructors, kinds.passed), tells the implementation which form was called
(`large_flag`), calls another entry's implementation with its request (`impl`; NULL from a blocking form:
takes_request), keeps the schedule it builds (`persistent`), or, reporting no error (its result is not an
error class: MPI_Aint_add, MPI_Wtime), only returns its implementation's result.
"""
import re
import sys

import cdecl
import kinds
import spec

WIDTH = 120

# the objects whose error handler reports a call's errors (MPI-4.1 9.3), by kind, and the check.h function
# that reports through it; the first such input parameter is the call's
REPORTERS = {"COMMUNICATOR": "vmpi_fail", "WINDOW": "vmpi_win_fail", "SESSION": "vmpi_session_fail"}


def split_call(text, col):
    """A term longer than the line, placed at column `col`: broken after the commas of its call's arguments,
    each line aligned under the first argument."""
    if col + len(text) <= WIDTH or "(" not in text:
        return [text]
    head = text.index("(", text.index("= ") if "= " in text else 0) + 1
    parts = text[head:].split(", ")
    lines, line = [], text[:head]
    for i, part in enumerate(parts):
        piece = part + ("" if i == len(parts) - 1 else ",")
        if line.endswith("(") or col + len(line) + 1 + len(piece) <= WIDTH:
            line += ("" if line.endswith("(") else " ") + piece
        else:
            lines.append(line)
            line = " " * head + piece
    lines.append(line)
    return lines


def wrap_condition(terms):
    """`if (a || b || ...)`: terms joined by ||, broken at WIDTH columns, continuation lines 8 deep."""
    lines, line = [], "    if ("
    for i, t in enumerate(terms):
        text = t + (")" if i == len(terms) - 1 else " ||")
        if line.endswith("(") or len(line) + 1 + len(text) <= WIDTH:
            pieces = split_call(text, len(line) + (0 if line.endswith("(") else 1))
            if len(pieces) == 1:
                line += ("" if line.endswith("(") else " ") + text
                continue
        if not line.endswith("("):
            lines.append(line)
            line = "        "
        pieces = split_call(text, len(line))
        col = len(line)
        line += pieces[0]
        for piece in pieces[1:]:
            lines.append(line)
            line = " " * col + piece
    lines.append(line)
    return "\n".join(lines)


def call_object(params):
    """The call's object (REPORTERS): its first input communicator, window or session, or None."""
    return next((p for p in params if p.kind.name in REPORTERS and kinds.direction(p) == "in" and
                 p.pointer_level == 0 and not p.array), None)


def uses(entry, params, large):
    """kinds.Use of each parameter, the spec's `checks` replacing a kind's checks (and its resolving of a handle,
    unless the spec's check resolves it too: else the implementation gets the parameter as the program passed
    it)."""
    out = []
    for i, p in enumerate(params):
        try:
            u = kinds.use(entry, params, i, large)
        except kinds.Unknown as e:
            if p.name not in entry.checks:
                sys.exit(f"mpistd: {entry.area}.toml: [{entry.name}]: {e}")
            u = kinds.Use(arg=p.name, impl=kinds.c_decl(p))
        if p.name in entry.checks:
            c = entry.checks[p.name]
            # the kind's checks would have resolved the handle: unless the spec's does (it writes &<name>_obj),
            # the implementation gets the handle as it is
            if u.local and f"&{p.name}_obj" not in c:
                u = kinds.Use(arg=p.name, impl=kinds.c_decl(p))
            u.checks = [(None, c)] if c else []
        out.append(u)
    return out


def order(params):
    """The order of the parameters' checks: the call's object first, its communicator or window (ranks are
    checked against it; REPORTERS), then the parameters in order, a buffer after its count and datatype
    (vmpi_chk_buf reads the resolved datatype)."""
    obj = call_object(params)
    idx = [params.index(obj)] if obj is not None else []
    deferred = {}
    for i, p in enumerate(params):
        if i in idx:
            continue
        if p.kind.name == "BUFFER" and kinds.buffer_triple(params, i):
            deferred.setdefault(i + 2, []).append(i)
            continue
        idx.append(i)
        idx += deferred.pop(i, [])
    return idx


def reporter(entry, params, texts, err, fn):
    """The statement that reports a failure: the spec's `report`, else through the call's object (REPORTERS),
    else through `errcomm` when a check sets it, else through MPI_COMM_WORLD."""
    if entry.report:
        return "return " + entry.report.format(err=err, fn=f'"{fn}"') + ";"
    obj = call_object(params)
    if obj is not None:
        return f'return {REPORTERS[obj.kind.name]}({obj.name}, {err}, "{fn}", &ck);'
    errcomm = "errcomm" if any("errcomm" in t for t in texts) else "MPI_COMM_WORLD"
    return f'return vmpi_fail({errcomm}, {err}, "{fn}", &ck);'


def term(guard, call, err="err"):
    return f"({guard} && ({err} = {call}))" if guard else f"({err} = {call})"


def inline_name(name):
    """The static inline function holding the body of entry point `name` (MPI_Send_c: vmpi_entry_Send_c)."""
    return "vmpi_entry_" + name[len("MPI_"):]


def checked(expr):
    """Whether the entry point of `expr` checks its arguments, with a check record (vmpi_chk) its caller
    declares: the inline body's last parameter, `ck` (not for a function that reports no error)."""
    return expr.return_kind.name == "ERROR_CODE"


def wrapper(expr, profile):
    """The exported entry point of one form: PMPI_X, MPI_X its weak alias, calling its inline body with a check
    record of its own (the record is the caller's so that the Fortran glue can declare it before it looks up the
    rank, which the body then need not look up again: its store is of characters, which alias anything)."""
    if any(p.kind.name.lower() == "varargs" for p in expr.parameters):
        sys.exit(f"mpistd: {expr.name}: a variadic entry point cannot forward to an inline body")
    args = [p.name for p in expr.parameters] + (["&ck"] if checked(expr) else [])
    call = split_call(f"return {inline_name(expr.name)}({', '.join(args)});", 4)
    return "\n".join([f"VMPI_WEAK({expr.name[len('MPI_'):]})", cdecl.declaration(profile).rstrip(";"), "{"] +
                      (["    VMPI_CHK(ck);"] if checked(expr) else []) + ["    " + c for c in call] + ["}"])


def function(entry, expr, profile, large, target=None, takes_request=False):
    """The body of the entry point of one form, vmpi_entry_X; `target`: the parameter names of the
    implementation it calls when that is another entry's (spec `impl`); `takes_request`: the implementation
    takes a request too (takes_request), this entry's or NULL (a blocking form)."""
    params = list(expr.parameters)
    decl = cdecl.declaration(profile, inline_name(expr.name)).rstrip(";")
    if not checked(expr):  # a function that reports no error (MPI_Aint_add): its result
        call = split_call(f"return {entry.impl}({', '.join(p.name for p in params)});", 4)
        return "\n".join(["static inline __attribute__((always_inline))", decl, "{"] + ["    " + c for c in call] +
                          ["}"])
    decl = cdecl.declaration(profile, inline_name(expr.name), extra=["vmpi_chk *ck"]).rstrip(";")
    head = ["static inline __attribute__((always_inline))", decl, "{"]
    us = uses(entry, params, large)
    fn = expr.name  # the name the program called: MPI_Send or MPI_Send_c
    texts = [c for u in us for _, c in u.checks] + entry.extra
    # the error class; `err_` where a parameter is called err (MPI_Status_set_error's)
    err = "err_" if any(p.name == "err" for p in params) else "err"
    fail = "        " + reporter(entry, params, texts, err, fn)
    # a call outside MPI_Init .. MPI_Finalize (or by a thread that is no rank) fails through MPI_COMM_WORLD's
    # handler, whatever object it names (the objects of a finalized rank are no one's to report on)
    caller = spec.CALLER_CHECK[entry.caller]
    world = f'return vmpi_fail(MPI_COMM_WORLD, {err}, "{fn}", &ck);'
    checks, caller_block = [], []
    if caller and fail.strip() == world:
        checks = [term(None, f"{caller}(&ck)", err)]
    elif caller:
        caller_block = [f"    if (({err} = {caller}(&ck)))", "        " + world]
    for i in order(params):
        checks += [term(g, c, err) for g, c in us[i].checks]
    checks += [term(None, c, err) for c in entry.extra]
    args = [u.arg for u in us]
    if target is not None:  # another entry's implementation: its parameters, by name (then this one's request)
        by_name = {p.name: u.arg for p, u in zip(params, us)}
        args = [by_name[n] for n in target]
    if takes_request:
        args.append("request" if any(p.name == "request" for p in params) else "NULL")
    args += ["true" if large else "false"] if entry.large_flag else []
    args += ["&ck"] if entry.ck else []

    out = head
    if takes_request and not any(p.name == "request" for p in params):  # the blocking form of a collective
        out.append(f'    VMPI_VP_CALL("{fn}"); /* names the call in a deadlock report (sched.h) */')
    if "vmpi_fail(errcomm" in fail:
        out.append("    MPI_Comm errcomm = MPI_COMM_WORLD; /* whose handler reports the errors: a check may set it */")
    out += ["    " + u.local for u in us if u.local]
    out.append(f"    int {err};")
    out += caller_block
    call = f"{entry.impl}({', '.join(args)})"
    if entry.persistent:  # the schedule the call builds is kept for MPI_Start (binding/persist.h)
        call = f'VMPI_PERSISTENT({call}, "{fn}")'
    if entry.raises:  # the implementation reports its own errors
        ret = split_call(f"return {call};", 4)
        out += ([wrap_condition(checks), fail] if checks else []) + ["    " + ret[0]] + ["    " + r for r in ret[1:]]
    else:
        checks.append(term(None, call, err))
        out += [wrap_condition(checks), fail] + ["    " + u.out for u in us if u.out] + ["    return MPI_SUCCESS;"]
    out.append("}")
    return re.sub(r"&ck\b", "ck", "\n".join(out))  # the checks' and the spec's texts: the record's address


def generated(entries, area):
    gen = [e for e in entries if e.entry_generated and e.area == area]
    if not gen:
        sys.exit(f"mpistd: no generated entry points in area {area} (its spec says entry_points = \"generated\"?)")
    return gen


def emit(standard, entries, out, area):
    """<area>_entry.c: the exported entry points."""
    gen = generated(entries, area)
    out.write("/* SPDX-License-Identifier: BSD-3-Clause */\n"
              f"/* Generated by tools/mpistd/gen.py --what c --area {area} from pympistandard {standard.version} "
              "(MPI-4.1)\n"
              f" * and src/binding/spec/{area}.toml: do not edit.  The MPI_ entry points of the area (every MPI_X "
              "a weak\n"
              f" * alias of PMPI_X), each calling its body in binding/{area}_entry.h. */\n"
              f'#include "binding/{area}_entry.h"\n')
    for e in gen:
        for expr, profile, _ in standard.forms(e):
            out.write("\n" + wrapper(expr, profile) + "\n")


def emit_bodies(standard, entries, out, area):
    """binding/<area>_entry.h (--what centry): the entry points' bodies, static inline."""
    gen = generated(entries, area)
    guard = f"VMPI_BINDING_{area.upper()}_ENTRY_H"
    out.write("/* SPDX-License-Identifier: BSD-3-Clause */\n"
              f"/* Generated by tools/mpistd/gen.py --what centry --area {area} from pympistandard "
              f"{standard.version} (MPI-4.1)\n"
              f" * and src/binding/spec/{area}.toml: do not edit.  The bodies of the area's MPI_ entry points "
              "(vmpi_entry_X,\n"
              " * which PMPI_X and the Fortran glue call): the argument checks of check.h, then the hand-written "
              f"implementation\n * (src/binding/{area}.c). */\n"
              f"#ifndef {guard}\n#define {guard}\n\n"
              '#include "binding/check.h"\n#include "binding/impl.h"\n')
    if any(e.persistent for e in gen):
        out.write('#include "binding/persist.h"\n')
    requests = takes_request(standard, entries)
    for e in gen:
        target = None
        if e.impl_of != e.name:
            target = [p.name for p in standard.procedure(e.impl_of).express.iso_c.parameters]
        for expr, profile, large in standard.forms(e):
            out.write("\n" + function(e, expr, profile, large, target, e.impl_of in requests) + "\n")
    out.write(f"\n#endif\n")


def takes_request(standard, entries):
    """The entries whose implementation takes a request as well: another entry with a request calls it (spec
    `impl`: MPI_Igather, MPI_Gather_init call MPI_Gather's)."""
    return {e.impl_of for e in entries if e.impl_of != e.name and
            any(p.name == "request" for p in standard.procedure(e.name).express.iso_c.parameters)}
