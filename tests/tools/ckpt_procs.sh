#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Checkpoint/restart of a job of several OS processes (vmpirun --procs K; issue 19), with
# tests/mpi/ckpt/ckpt_state (a deterministic program that prints a digest of each rank's whole state, with
# messages and requests in flight between processes at every checkpoint):
#   - on 2 and 3 processes under VMPI_BALANCER=Rotate (ranks move within their process): a run killed
#     (SIGKILL of process 0) right after a checkpoint leaves one manifest and one part per process (mode
#     0600, no temporary), and restarted with the same number of processes on 1 and 2 PEs each it prints
#     exactly the digests of an uninterrupted run of one process;
#   - ckpt_objects (runtime objects, lines unfinished at the checkpoint), ckpt_cxx, ckpt_adapt, armci_ckpt and
#     ckpt_wtime (MPI_Wtime goes on, and compares between processes) killed after their checkpoint and
#     restarted in as many processes check themselves;
#   - two checkpoints in a run that goes on: the older one removed; a restarted job's checkpoint is newer
#     and restarts too;
#   - on another number of processes (issue 20): 2 processes restarted in 1, 3 and 4, 3 in 2, 4 and 6, one in
#     2 and 3, on 1 and 2 PEs: the digests of the uninterrupted run; ckpt_objects, ckpt_cxx, ckpt_adapt and
#     ckpt_wtime so too (in more processes, fewer, across the checkpoint's blocks); a job restarted in another
#     number checkpoints, and that restarts in yet another;
#   - refusals, with exit status 1 and the reason, never a hang: more processes than ranks; ARMCI and
#     -privatize=tls on another number; another -n, one process's part corrupted, truncated, missing, or
#     replaced by the same process's part of another checkpoint;
#   - crash safety: a job checkpointing at every step, killed whole at random moments, restarts with the
#     reference digests or is refused with "no checkpoint", nothing else;
#   - a checkpoint taken under Open MPI's mpirun (when installed) restarts under vmpirun;
#   - a refusal in every process (--aslr 1) said once, nothing written;
#   - a write that fails in one process only fails the checkpoint in every process (adapt/ckpt_errors
#     checks the error and the directory; here: the message names the process).
# Usage: ckpt_procs.sh BUILD_DIR.  Every run is under `timeout`.
set -u
build=$1
vmpirun=$build/bin/vmpirun
prog=$build/tests/mpi/ckpt/ckpt_state
. "$(dirname "$0")/ckpt_lib.sh"
# refused: status 1 (never a hang), stderr matching the regular expression $1, no rank ran
check_refused() {
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        fail "$2: hung (killed by timeout)"
    elif [ "$rc" -ne 1 ]; then
        fail "$2: exit status $rc, expected 1"
    elif ! grep -q -- "$1" "$tmp/err"; then
        fail "$2: stderr lacks /$1/"
    elif grep -q 'digest\|restarted at' "$tmp/out"; then
        fail "$2: ranks ran"
    fi
}
# a refusal every process reaches alike is said once (by process 0)
once() { [ "$(grep -c '^vmpi: ' "$tmp/err")" -eq 1 ] || fail "$1: $(grep -c '^vmpi: ' "$tmp/err") lines from vmpi, expected 1"; }
parts() { find "$1" -maxdepth 1 -name 'vmpi-ckpt-*.part' 2>/dev/null | sort; }

