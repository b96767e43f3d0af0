#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Checkpoint/restart (issue 6) as a user meets it, with tests/mpi/ckpt/ckpt_state (a deterministic program
# that prints a digest of each rank's whole state) and ckpt_objects (runtime objects, self-checked):
#   - for several (ranks, PEs), some under VMPI_BALANCER=Rotate: a run killed (SIGKILL) right after a
#     checkpoint, restarted with -p 1 and -p 2, prints exactly the digests of an uninterrupted run;
#   - ckpt_objects killed after its checkpoint and restarted on 1, 2 and 3 PEs finds its objects working
#   - a Fortran program's state (fortran/f90_ckpt) restarted on 1, 2 and 3 PEs gives the uninterrupted digests
#     (and the killed run's output has the lines its ranks printed before the checkpoint, flushed or not,
#     and the restarted run finishes every rank's line started before it);
#     ckpt_adapt (send counts a graph balancer measured, a placement request) restarted on 4 and 1 PEs likewise;
#     ckpt_cxx (C++ globals, a function-static, thread_local, exceptions) and ckpt_tls (the same built with
#     -privatize=tls: shared globals, per-rank thread_locals) on 1 and 2 PEs likewise;
#     armci_ckpt (ARMCI_Checkpoint: ARMCI memory, mutexes one of which is held across it, a group allocation,
#     a pending notice) on 1 and 3 PEs likewise;
#   - checkpoint files: mode 0600 in a directory created 0700, only the newest kept, a restarted job's
#     checkpoints are newer than the one it came from;
#   - a program started without vmpirun checkpoints and restarts too; under --aslr 1 checkpoints are refused;
#   - refusals, each one line on stderr and exit status 1, never a hang: a corrupted byte, a truncated file
#     (or one with trailing bytes), a foreign version, a bad magic, a -n that differs, a missing or empty
#     directory (or one with only a temporary file), a different program (or the same one changed), another
#     libvmpi found through a relative LD_LIBRARY_PATH;
#   - a directory others can write into: a symbolic or hard link or a FIFO planted as the lock file is refused
#     and the file it names untouched, links at the next temporaries' names are skipped and removed, a
#     restart refuses a checkpoint that is a link; a directory writable by others without the sticky bit is
#     warned about;
#   - crash safety: a run that checkpoints at every step, killed from outside at random moments, restarts
#     with the reference digests or is refused with "no checkpoint" (when none had completed), nothing else.
# Usage: ckpt.sh BUILD_DIR.  Every run is under `timeout`; about 30 s on 2 cores.
set -u
build=$1
vmpirun=$build/bin/vmpirun
prog=$build/tests/mpi/ckpt/ckpt_state
other=$build/tests/mpi/init/commrank
. "$(dirname "$0")/ckpt_lib.sh"
# the job was refused: status 1, one line on stderr matching the regular expression $1
check_refused() {
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        fail "$2: hung (killed by timeout)"
    elif [ "$rc" -ne 1 ]; then
        fail "$2: exit status $rc, expected 1"
    elif ! grep -q -- "$1" "$tmp/err"; then
        fail "$2: stderr lacks /$1/"
    elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
        fail "$2: $(wc -l <"$tmp/err") lines on stderr, expected 1"
    fi
}

if ! "$vmpirun" --help 2>&1 | grep -q -- '--restart'; then
    echo "FAIL: vmpirun --help does not mention --restart"
    exit 1
fi
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }

