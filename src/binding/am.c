/* SPDX-License-Identifier: BSD-3-Clause */
/* MPIX_Am, MPIX_Amv, their handler registration and the user buffers of a window (include/vmpi/mpix_am.h).
 * Errors go to the window's handler. */
#include "binding/check.h"
#include "mpi/rma/am.h"

#define VMPIX_WEAK(name) VMPI_PRAGMA(weak MPIX_##name = PMPIX_##name)

static int op_create(void *fn, bool vector, void *extra_state, MPIX_Am_op *op, const char *name)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, fn, "function")) || (err = vmpi_chk_ptr(&ck, op, "op")) ||
        (err = vmpi_am_op_create(fn, vector, extra_state, op))) {
        if (err == MPI_ERR_INTERN)
            snprintf(ck.why, sizeof ck.why, "too many handlers registered (free some with MPIX_Am_op_free)");
        return vmpi_fail(MPI_COMM_WORLD, err, name, &ck);
    }
    return MPI_SUCCESS;
}

VMPIX_WEAK(Am_op_create)
int PMPIX_Am_op_create(MPIX_Am_user_function *fn, void *extra_state, MPIX_Am_op *op)
{
    return op_create((void *)fn, false, extra_state, op, "MPIX_Am_op_create");
}

VMPIX_WEAK(Amv_op_create)
int PMPIX_Amv_op_create(MPIX_Amv_user_function *fn, void *extra_state, MPIX_Am_op *op)
{
    return op_create((void *)fn, true, extra_state, op, "MPIX_Amv_op_create");
}

VMPIX_WEAK(Am_op_free)
int PMPIX_Am_op_free(MPIX_Am_op *op)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, op, "op")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPIX_Am_op_free", &ck);
    if ((err = vmpi_am_op_free(op))) {
        snprintf(ck.why, sizeof ck.why, "0x%x is not a handler this rank registered", (unsigned)*op);
        return vmpi_fail(MPI_COMM_WORLD, err, "MPIX_Am_op_free", &ck);
    }
    return MPI_SUCCESS;
}

static int seg_side(vmpi_chk *ck, const void *buf, int count, MPI_Datatype h, int nseg, const vmpi_dtype **dt)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, h, dt)) ||
        (buf && (err = vmpi_chk_buf(ck, buf, (MPI_Count)count * nseg, *dt))))
        return err;
    if (buf == NULL && count > 0 && nseg > 0 && (*dt)->size > 0 && (*dt)->builtin) {
        snprintf(ck->why, sizeof ck->why, "NULL buffer for %d segments of %d elements", nseg, count);
        return MPI_ERR_BUFFER;
    }
    return MPI_SUCCESS;
}

