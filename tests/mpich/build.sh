#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh OUT COMPILER ARGS...: builds one MPICH test program, `COMPILER ARGS... -o OUT`.  A program that
# does not build (a test of what vmpi lacks) must not stop the build: its messages go to OUT.build-log,
# which run.sh shows as the failure of each of its runs, and the build goes on (ninja retries it next time).
out=$1
shift
mkdir -p "$(dirname "$out")"
rm -f "$out" "$out.build-log"
if ! "$@" -o "$out" >"$out.build-log" 2>&1; then
    rm -f "$out"
    echo "MPICH test $(basename "$out") does not build (see $out.build-log)"
    exit 0
fi
rm -f "$out.build-log"
