/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun's parts (tools/vmpirun*.c). */
#ifndef VMPIRUN_H
#define VMPIRUN_H

#include <stddef.h>

/* What the program vmpirun is asked to start is (vmpirun_prog.c). */
typedef enum {
    VMPIRUN_VMPI,    /* built with the wrappers (or a tool starting such a program) */
    VMPIRUN_LIBVMPI, /* uses libvmpi, but its main is not started by vmpi */
    VMPIRUN_OTHER,   /* not a vmpi program (a script either) */
    VMPIRUN_UNKNOWN  /* not found, unreadable, not ELF: execvp says what is wrong, or it runs */
} vmpirun_kind;

/* What the command argv[0..argc) is; `path` gets argv[0]'s file as execvp finds it. */
vmpirun_kind vmpirun_check(int argc, char **argv, char *path, size_t len);

/* MPIEXEC_TIMEOUT (vmpirun_timeout.c). */
/* the exit status of a job stopped by MPIEXEC_TIMEOUT (as coreutils' timeout) */
#define VMPIRUN_TIMEOUT_EXIT 124

/* MPIEXEC_TIMEOUT's value in seconds (0: none), or -1 when it is not a number of seconds */
int vmpirun_timeout_parse(const char *s);
/* runs argv as a child, stopped after `seconds`; returns the exit status vmpirun should end with */
int vmpirun_exec_timeout(char **argv, int seconds);

#endif
