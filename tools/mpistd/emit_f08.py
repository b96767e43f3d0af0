# SPDX-License-Identifier: BSD-3-Clause
"""--what f08: the `mpi_f08` module (mpi_f08.f90, compiled into libvmpifort): the handle types
(TYPE(MPI_Comm)... with their MPI_VAL, == and /=), TYPE(MPI_Status), the constants as those types
(mpi_f08_consts.h, printed from mpi.h by the fconst program), the sentinels, and for every procedure of the
standard's mpi_f08 binding a module procedure MPI_X_f08 behind the generic MPI_X.

Each procedure is the standard's binding (its declarations as the data writes them; IERROR optional).  Most
are the glue itself: a BIND(C) interface named MPI_X_f08 (MPI_X_f08c for a large-count form), whose scalar
integer and handle inputs pass by value to C glue generated for it (emit_f77.py), so that a call costs what a
C call does.  The others (a CHARACTER or procedure argument, a function, hand-written glue) are module
procedures calling the glue of mpif.h and the mpi module (pmpi_x_, src/fortran/) by reference.  A handle type
is one default INTEGER (BIND(C)), so it passes as the glue's INTEGER does and arrays of handles and statuses
pass without a copy.  A choice buffer is the standard's `TYPE(*), DIMENSION(..)` (MPI_SUBARRAYS_SUPPORTED is
.TRUE.: gfortran passes a descriptor, src/fortran/fsection.h), but in the module procedures over the glue of
mpif.h (MPI_Pack_external's), `TYPE(*), DIMENSION(*)` with gfortran's NO_ARG_CHECK (a section passes as the
compiler's contiguous copy: blocking calls, for which that is right).
"""
import re

import emit_fconst
import emit_fmod

HANDLES = ["MPI_Comm", "MPI_Datatype", "MPI_Group", "MPI_Request", "MPI_Op", "MPI_Errhandler", "MPI_Info",
           "MPI_Win", "MPI_Message", "MPI_File", "MPI_Session"]
# the sentinels: mpif.h's COMMON block (emit_fconst.py, src/fortran/fortran.h), in its order
SENTINELS = [("integer", "MPI_BOTTOM", ""), ("integer", "MPI_IN_PLACE", ""), ("integer", "MPI_BUFFER_AUTOMATIC", ""),
             ("integer", "MPI_UNWEIGHTED", "(1)"), ("integer", "MPI_WEIGHTS_EMPTY", "(1)"),
             ("type(MPI_Status)", "MPI_STATUS_IGNORE", ""), ("type(MPI_Status)", "MPI_STATUSES_IGNORE", "(1)")]


def split_top(text, sep=","):
    """Splits at `sep` outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == sep and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def declarations(f08):
    """[(attributes, [(name, dims)])] of the binding's declaration lines, `USE` lines left out."""
    out = []
    for line in str(f08).split("\n")[1:]:
        line = line.strip()
        if line.upper().startswith("USE"):
            continue
        attrs, names = line.split("::")
        parsed = []
        for n in split_top(names):
            m = re.match(r"(\w+)\s*(?:\((.*)\))?$", n)
            parsed.append((m.group(1), m.group(2)))
        out.append((split_top(attrs), parsed))
    return out


