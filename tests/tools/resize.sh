#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Shrinking and expanding a job of several processes (issue 20): VMPIX_Set_procs and vmpirun --procs-file,
# with tests/mpi/ckpt/ckpt_state (a deterministic program that prints a digest of each rank's whole state,
# with messages and requests in flight between processes at every migration point):
#   - the program asks for 3, then 1, then 2 processes (from 2): the job goes on each time, vmpirun says so,
#     and the digests are an uninterrupted run's;
#   - an operator's file holding 3: the job goes on as 3 from its first migration point, once; a file
#     holding no number: said once, nothing changes;
#   - with --recover and in-memory checkpoints: a process that exists only since the job grew is killed, and
#     the job recovers to the same digests;
#   - a rank with an MPI window keeps the job as it is, with a warning (tests/mpi/rma/migrate);
#   - VMPIX_Set_procs outside vmpirun --procs: MPI_ERR_UNSUPPORTED_OPERATION.
# (recover.sh checks that vmpirun's directory in /dev/shm is gone when the job ends.)
# Usage: resize.sh BUILD_DIR.  Every run is under `timeout`.
set -u
build=$1
vmpirun=$build/bin/vmpirun
prog=$build/tests/mpi/ckpt/ckpt_state
. "$(dirname "$0")/ckpt_lib.sh"
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
steps=24
n=12

run 120 "$vmpirun" -n $n -p 1 "$prog" $steps none "$tmp/unused"
check_ok "" "uninterrupted run in one process" || { echo "FAIL: no reference"; exit 1; }
ref=$tmp/ref
digests "$tmp/out" >"$ref"
said() { grep -q -- "$1" "$tmp/err" || fail "$2: stderr lacks /$1/"; }

# ---- the program asks
run 120 CKPT_STATE_RESIZE=5:3,11:1,17:2 "$vmpirun" --procs 2 -n $n -p 1 "$prog" $steps none "$tmp/unused"
if check_ok "$ref" "2 -> 3 -> 1 -> 2 processes (VMPIX_Set_procs)"; then
    said "the job goes on as 3 processes (was 2)" "2 -> 3"
    said "the job goes on as 1 process (was 3)" "3 -> 1"
    said "the job goes on as 2 processes (was 1)" "1 -> 2"
    [ "$(grep -c '^ckpt_state: [0-9] processes from step' "$tmp/out")" -eq 3 ] || fail "the program saw $(grep -c '^ckpt_state: [0-9] processes' "$tmp/out") resizes, expected 3"
fi

# ---- the operator asks
echo 3 >"$tmp/procs"
run 120 CKPT_STATE_RESIZE=op "$vmpirun" --procs 2 --procs-file "$tmp/procs" -n $n -p 1 "$prog" $steps none "$tmp/unused"
check_ok "$ref" "--procs-file holding 3" &&
    { [ "$(grep -c 'the job goes on as' "$tmp/err")" -eq 1 ] && said "the job goes on as 3 processes (was 2)" "--procs-file 3" ||
        fail "--procs-file 3: $(grep -c 'the job goes on as' "$tmp/err") resizes, expected 1"; }
echo many >"$tmp/procs"
run 120 CKPT_STATE_RESIZE=op "$vmpirun" --procs 2 --procs-file "$tmp/procs" -n $n -p 1 "$prog" $steps none "$tmp/unused"
check_ok "$ref" "--procs-file holding no number" &&
    { [ "$(grep -c "'many' is not a number of processes from 1 to 12" "$tmp/err")" -eq 1 ] ||
        fail "--procs-file holding no number: said $(grep -c "'many'" "$tmp/err") times, expected once"; }
grep -q 'the job goes on' "$tmp/err" && fail "--procs-file holding no number: the job was resized"

# ---- a process that exists only since the job grew is lost: recovered
ft=$tmp/ft
timeout -s KILL 150 env CKPT_STATE_RESIZE=5:3 VMPI_FT_DIR="$ft" "$vmpirun" --procs 2 --recover 1 -n $n -p 1 "$prog" 40 \
    2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38 in_memory >"$tmp/out" 2>"$tmp/err" &
tp=$!
cmd="CKPT_STATE_RESIZE=5:3 vmpirun --procs 2 --recover 1 ... in_memory, process 2 killed"
victim=""
for _ in $(seq 3000); do # process 2, once the job has 3 and kept a checkpoint of them
    for v in $(pgrep -P "$tp"); do
        for c in $(pgrep -P "$v"); do
            tr '\0' '\n' 2>/dev/null <"/proc/$c/environ" | grep -qx PMIX_RANK=2 && victim=$c
        done
    done
    [ -n "$victim" ] && ls "$ft"/p2/vmpi-ckpt-*.ckpt >/dev/null 2>&1 && break
    victim=""
    sleep 0.01
done
[ -n "$victim" ] && kill -9 "$victim"
wait "$tp"
rc=$?
if [ -z "$victim" ]; then
    fail "the grown job's process 2 never kept a checkpoint"
else
    ref40=$tmp/ref40
    cp "$tmp/out" "$tmp/out.kill"
    cp "$tmp/err" "$tmp/err.kill"
    run 120 "$vmpirun" -n $n -p 1 "$prog" 40 none "$tmp/unused"
    digests "$tmp/out" >"$ref40"
    cp "$tmp/out.kill" "$tmp/out"
    cp "$tmp/err.kill" "$tmp/err"
    rc_was=$rc
    rc=$rc_was
    # a killed run may print digests before the loss: the same ones
    if [ "$rc" -ne 0 ] || ! grep -q '^ No Errors$' "$tmp/out" ||
        ! grep '^rank [0-9]* digest ' "$tmp/out" | sort -u | cmp -s - "$ref40"; then
        fail "grown to 3, process 2 lost: not the uninterrupted run's digests (status $rc)"
    else
        said "recovering from the loss of process 2 (recovery 1 of 1)" "grown to 3, process 2 lost"
    fi
fi

# ---- what cannot change its number
rma=$build/tests/mpi/rma/migrate
echo 3 >"$tmp/procs"
run 120 "$vmpirun" --procs 2 --procs-file "$tmp/procs" -n 4 -p 1 "$rma"
check_ok "" "a rank with an MPI window, --procs-file 3" &&
    said "the job stays as 2 processes (3 asked for in --procs-file): rank [0-9]* has an MPI window" "windows"
run 60 CKPT_STATE_RESIZE=5:3 "$vmpirun" -n 4 -p 1 "$prog" 8 none "$tmp/unused"
grep -q "VMPIX_Set_procs(resize_to\[s\]) returned 44" "$tmp/err" ||
    fail "VMPIX_Set_procs outside vmpirun --procs: not MPI_ERR_UNSUPPORTED_OPERATION (44)"

echo "resize.sh: $(($(date +%s) - start)) s"
[ "$fails" -eq 0 ] && echo " No Errors"
