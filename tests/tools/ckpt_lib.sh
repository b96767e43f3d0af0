# SPDX-License-Identifier: BSD-3-Clause
# What the checkpoint scripts (ckpt.sh, ckpt_procs.sh) share, sourced after they set $build: a skip in
# sanitizer builds, the scratch directory $tmp, running a job, failing a check, checkpoint files.
if grep -q -E '^VMPI_(SANITIZE|TSAN):BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
    echo "skipped: sanitizer build (checkpoints to files are refused there)"
    echo " No Errors"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
start=$(date +%s)

# run TIMEOUT [NAME=VALUE...] COMMAND ARGS...: stdout in $tmp/out, stderr in $tmp/err, status in $rc
run() {
    to=$1
    shift
    cmd="$*"
    timeout "$to" env "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
}
fail() {
    echo "FAIL: $*"
    echo "  command: $cmd"
    echo "  exit status: $rc"
    tail -n 6 "$tmp/out" | sed 's/^/  stdout: /'
    tail -n 6 "$tmp/err" | sed 's/^/  stderr: /'
    # vmpi's own messages say why, and the ranks' lines after them can push them out of the tail
    grep '^vmpi' "$tmp/err" | head -n 4 | sed 's/^/  vmpi: /'
    fails=$((fails + 1))
}
digests() { grep '^rank [0-9]* digest ' "$1" | sort; }
# the job finished: status 0, " No Errors", and (when $1 is given) the digests in file $1
check_ok() {
    if [ "$rc" -ne 0 ]; then
        fail "$2: exit status $rc, expected 0"
        return 1
    fi
    if ! grep -q '^ No Errors$' "$tmp/out"; then
        fail "$2: no ' No Errors'"
        return 1
    fi
    if [ -n "$1" ] && ! digests "$tmp/out" | cmp -s - "$1"; then
        fail "$2: digests differ from the uninterrupted run's"
        digests "$tmp/out" | diff "$1" - | head -n 6 | sed 's/^/  diff: /'
        return 1
    fi
    return 0
}
ckpts() { find "$1" -maxdepth 1 -name 'vmpi-ckpt-*.ckpt' 2>/dev/null | sort; }
ntmps() { find "$1" -maxdepth 1 -name '.vmpi-ckpt-*.tmp' 2>/dev/null | wc -l; }
# sets byte $2 of file $1 to octal value $3
poke() { printf "\\$3" | dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null; }
peek() { dd if="$1" bs=1 skip="$2" count=1 2>/dev/null | od -An -tu1 | tr -d ' '; }