steps=10
# ---- the emulated multi-process mode: a job of 2 process groups under Rotate (ranks move within their group)
# checkpointed and killed restarts in 2 groups on 2, 3 and 4 PEs with the uninterrupted run's digests; in 1 or 3
# groups it is refused ----
emul_ckpt() {
    n=16 k=5
    what="$n ranks on 4 PEs in 2 emulated processes (Rotate), checkpoint at step $k"
    ref=$tmp/ref.emul
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n $n -p 4 "$prog" $steps none "$tmp/unused"
    check_ok "" "$what: uninterrupted run in one process" || return
    digests "$tmp/out" >"$ref"
    run 60 VMPI_BALANCER=Rotate VMPI_EMULATE_PROCS=2 "$vmpirun" -n $n -p 4 "$prog" $steps none "$tmp/unused"
    check_ok "$ref" "$what: uninterrupted run" || return
    d=$tmp/ck.emul
    run 60 VMPI_BALANCER=Rotate VMPI_EMULATE_PROCS=2 "$vmpirun" -n $n -p 4 "$prog" $steps "$k" "$d" kill
    [ "$rc" -eq 137 ] || { fail "$what: killed run: exit status $rc, expected 137"; return; }
    for rp in 2 3 4; do
        run 60 VMPI_BALANCER=Rotate VMPI_EMULATE_PROCS=2 "$vmpirun" --restart "$d" -p "$rp" "$prog" $steps "$k" "$d" kill
        check_ok "$ref" "$what: restart on $rp PEs in 2 processes"
    done
    # another number of processes: refused by name (ranks do not move between processes yet)
    for kp in 1 3; do
        run 60 VMPI_EMULATE_PROCS=$kp "$vmpirun" --restart "$d" -p 3 "$prog" $steps "$k" "$d" kill
        check_refused "restart with the checkpoint's number of processes" "$what: restart in $kp process(es)"
    done
}
emul_ckpt

# ---- kill after a checkpoint, restart on 1 and 2 PEs: the digests of the uninterrupted run ----
for cfg in "1 1 4 -" "4 1 5 -" "8 2 4 VMPI_BALANCER=Rotate" "64 2 3 -" "200 2 6 VMPI_BALANCER=Rotate"; do
    set -- $cfg
    n=$1 p=$2 k=$3 e=$4
    [ "$e" = "-" ] && e=
    what="$n ranks on $p PEs${e:+ ($e)}, checkpoint at step $k"
    ref=$tmp/ref.$n
    run 60 $e "$vmpirun" -n "$n" -p "$p" "$prog" $steps none "$tmp/unused"
    check_ok "" "$what: uninterrupted run" || continue
    digests "$tmp/out" >"$ref"
    [ "$(wc -l <"$ref")" -eq "$n" ] || { fail "$what: $(wc -l <"$ref") digest lines, expected $n"; continue; }
    d=$tmp/ck.$n
    run 60 $e "$vmpirun" -n "$n" -p "$p" "$prog" $steps "$k" "$d" kill
    [ "$rc" -eq 137 ] || { fail "$what: killed run: exit status $rc, expected 137"; continue; }
    f=$(ckpts "$d")
    if [ "$(printf '%s\n' "$f" | grep -c .)" -ne 1 ]; then
        fail "$what: $(printf '%s\n' "$f" | grep -c .) checkpoint files after one checkpoint, expected 1"
        continue
    fi
    [ "$(stat -c %a "$f")" = 600 ] || fail "$what: checkpoint file mode $(stat -c %a "$f"), expected 600"
    [ "$(stat -c %a "$d")" = 700 ] || fail "$what: checkpoint directory mode $(stat -c %a "$d"), expected 700"
    for rp in 1 2; do
        run 60 $e "$vmpirun" --restart "$d" -p "$rp" "$prog" $steps "$k" "$d" kill
        check_ok "$ref" "$what: restart on $rp PEs" &&
            { grep -q "^ckpt_state: restarted at step $k\$" "$tmp/out" ||
                fail "$what: restart on $rp PEs: no 'restarted at step $k' (did it run from the start?)"; }
    done
done

# ---- runtime objects made before the checkpoint, used after it (ckpt_objects checks them itself) ----
objs=$build/tests/mpi/ckpt/ckpt_objects
for cfg in "1 1" "8 2" "64 2"; do
    set -- $cfg
    d=$tmp/objects.$1
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n "$1" -p "$2" "$objs" "$d" kill
    [ "$rc" -eq 137 ] || { fail "ckpt_objects, $1 ranks on $2 PEs: killed run: exit status $rc, expected 137"; continue; }
    grep -q '^ckpt_objects: before the checkpoint$' "$tmp/out" ||
        fail "ckpt_objects, $1 ranks on $2 PEs: the line printed before the checkpoint was lost with the killed run"
    [ "$(grep -c '^ckpt_objects: rank [0-9]*, not flushed$' "$tmp/out")" -eq "$1" ] ||
        fail "ckpt_objects, $1 ranks on $2 PEs: lines not flushed before the checkpoint lost with the killed run"
    for rp in 1 2 3; do
        run 60 VMPI_BALANCER=Rotate "$vmpirun" --restart "$d" -p $rp "$objs" "$d" kill
        check_ok "" "ckpt_objects, $1 ranks: restart on $rp PEs" &&
            { grep -q '^ckpt_objects: restarted$' "$tmp/out" || fail "ckpt_objects, $1 ranks on $rp PEs: not restarted"; }
        [ "$(grep -c '^ckpt_objects: rank [0-9]*, started before the checkpoint, finished after it$' "$tmp/err")" \
            -eq "$1" ] || fail "ckpt_objects, $1 ranks on $rp PEs: a line started before the checkpoint not finished"
    done
