#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# A connection between processes on two nodes that is lost while the job runs (issue 19): the job ends within
# seconds with a message naming both processes, their hosts and their ranks, never a hang.  The two nodes
# are emulated (vmpirun --emulate-nodes 2), UCX runs over TCP on the loopback interface, in its default error
# mode and in its PEER mode (VMPI_NET_PEER=1, for the endpoints between nodes), and the connections between
# the job's processes are destroyed by the kernel (`ss -K`, root only: the test is skipped otherwise), those
# to vmpirun's PMIx server left alone, and nobody else's (other tests run meanwhile).  Also: the same job without the loss ends with status 0 and no such message, and so do jobs
# whose processes end at different times (the end of a job must not look like a loss).
# Usage: lost_conn.sh BUILD_DIR
set -u
build=$1
bin=$build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset MPIEXEC_TIMEOUT VMPI_NRANKS VMPI_NPES
export UCX_TLS=tcp,self UCX_NET_DEVICES=lo
fail=0
check() {
    if eval "$2"; then echo "ok: $1"; else
        echo "FAIL: $1"; echo "-- stdout:"; tail -20 "$tmp/out"; echo "-- stderr:"; tail -20 "$tmp/err"; fail=1
    fi
}
if [ "$(id -u)" -ne 0 ] || ! ss -K -tn "( sport = :1 )" >/dev/null 2>&1; then
    echo "SKIP: destroying sockets (ss -K) needs root and a kernel with CONFIG_INET_DIAG_DESTROY"
    exit 77
fi
cat >"$tmp/ring.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* ring SECONDS [LATE]: passes a token around the ranks for SECONDS, then (with LATE) the last rank works
 * LATE ms more before it ends, so that the other process is done first and waits at the job's end */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double t0 = MPI_Wtime(), secs = atof(argv[1]);
    long it = 0;
    int go = 1;
    while (go) {
        int x = r;
        MPI_Sendrecv_replace(&x, 1, MPI_INT, (r + 1) % n, 0, (r + n - 1) % n, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (++it == 100 && r == 0)
            printf("running\n"), fflush(stdout);
        go = MPI_Wtime() - t0 < secs;
        MPI_Allreduce(MPI_IN_PLACE, &go, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    }
    if (argc > 2 && r == n - 1)
        usleep(1000 * atoi(argv[2]));
    if (r == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
EOF
"$bin/vmpicc" -O2 -o "$tmp/ring" "$tmp/ring.c" || exit 1

# the job runs; once it printed "running", every TCP connection of its processes but those to vmpirun's
# server is destroyed
for peer in 0 1; do
    export VMPI_NET_PEER=$peer
    timeout -s KILL 60 "$bin/vmpirun" --procs 2 --emulate-nodes 2 -n 4 -p 1 "$tmp/ring" 30 >"$tmp/out" 2>"$tmp/err" &
    tp=$!
    for _ in $(seq 300); do grep -q running "$tmp/out" 2>/dev/null && break; sleep 0.1; done
    vr=$(pgrep -P $tp -x vmpirun)
    port=$(ss -tlnp | grep "\"vmpirun\",pid=$vr," | awk '{print $4}' | sed 's/.*://' | head -1)
    pids=$(pgrep -P "$vr" -x ring | paste -sd'|')
    t0=$(date +%s)
    # each of the job's connections (local and peer address) but those to the server, one filter each
    ss -tnpH state established | grep -E "pid=($pids)," | awk '{print $3, $4}' | while read -r a b; do
        case "$a $b" in *":$port "*|*":$port") continue ;; esac
        ss -K -tn state established src "$a" dst "$b" >/dev/null
    done
    wait $tp
    rc=$?
    t=$(($(date +%s) - t0))
    check "VMPI_NET_PEER=$peer: the lost connection ends the job with status 1 within 15 s (rc $rc, $t s)" '[ $rc -eq 1 ] && [ $t -le 15 ]'
    check "VMPI_NET_PEER=$peer: the message names both processes, their hosts and ranks" \
        'grep -Eq "^vmpi: process [01] \(host [^,]*-node[01], ranks [0-3]-[0-3]\) lost its connection to process [01] \(host [^,]*-node[01], ranks [0-3]-[0-3]\): .*; ending the job$" "$tmp/err"'
    check "VMPI_NET_PEER=$peer: vmpirun stopped the job" 'grep -q "^vmpirun: process [01] .* stopping the job$" "$tmp/err"'
done

# no loss: a clean end, also with one process done long before the other
for late in 0 3000; do
    VMPI_NET_PEER=$((late > 0)) timeout -s KILL 60 "$bin/vmpirun" --procs 2 --emulate-nodes 2 -n 4 -p 1 "$tmp/ring" 1 $late >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check "no loss, the last rank $late ms late (VMPI_NET_PEER=$((late > 0))): status 0, no message (rc $rc)" \
        '[ $rc -eq 0 ] && grep -q "^ No Errors$" "$tmp/out" && ! grep -q "lost" "$tmp/err"'
done
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
