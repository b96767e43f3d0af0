/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun's check of the program it starts (vmpirun-prog.c). */
#ifndef VMPIRUN_PROG_H
#define VMPIRUN_PROG_H

#include <stddef.h>

typedef enum {
    VMPIRUN_VMPI,    /* built with the wrappers (or a tool starting such a program) */
    VMPIRUN_LIBVMPI, /* uses libvmpi, but its main is not started by vmpi */
    VMPIRUN_OTHER,   /* not a vmpi program (a script either) */
    VMPIRUN_UNKNOWN  /* not found, unreadable, not ELF: execvp says what is wrong, or it runs */
} vmpirun_kind;

/* What the command argv[0..argc) is; `path` gets argv[0]'s file as execvp finds it. */
vmpirun_kind vmpirun_check(int argc, char **argv, char *path, size_t len);

#endif