[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
steps=8

# procs_ckpt K N P SPLIT: N ranks in K processes of P PEs; SPLIT processes split each of the K's ranks
procs_ckpt() {
    K=$1 n=$2 p=$3 split=$4 k=3
    what="$n ranks in $K processes of $p PEs (Rotate), checkpoint at step $k"
    ref=$tmp/ref.$K
    run 120 VMPI_BALANCER=Rotate "$vmpirun" -n "$n" -p "$p" "$prog" $steps none "$tmp/unused"
    check_ok "" "$what: uninterrupted run in one process" || return
    digests "$tmp/out" >"$ref"
    [ "$(wc -l <"$ref")" -eq "$n" ] || { fail "$what: $(wc -l <"$ref") digest lines, expected $n"; return; }
    d=$tmp/ck.$K
    run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$K" -n "$n" -p "$p" "$prog" $steps "$k" "$d" kill
    [ "$rc" -eq 137 ] || { fail "$what: killed run: exit status $rc, expected 137"; return; }
    [ "$(ckpts "$d" | grep -c .)" -eq 1 ] && [ "$(parts "$d" | grep -c .)" -eq "$K" ] && [ "$(ntmps "$d")" -eq 0 ] ||
        { fail "$what: files $(ls -A "$d" | tr '\n' ' '), expected one manifest and $K parts"; return; }
    for f in $(ckpts "$d") $(parts "$d"); do
        [ "$(stat -c %a "$f")" = 600 ] || fail "$what: $f has mode $(stat -c %a "$f"), expected 600"
    done
    for rp in 1 2; do
        run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$K" --restart "$d" -p "$rp" "$prog" $steps "$k" "$d" kill
        check_ok "$ref" "$what: restart in $K processes of $rp PEs" &&
            { grep -q "^ckpt_state: restarted at step $k\$" "$tmp/out" ||
                fail "$what: restart on $rp PEs: no 'restarted at step $k' (did it run from the start?)"; }
    done

    # another number of processes (issue 20): SPLIT processes, each holding ranks of one of the K, on 1 and 2
    # PEs each (where each has 2 ranks), give the same digests
    for rp in 1 2; do
        [ $((n / split)) -ge "$rp" ] || continue
        run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$split" --restart "$d" -p "$rp" "$prog" $steps "$k" "$d" kill
        check_ok "$ref" "$what: restart in $split processes of $rp PEs" &&
            { grep -q "^ckpt_state: restarted at step $k\$" "$tmp/out" ||
                fail "$what: restart in $split processes: no 'restarted at step $k'"; }
    done
    # one more and one fewer process put ranks of two of the K in one process (their entries and groups
    # registered again there: docs/research/restart-procs.md), on 1 and 2 PEs each where each has 2 ranks
    for kp in $((K + 1)) $((K - 1)); do
        procs=
        [ "$kp" -gt 1 ] && procs="--procs $kp"
        for rp in 1 2; do
            [ $((n / kp)) -ge "$rp" ] || continue
            run 120 VMPI_BALANCER=Rotate "$vmpirun" $procs --restart "$d" -p "$rp" "$prog" $steps "$k" "$d" kill
            check_ok "$ref" "$what: restart in $kp process(es) of $rp PEs" &&
                { grep -q "^ckpt_state: restarted at step $k\$" "$tmp/out" ||
                    fail "$what: restart in $kp process(es): no 'restarted at step $k'"; }
        done
    done
    # more processes than ranks: refused naming both
    run 60 "$vmpirun" --procs $((n + 1)) --restart "$d" -p 1 "$prog" $steps "$k" "$d" kill
    check_refused "holds $n ranks, and this job has $((n + 1)) processes" "$what: restart in $((n + 1)) processes"
    once "$what: restart in $((n + 1)) processes"
    # another -n: refused naming both counts
    run 60 "$vmpirun" --procs "$K" -n $((n + 1)) --restart "$d" -p 1 "$prog" $steps "$k" "$d" kill
    check_refused "holds $n ranks, and -n $((n + 1)) was given" "$what: restart with -n $((n + 1))"
    once "$what: restart with -n $((n + 1))"

    # one process's part damaged, missing, or another checkpoint's: refused by name
    base=$(basename "$(ckpts "$d")" .ckpt)
    last=$((K - 1))
    part=$base.p$last.part
    size=$(stat -c %s "$d/$part")
    prep() { rm -rf "$tmp/$1" && mkdir -m 700 "$tmp/$1" && cp -p "$d"/* "$tmp/$1/"; }
    refuse() {
        run 60 "$vmpirun" --procs "$K" --restart "$tmp/$1" -p 1 "$prog" $steps "$k" "$tmp/$1" kill
        check_refused "$2" "$what: $1"
    }
    prep corrupt
    poke "$tmp/corrupt/$part" $((size / 2)) "$(printf %o $(($(peek "$d/$part" $((size / 2))) ^ 255)))"
    refuse corrupt "^vmpi: checkpoint .*$part: .*checksum mismatch"
    prep truncated
    truncate -s $((size / 2)) "$tmp/truncated/$part"
    refuse truncated "^vmpi: checkpoint .*$part: .*truncated"
    prep missing
    rm "$tmp/missing/$part"
    refuse missing "^vmpi: cannot open .*$part: No such file.*process $last's part"
    # the same process's part of a checkpoint taken at another step, under this one's name
    run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$K" -n "$n" -p "$p" "$prog" $steps $((k + 1)) "$tmp/other" kill
    prep foreign
    cp "$(parts "$tmp/other" | tail -n 1)" "$tmp/foreign/$part"
    refuse foreign "^vmpi: checkpoint .*$part: .*\(not the part the manifest\|not what the manifest\)"
    # a one-process checkpoint restarted as K processes (each reads the one file, for its own ranks)
    run 120 VMPI_BALANCER=Rotate "$vmpirun" -n "$n" -p "$p" "$prog" $steps "$k" "$tmp/one" kill
    run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$K" --restart "$tmp/one" -p 1 "$prog" $steps "$k" "$tmp/one" kill
    check_ok "$ref" "$what: a one-process checkpoint restarted in $K processes" &&
        { grep -q "^ckpt_state: restarted at step $k\$" "$tmp/out" ||
            fail "$what: a one-process checkpoint in $K processes: no 'restarted at step $k'"; }
}
procs_ckpt 2 18 2 4 # rank 8 sends 1 MiB (rendezvous) to rank 9, in the other process; 4 processes: 0-3 4-8 9-12 13-17
procs_ckpt 3 9 1 6 # and rank 8 to rank 0; 6 processes: 0 1-2 3 4-5 6 7-8 (rank 1 to 2 in one process, 0 to 1 not)

# ---- runtime objects, C++, adaptivity state and ARMCI (each program checks itself after the restart) ----
for cfg in "ckpt_objects 2" "ckpt_cxx 2" "ckpt_adapt 2" "armci_ckpt 2" "armci_ckpt 3" "ckpt_wtime 3"; do
    set -- $cfg
    what="$1 in $2 processes"
    d=$tmp/$1.$2
    run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$2" -n 9 -p 2 "$build/tests/mpi/ckpt/$1" "$d" kill
    [ "$rc" -eq 137 ] || { fail "$what: killed run: exit status $rc, expected 137"; continue; }
    run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs "$2" --restart "$d" -p 1 "$build/tests/mpi/ckpt/$1" "$d" kill
    check_ok "" "$what: restart" && { grep -q "^$1: restarted\$" "$tmp/out" || fail "$what: not restarted"; }
    if [ "$1" = ckpt_objects ] &&
        [ "$(grep -c '^ckpt_objects: rank [0-9]*, started before the checkpoint, finished after it$' "$tmp/err")" -ne 9 ]; then
        fail "$what: a line started before the checkpoint not finished after the restart"
    fi
done

# ---- another number of processes (issue 20): the same programs, restarted in more processes, fewer, and across
# the checkpoint's blocks ----
for cfg in "ckpt_objects 2 4" "ckpt_objects 1 3" "ckpt_objects 3 2" "ckpt_objects 2 1" "ckpt_cxx 1 2" \
    "ckpt_cxx 3 2" "ckpt_adapt 2 4" "ckpt_adapt 3 2" "ckpt_wtime 1 3" "ckpt_wtime 3 4"; do
    set -- $cfg
    what="$1 from $2 process(es) in $3"
    d=$tmp/$1.$2.$3
    procs=
    [ "$2" -gt 1 ] && procs="--procs $2"
    run 120 VMPI_BALANCER=Rotate "$vmpirun" $procs -n 9 -p 2 "$build/tests/mpi/ckpt/$1" "$d" kill
    [ "$rc" -eq 137 ] || { fail "$what: killed run: exit status $rc, expected 137"; continue; }
    procs=
    [ "$3" -gt 1 ] && procs="--procs $3"
    run 120 VMPI_BALANCER=Rotate "$vmpirun" $procs --restart "$d" -p 1 "$build/tests/mpi/ckpt/$1" "$d" kill
    check_ok "" "$what: restart" && { grep -q "^$1: restarted\$" "$tmp/out" || fail "$what: not restarted"; }
    if [ "$1" = ckpt_objects ] &&
        [ "$(grep -c '^ckpt_objects: rank [0-9]*, started before the checkpoint, finished after it$' "$tmp/err")" -ne 9 ]; then
        fail "$what: a line started before the checkpoint not finished after the restart"
    fi
done
# a job restarted in another number of processes checkpoints, and that checkpoint restarts in yet another
d=$tmp/chain
run 120 VMPI_BALANCER=Rotate "$vmpirun" -n 9 -p 1 "$prog" $steps 2,6 "$d" kill
[ "$rc" -eq 137 ] || fail "one process, checkpoints at 2 and 6, killed after 2: exit status $rc, expected 137"
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 3 --restart "$d" -p 1 "$prog" $steps 2,6 "$d" kill
check_ok "$tmp/ref.3" "one process restarted in 3 from step 2, checkpointing again at step 6"
[ "$(ckpts "$d" | grep -c .)" -eq 1 ] && [ "$(parts "$d" | grep -c .)" -eq 3 ] ||
    fail "one process restarted in 3: files $(ls -A "$d" | tr '\n' ' '), expected a checkpoint of 3 parts"
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 2 --restart "$d" -p 1 "$prog" $steps 2,6 "$d" kill
check_ok "$tmp/ref.3" "that checkpoint of 3 processes restarted in 2" &&
    { grep -q '^ckpt_state: restarted at step 6$' "$tmp/out" || fail "3 processes restarted in 2: not from step 6"; }
# what is its process's and not rebuilt yet on another number: refused by name (ARMCI's tables, a
# -privatize=tls program's globals)
run 120 "$vmpirun" --procs 2 -n 4 -p 1 "$build/tests/mpi/ckpt/armci_ckpt" "$tmp/armci" kill
[ "$rc" -eq 137 ] || fail "armci_ckpt in 2 processes: killed run: exit status $rc, expected 137"
run 60 "$vmpirun" --procs 4 --restart "$tmp/armci" -p 1 "$build/tests/mpi/ckpt/armci_ckpt" "$tmp/armci" kill
check_refused "rank [0-9]* uses ARMCI, whose tables are its process's: it restarts only as 2 processes (vmpirun --procs 2)" \
    "armci_ckpt from 2 processes in 4"
run 120 "$vmpirun" -n 4 -p 1 "$build/tests/mpi/ckpt/ckpt_tls" "$tmp/tls" kill
[ "$rc" -eq 137 ] || fail "ckpt_tls: killed run: exit status $rc, expected 137"
run 60 "$vmpirun" --procs 2 --restart "$tmp/tls" -p 1 "$build/tests/mpi/ckpt/ckpt_tls" "$tmp/tls" kill
check_refused "built with -privatize=tls, whose globals are shared by the ranks of a process: it restarts only as 1 \
process" "ckpt_tls from one process in 2"
once "ckpt_tls from one process in 2"

# ---- two checkpoints in a run that goes on; a restarted job's checkpoint ----
d=$tmp/cont
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 2 -n 18 -p 2 "$prog" $steps 2,5 "$d"
check_ok "$tmp/ref.2" "2 processes, checkpoints at steps 2 and 5, no kill"
[ "$(ckpts "$d" | grep -c .)" -eq 1 ] && [ "$(parts "$d" | grep -c .)" -eq 2 ] && [ "$(ntmps "$d")" -eq 0 ] ||
    fail "2 processes, after two checkpoints: files $(ls -A "$d" | tr '\n' ' '), expected one manifest and 2 parts"
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 2 --restart "$d" -n 18 -p 1 "$prog" $steps 2,5 "$d"
check_ok "$tmp/ref.2" "2 processes: restart with -n 18 from the second of two checkpoints" &&
    { grep -q '^ckpt_state: restarted at step 5$' "$tmp/out" || fail "restart of two checkpoints: not from step 5"; }
d=$tmp/again
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 3 -n 9 -p 1 "$prog" $steps 2,6 "$d" kill
[ "$rc" -eq 137 ] || fail "3 processes, checkpoints at 2 and 6, killed after 2: exit status $rc, expected 137"
first=$(ckpts "$d")
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 3 --restart "$d" -p 1 "$prog" $steps 2,6 "$d" kill
check_ok "$tmp/ref.3" "3 processes: restart from step 2, checkpointing again at step 6"
second=$(ckpts "$d")
if [ "$(printf '%s\n' "$second" | grep -c .)" -ne 1 ] || [ "$second" = "$first" ] ||
    [ "$(parts "$d" | grep -c .)" -ne 3 ]; then
    fail "the restarted job's checkpoint: files $(ls -A "$d" | tr '\n' ' ') after '$first', expected a newer one"
fi
run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 3 --restart "$d" -p 1 "$prog" $steps 2,6 "$d" kill
check_ok "$tmp/ref.3" "3 processes: restart from the restarted job's checkpoint" &&
    { grep -q '^ckpt_state: restarted at step 6$' "$tmp/out" || fail "restart from the restarted job's checkpoint: not from step 6"; }

# ---- crash safety: a checkpoint at every step, the whole job (vmpirun and its processes) killed at random
# moments: the restart gives the reference digests, or is refused with "no checkpoint" when none had
# completed; never a partial checkpoint taken for a whole one ----
crash() {
    K=$1 n=$2 tries=$3 csteps=12
    what="crash test, $n ranks in $K processes"
    run 120 "$vmpirun" -n "$n" -p 1 "$prog" $csteps none "$tmp/unused"
    check_ok "" "$what: uninterrupted run" || return
    digests "$tmp/out" >"$tmp/cref"
    t0=$(date +%s%N)
    run 120 "$vmpirun" --procs "$K" -n "$n" -p 1 "$prog" $csteps all "$tmp/every"
    t1=$(date +%s%N)
    check_ok "$tmp/cref" "$what: a checkpoint at every step, not killed" || return
    [ "$(ckpts "$tmp/every" | grep -c .)" -eq 1 ] && [ "$(parts "$tmp/every" | grep -c .)" -eq "$K" ] &&
        [ "$(ntmps "$tmp/every")" -eq 0 ] ||
        fail "$what: after $csteps checkpoints: files $(ls -A "$tmp/every" | tr '\n' ' '), expected one checkpoint"
    dur_ms=$(((t1 - t0) / 1000000))
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    echo "$what: an uninterrupted run with $csteps checkpoints takes $dur_ms ms; $tries kills, seed $seed"
    i=0
    while [ $i -lt "$tries" ]; do
        delay=$(awk -v s="$seed" -v i=$i -v n="$tries" -v d="$dur_ms" \
            'BEGIN { srand(s + i); printf "%.3f", d * (i + rand()) / n / 1000 }')
        d=$tmp/crash.$i
        # its own session, so that the kill reaches vmpirun's processes too (they would go on without it)
        setsid sh -c 'echo $$ >"$0"; exec "$@" >/dev/null 2>&1' "$tmp/pgid" "$vmpirun" --procs "$K" -n "$n" -p 1 \
            "$prog" $csteps all "$d" &
        sleep "$delay"
        kill -KILL "-$(cat "$tmp/pgid")" 2>/dev/null
        wait
        files=$(ls -A "$d" 2>/dev/null | tr '\n' ' ')
        run 120 "$vmpirun" --procs "$K" --restart "$d" -p 1 "$prog" $csteps all "$d"
        echo "  killed after $delay s (files: $files): restart status $rc," \
            "$(grep -h -o 'restarted at step [0-9]*\|no checkpoint' "$tmp/out" "$tmp/err" | head -n 1)"
        if [ "$rc" -eq 1 ] && grep -q "^vmpi: no checkpoint in $d" "$tmp/err"; then
            [ -z "$(ckpts "$d")" ] || fail "$what (killed after $delay s, files: $files): refused with 'no checkpoint'"
        else
            check_ok "$tmp/cref" "$what: restart after a kill at $delay s (files: $files)"
        fi
        rm -rf "$d"
        i=$((i + 1))
    done
}
crash 2 8 8

# ---- a failed write in one process (the last: its file size limit) fails the checkpoint everywhere ----
run 120 "$vmpirun" --procs 2 -n 4 -p 1 "$build/tests/mpi/adapt/ckpt_errors"
check_ok "" "adapt/ckpt_errors in 2 processes" &&
    { grep -q "checkpoint failed in process 1 of 2 (ranks 2-3), to .*: .*File too large" "$tmp/err" ||
        fail "adapt/ckpt_errors in 2 processes: no message naming process 1 and its error"; }

# ---- another PMIx launcher: a checkpoint taken under Open MPI's mpirun restarts under vmpirun ----
if command -v mpirun.openmpi >/dev/null 2>&1; then
    d=$tmp/openmpi
    run 120 VMPI_NRANKS=9 VMPI_NPES=1 VMPI_BALANCER=Rotate mpirun.openmpi --allow-run-as-root --oversubscribe \
        --bind-to none -n 3 "$prog" $steps 3 "$d" kill
    if [ "$(ckpts "$d" | grep -c .)" -ne 1 ] || [ "$(parts "$d" | grep -c .)" -ne 3 ]; then
        fail "3 processes under Open MPI's mpirun: files $(ls -A "$d" 2>/dev/null | tr '\n' ' '), expected a checkpoint"
    else
        run 120 VMPI_BALANCER=Rotate "$vmpirun" --procs 3 --restart "$d" -p 1 "$prog" $steps 3 "$d" kill
        check_ok "$tmp/ref.3" "a checkpoint of Open MPI's mpirun restarted by vmpirun"
    fi
fi

# ---- a refusal in every process alike (--aslr 1) is said once, and nothing is written ----
run 60 "$vmpirun" --procs 2 --aslr 1 -n 4 -p 1 "$prog" 4 1 "$tmp/aslr"
[ "$rc" -eq 1 ] && [ "$(grep -c 'checkpoint failed in process 0 of 2 (ranks 0-1) and 1 other alike, .*randomization' \
    "$tmp/err")" -eq 1 ] && [ "$(grep -c 'checkpoint failed' "$tmp/err")" -eq 1 ] ||
    fail "--aslr 1 in 2 processes: exit status $rc, expected 1 with one line for both processes"
[ -z "$(ls "$tmp/aslr" 2>/dev/null)" ] || fail "--aslr 1 in 2 processes: files written: $(ls "$tmp/aslr")"

echo "$(($(date +%s) - start)) s"
if [ $fails -eq 0 ]; then
    echo " No Errors"
    exit 0
fi
echo " Found $fails errors"
exit 1
