#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runtime settings outside their range are refused at start-up, naming the range, whichever way they are
# given (vmpirun's options, the environment, AMPI's +options); a misspelt VMPI_* variable or option is named
# with the closest setting (src/base/tunables.c holds the table and its ranges).
set -u
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then :; else echo "FAIL: $1"; cat "$tmp/err"; fail=1; fi; }

cat > "$tmp/hello.c" <<'C'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("ran size=%d\n", size);
    MPI_Finalize();
    return 0;
}
C
"$bin/vmpicc" -o "$tmp/hello" "$tmp/hello.c" || exit 1
run() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

run "$bin/vmpirun" -n 2 --stack-size 0 "$tmp/hello"
check "--stack-size 0 refused with the range (rc $rc)" '[ $rc -eq 2 ] && grep -q "bad value .0. for --stack-size: expected a size from 64k to 16G" "$tmp/err"'
run "$bin/vmpirun" -n 2 --stack-size=32G "$tmp/hello"
check "--stack-size=32G refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "from 64k to 16G" "$tmp/err"'
run env VMPI_STACK_SIZE=0 "$bin/vmpirun" -n 2 "$tmp/hello"
check "VMPI_STACK_SIZE=0 refused at start-up (rc $rc)" '[ $rc -eq 1 ] && grep -q "VMPI_STACK_SIZE=.0. is not valid: expected a size from 64k to 16G" "$tmp/err" && ! grep -q ran "$tmp/out"'
run env VMPI_CHANNEL_SIZE=1 "$bin/vmpirun" -n 2 "$tmp/hello"
check "VMPI_CHANNEL_SIZE=1 refused (rc $rc)" '[ $rc -eq 1 ] && grep -q "VMPI_CHANNEL_SIZE=.1. is not valid: expected a size from 4k to 2M" "$tmp/err"'
run "$bin/vmpirun" -n 2 --channel-size 4M "$tmp/hello"
check "--channel-size 4M refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "from 4k to 2M" "$tmp/err"'
run "$bin/vmpirun" -n 4 -p 2 --pes-active 3 "$tmp/hello"
check "--pes-active above -p refused (rc $rc)" '[ $rc -eq 1 ] && grep -q "is more than the job.s 2 PEs: expected 0 (all) to 2" "$tmp/err"'
run "$bin/vmpirun" -n 2 --pes 5000 "$tmp/hello"
check "--pes 5000 refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "expected an integer from 0 to 1024" "$tmp/err"'
run "$bin/vmpirun" -n 2 "$tmp/hello" +tcharm_stacksize 1k
check "+tcharm_stacksize 1k refused (rc $rc)" '[ $rc -eq 1 ] && grep -q "+tcharm_stacksize 1024 is not valid: expected a size from 64k" "$tmp/err"'
run env VMPI_STAK_SIZE=2M "$bin/vmpirun" -n 2 "$tmp/hello"
check "misspelt VMPI_STAK_SIZE: a warning naming VMPI_STACK_SIZE, and the job runs (rc $rc)" '[ $rc -eq 0 ] && grep -q "VMPI_STAK_SIZE is not a vmpi setting and is ignored; did you mean VMPI_STACK_SIZE (--stack-size)?" "$tmp/err" && grep -q "ran size=2" "$tmp/out"'
run env VMPI_NPE=2 "$bin/vmpirun" -n 2 "$tmp/hello"
check "VMPI_NPE: did you mean VMPI_NPES" '[ $rc -eq 0 ] && grep -q "did you mean VMPI_NPES" "$tmp/err"'
run env VMPI_SOMETHING_ELSE_ENTIRELY=1 "$bin/vmpirun" -n 1 "$tmp/hello"
check "an unrelated VMPI_ variable: warned without a guess" '[ $rc -eq 0 ] && grep -q "VMPI_SOMETHING_ELSE_ENTIRELY is not a vmpi setting and is ignored (vmpirun --help" "$tmp/err"'
run env VMPI_NRANKS=3 "$tmp/hello"
check "known variables are not warned about" '[ $rc -eq 0 ] && ! grep -q "not a vmpi setting" "$tmp/err" && grep -q "ran size=3" "$tmp/out"'
run "$bin/vmpirun" -n 2 --stak-size 2M "$tmp/hello"
check "--stak-size: did you mean --stack-size (rc $rc)" '[ $rc -eq 2 ] && grep -q "unknown option .--stak-size.; did you mean --stack-size?" "$tmp/err"'
"$bin/vmpirun" --help >"$tmp/err"
check "--help gives the ranges" 'grep -q "VMPI_CHANNEL_SIZE.*from 4k to 2M" "$tmp/err"'
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
