#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vmpirun --procs K (tools/vmpirun_procs.c): K processes started with vmpirun as their PMIx server, run with
# a plain PMIx client (pmix_probe.c; VMPIRUN_ANY_PROGRAM=1 lets vmpirun start it) and every way such a job
# ends: success, a process's exit status or signal, PMIx_Abort, MPIEXEC_TIMEOUT, a signal sent to vmpirun.
# No process may be left behind.  usage: launch.sh VMPIRUN PROBE CASE
set -u
vmpirun=$1
probe=$2
case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export VMPIRUN_ANY_PROGRAM=1 PROBE_DIR="$tmp"
unset MPIEXEC_TIMEOUT VMPI_NRANKS
fail=0
run() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
check() {
    if eval "$2"; then :; else
        echo "FAIL: $1"; echo "-- stdout:"; cat "$tmp/out"; echo "-- stderr:"; cat "$tmp/err"; fail=1
    fi
}
# every probe that started has ended (vmpirun waited for them all)
none_left() {
    for f in "$tmp"/pid.*; do
        [ -e "$f" ] || continue
        pid=$(cat "$f")
        if kill -0 "$pid" 2>/dev/null; then
            echo "process $pid ($f) still runs"; kill -9 "$pid"; return 1
        fi
    done
    return 0
}
# how many processes printed their line (0 before the output file exists)
oks() { n=$(grep -c "^probe [0-9]* of $1: ok" "$tmp/out" 2>/dev/null); echo "${n:-0}"; }

case $case in
procs1) # today's behaviour: exec, no PMIx server
    run "$vmpirun" --procs 1 -n 4 "$probe" 1
    check "--procs 1 runs the program alone, without a PMIx server (rc $rc)" '[ $rc -eq 0 ] && grep -q "no PMIx server" "$tmp/out"' ;;
procs2)
    run "$vmpirun" --procs 2 -n 4 -p 1 "$probe" 2
    check "--procs 2: both exchange their values (rc $rc)" '[ $rc -eq 0 ] && [ "$(oks 2)" -eq 2 ] && [ ! -s "$tmp/err" ]' ;;
procs3)
    run "$vmpirun" --procs=3 -n 3 "$probe" 3
    check "--procs=3: all three exchange their values (rc $rc)" '[ $rc -eq 0 ] && [ "$(oks 3)" -eq 3 ] && [ ! -s "$tmp/err" ]' ;;
stdin) # stdin reaches process 0 only
    echo "hello" | PROBE_STDIN=1 "$vmpirun" --procs 3 -n 3 "$probe" 3 >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "stdin to process 0, /dev/null to the others (rc $rc)" \
        '[ $rc -eq 0 ] && grep -q "^probe 0 of 3: ok .*; stdin: hello$" "$tmp/out" && grep -q "^probe 1 of 3: ok .*; stdin: (none)$" "$tmp/out" && grep -q "^probe 2 of 3: ok .*; stdin: (none)$" "$tmp/out"' ;;
exit)
    run "$vmpirun" --procs 3 -n 6 "$probe" 3 exit 1 3
    check "process 1 exits with status 3: the job ends with 3, the others stopped (rc $rc)" \
        '[ $rc -eq 3 ] && grep -q "^vmpirun: process 1 (host .*, pid [0-9]*, ranks 2-3) exited with status 3; stopping the job$" "$tmp/err" && none_left' ;;
exit0) # a process that ends without PMIx_Finalize would leave the others waiting for it (they may also have
       # finished: libpmix may complete their fence without it)
    run "$vmpirun" --procs 3 -n 3 "$probe" 3 exit0 2
    check "process 2 exits with status 0 without PMIx_Finalize: the job ends with 1, the others stopped (rc $rc)" \
        '[ $rc -eq 1 ] && grep -Eq "^vmpirun: process 2 \(host .*, rank 2\) exited with status 0 before PMIx_Finalize(; stopping the job)?$" "$tmp/err" && none_left' ;;
kill)
    run "$vmpirun" --procs 3 -n 6 "$probe" 3 kill 1
    check "process 1 killed by SIGKILL: exit 137, the others stopped (rc $rc)" \
        '[ $rc -eq 137 ] && grep -q "^vmpirun: process 1 (host .*, pid [0-9]*, ranks 2-3) was killed by signal 9 (SIGKILL); stopping the job$" "$tmp/err" && none_left' ;;
abort)
    run "$vmpirun" --procs 2 -n 4 "$probe" 2 abort 1 5 why
    check "PMIx_Abort(5, \"why\"): exit 5 with the message (rc $rc)" \
        '[ $rc -eq 5 ] && grep -q "^vmpirun: process 1 (host .*ranks 2-3) called PMIx_Abort(5): why; stopping the job$" "$tmp/err" && none_left' ;;
timeout)
    run env MPIEXEC_TIMEOUT=2 "$vmpirun" --procs 2 -n 2 "$probe" 2 sleep 60
    check "MPIEXEC_TIMEOUT=2 stops the whole job: exit 124 (rc $rc)" \
        '[ $rc -eq 124 ] && grep -q "MPIEXEC_TIMEOUT=2 s" "$tmp/err" && none_left' ;;
