#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The tools as a user meets them: vmpicc builds an unmodified program, -show prints a usable command,
# vmpirun's spellings and errors, and exit statuses passing through.
set -u
bin=$1 tests=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; fail=1; fi; }

cat > "$tmp/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    int rank, size, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("size=%d sum=%d args=%d\n", size, sum, argc);
    MPI_Finalize();
    return (argc > 1 && rank == size - 1) ? atoi(argv[1]) : 0;
}
C
check "vmpicc builds a program" '"$bin/vmpicc" -O2 -o "$tmp/hello" "$tmp/hello.c"'
check "vmpicc -c then link" '"$bin/vmpicc" -c -o "$tmp/hello.o" "$tmp/hello.c" && "$bin/vmpicc" -o "$tmp/hello2" "$tmp/hello.o"'
check "vmpicxx builds C++" 'cp "$tmp/hello.c" "$tmp/hello.cc" && "$bin/vmpicxx" -o "$tmp/hellocxx" "$tmp/hello.cc"'
check "-show names the compiler and -lvmpi" '"$bin/vmpicc" -show -o x x.c | grep -q -- "-lvmpi"'
check "-showme:compile" '"$bin/vmpicc" -showme:compile | grep -q -- "-I"'
check "-showme:link" '"$bin/vmpicc" --showme:link | grep -q -- "--wrap=main"'
check "-n/-p" '"$bin/vmpirun" -n 8 -p 2 "$tmp/hello" | grep -q "size=8 sum=28 args=1"'
check "AMPI spelling" '"$bin/vmpirun" +p2 "$tmp/hello" +vp6 | grep -q "size=6 sum=15 args=1"'
check "C++ program runs" '"$bin/vmpirun" -n 3 "$tmp/hellocxx" | grep -q "size=3 sum=3"'
check "singleton run" '"$tmp/hello" | grep -q "size=1 sum=0"'
check "mpirun name" '"$bin/mpi/mpirun" -np 4 "$tmp/hello" | grep -q "size=4 sum=6"'
"$bin/vmpirun" -n 4 -p 2 "$tmp/hello" 42 >/dev/null; rc=$?
check "return 42 from a rank gives 42 (got $rc)" '[ $rc -eq 42 ]'
"$bin/vmpirun" -n 4 --bogus "$tmp/hello" 2>"$tmp/err"; rc=$?
check "unknown option rejected" '[ $rc -eq 2 ] && grep -q "unknown option .--bogus." "$tmp/err"'
"$bin/vmpirun" -n 0 "$tmp/hello" 2>"$tmp/err"; rc=$?
check "bad rank count rejected" '[ $rc -eq 2 ] && grep -q "bad value .0. for -n" "$tmp/err"'
"$bin/vmpirun" -n 2 --stack-size 12q "$tmp/hello" 2>"$tmp/err"; rc=$?
check "bad stack size rejected" '[ $rc -eq 2 ] && grep -q "12q" "$tmp/err"'
"$bin/vmpirun" -n 2 "$tmp/nonexistent" 2>"$tmp/err"; rc=$?
check "missing program reported" '[ $rc -eq 127 ] && grep -q "cannot run" "$tmp/err"'
"$bin/vmpirun" -n 2 2>"$tmp/err"; rc=$?
check "no program reported" '[ $rc -eq 2 ] && grep -q "no program" "$tmp/err"'
check "--help lists tunables" '"$bin/vmpirun" --help | grep -q VMPI_STACK_SIZE'
# vmpirun starts vmpi programs only (another would run once, -n ignored), or tools given one as an argument
lib=$(dirname "$bin")/lib
inc=$("$bin/vmpicc" -showme:compile | sed 's/.*-I\([^ ]*\).*/\1/')
cc -I"$inc" -o "$tmp/nowrap" "$tmp/hello.c" -L"$lib" -Wl,-rpath,"$lib" -lvmpi $(grep -q '^VMPI_SANITIZE:BOOL=ON' "$bin/../CMakeCache.txt" 2>/dev/null && echo -fsanitize=address,undefined) $(grep -q '^VMPI_TSAN:BOOL=ON' "$bin/../CMakeCache.txt" 2>/dev/null && echo -fsanitize=thread)
"$bin/vmpirun" -n 2 "$tmp/nowrap" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "libvmpi without vmpicc refused (rc $rc)" '[ $rc -eq 126 ] && grep -q "uses libvmpi but was not linked by vmpicc" "$tmp/err" && [ ! -s "$tmp/out" ]'
"$tmp/nowrap" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "libvmpi without vmpicc, run alone: MPI_Init says vmpi was not started" '[ $rc -ne 0 ] && grep -q "vmpi was not started: the program was not linked by vmpicc" "$tmp/err"'
"$bin/vmpirun" -n 2 python3 -c 'print("ran")' >"$tmp/out" 2>"$tmp/err"; rc=$?
check "python3 refused (rc $rc)" '[ $rc -eq 126 ] && grep -q "is not a vmpi program" "$tmp/err" && ! grep -q ran "$tmp/out"'
printf '#include <stdio.h>\nint main(void) { puts("ran"); return 0; }\n' > "$tmp/plain.c"
cc -o "$tmp/plain" "$tmp/plain.c"
"$bin/vmpirun" -n 2 "$tmp/plain" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a program built without vmpicc refused (rc $rc)" '[ $rc -eq 126 ] && grep -q "Build it with vmpicc" "$tmp/err" && ! grep -q ran "$tmp/out"'
printf '#!/bin/sh\necho ran\n' > "$tmp/script.sh"
chmod +x "$tmp/script.sh"
"$bin/vmpirun" -n 2 "$tmp/script.sh" >"$tmp/out" 2>"$tmp/err"; rc=$?
check "a script refused, with the environment route (rc $rc)" '[ $rc -eq 126 ] && grep -q "VMPI_NRANKS=8" "$tmp/err" && ! grep -q ran "$tmp/out"'
check "a tool given a vmpi program runs it (env)" '"$bin/vmpirun" -n 3 env WRAPPERS_TEST=1 "$tmp/hello" | grep -q "size=3 sum=3"'
check "a tool given a vmpi program runs it (sh -c)" '"$bin/vmpirun" -n 2 sh -c "exec \"\$0\"" "$tmp/hello" | grep -q "size=2 sum=1"'
# privatization of globals (docs/PRIVATIZATION.md): on by default, refused clearly where it cannot work
cat > "$tmp/glob.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int counter = 100;
static int hidden;
int main(int argc, char **argv)
{
    int rank, bad = 0, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    counter += rank;
    hidden = rank;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has written before any checks */
    bad = counter != 100 + rank || hidden != rank;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("wrong=%d\n", all);
    MPI_Finalize();
    return 0;
}
C
check "-privatize=bogus rejected" '! "$bin/vmpicc" -privatize=bogus -o "$tmp/g" "$tmp/glob.c" 2>"$tmp/err" && grep -q "bad value .bogus. for -privatize" "$tmp/err"'
check "-showme:compile has -fstack-clash-protection (a large frame cannot skip a stack's guard)" '"$bin/vmpicc" -showme:compile | grep -q -- "-fstack-clash-protection"'
check "-showme:compile has -fPIC by default" '"$bin/vmpicc" -showme:compile | grep -q -- "-fPIC"'
check "-privatize=none: no -fPIC" '! "$bin/vmpicc" -privatize=none -showme:compile | grep -q -- "-fPIC"'
check "default build privatizes" '"$bin/vmpicc" -o "$tmp/glob" "$tmp/glob.c" && "$bin/vmpirun" -n 6 -p 1 "$tmp/glob" | grep -q "wrong=0"'
check "AMPI -tlsglobals = tls (globals shared)" '"$bin/vmpicc" -tlsglobals -o "$tmp/globt" "$tmp/glob.c" && "$bin/vmpirun" -n 6 -p 1 "$tmp/globt" | grep -q "wrong=[1-9]"'
check "-privatize=none shares globals" '"$bin/vmpicc" -privatize=none -o "$tmp/globn" "$tmp/glob.c" && "$bin/vmpirun" -n 6 -p 1 "$tmp/globn" | grep -q "wrong=[1-9]"'
check "-privatize=none: start-up names the shared globals" '"$bin/vmpirun" -n 2 "$tmp/globn" 2>&1 | grep -q "privatize=none: its 2 mutable globals and statics (8 bytes)"'
check "separate compile and link privatize" '"$bin/vmpicc" -c -o "$tmp/glob.o" "$tmp/glob.c" && "$bin/vmpicc" -o "$tmp/globs" "$tmp/glob.o" && "$bin/vmpirun" -n 4 -p 2 "$tmp/globs" | grep -q "wrong=0"'
cat > "$tmp/ie.c" <<'C'
#include <mpi.h>
__attribute__((tls_model("initial-exec"))) __thread int tl;
int main(int argc, char **argv) { MPI_Init(&argc, &argv); tl++; MPI_Finalize(); return 0; }
C
check "initial-exec TLS refused at build time" '! "$bin/vmpicc" -o "$tmp/ie" "$tmp/ie.c" 2>"$tmp/err" && grep -q "cannot be privatized: initial-exec" "$tmp/err" && [ ! -e "$tmp/ie" ]'
eval "$("$bin/vmpicc" -show -o "$tmp/ie" "$tmp/ie.c")" && "$bin/vmpirun" -n 2 "$tmp/ie" 2>"$tmp/err"; rc=$?
check "initial-exec TLS refused at start-up too (rc $rc)" '[ $rc -ne 0 ] && grep -q "cannot be privatized: initial-exec" "$tmp/err"'
check "an image has DT_DEBUG (debuggers see its libraries)" 'readelf -d "$tmp/glob" | grep -q "(DEBUG)"'
cat > "$tmp/pie.c" <<'C'
#include <stdio.h>
void say(void) { fputs("hi\n", stdout); }
C
cc -fPIE -c -o "$tmp/pie.o" "$tmp/pie.c" 2>/dev/null
printf '#include <mpi.h>\nvoid say(void);\nint main(int c, char **v) { MPI_Init(&c, &v); say(); MPI_Finalize(); return 0; }\n' > "$tmp/usepie.c"
check "non-PIC object: link error with a note" '! "$bin/vmpicc" -o "$tmp/usepie" "$tmp/usepie.c" "$tmp/pie.o" 2>"$tmp/err" && grep -q "must be compiled with -fPIC" "$tmp/err"'
check "non-PIC object links with -privatize=none" '"$bin/vmpicc" -privatize=none -o "$tmp/usepie" "$tmp/usepie.c" "$tmp/pie.o"'
# A symbol nobody defines fails the link, with every privatization method, as with any compiler wrapper
# (configure scripts rely on it), in C, C++ and Fortran; weak references and the libraries' symbols do not.
cat > "$tmp/undef.c" <<'C'
#include <mpi.h>
int vmpi_test_nobody_defines_this(int);
int main(int argc, char **argv) { MPI_Init(&argc, &argv); vmpi_test_nobody_defines_this(1); MPI_Finalize(); return 0; }
C
cp "$tmp/undef.c" "$tmp/undef.cc"
printf 'program p\n  call vmpi_test_nobody_defines_this(1)\nend program\n' > "$tmp/undef.f90"
cat > "$tmp/weak.cc" <<'C'
#include <mpi.h>
#include <cmath>
#include <iostream>
extern "C" void vmpi_test_maybe(void) __attribute__((weak));
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (vmpi_test_maybe)
        vmpi_test_maybe();
    std::cout << "weak ok " << std::sqrt(argc + 3.0) << std::endl;
    MPI_Finalize();
    return 0;
}
C
for m in auto tls none; do
    for lang in c cc f90; do
        case $lang in
        c) cmd="\"$bin/vmpicc\"" ;;
        cc) cmd="\"$bin/vmpicxx\"" ;;
        f90) command -v gfortran >/dev/null 2>&1 || continue; cmd="VMPI_CC=gfortran \"$bin/vmpicc\"" ;;
        esac
        rm -f "$tmp/undef"
        eval "$cmd -privatize=$m -o \"\$tmp/undef\" \"\$tmp/undef.$lang\"" 2>"$tmp/err"; rc=$?
        check "-privatize=$m, $lang: an undefined symbol fails the link (rc $rc)" '[ $rc -ne 0 ] && [ ! -e "$tmp/undef" ] && grep -q "undefined reference to .vmpi_test_nobody_defines_this" "$tmp/err"'
        check "-privatize=$m, $lang: and gets no -fPIC note" '! grep -q "must be compiled with -fPIC" "$tmp/err"'
    done
    check "-privatize=$m: a weak undefined reference and the libraries' symbols link and run" '"$bin/vmpicxx" -privatize=$m -o "$tmp/weak" "$tmp/weak.cc" && "$bin/vmpirun" -n 2 "$tmp/weak" | grep -q "weak ok 2"'
done
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
