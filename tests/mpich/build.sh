#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# build.sh OUT COMPILER ARGS...: builds one MPICH test program, `COMPILER ARGS... -o OUT`.  A program that
# does not build (a test of what vmpi lacks) must not stop the build: its messages go to OUT.build-log,
# which run.sh shows as the failure of each of its runs, and OUT becomes a stub that says so (so that the
# build is up to date until the program's inputs change).
out=$1
shift
mkdir -p "$(dirname "$out")"
rm -f "$out" "$out.build-log"
if "$@" -o "$out" >"$out.build-log" 2>&1; then
    rm -f "$out.build-log"
    exit 0
fi
printf '#!/bin/sh\necho "%s was not built: see %s" >&2\nexit 127\n' "$out" "$out.build-log" >"$out"
chmod +x "$out"
echo "MPICH test $(basename "$out") does not build (see $out.build-log)"
