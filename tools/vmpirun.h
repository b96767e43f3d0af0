/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun's parts (tools/vmpirun*.c). */
#ifndef VMPIRUN_H
#define VMPIRUN_H

/* the exit status of a job stopped by MPIEXEC_TIMEOUT (as coreutils' timeout) */
#define VMPIRUN_TIMEOUT_EXIT 124

/* MPIEXEC_TIMEOUT's value in seconds (0: none), or -1 when it is not a number of seconds */
int vmpirun_timeout_parse(const char *s);
/* runs argv as a child, stopped after `seconds`; returns the exit status vmpirun should end with */
int vmpirun_exec_timeout(char **argv, int seconds);

#endif
