#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# The layering rule: a layer includes headers of its own layer and of the layers below it only, in the order
# of src/layers.txt (the file CMakeLists.txt makes the layers' libraries from; start is linked into programs
# and includes nothing).
src=$1
order=$(grep '^[a-z]' "$src/layers.txt")
rank() { i=0; for l in $order; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i+1)); done; echo 99; }
bad=0
for f in $(find "$src" -name '*.[ch]'); do
    layer=$(echo "${f#$src/}" | cut -d/ -f1)
    [ "$layer" = start ] && continue
    me=$(rank "$layer")
    [ "$layer" = net ] && me=$(rank xport) # the network plugin: on xport's level, loaded by it at run time
    [ "$layer" = abi ] && me=$(rank fortran) # libmpi_abi: a library of its own, over all of libvmpi
    if [ "$me" = 99 ]; then
        echo "layering: ${f#$src/} is in $layer, which src/layers.txt does not list"
        bad=1
    fi
    for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f"); do
        if [ "$inc" != "$layer" ] && [ "$(rank "$inc")" -gt "$me" ]; then
            echo "layering: ${f#$src/} ($layer) includes a header of $inc"
            bad=1
        fi
    done
done
# Inside mpi/, the areas (core, comm, coll, ...) include one another without a cycle, and core includes no other.
for f in $(find "$src/mpi/core" -name '*.[ch]'); do
    for to in $(sed -n 's/^#include "mpi\/\([a-z0-9_]*\)\/.*/\1/p' "$f" | grep -v '^core$'); do
        echo "layering: ${f#$src/} (mpi/core) includes a header of mpi/$to"
        bad=1
    done
done
edges=$(for f in $(find "$src/mpi" -name '*.[ch]'); do
    from=$(echo "${f#$src/mpi/}" | cut -d/ -f1)
    for to in $(sed -n 's/^#include "mpi\/\([a-z0-9_]*\)\/.*/\1/p' "$f"); do
        [ "$to" != "$from" ] && echo "$from $to"
    done
done | sort -u)
if [ -n "$edges" ] && ! echo "$edges" | tsort >/dev/null 2>&1; then
    echo "layering: the areas of mpi/ include one another in a cycle (tsort names its members):"
    echo "$edges" | tsort 2>&1 >/dev/null | head -8
    bad=1
fi
[ $bad -eq 0 ] && echo " No Errors"
exit $bad
