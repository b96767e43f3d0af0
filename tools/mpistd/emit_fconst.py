# SPDX-License-Identifier: BSD-3-Clause
"""--what fconst: a C program that prints the Fortran declarations of MPI's constants: `mpif.h` (run with
argument `mpif`), the constants the `mpi` module includes (`module`) and those of `mpi_f08` (`f08`: the
handles as TYPE(MPI_Comm)... constructors).

The standard's data has no constants, and their values are vmpi's: they are read from include/mpi.h by the C
compiler itself.  Every object-like macro MPI_UPPER_CASE (and AMPI_UPPER_CASE) of the public headers is printed when it is an integer
constant expression (C11 _Generic picks it out; pointers such as MPI_BOTTOM and the predefined C callbacks are
not), so a constant added to mpi.h is in mpif.h with no list to keep.  What Fortran has and C has not is
written here: the status indices, the KIND parameters, the sentinels' COMMON block (src/fortran/fortran.h)
and the predefined procedures.

The output is both fixed and free source form: statements from column 7, none longer than 72 columns, no
continuation lines, comments with `!` in column 1.
"""
import glob
import os
import re

DEFINE = re.compile(r"^\s*#\s*define\s+(A?MPI_[A-Z0-9_]+)[ \t]+\S", re.M)  # AMPI_: the extensions' constants
# C macros that are not MPI constants for Fortran (C types' limits the language gives Fortran otherwise)
SKIP = {"MPI_STATUS_SIZE"}  # printed first: the sentinels' declarations use it

# Fortran only (MPI-4.1 19.1): status indices, kinds, and what the compiler support is: subarrays in mpi_f08
# alone, whose choice buffers are TYPE(*), DIMENSION(..) (emit_f08.py, src/fortran/fsection.h); mpif.h's and the
# mpi module's are assumed-size, so a section passes as the compiler's contiguous copy
FORTRAN_ONLY = """\
      INTEGER MPI_STATUS_SIZE
      PARAMETER (MPI_STATUS_SIZE=%d)
      INTEGER MPI_SOURCE, MPI_TAG, MPI_ERROR
      PARAMETER (MPI_SOURCE=1, MPI_TAG=2, MPI_ERROR=3)
      INTEGER MPI_ADDRESS_KIND, MPI_OFFSET_KIND, MPI_COUNT_KIND
      PARAMETER (MPI_ADDRESS_KIND=%d, MPI_OFFSET_KIND=%d)
      PARAMETER (MPI_COUNT_KIND=%d)
      INTEGER MPI_INTEGER_KIND
      PARAMETER (MPI_INTEGER_KIND=%d)
      LOGICAL MPI_SUBARRAYS_SUPPORTED, MPI_ASYNC_PROTECTS_NONBLOCKING
      PARAMETER (MPI_SUBARRAYS_SUPPORTED=%s)
      PARAMETER (MPI_ASYNC_PROTECTS_NONBLOCKING=.FALSE.)
"""

# The sentinels: one COMMON block (continued by repeating its name: mpif.h is fixed and free form at once),
# recognized by their address (src/fortran/fortran.h: vmpi_f_sentinels, the same layout; mpi_f08 declares the
# same block)
SENTINELS = """\
      INTEGER MPI_BOTTOM, MPI_IN_PLACE, MPI_BUFFER_AUTOMATIC
      INTEGER MPI_UNWEIGHTED(1), MPI_WEIGHTS_EMPTY(1)
      INTEGER MPI_STATUS_IGNORE(MPI_STATUS_SIZE)
      INTEGER MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1)
      COMMON /VMPI_F_SENTINELS/ MPI_BOTTOM, MPI_IN_PLACE
      COMMON /VMPI_F_SENTINELS/ MPI_BUFFER_AUTOMATIC, MPI_UNWEIGHTED
      COMMON /VMPI_F_SENTINELS/ MPI_WEIGHTS_EMPTY, MPI_STATUS_IGNORE
      COMMON /VMPI_F_SENTINELS/ MPI_STATUSES_IGNORE
      SAVE /VMPI_F_SENTINELS/
"""

# The predefined procedures (src/fortran/f77_callbacks.c)
PROCEDURES = ["MPI_COMM_NULL_COPY_FN", "MPI_COMM_NULL_DELETE_FN", "MPI_COMM_DUP_FN",
              "MPI_TYPE_NULL_COPY_FN", "MPI_TYPE_NULL_DELETE_FN", "MPI_TYPE_DUP_FN",
              "MPI_WIN_NULL_COPY_FN", "MPI_WIN_NULL_DELETE_FN", "MPI_WIN_DUP_FN",
              "MPI_NULL_COPY_FN", "MPI_NULL_DELETE_FN", "MPI_DUP_FN"]

# mpif.h only: the functions' result types (the mpi module gives them interfaces instead).  Not
# MPI_AINT_ADD and MPI_AINT_DIFF, as MPICH's mpif.h: programs declare them (f77/rma/aintf does; a second
# declaration would not compile).
FUNCTIONS = """\
      DOUBLE PRECISION MPI_WTIME, MPI_WTICK
      DOUBLE PRECISION PMPI_WTIME, PMPI_WTICK
      EXTERNAL MPI_WTIME, MPI_WTICK, PMPI_WTIME, PMPI_WTICK
"""


