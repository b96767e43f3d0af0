/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided operations and window synchronization, MPI_Put .. MPI_Compare_and_swap, their request-based
 * forms, and fence, post/start/complete/wait, lock/unlock, flush and sync: the implementations behind the
 * generated entry points (<build>/gen/binding/rma_entry.c, from src/binding/spec/rma.toml), which check the
 * arguments, resolve the handles and report the errors these return through the window's handler.  The
 * operations complete in their call: a request-based form's request is complete when it is returned. */
#include "binding/impl.h"
#include "mpi/op/op_builtin.h"

/* A transfer and its request, when the form has one. */
static int xfer(bool put, const void *origin_addr, MPI_Count origin_count, const vmpi_dtype *origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype,
                vmpi_win *win, MPI_Request *request, vmpi_chk *ck)
{
    vmpi_rma_side o = {(void *)origin_addr, origin_count, origin_datatype};
    vmpi_rma_side t = {NULL, target_count, target_datatype};
    int err = vmpi_rma_xfer(win, put, &o, target_rank, target_disp, &t, request != NULL, ck->why);
    if (!err && request)
        *request = vmpi_mreq_new_complete(MPI_COMM_NULL);
    return err;
}

int vmpi_b_Put(const void *origin_addr, MPI_Count origin_count, const vmpi_dtype *origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, vmpi_win *win,
               vmpi_chk *ck)
{
    return xfer(true, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, NULL, ck);
}

int vmpi_b_Get(void *origin_addr, MPI_Count origin_count, const vmpi_dtype *origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, vmpi_win *win,
               vmpi_chk *ck)
{
    return xfer(false, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, NULL, ck);
}

int vmpi_b_Rput(const void *origin_addr, MPI_Count origin_count, const vmpi_dtype *origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, vmpi_win *win,
                MPI_Request *request, vmpi_chk *ck)
{
    return xfer(true, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, request, ck);
}

int vmpi_b_Rget(void *origin_addr, MPI_Count origin_count, const vmpi_dtype *origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, vmpi_win *win,
                MPI_Request *request, vmpi_chk *ck)
{
    return xfer(false, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, request, ck);
}

/* An accumulate, fetching into `result` when it is given, and its request when the form has one.  The origin
 * (checked unless op is MPI_NO_OP, which ignores it: then it is the target's layout without a buffer). */
static int acc(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
               const vmpi_rma_side *result, int target_rank, MPI_Aint target_disp, MPI_Count target_count,
               const vmpi_dtype *target_datatype, MPI_Op op, vmpi_win *win, MPI_Request *request, vmpi_chk *ck)
{
    vmpi_rma_side t = {NULL, target_count, target_datatype};
    vmpi_rma_side o = {(void *)origin_addr, origin_count, vmpi_dt_get(origin_datatype)};
    if (op == MPI_NO_OP)
        o = (vmpi_rma_side){NULL, target_count, target_datatype};
    int err = vmpi_rma_acc(win, &o, result, target_rank, target_disp, &t, op, request != NULL, ck->why);
    if (!err && request)
        *request = vmpi_mreq_new_complete(MPI_COMM_NULL);
    return err;
}

int vmpi_b_Accumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, MPI_Op op,
                      vmpi_win *win, vmpi_chk *ck)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, target_rank, target_disp, target_count,
               target_datatype, op, win, NULL, ck);
}

int vmpi_b_Raccumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, MPI_Op op,
                       vmpi_win *win, MPI_Request *request, vmpi_chk *ck)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, target_rank, target_disp, target_count,
               target_datatype, op, win, request, ck);
}

int vmpi_b_Get_accumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, const vmpi_dtype *result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, const vmpi_dtype *target_datatype, MPI_Op op,
                          vmpi_win *win, vmpi_chk *ck)
{
    vmpi_rma_side r = {result_addr, result_count, result_datatype};
    return acc(origin_addr, origin_count, origin_datatype, &r, target_rank, target_disp, target_count,
               target_datatype, op, win, NULL, ck);
}

int vmpi_b_Rget_accumulate(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           void *result_addr, MPI_Count result_count, const vmpi_dtype *result_datatype,
                           int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                           const vmpi_dtype *target_datatype, MPI_Op op, vmpi_win *win, MPI_Request *request,
                           vmpi_chk *ck)
{
    vmpi_rma_side r = {result_addr, result_count, result_datatype};
    return acc(origin_addr, origin_count, origin_datatype, &r, target_rank, target_disp, target_count,
               target_datatype, op, win, request, ck);
}

