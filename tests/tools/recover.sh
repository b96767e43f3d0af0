#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause
# Surviving a lost process (issue 20): vmpirun --recover N with in-memory checkpoints kept in two processes,
# with tests/mpi/ckpt/ckpt_state (a deterministic program that prints a digest of each rank's whole state,
# with messages and requests in flight between processes at every checkpoint), checkpointing in memory at
# every step:
#   - one process killed with SIGKILL at a random moment (many seeds: the process, the moment, 2 to 4
#     processes, UCX over shared memory or over TCP on the loopback interface, recovered on the surviving
#     processes or on as many as before): the job finishes with status 0 and the digests of an
#     uninterrupted run, and vmpirun said that it recovered, and on how many processes;
#   - two processes that are not buddies killed together (4 processes), and a whole emulated node of two
#     (--emulate-nodes: the buddies are on the other node): recovered too, on the 2 survivors;
#   - two buddies killed together: a clear message, the killed process's status (137), never a hang;
#   - a process killed before any checkpoint, and a second loss after --recover 1's one recovery: a clear
#     message and status 137;
#   - the directory vmpirun made in /dev/shm is gone when the job ends;
#   - bad uses of --recover: refused with exit status 2 and the option named.
# Usage: recover.sh BUILD_DIR [SEEDS].  Every job is under a watchdog.
set -u
build=$1
seeds=${2:-8}
vmpirun=$build/bin/vmpirun
prog=$build/tests/mpi/ckpt/ckpt_state
. "$(dirname "$0")/ckpt_lib.sh"
[ -x "$prog" ] || { echo "FAIL: $prog not built"; exit 1; }
steps=40
n=12

# launch [NAME=VALUE...] ARGS...: vmpirun ARGS in the background under `timeout` (its pid in $tp), out and
# err in $tmp
launch() {
    cmd="$*"
    timeout -s KILL 150 env "$@" >"$tmp/out" 2>"$tmp/err" &
    tp=$!
}
finish() {
    wait "$tp"
    rc=$?
}
# the pid of process $1 of the job (vmpirun's child) now, empty when none
proc_pid() {
    for v in $(pgrep -P "$tp"); do
        for c in $(pgrep -P "$v"); do
            tr '\0' '\n' 2>/dev/null <"/proc/$c/environ" | grep -qx "PMIX_RANK=$1" && { echo "$c"; return; }
        done
    done
}
# waits (at most 60 s) until directory $1 holds a manifest in each of its $2 processes' directories (default
# 1: any): a checkpoint was kept
wait_manifest() {
    for _ in $(seq 6000); do
        [ "$(ls "$1"/p*/vmpi-ckpt-*.ckpt 2>/dev/null | wc -l)" -ge "${2:-1}" ] && return 0
        kill -0 "$tp" 2>/dev/null || return 1
        sleep 0.01
    done
    return 1
}
# kills processes $@ of the job at once (SIGKILL), once each of them runs
kill_procs() {
    pids=""
    for k in "$@"; do
        p=""
        for _ in $(seq 500); do
            p=$(proc_pid "$k")
            [ -n "$p" ] && break
            sleep 0.01
        done
        [ -n "$p" ] || return 1
        pids="$pids $p"
    done
    # shellcheck disable=SC2086
    kill -9 $pids 2>/dev/null
}
recovered_ok() { # $1: what
    check_ok "$ref" "$1" || return 1
    [ "$(digests "$tmp/out" | sort -u | wc -l)" -eq "$n" ] || { fail "$1: digests differ"; return 1; }
    return 0
}
# check_ok compares sorted digests: a killed run may have printed some before the loss (the same, or not)
digests() { grep '^rank [0-9]* digest ' "$1" | sort -u; }

run 120 "$vmpirun" -n $n -p 1 "$prog" $steps none "$tmp/unused"
check_ok "" "uninterrupted run in one process" || { echo "FAIL: no reference"; exit 1; }
ref=$tmp/ref
digests "$tmp/out" >"$ref"

