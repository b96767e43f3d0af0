#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# run.sh VMPIRUN PROGRAM RANKS PES LIMIT KIND EXPECT REASON PEXPECT PREASON [ARGS...]: one run of an MPICH
# test, as MPICH's runtests judges it: KIND noerrors passes on exit status 0 with a " No Errors" line, KIND
# status (resultTest=TestStatus / TestErrFatal) on a non-zero exit status.  The job gets
# MPIEXEC_TIMEOUT=LIMIT (the testlist's timeLimit=), as runtests gives mpiexec.  EXPECT (from
# tests/mpich/xfail): pass; fail, where a failure passes with REASON and a pass fails, so that the stale line
# is removed; flaky, either.  With MT_PROCS=K in the environment (make test-procs) a run of K ranks or more
# is a job of K OS processes (vmpirun --procs K, each with the run's PEs, at most its share of the ranks),
# judged against PEXPECT and PREASON instead (xfail's procs: lines; skip: not run, reported as skipped).
vmpirun=$1 prog=$2 ranks=$3 pes=$4 limit=$5 kind=$6 expect=$7 reason=$8 pexpect=$9 preason=${10}
shift 10
name=${prog#*/tests/mpich/}
procs=${MT_PROCS:-1}
launch=
if [ "$procs" -gt 1 ] && [ "$ranks" -ge "$procs" ]; then
    per=$((ranks / procs))
    [ "$pes" -gt "$per" ] && pes=$per
    launch="--procs $procs"
    expect=$pexpect reason=$preason
    if [ "$expect" = skip ]; then
        echo "skipped as $procs processes: $reason"
        exit 77 # (SKIP_RETURN_CODE)
    fi
fi
if [ ! -f "$prog.build-log" ]; then
    # MPICH runs each test in its own directory (cmsplit_type's argument is ".")
    # shellcheck disable=SC2086 # $launch: no option, or the option and its value
    out=$(cd "$(dirname "$prog")" && MPIEXEC_TIMEOUT=$limit "$vmpirun" $launch -n "$ranks" -p "$pes" "$prog" "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | tail -n 40
    case $kind in
    noerrors) [ "$rc" -eq 0 ] && printf '%s\n' "$out" | grep -Eq '^[[:space:]]*No [Ee]rrors[[:space:]]*$' ;;
    status) [ "$rc" -ne 0 ] ;;
    *) echo "run.sh: unknown kind '$kind'"; exit 2 ;;
    esac
    ok=$?
    [ $ok -ne 0 ] && echo "FAIL: exit status $rc$([ "$kind" = status ] && echo ', expected non-zero')"
else
    tail -n 40 "$prog.build-log"
    echo "FAIL: $name was not built"
    ok=1
fi
case $expect in
pass) exit $ok ;;
fail)
    if [ $ok -eq 0 ]; then
        echo "XPASS: expected to fail ($reason), but passes: remove its line from tests/mpich/xfail"
        exit 1
    fi
    echo "XFAIL (expected): $reason"
    exit 0 ;;
flaky)
    [ $ok -eq 0 ] && echo "passed (flaky: $reason)" || echo "XFAIL (flaky): $reason"
    exit 0 ;;
esac
echo "run.sh: unknown expectation '$expect'"
exit 2