int vmpi_b_Fetch_and_op(const void *origin_addr, void *result_addr, const vmpi_dtype *datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Op op, vmpi_win *win, vmpi_chk *ck)
{
    vmpi_rma_side o = {(void *)origin_addr, 1, datatype}, r = {result_addr, 1, datatype}, t = {NULL, 1, datatype};
    return vmpi_rma_acc(win, &o, &r, target_rank, target_disp, &t, op, false, ck->why);
}

int vmpi_b_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr,
                            const vmpi_dtype *datatype, int target_rank, MPI_Aint target_disp, vmpi_win *win,
                            vmpi_chk *ck)
{
    /* C and Fortran integers, logicals, bytes and the multi-language types (MPI-4.1 12.3.4.4) */
    MPI_Datatype h = VMPI_DT(datatype->basic);
    bool ok = vmpi_op_builtin_check(MPI_BAND, h) == MPI_SUCCESS || vmpi_op_builtin_check(MPI_LAND, h) == MPI_SUCCESS ||
              h == MPI_AINT || h == MPI_OFFSET || h == MPI_COUNT;
    if (!ok) {
        snprintf(ck->why, sizeof ck->why, "MPI_Compare_and_swap takes integer, logical and byte types only");
        return MPI_ERR_TYPE;
    }
    return vmpi_rma_cas(win, origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, ck->why);
}

/* ---- synchronization ---- */

/* A synchronization's result, saying why the window refused it where the call did not. */
static int sync_done(int err, vmpi_chk *ck)
{
    if (err && !ck->why[0])
        snprintf(ck->why, sizeof ck->why, "%s",
                 err == MPI_ERR_RMA_SYNC       ? "not allowed in the window's current epoch (see MPI-4.1 12.5)"
                 : err == MPI_ERR_RMA_CONFLICT ? "the window would be locked and exposed (post .. wait) at once"
                                               : "");
    return err;
}

int vmpi_b_Win_fence(int assert, vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_fence(win, assert), ck); }

int vmpi_b_Win_start(vmpi_group *group, int assert, vmpi_win *win, vmpi_chk *ck)
{
    return sync_done(vmpi_win_start(win, group, assert), ck);
}

int vmpi_b_Win_complete(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_complete(win), ck); }

int vmpi_b_Win_post(vmpi_group *group, int assert, vmpi_win *win, vmpi_chk *ck)
{
    return sync_done(vmpi_win_post(win, group, assert), ck);
}

int vmpi_b_Win_wait(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_wait(win), ck); }

int vmpi_b_Win_test(vmpi_win *win, int *flag, vmpi_chk *ck) { return sync_done(vmpi_win_test(win, flag), ck); }

int vmpi_b_Win_lock(int lock_type, int rank, int assert, vmpi_win *win, vmpi_chk *ck)
{
    return sync_done(vmpi_win_lock(win, lock_type, rank, assert), ck);
}

int vmpi_b_Win_unlock(int rank, vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_unlock(win, rank), ck); }

int vmpi_b_Win_lock_all(int assert, vmpi_win *win, vmpi_chk *ck)
{
    return sync_done(vmpi_win_lock_all(win, assert), ck);
}

int vmpi_b_Win_unlock_all(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_unlock_all(win), ck); }

/* Flushes to one target (MPI_PROC_NULL: nothing to do); the local flushes are the same, operations
 * completing in their call. */
static int flush_one(vmpi_win *win, int rank, vmpi_chk *ck)
{
    return rank == MPI_PROC_NULL ? MPI_SUCCESS : sync_done(vmpi_win_flush(win, rank), ck);
}

int vmpi_b_Win_flush(int rank, vmpi_win *win, vmpi_chk *ck) { return flush_one(win, rank, ck); }

int vmpi_b_Win_flush_all(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_flush(win, -1), ck); }

int vmpi_b_Win_flush_local(int rank, vmpi_win *win, vmpi_chk *ck) { return flush_one(win, rank, ck); }

int vmpi_b_Win_flush_local_all(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_flush(win, -1), ck); }

int vmpi_b_Win_sync(vmpi_win *win, vmpi_chk *ck) { return sync_done(vmpi_win_sync(win), ck); }