def dummy(attrs, name, dims, glue, assumed_rank=False):
    """The declaration of one dummy argument, for the module procedure or (`glue`) the glue's interface;
    `assumed_rank`: a choice buffer as the standard declares it (TYPE(*), DIMENSION(..)), for the specific that
    is the glue itself, whose C side takes its descriptor (src/fortran/fsection.h)."""
    lines = []
    attrs = list(attrs)
    base = attrs[0]
    if base.upper().startswith("PROCEDURE"):
        # mpi_f08's callbacks take what the glue's do, by reference (a TYPE(MPI_Comm) as an INTEGER), but
        # MPI_User_function's two TYPE(C_PTR), VALUE buffers, which are C's void *: any procedure passes
        return [f"external :: {name}"]
    if base.upper() == "TYPE(*)" and assumed_rank:
        if "DIMENSION(..)" not in [a.upper().replace(" ", "") for a in attrs]:
            raise ValueError(f"choice buffer {name} is not DIMENSION(..) in the standard's mpi_f08 binding")
        return [", ".join(attrs) + f" :: {name}"]
    if base.upper() == "TYPE(*)":
        lines.append(f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {name}")
        return lines + [f"type(*), dimension(*) :: {name}"]
    rest = [a for a in attrs[1:] if not (glue and a.upper() in ("OPTIONAL",)) and
            not (glue and a.upper().startswith("INTENT"))]
    if glue and base.upper().startswith("CHARACTER"):
        base = "CHARACTER(LEN=*)"
    shape = f"({dims})" if dims else ""
    if glue and dims:
        shape = "(" + ",".join("*" if i == len(split_top(dims)) - 1 else d
                               for i, d in enumerate(split_top(dims))) + ")"
    return lines + [", ".join([base] + rest) + f" :: {name}{shape}"]


def direct(f08, glue_generated=True):
    """Whether the specific of binding `f08` is the glue itself (a BIND(C) interface): a subroutine without a
    CHARACTER (BIND(C) would pass a descriptor) or a procedure argument, over generated glue (which checks
    IERROR: absent, a null pointer)."""
    text = " ".join(" ".join(a) for a, _ in declarations(f08)).upper()
    return (glue_generated and str(f08).startswith("MPI_") and "CHARACTER" not in text
            and "PROCEDURE" not in text)


BY_VALUE_TYPES = ("INTEGER", "INTEGER(KIND=MPI_ADDRESS_KIND)", "INTEGER(KIND=MPI_COUNT_KIND)",
                  "INTEGER(KIND=MPI_OFFSET_KIND)")


def by_value(f08):
    """The dummies of a direct specific (binding `f08`) passed by value (VALUE): the scalar INTENT(IN)
    integers and handles, which a C glue takes as C does (a handle type is one C int: a struct of one int passes
    as the int).  By reference, gfortran would store each to memory and the glue load it back: a tenth of a
    ping-pong's time on one PE (docs/PERFORMANCE.md)."""
    out = set()
    for attrs, names in declarations(f08):
        base, rest = attrs[0].upper().replace(" ", ""), [a.upper().replace(" ", "") for a in attrs[1:]]
        handle = base.startswith("TYPE(MPI_") and base != "TYPE(MPI_STATUS)"
        if (base in BY_VALUE_TYPES or handle) and rest == ["INTENT(IN)"]:
            out |= {n for n, dims in names if not dims}
    return out


def same_kinds(proc):
    """Whether the large-count specific of `proc` differs from its int one only by MPI_COUNT_KIND where that has
    MPI_ADDRESS_KIND (MPI_Type_get_extent...): both kinds are 8 bytes in vmpi (mpi.h's MPI_Aint and MPI_Count),
    so a generic holding both would be ambiguous, and the int one serves both (MPI-4.1 19.2)."""
    def norm(f08):
        return [(" ".join(a).replace("MPI_COUNT_KIND", "MPI_ADDRESS_KIND"), n) for a, n in declarations(f08)]
    return norm(proc.express.embiggen.f08) == norm(proc.express.f08)


def procedure(proc, glue_generated=True, large=False):
    """("interface", lines) of a specific that is the glue itself, or ("module", lines) of a module procedure;
    `large`: the large-count specific (MPI_X_f08c): the glue itself (PMPI_X_f08c) where it can be, else a module
    procedure over pmpi_x_c_ (MPI_Op_create_c's procedure argument)."""
    f08 = proc.express.embiggen.f08 if large else proc.express.f08
    name = proc.express.iso_c.name
    head = str(f08).split("\n")[0]
    params = [q.name for q in f08.parameters]
    decls = declarations(f08)
    spec, glue = [], []
    for attrs, names in decls:
        for n, dims in names:
            spec += dummy(attrs, n, dims, False)
            glue += dummy(attrs, n, dims, True) if n != "ierror" else ["integer :: ierror"]
    types = sorted({h for h in HANDLES + ["MPI_Status"] if any(h + ")" in " ".join(a) for a, _ in decls)})
    kinds = sorted({k for k in ("MPI_ADDRESS_KIND", "MPI_COUNT_KIND", "MPI_OFFSET_KIND", "MPI_MAX_OBJECT_NAME",
                                "MPI_MAX_ERROR_STRING", "MPI_MAX_PROCESSOR_NAME", "MPI_MAX_LIBRARY_VERSION_STRING",
                                "MPI_MAX_INFO_KEY", "MPI_MAX_INFO_VAL", "MPI_MAX_PORT_NAME", "MPI_MAX_PSET_NAME_LEN",
                                "MPI_MAX_STRINGTAG_LEN")
                     if any(k in " ".join(a) for a, _ in decls)})
    c_ptr = any("C_PTR" in " ".join(a).upper() for a, _ in decls)
    imports = types + kinds + (["c_ptr"] if c_ptr else [])
    gname = "p" + name.lower() + ("_c" if large else "")
    suffix = "_f08c" if large else "_f08"
    args = ", ".join(params)
    is_function = not head.startswith("MPI_")
    if direct(f08, glue_generated):
        # the glue itself is the specific, named as the standard names it (MPI_X_f08, a weak alias of
        # PMPI_X_f08: a tool can intercept it), its scalar inputs by value (emit_f77.py's by-value glue)
        values = by_value(f08)
        spec = []
        for attrs, names in decls:
            for n, dims in names:
                spec += dummy(list(attrs) + (["VALUE"] if n in values else []), n, dims, False, True)
        lines = [f"subroutine {name}{suffix}({args}) bind(C, name=\"{name}{suffix}\")"]
        if imports:
            lines.append(f"  import :: {', '.join(imports)}")
        lines += ["  " + x for x in spec]
        lines.append("end subroutine")
        return "interface", lines
    lines = []
    if is_function:
        rtype = head[:head.index(" MPI_")]
        rtype = "double precision" if rtype == "DOUBLE PRECISION" else rtype.lower().replace("mpi_address_kind",
                                                                                               "MPI_ADDRESS_KIND")
        lines.append(f"{rtype} function {name}{suffix}({args})")
    else:
        lines.append(f"subroutine {name}{suffix}({args})")
    lines += ["  " + x for x in spec]
    lines.append("  interface")
    if is_function:
        lines.append(f"    {rtype} function {gname}({args})")
    else:
        gargs = args
        lines.append(f"    subroutine {gname}({gargs})")
    if imports:
        lines.append(f"      import :: {', '.join(imports)}")
    lines += ["      " + x for x in glue]
    lines.append("    end function" if is_function else "    end subroutine")
    lines.append("  end interface")
    if is_function:
        lines.append(f"  {name}{suffix} = {gname}({args})")
        lines.append("end function")
    else:
        call_args = ", ".join("ierror_c" if p == "ierror" else p for p in params)
        if "ierror" in params:
            lines.append("  integer :: ierror_c")
        lines.append(f"  call {gname}({call_args})")
        if "ierror" in params:
            lines.append("  if (present(ierror)) ierror = ierror_c")
        lines.append("end subroutine")
    return "module", lines


def emit(standard, entries, out):
    w = out.write
    w("! SPDX-License-Identifier: BSD-3-Clause\n")
    w(f"! Generated by tools/mpistd/gen.py --what f08 from pympistandard {standard.version} (MPI-4.1) and the spec\n"
      "! files of src/binding/spec: do not edit.  The mpi_f08 module (tools/mpistd/emit_f08.py).\n")
    w("module mpi_f08\n  use, intrinsic :: iso_c_binding, only: c_int, c_ptr\n  implicit none\n\n")
    for h in HANDLES:
        w(f"  type, bind(C) :: {h}\n    integer(c_int) :: MPI_VAL\n  end type\n")
    w("  type, bind(C) :: MPI_Status\n    integer(c_int) :: MPI_SOURCE, MPI_TAG, MPI_ERROR\n"
      "    integer(c_int), private :: vmpi_cancelled, vmpi_count_lo, vmpi_count_hi\n  end type\n\n")
    w("  include 'mpi_f08_consts.h'\n\n")
    w("  ! the sentinels: mpif.h's COMMON block (src/fortran/fortran.h)\n")
    for t, n, dims in SENTINELS:
        w(f"  {t} :: {n}{dims}\n")
    w("  common /vmpi_f_sentinels/ " + ", ".join(n for _, n, _ in SENTINELS[:4]) + ", &\n      "
      + ", ".join(n for _, n, _ in SENTINELS[4:]) + "\n  save /vmpi_f_sentinels/\n")
    w("\n  ! the predefined callbacks (src/fortran/f77_callbacks.c) and the profiling interface's functions\n")
    for i in range(0, len(emit_fconst.PROCEDURES), 3):
        w(f"  external :: {', '.join(emit_fconst.PROCEDURES[i:i + 3])}\n")
    w("  double precision, external :: PMPI_Wtime, PMPI_Wtick\n")
    w("\n  interface operator(==)\n")
    for h in HANDLES:
        w(f"    module procedure vmpi_eq_{h[4:].lower()}\n")
    w("  end interface\n  interface operator(/=)\n")
    for h in HANDLES:
        w(f"    module procedure vmpi_ne_{h[4:].lower()}\n")
    w("  end interface\n\n")
    bodies = []
    for e in entries:
        if not e.generated or e.fortran == "none":
            continue
        proc = standard.procedure(e.name)
        if proc.express.f08 is None:
            continue
        kind, lines = procedure(proc, e.fortran == "generated")
        g = proc.express.iso_c.name
        large = procedure(proc, e.fortran == "generated", True) if standard.has_large(e) else None
        if large and same_kinds(proc):
            large = None  # ambiguous with the int form's specific: MPI_COUNT_KIND is MPI_ADDRESS_KIND here
        # the large specific joins the generic unless the standard names it apart (MPI_Op_create_c: its
        # procedure argument alone would not tell the two apart)
        gc = str(proc.express.embiggen.f08).split("(")[0] if large else g
        w(f"  interface {g}\n")
        if kind == "module":
            bodies.append(lines)
            w(f"    module procedure {g}_f08\n")
        if large and large[0] == "module":
            bodies.append(large[1])
        if large and large[0] == "module" and gc == g:
            w(f"    module procedure {g}_f08c\n")
        for kind_lines in [lines if kind == "interface" else None,
                           large[1] if large and large[0] == "interface" else None]:
            for line in kind_lines or []:
                for part in emit_fmod.wrap(line, 4):
                    w(part + "\n")
        w("  end interface\n")
        if large and large[0] == "module" and gc != g:
            w(f"  interface {gc}\n    module procedure {g}_f08c\n  end interface\n")
    w("\n" + emit_fmod.sizeof_interface(", optional") + emit_fmod.sync_reg_interface() + "contains\n\n")
    for h in HANDLES:
        s = h[4:].lower()
        for op, rel in (("eq", "=="), ("ne", "/=")):
            w(f"  elemental logical function vmpi_{op}_{s}(a, b)\n    type({h}), intent(in) :: a, b\n"
              f"    vmpi_{op}_{s} = a%MPI_VAL {rel} b%MPI_VAL\n  end function\n")
    w("\n")
    for b in bodies:
        for line in b:
            for part in emit_fmod.wrap(line, 2):
                w(part + "\n")
        w("\n")
    w("end module mpi_f08\n")