done

# ---- a Fortran program: module variables, COMMON, SAVE, ALLOCATABLE, an attribute and a Fortran user op ----
fck=$build/tests/mpi/fortran/f90_ckpt
if [ -x "$fck" ]; then
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n 8 -p 2 "$fck"
    check_ok "" "f90_ckpt, 8 ranks on 2 PEs: uninterrupted run" && digests "$tmp/out" >"$tmp/fref"
    d=$tmp/fortran
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n 8 -p 2 "$fck" "$d" kill
    if [ "$rc" -ne 137 ]; then
        fail "f90_ckpt, 8 ranks on 2 PEs: killed run: exit status $rc, expected 137"
    else
        for rp in 1 2 3; do
            run 60 VMPI_BALANCER=Rotate "$vmpirun" --restart "$d" -p $rp "$fck" "$d" kill
            check_ok "$tmp/fref" "f90_ckpt, 8 ranks: restart on $rp PEs" &&
                { grep -q '^f90_ckpt: restarted$' "$tmp/out" || fail "f90_ckpt, 8 ranks on $rp PEs: not restarted"; }
        done
    fi
fi

# ---- adaptivity state: send counts grown outside any rank (Metis measures them), a placement request ----
adapt=$build/tests/mpi/ckpt/ckpt_adapt
d=$tmp/adapt
run 60 VMPI_BALANCER=Metis "$vmpirun" -n 64 -p 4 "$adapt" "$d" kill
if [ "$rc" -ne 137 ]; then
    fail "ckpt_adapt, 64 ranks on 4 PEs: killed run: exit status $rc, expected 137"
else
    for rp in 4 1; do
        run 60 VMPI_BALANCER=Metis "$vmpirun" --restart "$d" -p $rp "$adapt" "$d" kill
        check_ok "" "ckpt_adapt, 64 ranks: restart on $rp PEs" &&
            { grep -q '^ckpt_adapt: restarted$' "$tmp/out" || fail "ckpt_adapt on $rp PEs: not restarted"; }
    done
fi

# ---- C++: globals with constructors, a function-static, thread_local, exceptions after the restart ----
# (and ckpt_tls, built with -privatize=tls: its shared globals come back with the job heap)
for cprog in ckpt_cxx ckpt_tls; do
    for cfg in "1 1" "8 2"; do
        set -- $cfg
        d=$tmp/$cprog.$1
        run 60 "$vmpirun" -n "$1" -p "$2" "$build/tests/mpi/ckpt/$cprog" "$d" kill
        [ "$rc" -eq 137 ] || { fail "$cprog, $1 ranks on $2 PEs: killed run: exit status $rc, expected 137"; continue; }
        for rp in 1 2; do
            run 60 "$vmpirun" --restart "$d" -p $rp "$build/tests/mpi/ckpt/$cprog" "$d" kill
            check_ok "" "$cprog, $1 ranks: restart on $rp PEs" &&
                { grep -q "^$cprog: restarted\$" "$tmp/out" || fail "$cprog, $1 ranks on $rp PEs: not restarted"; }
        done
    done
done

# ---- ARMCI (issue 8): ARMCI_Checkpoint, then a restart on other PE counts finds ARMCI's state working ----
armci=$build/tests/mpi/ckpt/armci_ckpt
for cfg in "1 1" "8 2" "64 2"; do
    set -- $cfg
    d=$tmp/armci.$1
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n "$1" -p "$2" "$armci" "$d" kill
    [ "$rc" -eq 137 ] || { fail "armci_ckpt, $1 ranks on $2 PEs: killed run: exit status $rc, expected 137"; continue; }
    for rp in 1 3; do
        run 60 VMPI_BALANCER=Rotate "$vmpirun" --restart "$d" -p $rp "$armci" "$d" kill
        check_ok "" "armci_ckpt, $1 ranks: restart on $rp PEs" &&
            { grep -q '^armci_ckpt: restarted$' "$tmp/out" || fail "armci_ckpt, $1 ranks on $rp PEs: not restarted"; }
    done
