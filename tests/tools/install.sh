#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# An installed vmpi as a user meets it: `cmake --install BUILD --prefix DIR`, then, with DIR/bin/mpi first in
# PATH, unmodified projects built and run through the standard names:
#   - the links mpicc, mpicxx, mpirun and mpiexec resolve; mpicc -show names DIR's headers and libraries;
#   - a plain Makefile project (objects, a static library, CC = mpicc), run with mpirun and mpiexec;
#   - an autoconf project (./configure CC=mpicc): its function checks find MPI_Init and not a function nobody
#     defines, and the program runs;
#   - a CMake project with find_package(MPI), configured with the wrappers as its compilers: C and C++
#     targets, check_function_exists right both ways, MPIEXEC_EXECUTABLE is DIR's, the programs run;
#   - pkg-config vmpi and find_package(vmpi) (target vmpi::mpi) from DIR build privatized programs too;
#   - Fortran: mpifort builds programs with the mpi module and with mpif.h;
#   - the tree still works once moved elsewhere.
# Every program checks that its globals are per rank (the default privatization) and prints a line.
# Usage: install.sh BUILD_DIR.
set -u
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(readlink -f "$tmp")
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }
prefix=$tmp/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    echo "FAIL: cmake --install"; cat "$tmp/install.log"; exit 1
fi

for n in mpicc mpicxx mpirun mpiexec; do
    check "bin/mpi/$n resolves into the prefix" '[ -x "$prefix/bin/mpi/$n" ] && case $(readlink -f "$prefix/bin/mpi/$n") in "$prefix"/bin/v*) true ;; *) false ;; esac'
done
PATH=$prefix/bin/mpi:$PATH
export PATH
check "mpicc -show names the prefix's headers and start object" 'mpicc -show -o x x.c | grep -q -- "-I$prefix/include .*$prefix/lib/vmpi/vmpi_start.o"'
check "vmpicc -showme:link names the prefix's library" '"$prefix/bin/vmpicc" -showme:link | grep -q -- "-L$prefix/lib "'

mkdir -p "$tmp/make"
cat > "$tmp/make/app.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include "util.h"
int counter = 100; /* per rank: privatized */
int main(int argc, char **argv)
{
    int rank, size, sum, bad, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counter += rank;
    MPI_Barrier(MPI_COMM_WORLD);
    bad = counter != 100 + rank;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    sum = util_sum(rank);
    if (rank == 0)
        printf("size=%d sum=%d wrong=%d\n", size, sum, all);
    MPI_Finalize();
    return 0;
}
C
cat > "$tmp/make/util.h" <<'C'
#ifdef __cplusplus
extern "C"
#endif
int util_sum(int v);
C
cat > "$tmp/make/util.c" <<'C'
#include <mpi.h>
#include "util.h"
int util_sum(int v)
{
    int s;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return s;
}
C
cat > "$tmp/make/Makefile" <<'MK'
CC = mpicc
CFLAGS = -O2
app: app.o libutil.a
	$(CC) $(CFLAGS) -o $@ app.o -L. -lutil
libutil.a: util.o
	ar rcs $@ util.o
MK
check "Makefile project builds with mpicc" 'make -C "$tmp/make" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; false; }'
check "mpirun runs it" '(cd "$tmp/make" && mpirun -n 4 ./app) | grep -q "size=4 sum=6 wrong=0"'
check "mpiexec runs it (2 PEs)" '(cd "$tmp/make" && mpiexec -n 6 -p 2 ./app) | grep -q "size=6 sum=15 wrong=0"'

# autoconf: AC_CHECK_FUNCS links a call to each function; only those that exist may be found
if command -v autoconf >/dev/null 2>&1; then
    mkdir -p "$tmp/ac"
    cp "$tmp/make/app.c" "$tmp/make/util.c" "$tmp/make/util.h" "$tmp/ac/"
    cat > "$tmp/ac/configure.ac" <<'AC'
AC_INIT([vmpitest], [1.0])
AC_PROG_CC
AC_CHECK_FUNCS([MPI_Init MPI_Comm_split vmpi_test_nobody_defines_this])
AC_CONFIG_HEADERS([config.h])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
AC
    cat > "$tmp/ac/Makefile.in" <<'MK'
CC = @CC@
CFLAGS = @CFLAGS@
app: app.o util.o
	$(CC) $(CFLAGS) -o $@ app.o util.o
MK
    check "autoconf project configures with CC=mpicc" '(cd "$tmp/ac" && autoconf && autoheader && ./configure CC=mpicc) >"$tmp/ac.log" 2>&1 || { tail -20 "$tmp/ac.log"; false; }'
    check "configure finds MPI_Init and MPI_Comm_split" 'grep -q "^#define HAVE_MPI_INIT 1" "$tmp/ac/config.h" && grep -q "^#define HAVE_MPI_COMM_SPLIT 1" "$tmp/ac/config.h"'
    check "configure does not find a function nobody defines" '! grep -q "HAVE_VMPI_TEST_NOBODY_DEFINES_THIS 1" "$tmp/ac/config.h"'
    check "the autoconf project builds and runs" 'make -C "$tmp/ac" >>"$tmp/ac.log" 2>&1 && (cd "$tmp/ac" && mpirun -n 3 ./app) | grep -q "size=3 sum=3 wrong=0"'
else
    echo "note: autoconf is not installed: the autoconf project is not tried"
fi

