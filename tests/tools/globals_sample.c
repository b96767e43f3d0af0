/* SPDX-License-Identifier: BSD-3-Clause */
/* A program with one global of each kind, for tests/tools/globals.sh (vmpi-globals). */
#include <stdio.h>
int sample_counter = 5;
double sample_table[100];
static int sample_hidden = 3;
_Thread_local int sample_tls = 1;
static int sample_calls(void)
{
    static int sample_count;
    return ++sample_count + sample_hidden++;
}
int main(void)
{
    fprintf(stdout, "%d\n", sample_calls() + sample_counter + (int)sample_table[0] + sample_tls);
    return 0;
}
