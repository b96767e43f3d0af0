# SPDX-License-Identifier: BSD-3-Clause
"""C declarations of the standard's procedures, in vmpi's style (`int *x`, the pointer with the name).

pympistandard's str() of an ISO C expression is text for the standard's documents: `MPI_Comm* comm`, and a
variadic parameter written `\\ldots` (LaTeX, in MPI_Pcontrol).  So the declaration is rebuilt here from the
parameters' parts, which later generators (wrappers, impl prototypes) reuse.
"""


# Kinds the data renders wrongly in C where it gives no pointer level, with what the standard's text says:
# MPI_Info_create_env's argv is `char *argv[]` (MPI-4.1 11.4), pympistandard 0.2.0 writes `char argv[]`
# (MPI_Init's `char ***argv`, of the same kind, is right).
POINTER_LEVEL = {"ARGUMENT_LIST": 1}


def param(p):
    """One parameter: `const int *name[]`."""
    if p.kind.name.lower() == "varargs":
        return "..."
    const = "const " if p.constant else ""
    stars = "*" * (p.pointer_level or POINTER_LEVEL.get(p.kind.name, 0))
    return f"{const}{p.base_type} {stars}{p.name}{p.array}"


def params(expr):
    return [param(p) for p in expr.parameters] or ["void"]


def declaration(expr, name=None, width=120, extra=()):
    """`ret name(params);`, wrapped at `width` columns with the continuation under the first parameter;
    `extra`: parameters after the standard's."""
    head = f"{expr.return_type} {name or expr.name}("
    lines, line = [], head
    ps = [q for q in params(expr) if q != "void"] + list(extra) if extra else params(expr)
    for i, p in enumerate(ps):
        text = p + (");" if i == len(ps) - 1 else ",")
        if len(line) + len(text) + 1 > width and line.strip() and not line.endswith("("):
            lines.append(line.rstrip())
            line = " " * len(head)
        elif not line.endswith("("):
            line += " "
        line += text
    lines.append(line)
    return "\n".join(lines)
