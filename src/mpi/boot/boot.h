/* SPDX-License-Identifier: BSD-3-Clause */
/* Starting and ending the job and its ranks (boot.c): the entry points of the start object (src/start). */
#ifndef VMPI_MPI_BOOT_H
#define VMPI_MPI_BOOT_H

#include "base/compiler.h"

typedef int (*vmpi_main_fn)(int, char **, char **);

/* Boots the runtime, runs `main` once per rank, returns the job's exit status. */
VMPI_EXPORT int vmpi_boot(int argc, char **argv, vmpi_main_fn main);
/* The same for a program built as an image (src/start/image_entry.c): `method` 1 auto, 2 tls (img.h). */
VMPI_EXPORT int vmpi_boot_image(int argc, char **argv, vmpi_main_fn main, int method);
/* exit() from the program: ends the calling rank if it is one, returns otherwise. */
VMPI_EXPORT void vmpi_start_exit(int code);
/* Ends the calling rank as if its main returned `code` (exit() in a rank). */
VMPI_NORETURN void vmpi_rank_exit(int code);

#endif