# CMake's FindMPI, with the wrappers as the project's compilers
mkdir -p "$tmp/cm"
cp "$tmp/make/app.c" "$tmp/make/util.c" "$tmp/make/util.h" "$tmp/cm/"
cp "$tmp/make/app.c" "$tmp/cm/app.cc"
cat > "$tmp/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(vmpitest C CXX)
find_package(MPI REQUIRED)
include(CheckFunctionExists)
set(CMAKE_REQUIRED_LIBRARIES MPI::MPI_C)
check_function_exists(MPI_Init HAVE_MPI_INIT)
check_function_exists(vmpi_test_nobody_defines_this HAVE_NOBODY)
add_executable(app app.c util.c)
target_link_libraries(app PRIVATE MPI::MPI_C)
add_executable(appcxx app.cc util.c)
target_link_libraries(appcxx PRIVATE MPI::MPI_CXX)
file(WRITE ${CMAKE_BINARY_DIR}/found.txt "mpiexec=${MPIEXEC_EXECUTABLE}\nnp=${MPIEXEC_NUMPROC_FLAG}\ninit=${HAVE_MPI_INIT}\nnobody=${HAVE_NOBODY}\n")
CM
check "CMake find_package(MPI) with CC=mpicc CXX=mpicxx" 'CC=mpicc CXX=mpicxx cmake -S "$tmp/cm" -B "$tmp/cm/b" >"$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm/b" >>"$tmp/cm.log" 2>&1 || { tail -20 "$tmp/cm.log"; false; }'
check "FindMPI found the prefix's mpiexec" 'grep -q "^mpiexec=$prefix/bin/mpi/mpiexec$" "$tmp/cm/b/found.txt"'
check "check_function_exists finds MPI_Init" 'grep -q "^init=1$" "$tmp/cm/b/found.txt"'
check "check_function_exists does not find a function nobody defines" 'grep -q "^nobody=$" "$tmp/cm/b/found.txt"'
np=$(sed -n 's/^np=//p' "$tmp/cm/b/found.txt")
check "the CMake project's programs run with MPIEXEC_EXECUTABLE" '"$prefix/bin/mpi/mpiexec" $np 5 "$tmp/cm/b/app" | grep -q "size=5 sum=10 wrong=0" && "$prefix/bin/mpi/mpiexec" $np 3 -p 2 "$tmp/cm/b/appcxx" | grep -q "size=3 sum=3 wrong=0"'

# pkg-config vmpi (a sanitizer build's libvmpi also needs -fsanitize: in the .pc file)
if command -v pkg-config >/dev/null 2>&1; then
    check "pkg-config vmpi builds a program" 'cc $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags vmpi) -o "$tmp/pc" "$tmp/make/app.c" "$tmp/make/util.c" -I"$tmp/make" $(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --libs vmpi)'
    check "and it runs" '"$prefix/bin/vmpirun" -n 4 -p 2 "$tmp/pc" | grep -q "size=4 sum=6 wrong=0"'
fi

# find_package(vmpi): target vmpi::mpi
mkdir -p "$tmp/fv"
cp "$tmp/make/app.c" "$tmp/make/util.c" "$tmp/make/util.h" "$tmp/fv/"
cat > "$tmp/fv/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.13)
project(vmpitest C)
find_package(vmpi REQUIRED)
add_executable(app app.c util.c)
target_link_libraries(app PRIVATE vmpi::mpi)
CM
check "find_package(vmpi) from the prefix" 'cmake -S "$tmp/fv" -B "$tmp/fv/b" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/fv.log" 2>&1 && cmake --build "$tmp/fv/b" >>"$tmp/fv.log" 2>&1 || { tail -20 "$tmp/fv.log"; false; }'
check "and its program runs" '"$prefix/bin/vmpirun" -n 4 "$tmp/fv/b/app" | grep -q "size=4 sum=6 wrong=0"'

# Fortran (when the build has it): mpifort with the mpi module and with mpif.h, globals per rank
if [ -x "$prefix/bin/vmpifort" ]; then
    cat > "$tmp/appf.f90" <<'F'
program appf
  use mpi
  implicit none
  integer :: ierr, rank, np, total
  integer :: mine
  common /c/ mine
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  mine = rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(mine, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A,I0)', 'size=', np, ' sum=', total
  call MPI_Finalize(ierr)
end program
F
    sed "s/  use mpi/  include 'mpif.h'/; s/  implicit none//" "$tmp/appf.f90" > "$tmp/appf77.f90"
    check "mpifort resolves into the prefix" 'case $(readlink -f "$prefix/bin/mpi/mpifort") in "$prefix"/bin/vmpifort) true ;; *) false ;; esac'
    check "mpifort builds a program that uses the mpi module, and it runs" 'mpifort -o "$tmp/appf" "$tmp/appf.f90" -J"$tmp" && mpirun -n 4 -p 2 "$tmp/appf" | grep -q "size=4 sum=6"'
    check "mpifort builds a program that includes mpif.h, and it runs" 'mpifort -o "$tmp/appf77" "$tmp/appf77.f90" && mpirun -n 3 "$tmp/appf77" | grep -q "size=3 sum=3"'
fi

# the tree, moved: the wrappers find their parts relative to themselves
mv "$prefix" "$tmp/moved"
check "a moved prefix still builds and runs" '"$tmp/moved/bin/mpi/mpicc" -o "$tmp/moved_app" "$tmp/make/app.c" "$tmp/make/util.c" -I"$tmp/make" && "$tmp/moved/bin/mpi/mpirun" -n 2 "$tmp/moved_app" | grep -q "size=2 sum=1 wrong=0"'
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