done

# ---- on 8 ranks: a checkpoint the run continues from, two checkpoints, -n given, restarted job's checkpoint ----
ref=$tmp/ref.8
d=$tmp/cont
run 60 VMPI_BALANCER=Rotate "$vmpirun" -n 8 -p 2 "$prog" $steps 2,5 "$d"
check_ok "$ref" "8 ranks, checkpoints at steps 2 and 5, no kill"
grep -q 'restarted' "$tmp/out" && fail "8 ranks, checkpoints at steps 2 and 5, no kill: says it was restarted"
[ "$(ckpts "$d" | grep -c .)" -eq 1 ] && [ "$(ntmps "$d")" -eq 0 ] ||
    fail "after two checkpoints: files $(ls -A "$d" | tr '\n' ' '), expected one vmpi-ckpt-*.ckpt"
run 60 "$vmpirun" --restart "$d" -n 8 -p 2 "$prog" $steps 2,5 "$d"
check_ok "$ref" "restart with -n 8 from the second of two checkpoints" &&
    { grep -q '^ckpt_state: restarted at step 5$' "$tmp/out" || fail "restart of two checkpoints: not from step 5"; }
d=$tmp/again
run 60 "$vmpirun" -n 8 -p 2 "$prog" $steps 3,6 "$d" kill
[ "$rc" -eq 137 ] || fail "8 ranks, checkpoints at 3 and 6, killed after 3: exit status $rc, expected 137"
first=$(ckpts "$d")
run 60 "$vmpirun" --restart "$d" -p 1 "$prog" $steps 3,6 "$d" kill
check_ok "$ref" "restart from step 3, checkpointing again at step 6"
second=$(ckpts "$d")
if [ "$(printf '%s\n' "$second" | grep -c .)" -ne 1 ] || [ "$second" = "$first" ]; then
    fail "the restarted job's checkpoint: files '$second' after '$first', expected one newer file"
fi
run 60 "$vmpirun" --restart "$d" -p 2 "$prog" $steps 3,6 "$d" kill
check_ok "$ref" "restart from the restarted job's checkpoint" &&
    { grep -q '^ckpt_state: restarted at step 6$' "$tmp/out" ||
        fail "restart from the restarted job's checkpoint: not from step 6"; }

# ---- a program started without vmpirun (it turns address randomization off and executes itself again) ----
d=$tmp/direct
run 60 "$prog" $steps 4 "$d" kill
if [ "$rc" -ne 137 ]; then
    fail "started without vmpirun, checkpoint at step 4: exit status $rc, expected 137"
else
    run 60 "$vmpirun" --restart "$d" -p 2 "$prog" $steps 4 "$d" kill
    check_ok "$tmp/ref.1" "started without vmpirun: restart on 2 PEs" &&
        { grep -q '^ckpt_state: restarted at step 4$' "$tmp/out" || fail "started without vmpirun: not restarted"; }
fi
# ---- --aslr 1: a checkpoint to a file is refused (it could not be restarted), the job goes on ----
d=$tmp/aslr
run 60 "$vmpirun" --aslr 1 -n 2 -p 1 "$prog" 4 1 "$d"
[ "$rc" -eq 1 ] && grep -q 'returned' "$tmp/err" || fail "--aslr 1: exit status $rc, expected 1 with AMPI_Migrate's error"
[ -z "$(ckpts "$d")" ] || fail "--aslr 1: a checkpoint was written: $(ckpts "$d")"

# ---- refusals (from a copy of the 8-rank checkpoint of step 4) ----
src=$(ckpts "$tmp/ck.8" | head -n 1)
if [ -z "$src" ]; then
    echo "FAIL: no 8-rank checkpoint to corrupt"
    fails=$((fails + 1))
