#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# vmpi-globals lists every kind of mutable global of a sample program (built with -g), with its kind, size and
# source line, and refuses a file that is not a program with a clear message.
tool=$1 prog=$2
out=$("$tool" "$prog") || { echo "FAIL: vmpi-globals failed"; exit 1; }
echo "$out"
fail=0
check() { printf '%s\n' "$out" | grep -Eq "$1" || { echo "FAIL: no line matching: $1"; fail=1; }; }
check '^ +800  global +sample_table  .*globals_sample.c:5$'
check '^ +4  global +sample_counter '
check '^ +4  static +sample_hidden '
check '^ +4  thread_local +sample_tls '
check '^ +4  function static +sample_count '
check 'C library state in the program.*stdout'
if "$tool" /etc/hostname >/dev/null 2>&1; then echo "FAIL: a non-program was accepted"; fail=1; fi
"$tool" /etc/hostname 2>&1 | grep -q 'vmpi-globals: nm could not read' || { echo "FAIL: unclear error"; fail=1; }
[ $fail -eq 0 ] && echo " No Errors"
exit $fail
