/* SPDX-License-Identifier: BSD-3-Clause */
/* Output of ranks, line by line: stdout and stderr become streams that collect each rank's output in a
 * buffer of its own (system memory) and write only whole lines to the file descriptor, so lines of ranks
 * never interleave mid-line (a rank may print half a line, block in MPI, and finish it later).  stderr, and
 * stdout to a terminal, write each complete line at once; stdout to a pipe or a file gathers a rank's lines
 * up to 4 KiB, and the program's fflush (src/start/start.c defines it) writes them out, as a process's
 * would.  A rank's unfinished last line is written when the rank ends; every fatal end vmpi sees writes
 * every rank's complete lines, then the unfinished ones.  Output from outside any rank goes to the real
 * streams. */
#ifndef VMPI_MPI_STDIO_H
#define VMPI_MPI_STDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "base/compiler.h"

/* A rank's unfinished line while a checkpoint is written: in its slot, so that the checkpoint has it. */
typedef struct vmpi_ckpt_line {
    char *data;
    size_t len;
} vmpi_ckpt_line;

struct vmpi_rank;

/* Replaces stdout and stderr; from the main thread before ranks start (`restart`: the ranks come from a
 * checkpoint, with their unfinished lines). */
void vmpi_stdio_init(bool restart);
/* Writes out the unfinished lines of `rk` and frees its buffers. */
void vmpi_stdio_rank_done(struct vmpi_rank *rk);
/* A checkpoint, world stopped: writes out every rank's complete lines (a job killed after it must not lose
 * what it printed before) and copies the unfinished ones into the ranks' slots, to be saved; ckpt_end frees
 * the copies once the checkpoint is written. */
void vmpi_stdio_ckpt_begin(void);
void vmpi_stdio_ckpt_end(void);
/* A rank moves to another process (world stopped): its complete lines are written here, its unfinished ones
 * go with it in its slot (as for a checkpoint) and come back into its buffers there. */
void vmpi_stdio_rank_leave(struct vmpi_rank *rk);
void vmpi_stdio_rank_arrive(struct vmpi_rank *rk);
/* The program's fflush: a rank's own stream writes out its complete lines; then glibc's fflush. */
VMPI_EXPORT int vmpi_stdio_fflush(FILE *f);
/* Puts the original streams back after writing out every rank's unfinished lines. */
void vmpi_stdio_fini(void);

#endif
