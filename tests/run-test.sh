#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs one MPI test: vmpirun -n RANKS -p PES PROGRAM.  Passes when the exit status is EXIT and, for EXIT 0,
# the output holds " No Errors"; EXPECT, when given, must appear in the output too.  Further arguments are
# NAME=VALUE settings for the job (e.g. VMPI_BALANCER=Rotate).
# With MT_EMULATE_PROCS=K in the environment (make test-emul) the job runs in the emulated multi-process
# mode with K process groups: on max(PES, K) PEs, or with MT_EMULATE_PES=each on K x PES PEs (each group has
# the test's PEs: ranks still move within a group); a test with fewer than K ranks runs as it is.
# With MT_PROCS=K the job runs as K OS processes over the network transport (UCX, wired up through PMIx);
# a test's setting MT_NODES=M then has vmpirun tell them they run on M nodes (--emulate-nodes; M at most
# K), and the program sees MT_NODES only then (mtest.h: mt_nnodes).
vmpirun=$1 prog=$2 ranks=$3 pes=$4 exit=$5 expect=$6
shift 6
for setting in "$@"; do
    case $setting in
    ASAN_OPTIONS=*) # added to the caller's (detect_leaks=0 of make test-asan), not instead of them
        export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}${setting#ASAN_OPTIONS=}" ;;
    *) export "${setting?}" ;;
    esac
done
k=${MT_EMULATE_PROCS:-1}
if [ "$k" -gt 1 ] && [ "$ranks" -ge "$k" ] && [ -z "${VMPI_EMULATE_PROCS:-}" ]; then
    if [ "${MT_EMULATE_PES:-}" = each ]; then
        pes=$((pes * k))
    elif [ "$pes" -lt "$k" ]; then
        pes=$k
    fi
    export VMPI_EMULATE_PROCS="$k"
fi
procs=${MT_PROCS:-1}
if [ "$procs" -gt 1 ] && [ "$ranks" -ge "$procs" ] && [ -z "${VMPI_EMULATE_PROCS:-}" ]; then
    # a job of MT_PROCS OS processes (make test-procs), each with the test's PEs (at most its ranks);
    # MT_LAUNCHER=openmpi starts them with Open MPI's mpirun (its PMIx server) instead of vmpirun
    per=$((ranks / procs))
    [ "$pes" -gt "$per" ] && pes=$per
    nodes=
    if [ -n "${MT_NODES:-}" ]; then
        [ "$MT_NODES" -gt "$procs" ] && MT_NODES=$procs
        nodes="--emulate-nodes $MT_NODES"
    fi
    if [ "${MT_LAUNCHER:-vmpirun}" = openmpi ]; then
        unset MT_NODES # Open MPI's mpirun places processes on the nodes it knows
        out=$(VMPI_NRANKS=$ranks VMPI_NPES=$pes mpirun.openmpi --allow-run-as-root --oversubscribe --bind-to none \
            -n "$procs" "$prog" 2>&1)
    else
        # shellcheck disable=SC2086 # $nodes: no option, or the option and its value
        out=$("$vmpirun" --procs "$procs" $nodes -n "$ranks" -p "$pes" "$prog" 2>&1)
    fi
else
    unset MT_NODES # one process (or the emulated mode's groups of one): one node
    out=$("$vmpirun" -n "$ranks" -p "$pes" "$prog" 2>&1)
fi
rc=$?
printf '%s\n' "$out" | tail -n 40
if [ "$rc" -ne "$exit" ]; then
    echo "FAIL: exit status $rc, expected $exit"
    exit 1
fi
if [ "$exit" -eq 0 ] && ! printf '%s\n' "$out" | grep -q '^ No Errors$'; then
    echo "FAIL: no ' No Errors' line"
    exit 1
fi
if [ -n "$expect" ] && ! printf '%s\n' "$out" | grep -qF -- "$expect"; then
    echo "FAIL: output lacks '$expect'"
    exit 1
fi
exit 0