else
    size=$(stat -c %s "$src")
    base=$(basename "$src")
    # refuse NAME REGEX [-n N]: restart from $tmp/NAME (prepared by the caller) must be refused with REGEX
    refuse() {
        name=$1 re=$2
        shift 2
        run 30 "$vmpirun" --restart "$tmp/$name" "$@" -p 2 "$prog" $steps 4 "$tmp/$name" kill
        check_refused "$re" "$name"
    }
    prep() { mkdir -p "$tmp/$1" && cp "$src" "$tmp/$1/$base" && chmod 600 "$tmp/$1/$base"; }
    prep corrupt
    mid=$((size / 2))
    poke "$tmp/corrupt/$base" $mid "$(printf %o $(($(peek "$src" $mid) ^ 255)))"
    refuse corrupt "^vmpi: checkpoint .*$base: .*checksum mismatch"
    prep late # a corrupted byte near the end (the last rank's data or the end record)
    poke "$tmp/late/$base" $((size - 40)) "$(printf %o $(($(peek "$src" $((size - 40))) ^ 1)))"
    refuse late "^vmpi: checkpoint .*$base: .*checksum mismatch"
    prep truncated
    truncate -s $((size / 2)) "$tmp/truncated/$base"
    refuse truncated "^vmpi: checkpoint .*$base: .*truncated"
    prep trailing # longer than its header says
    printf 'x' >>"$tmp/trailing/$base"
    refuse trailing "^vmpi: checkpoint .*$base: .*\(truncated\|trailing\)"
    prep short # shorter than its header
    truncate -s 20 "$tmp/short/$base"
    refuse short "^vmpi: checkpoint .*$base: .*truncated"
    prep version # the format version: bytes 8 to 11 (src/ckpt/file.c), little-endian
    poke "$tmp/version/$base" 8 143
    refuse version "^vmpi: checkpoint .*$base: .*version"
    prep magic
    poke "$tmp/magic/$base" 0 130
    refuse magic "^vmpi: checkpoint .*$base: .*not a vmpi checkpoint"
    prep ranks
    refuse ranks "^vmpi: checkpoint .*$base: .*ranks" -n 9
    prep program
    run 30 "$vmpirun" --restart "$tmp/program" -p 2 "$other"
    check_refused "^vmpi: checkpoint .*$base: .*program" "program: another program"
    cp "$prog" "$tmp/prog_changed" && printf 'x' >>"$tmp/prog_changed"
    run 30 "$vmpirun" --restart "$tmp/program" -p 2 "$tmp/prog_changed" $steps 4 "$tmp/program" kill
    check_refused "^vmpi: checkpoint .*$base: .*program" "program: its binary one byte longer"
    at=$(grep -boa 'GCC: ' "$prog" | head -n 1 | cut -d: -f1) # the .comment section: not loaded
    if [ -n "$at" ]; then
        cp "$prog" "$tmp/prog_same_size" && poke "$tmp/prog_same_size" "$at" 110
        run 30 "$vmpirun" --restart "$tmp/program" -p 2 "$tmp/prog_same_size" $steps 4 "$tmp/program" kill
        check_refused "^vmpi: checkpoint .*$base: .*program" "program: one byte of its binary changed"
    fi
    run 30 "$vmpirun" --restart "$tmp/missing" -p 2 "$prog" $steps 4 "$tmp/missing" kill
    check_refused "^vmpi: no checkpoint in $tmp/missing" "missing directory"
    mkdir "$tmp/empty"
    run 30 "$vmpirun" --restart "$tmp/empty" -p 2 "$prog" $steps 4 "$tmp/empty" kill
    check_refused "^vmpi: no checkpoint in $tmp/empty" "empty directory"
    mkdir "$tmp/onlytmp" && cp "$src" "$tmp/onlytmp/.vmpi-ckpt-1.tmp"
    run 30 "$vmpirun" --restart "$tmp/onlytmp" -p 2 "$prog" $steps 4 "$tmp/onlytmp" kill
    check_refused "^vmpi: no checkpoint in $tmp/onlytmp" "a directory with only a temporary file"
    # the refusals left the files alone
    cmp -s "$src" "$tmp/ranks/$base" || fail "a refused restart changed the checkpoint file"
fi

