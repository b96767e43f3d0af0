# SPDX-License-Identifier: BSD-3-Clause
"""--what fmod: the `mpi` module (mpi.f90): the constants of mpif.h (the generated mpi_consts.h, included) and
an explicit interface for every procedure vmpi has a Fortran binding of, so that a call with the wrong number
or kinds of arguments fails to compile.

Each interface is the standard's Fortran binding (its declarations, with their types and array bounds, and
the directions of the parameters as INTENT): the module's procedures are the same external procedures mpif.h
programs call (src/fortran/, emit_f77.py).  The procedures with a choice buffer (MPI_SEND...) have no
interface, as in MPICH's mpi module: a profiling tool's own MPI_SEND that uses the module would clash with
one (MPICH's f90/profile tests), and programs written for MPICH pass arrays where a scalar is declared
(f90/coll/alltoallvf90).  MPI_SUBARRAYS_SUPPORTED is .FALSE.
"""
import re

DECL = re.compile(r"(<type>|CHARACTER\*\(\*\)|EXTERNAL|LOGICAL|DOUBLE PRECISION|INTEGER(?:\(KIND=\w+\))?)\s+(.*)")
TYPES = {"CHARACTER*(*)": "character(len=*)", "LOGICAL": "logical", "DOUBLE PRECISION": "double precision",
         "INTEGER": "integer"}
KIND_NAMES = ("MPI_ADDRESS_KIND", "MPI_COUNT_KIND", "MPI_OFFSET_KIND", "MPI_STATUS_SIZE")

# MPI_SIZEOF (a Fortran-only generic): one specific per intrinsic type and kind, of any rank, named
# vmpi_sizeof_<name>; emit_f77.py writes their C side (the bytes of one element) from the same table.
SIZEOF = [(f"integer(kind={k})", f"integer{k}", k) for k in (1, 2, 4, 8, 16)] + \
         [(f"real(kind={k})", f"real{k}", k) for k in (4, 8, 16)] + \
         [(f"complex(kind={k})", f"complex{k}", 2 * k) for k in (4, 8, 16)] + \
         [(f"logical(kind={k})", f"logical{k}", k) for k in (1, 2, 4, 8)] + \
         [("character(len=1)", "character", 1)]


def split_names(text):
    """`A, B(*), C(MPI_STATUS_SIZE, *)` -> [('A', None), ('B', '*'), ('C', 'MPI_STATUS_SIZE, *')]"""
    out, depth, cur = [], 0, ""
    for ch in text + ",":
        if ch == "," and depth == 0:
            m = re.match(r"\s*(\w+)\s*(?:\((.*)\))?\s*$", cur)
            out.append((m.group(1), m.group(2)))
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    return out


def declarations(f90):
    """{NAME: (type text, dims or None)} from the binding's declaration lines."""
    decls = {}
    for line in str(f90).split("\n")[1:]:
        m = DECL.match(line.strip())
        if m is None:
            raise SystemExit(f"mpistd: cannot read the Fortran declaration '{line.strip()}' of {f90.name}")
        for name, dims in split_names(m.group(2)):
            decls[name] = (m.group(1), dims)
    return decls


