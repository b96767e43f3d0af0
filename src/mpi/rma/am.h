/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-interoperable active messages (include/vmpi/mpix_am.h; user's guide docs/AM.md).
 *
 * In one address space the five buffers of the model collapse: by default (the direct path) the origin runs
 * the target's handler itself, reading the origin's input buffer and writing the origin's output buffer in
 * place, on the persistent buffer in the target's window, with the target's copy of the program (its
 * function, globals and thread_locals) but the origin's heap.  Handlers on one target window are serialized
 * by the target's handler lock (not taken under an exclusive lock: nobody else can reach the target).
 *
 * The staged path (window hint am_staged=true, or --am-staged 1) does what a runtime between processes
 * must, and what the paper measures: input is copied into a buffer at the target, the handler runs there,
 * output is copied back.  Segments go first into the origin's partition of the target's system buffer
 * (am_system_buffer bytes, 8 KiB by default), the rest into user buffers attached at the target, which
 * origins share and must reserve (a synchronization with the target's buffer state, counted as a
 * handshake) - except with the paper's optimizations: under an exclusive lock the origin takes a view of
 * the buffers once and uses them alone until the next flush (or the whole epoch with
 * am_buf_interleave_am_detach=false); a hint am_user_buf_<rank>=BYTES gives the origin space of its own at
 * that target, claimed once.  An AM's units are planned as if in flight together (the paper's pipeline), then
 * run one after the other.  MPIX_Amv sends back only the generated elements (packed at the target, unpacked
 * at the origin) when they are less than am_pack_threshold of the maximum (by default the measured crossover,
 * 1 - 800 B / output segment). */
#ifndef VMPI_MPI_RMA_AM_H
#define VMPI_MPI_RMA_AM_H

#include <mpi.h>
#include "mpi/rma/win.h"

typedef struct vmpi_am_ubuf { /* a user buffer attached at a target */
    char *base;
    MPI_Aint size;
    MPI_Aint claimed;         /* bytes at its start given to origins for good (am_user_buf_<rank> hints) */
    MPI_Aint top;             /* transient reservations end here */
    int live;                 /* reservations in use: at 0 top goes back to claimed */
} vmpi_am_ubuf;

struct vmpi_rank;
/* The calling rank's handler table. */
int vmpi_am_op_create(void *fn, bool vector, void *extra_state, MPIX_Am_op *op);
int vmpi_am_op_free(MPIX_Am_op *op);
/* Frees a rank's table at the end of the job. */
void vmpi_am_rank_fini(struct vmpi_rank *rk);

typedef struct vmpi_am_args {
    const void *in;
    int in_count;             /* elements per segment */
    const vmpi_dtype *in_dt, *tin_dt;
    MPI_Datatype tin_h;
    void *out;
    int out_count;
    const vmpi_dtype *out_dt, *tout_dt;
    MPI_Datatype tout_h;
    int nseg;
    int rank;
    MPI_Aint pdisp;
    int pcount;
    const vmpi_dtype *pdt;
    MPI_Datatype pdt_h;
    int *counts;              /* MPIX_Amv: output_segment_counts, else NULL */
    MPIX_Am_op op;
} vmpi_am_args;

/* MPIX_Am / MPIX_Amv (a->counts set); `why` gets a description of a failure (160 bytes). */
int vmpi_am(vmpi_win *w, const vmpi_am_args *a, char *why);
int vmpi_am_attach(vmpi_win *w, void *buf, MPI_Aint size);
int vmpi_am_detach(vmpi_win *w, void *buf);
/* At a flush of `rank` (-1: all), and at the end of an epoch (`end`): a view of a target's user buffers taken
 * under an exclusive lock must be read again before it is used (unless am_buf_interleave_am_detach=false),
 * or is dropped. */
void vmpi_am_sync_point(vmpi_win *w, int rank, bool end);
void vmpi_am_win_free(vmpi_win *w);
int vmpi_am_stats(vmpi_win *w, VMPIX_Am_stats *st, bool reset);

#endif