def constants(include_dir):
    """The MPI_ macro names of mpi.h and the headers of include/vmpi/, in order, once each."""
    names, seen = [], set()
    for path in [os.path.join(include_dir, "mpi.h")] + sorted(glob.glob(os.path.join(include_dir, "vmpi", "*.h"))):
        with open(path) as f:
            for name in DEFINE.findall(f.read()):
                if name not in seen and name not in SKIP:
                    seen.add(name)
                    names.append(name)
    return names


def c_string(text):
    return "".join(f'"{line}\\n"\n' for line in text.splitlines())


INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include")


# mpi_f08: a handle constant is of its kind's type; the kind is the handle's top bits, numbered in
# src/mpi/core/handle.h (read from there)
HANDLE_TYPES = {"COMM": "MPI_Comm", "GROUP": "MPI_Group", "DATATYPE": "MPI_Datatype", "REQUEST": "MPI_Request",
                "OP": "MPI_Op", "ERRHANDLER": "MPI_Errhandler", "INFO": "MPI_Info", "MESSAGE": "MPI_Message",
                "WIN": "MPI_Win", "SESSION": "MPI_Session"}
HANDLE_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "mpi", "core", "handle.h")


def handle_kinds():
    """{kind number: mpi_f08 type} of the handle kinds mpi_f08 has a type for."""
    with open(HANDLE_H) as f:
        kinds = dict(re.findall(r"VMPI_KIND_(\w+) = (\d+)", f.read()))
    return {int(kinds[k]): t for k, t in HANDLE_TYPES.items()}


def emit(standard, entries, out):
    names = constants(INCLUDE)
    w = out.write
    w("/* SPDX-License-Identifier: BSD-3-Clause */\n")
    w(f"/* Generated by tools/mpistd/gen.py --what fconst (tools/mpistd/emit_fconst.py): do not edit.  Prints\n"
      " * mpif.h (argument mpif) or the mpi module's constants (module) from mpi.h's values. */\n")
    w("#include <stdio.h>\n#include <string.h>\n#include <mpi.h>\n\n")
    w("static int f08; /* mpi_f08's constants: handles of their kinds' types */\n")
    w("static const char *const kinds[16] = {")
    w(", ".join(f'[{k}] = "{v}"' for k, v in sorted(handle_kinds().items())) + "};\n")
    w("static void decl(const char *name, long long v, const char *type)\n{\n"
      "    const char *h = f08 && v >= (1LL << 26) && v < (16LL << 26) ? kinds[v >> 26] : NULL;\n"
      "    if (h) {\n"
      '        printf("      TYPE(%s), PARAMETER :: %s = %s(%lld)\\n", h, name, h, v);\n'
      "        return;\n    }\n"
      '    printf("      %s %s\\n      PARAMETER (%s=%lld%s)\\n", type, name, name, v,\n'
      '           type[7] == \'(\' ? "_MPI_ADDRESS_KIND" : "");\n}\n')
    w('static void as_int(const char *name, long long v) { decl(name, v, "INTEGER"); }\n')
    w("static void as_long(const char *name, long long v)\n{\n"
      '    if (v >= -2147483647LL - 1 && v <= 2147483647LL)\n        decl(name, v, "INTEGER");\n'
      '    else\n        decl(name, v, "INTEGER(KIND=MPI_ADDRESS_KIND)");\n}\n')
    w("static void not_integer(const char *name, long long v) { (void)name, (void)v; }\n")
    w("/* only the selected association is evaluated: a pointer or a function (the default) is never used */\n")
    w("#define INTEGERS(x, other) int: x, unsigned: x, long: x, unsigned long: x, long long: x, default: other\n")
    w("#define CONST(x) _Generic((x), int: as_int, unsigned: as_long, long: as_long, unsigned long: as_long, \\\n"
      "    long long: as_long, default: not_integer)(#x, _Generic((x), INTEGERS((x), 0)))\n\n")
    w("int main(int argc, char **argv)\n{\n")
    w('    int mpif = argc > 1 && strcmp(argv[1], "mpif") == 0;\n')
    w('    f08 = argc > 1 && strcmp(argv[1], "f08") == 0;\n')
    w('    printf(mpif ? "! mpif.h: MPI for Fortran programs (vmpi).  Generated from mpi.h: do not edit.\\n"\n'
      '                : "! The mpi module\'s constants (vmpi).  Generated from mpi.h: do not edit.\\n");\n')
    w(f"    printf({c_string(FORTRAN_ONLY)}, MPI_STATUS_SIZE, (int)sizeof(MPI_Aint), (int)sizeof(MPI_Offset),\n"
      "           (int)sizeof(MPI_Count), (int)sizeof(MPI_Fint), f08 ? \".TRUE.\" : \".FALSE.\");\n")
    for name in names:
        w(f"    CONST({name});\n")
    w("    if (f08) /* its sentinels are variables of the module, its procedures not yet there */\n"
      "        return 0;\n")
    w(f"    printf({c_string(SENTINELS)});\n")
    for i in range(0, len(PROCEDURES), 2):
        w(f'    printf("      EXTERNAL {", ".join(PROCEDURES[i:i + 2])}\\n");\n')
    w(f"    if (mpif)\n        printf({c_string(FUNCTIONS)});\n")
    w("    return 0;\n}\n")