def interface(proc):
    f90 = proc.express.f90
    decls = declarations(f90)
    head = str(f90).split("\n")[0]
    name = proc.express.iso_c.name
    params = [q.name.lower() for q in f90.parameters]
    body, uses = [], set()
    for q in f90.parameters:
        t, dims = decls[q.name]
        n = q.name.lower()
        d = q.direction.value.lower()
        intent = f", intent({d})"
        if t == "<type>":
            body.append(f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {n}")
            body.append(f"type(*), dimension(*) :: {n}")
            continue
        if t == "EXTERNAL":
            body.append(f"external :: {n}")
            continue
        if t.startswith("INTEGER(KIND="):
            kind = t[len("INTEGER(KIND="):-1]
            uses.add(kind)
            ftype = f"integer(kind={kind})"
        else:
            ftype = TYPES[t]
        shape = ""
        if dims:
            shape = f"({dims.replace(' ', '')})"
            uses.update(k for k in KIND_NAMES if k in dims)
        body.append(f"{ftype}{intent} :: {n}{shape}")
    if head.startswith("MPI_"):
        kind = f"subroutine {name}({', '.join(params)})"
        end = "end subroutine"
    else:  # a function: its result type before the name
        rtype = head[:head.index(" MPI_")]
        if rtype.startswith("INTEGER(KIND="):
            k = rtype[len("INTEGER(KIND="):-1]
            uses.add(k)
            rtype = f"integer(kind={k})"
        else:
            rtype = TYPES[rtype]
        kind = f"{rtype} function {name}({', '.join(params)})"
        end = "end function"
    lines = [kind]
    if uses:
        lines.append(f"  import :: {', '.join(sorted(uses))}")
    lines.append("  implicit none")
    lines += ["  " + b for b in body]
    lines.append(end)
    return lines


def sizeof_interface(ierror_attr):
    """The generic MPI_SIZEOF (SIZEOF's specifics); `ierror_attr`: ", optional" in mpi_f08."""
    out = "  ! MPI_SIZEOF(X, SIZE, IERROR): the bytes of one element of X\n  interface MPI_Sizeof\n"
    for ftype, name, _ in SIZEOF:
        out += (f"    subroutine vmpi_sizeof_{name}(x, size, ierror)\n      implicit none\n"
                f"      {ftype}, dimension(..) :: x\n      integer, intent(out) :: size\n"
                f"      integer{ierror_attr}, intent(out) :: ierror\n    end subroutine\n")
    return out + "  end interface\n\n"


def sync_reg_interface():
    """MPI_F_SYNC_REG (Fortran only, so not in the data's C-based list): BUF of any type and rank, by address,
    to the hand-written glue (src/fortran/f77_misc.c)."""
    return ("  ! MPI_F_SYNC_REG(BUF): BUF leaves the registers (an external call that may read and write it)\n"
            "  interface\n    subroutine MPI_F_sync_reg(buf) bind(C, name=\"mpi_f_sync_reg_\")\n"
            "      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buf\n      type(*), dimension(*) :: buf\n"
            "    end subroutine\n  end interface\n\n")


def wrap(line, indent):
    """Free form lines of at most 132 columns: continued with &."""
    out, cur = [], " " * indent + line
    while len(cur) > 120:
        cut = cur.rfind(", ", 0, 118) + 1
        out.append(cur[:cut] + " &")
        cur = " " * (indent + 4) + cur[cut:].lstrip()
    out.append(cur)
    return out


def emit(standard, entries, out):
    w = out.write
    w("! SPDX-License-Identifier: BSD-3-Clause\n")
    w(f"! Generated by tools/mpistd/gen.py --what fmod from pympistandard {standard.version} (MPI-4.1) and the spec\n"
      "! files of src/binding/spec: do not edit.  The mpi module (tools/mpistd/emit_fmod.py).\n")
    w("module mpi\n  implicit none\n  include 'mpi_consts.h'\n\n  interface\n")
    for e in entries:
        if not e.generated or e.fortran == "none":
            continue
        proc = standard.procedure(e.name)
        if proc.express.f90 is None or any(str(q.kind.express.f90) == "<type>" for q in proc.express.f90.parameters):
            continue
        if "TYPE(MPI_Status)" in str(proc.express.f90):
            continue  # MPI_Status_f082f, MPI_Status_f2f08: the module has no TYPE(MPI_Status) (mpi_f08's)
        for line in interface(proc):
            for part in wrap(line, 4):
                w(part + "\n")
        w("\n")
    w("  end interface\n\n")
    w(sizeof_interface(""))
    w(sync_reg_interface())
    w("  ! the profiling interface's functions (PMPI_WTIME...): no interface, their result types\n")
    w("  double precision, external :: PMPI_Wtime, PMPI_Wtick\n")
    w("  integer(kind=MPI_ADDRESS_KIND), external :: PMPI_Aint_add, PMPI_Aint_diff\n")
    w("end module mpi\n")
