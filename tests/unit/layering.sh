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
    if [ "$me" = 99 ]; then
        echo "layering: ${f#$src/} is in $layer, which src/layers.txt does not list"
        bad=1
    fi
    for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f"); do
        if [ "$(rank "$inc")" -gt "$me" ]; then
            echo "layering: ${f#$src/} ($layer) includes a header of $inc"
            bad=1
        fi
    done
done
[ $bad -eq 0 ] && echo " No Errors"
exit $bad
