/* SPDX-License-Identifier: BSD-3-Clause */
/* Output of ranks, line by line: stdout and stderr become streams that collect each rank's output in a
 * buffer of its own and pass on only whole lines, so lines of ranks never interleave mid-line (a rank may
 * print half a line, block in MPI, and finish it later).  A rank's unfinished last line is written when the
 * rank ends or the job stops.  Output from outside any rank passes straight through. */
#ifndef VMPI_MPI_STDIO_H
#define VMPI_MPI_STDIO_H

#include <stddef.h>

typedef struct vmpi_linebuf {
    char *data;
    size_t len, cap;
} vmpi_linebuf;

struct vmpi_rank;

/* Replaces stdout and stderr; from the main thread before ranks start. */
void vmpi_stdio_init(void);
/* Writes out the unfinished lines of `rk` and frees its buffers. */
void vmpi_stdio_rank_done(struct vmpi_rank *rk);
/* Passes what the ranks' whole lines left in the real streams' buffers on to their files (a checkpoint: a job
 * killed after it must not lose what it printed before; ranks' unfinished lines stay theirs, and are saved). */
void vmpi_stdio_flush(void);
/* Puts the original streams back after writing out every rank's unfinished lines. */
void vmpi_stdio_fini(void);

#endif