signal) # SIGTERM sent to vmpirun reaches every process
    "$vmpirun" --procs 2 -n 2 "$probe" 2 sleep 60 >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    while [ "$(oks 2)" -lt 2 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
    kill -TERM $pid
    wait $pid
    rc=$?
    check "SIGTERM to vmpirun is forwarded: the job ends with 128+15 (rc $rc)" \
        '[ $rc -eq 143 ] && grep -q "was killed by signal 15 (SIGTERM)" "$tmp/err" && none_left' ;;
vmpirun_killed) # vmpirun killed outright (SIGKILL; SIGPIPE when its output went to a closed pipe): the job's
    # processes die with it, none is left orphaned
    "$vmpirun" --procs 2 -n 2 "$probe" 2 sleep 60 >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    while [ "$(oks 2)" -lt 2 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; done
    kill -KILL $pid
    wait $pid
    for i in $(seq 50); do # (the kernel delivers the death signal at once; reaping by init may lag)
        alive=0
        for f in "$tmp"/pid.*; do kill -0 "$(cat "$f")" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1
    done
    check "SIGKILL to vmpirun takes its processes with it" 'none_left' ;;
bad) # refused before anything starts
    for v in 0 -1 two 2x ""; do
        run "$vmpirun" --procs "$v" -n 4 "$probe" 2
        check "--procs '$v' refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "bad value .$v. for --procs: expected a number of processes from 1 to 1024" "$tmp/err"'
    done
    run "$vmpirun" --procs=0 -n 4 "$probe" 2
    check "--procs=0 refused, named as given (rc $rc)" '[ $rc -eq 2 ] && grep -q "bad value .0. for --procs=0" "$tmp/err"'
    run "$vmpirun" --procs 5 -n 4 "$probe" 5
    check "--procs 5 with 4 ranks refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "\-\-procs 5 with 4 ranks: a process would host no rank" "$tmp/err"'
    run env VMPI_NRANKS=2 "$vmpirun" --procs 3 "$probe" 3
    check "--procs 3 with VMPI_NRANKS=2 refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "\-\-procs 3 with 2 ranks" "$tmp/err"'
    run "$vmpirun" --procs 2 "$probe" 2
    check "--procs 2 with the default 1 rank refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "\-\-procs 2 with 1 rank:" "$tmp/err"'
    run "$vmpirun" --procs 2 --emulate-nodes 0 -n 2 "$probe" 2
    check "--emulate-nodes 0 refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "bad value .0. for --emulate-nodes: expected a number of nodes" "$tmp/err"'
    run "$vmpirun" --procs 2 --emulate-nodes 3 -n 2 "$probe" 2
    check "--emulate-nodes 3 with --procs 2 refused (rc $rc)" '[ $rc -eq 2 ] && grep -q "\-\-emulate-nodes 3 with \-\-procs 2: a node would host no process" "$tmp/err"'
    run "$vmpirun" -procs 2 -n 2 "$probe" 2
    check "-procs is not an option (rc $rc)" '[ $rc -eq 2 ] && grep -q "unknown option .-procs." "$tmp/err"'
    run env -u VMPIRUN_ANY_PROGRAM "$vmpirun" --procs 2 -n 2 "$probe" 2
    check "without VMPIRUN_ANY_PROGRAM, a program that is not a vmpi one is refused (rc $rc)" \
        '[ $rc -eq 126 ] && grep -q "is not a vmpi program" "$tmp/err" && [ ! -e "$tmp/pid.0" ]' ;;
missing) # a program that is not there: said once, nothing started
    run "$vmpirun" --procs 2 -n 2 "$tmp/nothere" 2
    check "a missing program: exit 127, said once (rc $rc)" \
        '[ $rc -eq 127 ] && [ "$(grep -c "cannot run .*nothere.: No such file or directory" "$tmp/err")" -eq 1 ]'
    run "$vmpirun" --procs 2 -n 2 "$tmp" 2
    check "a directory: exit 126 (rc $rc)" '[ $rc -eq 126 ] && grep -q "cannot run .*: Permission denied" "$tmp/err"' ;;
stale) # the directory of a killed vmpirun (its server's pid gone) is removed at the next start; others stay
    mkdir -p "$tmp/t"
    sh -c 'exit 0' &
    dead=$! # a pid that no longer exists
    wait $dead
    mkdir -m 700 "$tmp/t/vmpirun.AAAAAA" "$tmp/t/vmpirun.BBBBBB" "$tmp/t/vmpirun.CCCCCC"
    mkdir "$tmp/t/vmpirun.AAAAAA/pmix_dstor_ds21_$dead" "$tmp/t/vmpirun.BBBBBB/pmix_dstor_ds21_$$"
    run env TMPDIR="$tmp/t" "$vmpirun" --procs 2 -n 2 "$probe" 2
    check "a stale directory removed, a live job's and an unknown one kept, ours removed at the end (rc $rc)" \
        '[ $rc -eq 0 ] && [ ! -e "$tmp/t/vmpirun.AAAAAA" ] && [ -d "$tmp/t/vmpirun.BBBBBB" ] && [ -d "$tmp/t/vmpirun.CCCCCC" ] && [ "$(ls "$tmp/t" | wc -l)" -eq 2 ]' ;;
noserver) # the server cannot start: said why, no hang
    run env TMPDIR="$tmp/none" "$vmpirun" --procs 2 -n 2 "$probe" 2
    check "no directory for the PMIx server: exit 1 with why (rc $rc)" \
        '[ $rc -eq 1 ] && grep -q "cannot create the PMIx server.s directory .*No such file" "$tmp/err"' ;;
*)
    echo "unknown case $case"; exit 2 ;;
esac
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