# ---- one process killed at a random moment, many seeds
RANDOM=20
for seed in $(seq "$seeds"); do
    K=$((2 + seed % 3))
    victim=$((RANDOM % K))
    delay=$(printf '0.%02d' $((RANDOM % 100)))
    ft=$tmp/ft.$seed
    net="UCX_TLS=sm,self" # every fourth seed over TCP on the loopback interface, as between nodes
    [ $((seed % 4)) -eq 3 ] && net="UCX_TLS=tcp,self UCX_NET_DEVICES=lo"
    on=survivors # every third on as many processes as before (a spare node)
    [ $((seed % 3)) -eq 2 ] && on=same
    what="seed $seed: $n ranks in $K processes ($net), process $victim killed ${delay}s after the first kept checkpoint, recovered on the $on"
    # shellcheck disable=SC2086
    launch $net VMPI_FT_DIR="$ft" "$vmpirun" --procs $K --recover 2 --recover-procs $on -n $n -p 1 "$prog" $steps all in_memory
    if ! wait_manifest "$ft"; then
        finish
        fail "$what: no checkpoint was kept"
        continue
    fi
    sleep "$delay"
    if ! kill_procs "$victim"; then
        finish
        fail "$what: process $victim was not found to kill (the job ended first?)"
        continue
    fi
    finish
    recovered_ok "$what" || continue
    m=$K
    [ $on = survivors ] && m=$((K - 1))
    [ $m -gt 1 ] && ms="$m processes" || ms="1 process"
    grep -q "recovering from the loss of process $victim (recovery 1 of 2): .* on $ms" "$tmp/err" ||
        fail "$what: no recovery on $ms said"
done

# ---- two processes that are not buddies (each part has a copy elsewhere), and a node of two
ft=$tmp/ft.nb
launch VMPI_FT_DIR="$ft" "$vmpirun" --procs 4 --recover 1 -n $n -p 1 "$prog" $steps all in_memory
wait_manifest "$ft" && sleep 0.3 && kill_procs 0 2
finish
recovered_ok "processes 0 and 2 of 4 killed together" &&
    { grep -q "recovering from the loss of processes 0, 2 " "$tmp/err" || fail "processes 0 and 2 of 4: no recovery said"; }
ft=$tmp/ft.node
launch VMPI_FT_DIR="$ft" "$vmpirun" --procs 4 --emulate-nodes 2 --recover 1 -n $n -p 1 "$prog" $steps all in_memory
wait_manifest "$ft" && sleep 0.3 && kill_procs 2 3
finish
recovered_ok "node 1 of 2 (processes 2 and 3 of 4) lost" &&
    { grep -q "recovering from the loss of processes 2, 3 .*process 2's part from process 0's copy; process 3's part from process 1's copy" \
        "$tmp/err" || fail "node 1 of 2 lost: the recovery's message"; }

# ---- what cannot be recovered: a clear message, the lost process's status, no hang
lost_clear() { # $1: what, $2: the message expected
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
        fail "$1: exit status $rc, expected the lost process's (137)"
    elif [ "$rc" -ne 137 ]; then
        fail "$1: exit status $rc, expected 137"
    elif ! grep -q -- "$2" "$tmp/err"; then
        fail "$1: stderr lacks /$2/"
    fi
}
ft=$tmp/ft.buddies
launch VMPI_FT_DIR="$ft" "$vmpirun" --procs 3 --recover 2 -n $n -p 1 "$prog" $steps all in_memory
wait_manifest "$ft" 3 && sleep 0.2 && kill_procs 0 1
finish
lost_clear "buddies 0 and 1 of 3 killed together" "no in-memory checkpoint survives whole"

launch "$vmpirun" --procs 2 --recover 2 -n $n -p 1 "$prog" $steps none in_memory
vr=""
for _ in $(seq 500); do
    vr=$(pgrep -P "$tp")
    [ -n "$vr" ] && break
    sleep 0.01
done
kill_procs 1
finish
lost_clear "process 1 killed before any checkpoint" "had kept no in-memory checkpoint"
[ -n "$vr" ] && [ -z "$(find /dev/shm -maxdepth 1 -name "vmpi-ft.$vr.*" 2>/dev/null)" ] ||
    fail "the directory vmpirun made for the kept checkpoints is left: $(ls -d /dev/shm/vmpi-ft.* 2>&1)"

ft=$tmp/ft.twice
launch VMPI_FT_DIR="$ft" "$vmpirun" --procs 3 --recover 1 -n $n -p 1 "$prog" $steps all in_memory
wait_manifest "$ft" && sleep 0.2 && kill_procs 0
for _ in $(seq 1000); do # the recovery's job runs
    grep -q recovering "$tmp/err" && [ -n "$(proc_pid 1)" ] && break
    sleep 0.01
done
sleep 0.2
kill_procs 1
finish
lost_clear "a second loss after --recover 1's recovery" "the 1 recovery that --recover 1 allows has been made"

# ---- bad uses
run 30 "$vmpirun" --recover 2 -n 2 "$prog" 4 all in_memory
[ "$rc" -eq 2 ] && grep -q -- "--recover 2 needs --procs 2 or more" "$tmp/err" || fail "--recover without --procs"
run 30 "$vmpirun" --procs 2 --recover x -n 2 "$prog" 4 all in_memory
[ "$rc" -eq 2 ] && grep -q -- "bad value 'x' for --recover" "$tmp/err" || fail "--recover x"

echo "recover.sh: $(($(date +%s) - start)) s"
[ "$fails" -eq 0 ] && echo " No Errors"