static int am(const void *in, int in_count, MPI_Datatype in_dt, void *out, int out_count, MPI_Datatype out_dt,
              int nseg, int rank, MPI_Datatype tin_dt, MPI_Aint pdisp, int pcount, MPI_Datatype pdt,
              MPI_Datatype tout_dt, int *counts, bool vector, MPIX_Am_op op, MPI_Win win, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    vmpi_am_args a = {.in = in, .in_count = in_count, .tin_h = tin_dt, .out = out, .out_count = out_count,
                      .tout_h = tout_dt, .nseg = nseg, .rank = rank, .pdisp = pdisp, .pcount = pcount,
                      .pdt_h = pdt, .counts = counts, .op = op};
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_nonneg(&ck, nseg, "num_segments")) ||
        (err = seg_side(&ck, in, in_count, in_dt, nseg, &a.in_dt)) ||
        (err = seg_side(&ck, out, out_count, out_dt, nseg, &a.out_dt)) ||
        (err = vmpi_chk_dt(&ck, tin_dt, &a.tin_dt)) || (err = vmpi_chk_dt(&ck, tout_dt, &a.tout_dt)) ||
        (err = vmpi_chk_count(&ck, pcount)) || (err = vmpi_chk_dt(&ck, pdt, &a.pdt)) ||
        (err = vmpi_chk_win_rank(&ck, rank, w)) ||
        (vector && nseg > 0 && (err = vmpi_chk_ptr(&ck, counts, "output_segment_counts"))))
        return vmpi_win_fail(win, err, fn, &ck);
    if (vector && counts == NULL)
        a.counts = (int *)&a; /* no segment: never written, but says "vector" */
    if ((err = vmpi_am(w, &a, ck.why)))
        return vmpi_win_fail(win, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPIX_WEAK(Am)
int PMPIX_Am(const void *origin_input_addr, int origin_input_segment_count, MPI_Datatype origin_input_datatype,
             void *origin_output_addr, int origin_output_segment_count, MPI_Datatype origin_output_datatype,
             int num_segments, int target_rank, MPI_Datatype target_input_datatype, MPI_Aint target_persistent_disp,
             int target_persistent_count, MPI_Datatype target_persistent_datatype, MPI_Datatype target_output_datatype,
             MPIX_Am_op op, MPI_Win win)
{
    return am(origin_input_addr, origin_input_segment_count, origin_input_datatype, origin_output_addr,
              origin_output_segment_count, origin_output_datatype, num_segments, target_rank, target_input_datatype,
              target_persistent_disp, target_persistent_count, target_persistent_datatype, target_output_datatype,
              NULL, false, op, win, "MPIX_Am");
}

VMPIX_WEAK(Amv)
int PMPIX_Amv(const void *origin_input_addr, int origin_input_segment_count, MPI_Datatype origin_input_datatype,
              void *origin_output_addr, int origin_output_segment_count, MPI_Datatype origin_output_datatype,
              int num_segments, int target_rank, MPI_Datatype target_input_datatype, MPI_Aint target_persistent_disp,
              int target_persistent_count, MPI_Datatype target_persistent_datatype,
              MPI_Datatype target_output_datatype, int output_segment_counts[], MPIX_Am_op op, MPI_Win win)
{
    return am(origin_input_addr, origin_input_segment_count, origin_input_datatype, origin_output_addr,
              origin_output_segment_count, origin_output_datatype, num_segments, target_rank, target_input_datatype,
              target_persistent_disp, target_persistent_count, target_persistent_datatype, target_output_datatype,
              output_segment_counts, true, op, win, "MPIX_Amv");
}

VMPIX_WEAK(Am_win_buffer_attach)
int PMPIX_Am_win_buffer_attach(void *buffer, MPI_Aint size, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, buffer, "buffer")))
        return vmpi_win_fail(win, err, "MPIX_Am_win_buffer_attach", &ck);
    if (size <= 0) {
        snprintf(ck.why, sizeof ck.why, "size %td is not positive", size);
        return vmpi_win_fail(win, MPI_ERR_SIZE, "MPIX_Am_win_buffer_attach", &ck);
    }
    if ((err = vmpi_am_attach(w, buffer, size))) {
        snprintf(ck.why, sizeof ck.why, "[%p, %p) overlaps a buffer attached already", buffer, (char *)buffer + size);
        return vmpi_win_fail(win, err, "MPIX_Am_win_buffer_attach", &ck);
    }
    return MPI_SUCCESS;
}

VMPIX_WEAK(Am_win_buffer_detach)
int PMPIX_Am_win_buffer_detach(void *buffer, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)))
        return vmpi_win_fail(win, err, "MPIX_Am_win_buffer_detach", &ck);
    if ((err = vmpi_am_detach(w, buffer))) {
        snprintf(ck.why, sizeof ck.why,
                 err == MPI_ERR_PENDING ? "%p is in use by an active message or holds space given to an origin"
                                        : "%p is not a buffer attached to the window",
                 buffer);
        return vmpi_win_fail(win, err, "MPIX_Am_win_buffer_detach", &ck);
    }
    return MPI_SUCCESS;
}

int VMPIX_Am_win_stats(MPI_Win win, VMPIX_Am_stats *stats, int reset)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = vmpi_chk_ptr(&ck, stats, "stats")) ||
        (err = vmpi_am_stats(w, stats, reset != 0)))
        return vmpi_win_fail(win, err, "VMPIX_Am_win_stats", &ck);
    return MPI_SUCCESS;
}