# ---- a library found through a relative LD_LIBRARY_PATH is checked like any other (only the vDSO is not):
# a restart with another libvmpi (its build id changed) there is refused ----
lib=$(readlink -f "$build/lib/libvmpi.so.0")
bid=$(readelf -n "$lib" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -n 1)
at=$([ -n "$bid" ] && python3 -c 'import sys; print(open(sys.argv[1], "rb").read().find(bytes.fromhex(sys.argv[2])))' \
    "$lib" "$bid" 2>/dev/null) # where its build id is (skipped without python3)
if [ -n "$at" ] && [ "$at" -gt 0 ]; then
    mkdir -p "$tmp/rel/rl" && cp "$lib" "$tmp/rel/rl/libvmpi.so.0"
    vr=$(readlink -f "$vmpirun") pr=$(readlink -f "$prog") # run from $tmp/rel
    (cd "$tmp/rel" && LD_LIBRARY_PATH=rl timeout 60 "$vr" -n 4 -p 2 "$pr" $steps 4 "$tmp/rel/ck" kill >/dev/null 2>&1)
    poke "$tmp/rel/rl/libvmpi.so.0" "$at" 0
    (cd "$tmp/rel" && LD_LIBRARY_PATH=rl timeout 60 "$vr" --restart "$tmp/rel/ck" -p 2 "$pr" $steps 4 "$tmp/rel/ck" \
        kill >"$tmp/out" 2>"$tmp/err")
    rc=$?
    [ "$rc" -eq 1 ] && grep -q "^vmpi: checkpoint .*rl/libvmpi.so.0 is not the one" "$tmp/err" ||
        fail "a restart with another libvmpi through LD_LIBRARY_PATH=rl was not refused (status $rc): $(head -c 300 "$tmp/err")"
fi

# ---- a directory others can write into: nothing vmpi opens there follows a link planted in it ----
printf 'precious\n' >"$tmp/victim"
victim_ok() { [ "$(cat "$tmp/victim")" = precious ] || fail "$1: the file a planted link names was changed"; }
# planted NAME KIND: a fresh directory with NAME in it, a symbolic link (sym) or a hard link (hard) to the
# victim, or a FIFO (fifo)
planted() {
    d=$tmp/planted.$2.$(echo "$1" | tr -cd 'a-z0-9')
    mkdir -m 700 "$d"
    case $2 in
    sym) ln -s "$tmp/victim" "$d/$1" ;;
    hard) ln "$tmp/victim" "$d/$1" ;;
    fifo) mkfifo "$d/$1" ;;
    esac
}
for kind in sym hard fifo; do
    planted .vmpi-ckpt.lock $kind
    run 60 "$vmpirun" -n 4 -p 2 "$prog" 4 2 "$d"
    case $kind in
    sym) why="it is a symbolic link" ;;
    hard) why="it has other hard links" ;;
    fifo) why="not a regular file" ;;
    esac
    [ "$rc" -eq 1 ] && grep -q "refusing $d/.vmpi-ckpt.lock: $why" "$tmp/err" ||
        fail "a $kind link planted as the lock file: exit status $rc, expected 1 with 'refusing ...: $why'"
    [ -z "$(ckpts "$d")" ] || fail "a $kind link planted as the lock file: a checkpoint was written"
    victim_ok "a $kind link planted as the lock file"
done
# links at the names of the next temporaries: skipped, never opened, and removed with the old files
planted .vmpi-ckpt-1.tmp sym
ln -s "$tmp/victim" "$d/.vmpi-ckpt-2.tmp"
run 60 "$vmpirun" -n 4 -p 1 "$prog" $steps 5 "$d"
check_ok "$tmp/ref.4" "links planted at temporaries' names"
victim_ok "links planted at temporaries' names"
[ "$(ckpts "$d" | grep -c .)" -eq 1 ] && [ "$(ntmps "$d")" -eq 0 ] ||
    fail "links planted at temporaries' names: files $(ls -A "$d" | tr '\n' ' '), expected one vmpi-ckpt-*.ckpt"
