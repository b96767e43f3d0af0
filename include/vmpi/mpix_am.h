/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): MPI-interoperable active messages, after Zhao, Balaji,
 * Gropp and Thakur, "Optimization Strategies for MPI-Interoperable Active Messages" (docs/AM.md is the
 * user's guide; the paper gives the model and the names, not the C prototypes, which are vmpi's).
 *
 * An active message runs a user handler at a target window on data from the origin: the handler reads an
 * *input* buffer (the origin's data), reads and updates the target's *persistent* buffer (a part of the
 * target's window, addressed like an RMA target), and writes an *output* buffer, which comes back into the
 * origin's output buffer.  Data is cut into *segments*, the smallest unit the runtime may split an active
 * message into: a handler invocation gets `num_segments` whole segments (any subset of the message's, in
 * any order), each `input_segment_count` elements in and at most `output_segment_count` elements out, back
 * to back.  Active messages are RMA operations: they are issued in an access epoch (fence, start, lock,
 * lock_all), their updates of the persistent buffer are visible like an accumulate's, and the origin's
 * output buffer is valid when the epoch or a flush completes them.  Handlers on one target window run one
 * at a time, and the target rank does not need to call MPI for them to run.  A handler must not call MPI. */
#ifndef VMPI_API_MPIX_AM_H
#define VMPI_API_MPIX_AM_H

#define VMPIX_DECL(ret, name, args) ret MPIX_##name args; ret PMPIX_##name args;

typedef int MPIX_Am_op;
#define MPIX_AM_OP_NULL ((MPIX_Am_op)0x2c000000)

/* A handler for MPIX_Am: output segment i holds output_segment_count elements at the offset of i *
 * output_segment_count elements. */
typedef void MPIX_Am_user_function(const void *input_addr, int input_segment_count, MPI_Datatype input_datatype,
                                   void *persistent_addr, int persistent_count, MPI_Datatype persistent_datatype,
                                   void *output_addr, int output_segment_count, MPI_Datatype output_datatype,
                                   int num_segments, void *extra_state);
/* A handler for MPIX_Amv: the same, and it writes how many elements it produced for each of its segments into
 * output_segment_counts[0 .. num_segments-1] (each at most output_segment_count; the segment's output still
 * starts at its fixed offset). */
typedef void MPIX_Amv_user_function(const void *input_addr, int input_segment_count, MPI_Datatype input_datatype,
                                    void *persistent_addr, int persistent_count, MPI_Datatype persistent_datatype,
                                    void *output_addr, int output_segment_count, MPI_Datatype output_datatype,
                                    int num_segments, int *output_segment_counts, void *extra_state);

/* Registers a handler (local).  Handles are numbered per rank, the lowest free number first: every rank
 * registers (and frees) the same handlers in the same order, and an active message runs the target's own registration of the number
 * (its function, its copy of the program's globals, its extra_state). */
VMPIX_DECL(int, Am_op_create, (MPIX_Am_user_function *fn, void *extra_state, MPIX_Am_op *op))
VMPIX_DECL(int, Amv_op_create, (MPIX_Amv_user_function *fn, void *extra_state, MPIX_Am_op *op))
VMPIX_DECL(int, Am_op_free, (MPIX_Am_op *op))

/* Sends `num_segments` segments of input (origin_input_segment_count elements of origin_input_datatype each)
 * to `target_rank` of `win`, where the handler sees them laid out as target_input_datatype; its output
 * (target_output_datatype at the target, origin_output_segment_count elements of origin_output_datatype
 * per segment at the origin) lands in origin_output_addr at fixed offsets.  The persistent buffer is
 * target_persistent_count elements of target_persistent_datatype at target_persistent_disp, like an RMA
 * target.  Type signatures of the origin's and the target's input (and output) segments must match. */
VMPIX_DECL(int, Am, (const void *origin_input_addr, int origin_input_segment_count,
                         MPI_Datatype origin_input_datatype, void *origin_output_addr, int origin_output_segment_count,
                         MPI_Datatype origin_output_datatype, int num_segments, int target_rank,
                         MPI_Datatype target_input_datatype, MPI_Aint target_persistent_disp,
                         int target_persistent_count, MPI_Datatype target_persistent_datatype,
                         MPI_Datatype target_output_datatype, MPIX_Am_op op, MPI_Win win))
/* The same with a handler that reports each segment's output count: output_segment_counts (num_segments
 * entries, valid when the active message is complete) receives them; only generated elements are sent back
 * when they are few enough (window hint am_pack_threshold). */
VMPIX_DECL(int, Amv, (const void *origin_input_addr, int origin_input_segment_count,
                          MPI_Datatype origin_input_datatype, void *origin_output_addr, int origin_output_segment_count,
                          MPI_Datatype origin_output_datatype, int num_segments, int target_rank,
                          MPI_Datatype target_input_datatype, MPI_Aint target_persistent_disp,
                          int target_persistent_count, MPI_Datatype target_persistent_datatype,
                          MPI_Datatype target_output_datatype, int output_segment_counts[], MPIX_Am_op op,
                          MPI_Win win))

/* User buffers at the target where active messages may be staged (local calls of the target).  They are
 * shared by all origins; a buffer may be detached only when no active message uses it (after a flush the
 * origins see the change, unless the window hint am_buf_interleave_am_detach=false says it never happens
 * during an epoch). */
VMPIX_DECL(int, Am_win_buffer_attach, (void *buffer, MPI_Aint size, MPI_Win win))
VMPIX_DECL(int, Am_win_buffer_detach, (void *buffer, MPI_Win win))

/* vmpi's counters of a window's active messages issued by the calling rank (for benchmarks): handler
 * invocations, synchronizations with a target's buffer state (the local form of the paper's handshakes),
 * bytes staged in and out, bytes of output sent back. */
typedef struct VMPIX_Am_stats {
    long long ams, invocations, syncs;
    long long staged_in_bytes, staged_out_bytes, returned_bytes;
} VMPIX_Am_stats;
int VMPIX_Am_win_stats(MPI_Win win, VMPIX_Am_stats *stats, int reset);

#undef VMPIX_DECL

#endif
