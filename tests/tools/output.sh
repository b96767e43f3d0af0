#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Output is never lost (issue 17): tests/mpi/runtime/endings ends a job in each way a job ends (normally,
# _exit, abort, SIGSEGV, SIGFPE, SIGILL, SIGTERM, SIGINT, MPI_Abort, a fatal MPI error, a deadlock, exit(5)
# in one rank) with stdout and stderr to a pipe, to files and to a pseudo-terminal (script(1)), on 1 and
# 2 PEs, and counts the lines that arrive:
#   - every line a rank flushed with fflush (stdout) or wrote to stderr, in every case;
#   - on every end vmpi handles (all but _exit), every line written, whole, and the ranks' unfinished lines
#     after every complete one;
#   - the exit status the end gives (128 + the signal for a signal), and for a signal in a rank, a message
#     naming the rank and the signal;
#   - the deadlock report (tests/mpi/errors/deadlock_calls): the call each rank is in, and for
#     point-to-point the peer, the tag and the communicator.
# Usage: output.sh BUILD_DIR.  Every run is under `timeout`.
set -u
build=$1
vmpirun=$build/bin/vmpirun
prog=$build/tests/mpi/runtime/endings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
K=5

# check END RANKS DEST STATUS: the files $tmp/out and $tmp/err (one file for the terminal)
check() {
    python3 - "$@" "$tmp/out" "$tmp/err" "$K" <<'EOF'
import re, sys
end, ranks, dest, status, outf, errf, K = sys.argv[1:]
ranks, status, K = int(ranks), int(status), int(K)
out = open(outf, 'rb').read().decode(errors='replace').replace('\r\n', '\n')
err = open(errf, 'rb').read().decode(errors='replace').replace('\r\n', '\n') if dest != 'pty' else out
expect = {'none': 0, '_exit': 3, 'abort': 134, 'segv': 139, 'fpe': 136, 'ill': 132, 'term': 143, 'int': 130,
          'mpi_abort': 7, 'fatal': 1, 'deadlock': 1, 'exit': 5}[end]
problems = []
if dest != 'pty' and status != expect:
    problems.append('exit status %d, expected %d' % (status, expect))
if dest == 'pty' and (status == 0) != (expect == 0):
    problems.append('exit status %d, expected %s' % (status, 'nonzero' if expect else '0'))
def count(text, kind):
    got = {}
    for l in text.split('\n'):
        m = re.fullmatch(kind + r' (\d+) (\d+)', l)
        if m:
            got[(int(m[1]), int(m[2]))] = got.get((int(m[1]), int(m[2])), 0) + 1
    want = {(r, k) for r in range(ranks) for k in range(K)}
    missing = sorted(want - set(got))
    twice = sorted(x for x, n in got.items() if n > 1)
    if missing:
        problems.append('%d of %d "%s" lines missing, e.g. %s' % (len(missing), len(want), kind, missing[:3]))
    if twice:
        problems.append('"%s" lines written twice: %s' % (kind, twice[:3]))
count(out, 'F')  # flushed: always
count(err, 'E')  # stderr: always
if end != '_exit':
    count(out, 'U')
    tokens = re.findall(r'<P (\d+)>', out)
    if sorted(int(t) for t in tokens) != list(range(ranks)):
        problems.append('unfinished lines: got %s' % tokens)
    first = out.find('<P ')
    last = max((m.end() for m in re.finditer(r'(?m)^[FU] \d+ \d+$', out)), default=-1)
    if end != 'none' and first >= 0 and first < last:
        problems.append('an unfinished line comes before a complete one')
if end == 'none' and '\n No Errors\n' not in out:
    problems.append('no " No Errors" line')
if end in ('segv', 'fpe', 'ill', 'abort'):
    sig = {'segv': 'SIGSEGV', 'fpe': 'SIGFPE', 'ill': 'SIGILL', 'abort': 'SIGABRT'}[end]
    if not re.search(r'vmpi: rank %d \(PE \d+\) \w+: %s' % (ranks - 1, sig), err):
        problems.append('no message naming rank %d and %s' % (ranks - 1, sig))
for p in problems:
    print('FAIL: %s %dx to %s: %s' % (end, ranks, dest, p))
sys.exit(1 if problems else 0)
EOF
}

runs=0
for rp in "4 2" "3 1" "1 1"; do
    set -- $rp
    n=$1 p=$2
    for end in none _exit abort segv fpe ill term int mpi_abort fatal deadlock exit; do
        for dest in pipe file pty; do
            cmd="$vmpirun -n $n -p $p $prog $end"
            case $dest in
            file)
                timeout 60 $cmd >"$tmp/out" 2>"$tmp/err"
                rc=$?
                ;;
            pipe)
                # each stream through its own pipe; the status of the job, not of cat
                { { timeout 60 $cmd 2>&1 1>&3 3>&-; echo $? >"$tmp/rc"; } | cat >"$tmp/err"; } 3>&1 | cat >"$tmp/out"
                rc=$(cat "$tmp/rc")
                ;;
            pty)
                timeout 60 script -qec "$cmd" /dev/null </dev/null >"$tmp/out" 2>/dev/null
                rc=$?
                : >"$tmp/err"
                ;;
            esac
            runs=$((runs + 1))
            if ! check "$end" "$n" "$dest" "$rc"; then
                fails=$((fails + 1))
                echo "  command: $cmd (status $rc)"
                tail -n 4 "$tmp/out" | sed 's/^/  stdout: /'
                tail -n 4 "$tmp/err" | sed 's/^/  stderr: /'
            fi
        done
    done
done
# the deadlock report names the call each rank is in (a large-count form as called), and for point-to-point
# the peer, the tag and the communicator
for p in 1 2; do
    cmd="$vmpirun -n 8 -p $p $build/tests/mpi/errors/deadlock_calls"
    timeout 60 $cmd >"$tmp/out" 2>"$tmp/err"
    rc=$?
    runs=$((runs + 1))
    for want in "rank 0 (PE 0) waits in MPI_Barrier" \
        "rank 1 (PE 0) waits in MPI_Recv for a message from rank 0 (tag 7) on MPI_COMM_WORLD" \
        "waits in MPI_Wait for a message from any rank (tag 9) on mycomm" \
        "waits in MPI_Ssend for rank 1 to receive its message (tag 5) on MPI_COMM_WORLD" \
        "rank 4 (PE $((p - 1))) waits in MPI_Finalize" "rank 5 (PE $((p - 1))) waits in MPI_Wait on mycomm" \
        "rank 6 (PE $((p - 1))) waits in MPI_Bcast_c on MPI_COMM_WORLD"; do
        if [ "$rc" -ne 1 ] || ! grep -qF -- "$want" "$tmp/err"; then
            echo "FAIL: deadlock report on $p PE(s) (status $rc) lacks: $want"
            sed 's/^/  stderr: /' "$tmp/err"
            fails=$((fails + 1))
        fi
    done
done

echo "$runs runs, $fails failed"
if [ "$fails" -eq 0 ]; then
    echo " No Errors"
    exit 0
fi
exit 1