# a restart never loads a link, whatever it names
planted vmpi-ckpt-1.ckpt sym
src=$(ckpts "$tmp/ck.4" | head -n 1)
[ -n "$src" ] && ln -sf "$src" "$d/vmpi-ckpt-1.ckpt"
run 30 "$vmpirun" --restart "$d" -p 2 "$prog" $steps 5 "$d" kill
check_refused "^vmpi: refusing $d/vmpi-ckpt-1.ckpt: it is a symbolic link" "restart from a link to a checkpoint"
# a directory others can write into gets a warning, unless it has the sticky bit
d=$tmp/open
mkdir "$d" && chmod 777 "$d"
run 60 "$vmpirun" -n 2 -p 1 "$prog" 4 2 "$d"
[ "$rc" -eq 0 ] && grep -q "checkpoint directory $d can be written by others (mode 777" "$tmp/err" ||
    fail "a directory mode 777: exit status $rc, expected 0 with a warning"
d=$tmp/sticky
mkdir "$d" && chmod 1777 "$d"
run 60 "$vmpirun" -n 2 -p 1 "$prog" 4 2 "$d"
[ "$rc" -eq 0 ] && ! grep -q "written by others" "$tmp/err" || fail "a directory mode 1777: exit status $rc, or a warning"

# ---- crash safety: a checkpoint at every step, SIGKILL from outside at random moments ----
# crash RANKS PES TRIES: try i is killed in the i-th of TRIES equal parts of an uninterrupted run's
# duration (random within it), then restarted on 1 or 2 PEs
crash() {
    n=$1 p=$2 tries=$3 csteps=16
    what="crash test, $n ranks on $p PEs"
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n "$n" -p "$p" "$prog" $csteps none "$tmp/unused"
    check_ok "" "$what: uninterrupted run" || return
    digests "$tmp/out" >"$tmp/cref"
    t0=$(date +%s%N)
    run 60 VMPI_BALANCER=Rotate "$vmpirun" -n "$n" -p "$p" "$prog" $csteps all "$tmp/every.$n"
    t1=$(date +%s%N)
    check_ok "$tmp/cref" "$what: a checkpoint at every step, not killed"
    [ "$(ckpts "$tmp/every.$n" | grep -c .)" -eq 1 ] && [ "$(ntmps "$tmp/every.$n")" -eq 0 ] ||
        fail "$what: after $csteps checkpoints: files $(ls -A "$tmp/every.$n" | tr '\n' ' '), expected one .ckpt"
    dur_ms=$(((t1 - t0) / 1000000))
    seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    echo "$what: an uninterrupted run with $csteps checkpoints takes $dur_ms ms; $tries kills, seed $seed"
    i=0 restarted=0 none=0
    while [ $i -lt "$tries" ]; do
        delay=$(awk -v s="$seed" -v i=$i -v n="$tries" -v d="$dur_ms" \
            'BEGIN { srand(s + i); printf "%.3f", d * (i + rand()) / n / 1000 }')
        d=$tmp/crash.$n.$i
        run 60 VMPI_BALANCER=Rotate timeout -s KILL "$delay" "$vmpirun" -n "$n" -p "$p" "$prog" $csteps all "$d"
        killed=$rc
        if [ "$killed" -ne 137 ] && [ "$killed" -ne 0 ]; then
            fail "$what: run killed after $delay s: exit status $killed, expected 137 (or 0 if it had finished)"
        fi
        files=$(ls -A "$d" 2>/dev/null | tr '\n' ' ')
        run 60 VMPI_BALANCER=Rotate "$vmpirun" --restart "$d" -p $((i % 2 + 1)) "$prog" $csteps all "$d"
        echo "  killed after $delay s (status $killed, files: $files): restart status $rc," \
            "$(grep -h -o 'restarted at step [0-9]*\|no checkpoint' "$tmp/out" "$tmp/err" | head -n 1)"
        if [ "$rc" -eq 1 ] && grep -q "^vmpi: no checkpoint in $d" "$tmp/err"; then
            none=$((none + 1))
            [ -z "$(ckpts "$d")" ] || fail "$what (killed after $delay s, files: $files): refused with 'no checkpoint'"
        elif check_ok "$tmp/cref" "$what: restart after a kill at $delay s (status $killed, files: $files)"; then
            restarted=$((restarted + 1))
        fi
        rm -rf "$d"
        i=$((i + 1))
    done
    echo "$what: $restarted restarts with the reference digests, $none refused with 'no checkpoint'"
}
crash 8 2 12
crash 64 2 6

echo "$(($(date +%s) - start)) s"
if [ $fails -eq 0 ]; then
    echo " No Errors"
    exit 0
fi
echo " Found $fails errors"
exit 1
