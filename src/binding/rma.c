/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided operations and window synchronization: MPI_Put .. MPI_Compare_and_swap, their request-based
 * forms, and fence, post/start/complete/wait, lock/unlock, flush and sync.  Errors go to the window's
 * error handler. */
#include "binding/check.h"
#include "mpi/op/op_builtin.h"

/* A buffer description; the target's (buf NULL) has its address in the window. */
static int side(vmpi_chk *ck, const void *buf, MPI_Count count, MPI_Datatype h, vmpi_rma_side *s, bool target)
{
    const vmpi_dtype *dt;
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, h, &dt)))
        return err;
    if (!target && (err = vmpi_chk_buf(ck, buf, count, dt)))
        return err;
    *s = (vmpi_rma_side){(void *)buf, count, dt, h};
    return MPI_SUCCESS;
}

typedef enum { PUT, GET } xfer_kind;

static int xfer(xfer_kind k, const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                MPI_Win win, bool rform, MPI_Request *request, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    vmpi_rma_side o, t;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = side(&ck, origin_addr, origin_count, origin_datatype, &o, false)) ||
        (err = vmpi_chk_win_rank(&ck, target_rank, w)) || (err = side(&ck, NULL, target_count, target_datatype, &t, true)) ||
        (rform && (err = vmpi_chk_ptr(&ck, request, "request"))))
        return vmpi_win_fail(win, err, fn, &ck);
    err = vmpi_rma_xfer(w, k == PUT, &o, target_rank, target_disp, &t, rform, ck.why);
    if (err)
        return vmpi_win_fail(win, err, fn, &ck);
    if (rform)
        *request = vmpi_mreq_new_complete(MPI_COMM_NULL); /* complete in the call */
    return MPI_SUCCESS;
}

VMPI_WEAK(Put)
int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return xfer(PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, false, NULL, "MPI_Put");
}

VMPI_WEAK(Put_c)
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return xfer(PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, false, NULL, "MPI_Put_c");
}

VMPI_WEAK(Get)
int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return xfer(GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, false, NULL, "MPI_Get");
}

VMPI_WEAK(Get_c)
int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return xfer(GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, false, NULL, "MPI_Get_c");
}

VMPI_WEAK(Rput)
int PMPI_Rput(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return xfer(PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, true, request, "MPI_Rput");
}

VMPI_WEAK(Rput_c)
int PMPI_Rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return xfer(PUT, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, true, request, "MPI_Rput_c");
}

VMPI_WEAK(Rget)
int PMPI_Rget(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
              int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
    return xfer(GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, true, request, "MPI_Rget");
}

VMPI_WEAK(Rget_c)
int PMPI_Rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                MPI_Request *request)
{
    return xfer(GET, origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                target_datatype, win, true, request, "MPI_Rget_c");
}

static int acc(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, void *result_addr,
               MPI_Count result_count, MPI_Datatype result_datatype, bool fetch, int target_rank, MPI_Aint target_disp,
               MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, bool rform,
               MPI_Request *request, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    vmpi_rma_side o = {0}, r, t;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) ||
        (op != MPI_NO_OP && (err = side(&ck, origin_addr, origin_count, origin_datatype, &o, false))) ||
        (fetch && (err = side(&ck, result_addr, result_count, result_datatype, &r, false))) ||
        (err = vmpi_chk_win_rank(&ck, target_rank, w)) || (err = side(&ck, NULL, target_count, target_datatype, &t, true)) ||
        (rform && (err = vmpi_chk_ptr(&ck, request, "request"))))
        return vmpi_win_fail(win, err, fn, &ck);
    if (!vmpi_op_valid(op)) {
        snprintf(ck.why, sizeof ck.why, op == MPI_OP_NULL ? "MPI_OP_NULL" : "invalid operation handle 0x%x", (unsigned)op);
        return vmpi_win_fail(win, MPI_ERR_OP, fn, &ck);
    }
    if (op == MPI_NO_OP) /* the origin buffer is ignored */
        o = (vmpi_rma_side){NULL, target_count, t.dt, target_datatype};
    err = vmpi_rma_acc(w, &o, fetch ? &r : NULL, target_rank, target_disp, &t, op, rform, ck.why);
    if (err)
        return vmpi_win_fail(win, err, fn, &ck);
    if (rform)
        *request = vmpi_mreq_new_complete(MPI_COMM_NULL); /* complete in the call */
    return MPI_SUCCESS;
}

VMPI_WEAK(Accumulate)
int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, false, target_rank,
               target_disp, target_count, target_datatype, op, win, false, NULL, "MPI_Accumulate");
}

VMPI_WEAK(Accumulate_c)
int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, false, target_rank,
               target_disp, target_count, target_datatype, op, win, false, NULL, "MPI_Accumulate_c");
}

VMPI_WEAK(Raccumulate)
int PMPI_Raccumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, false, target_rank,
               target_disp, target_count, target_datatype, op, win, true, request, "MPI_Raccumulate");
}

VMPI_WEAK(Raccumulate_c)
int PMPI_Raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                       MPI_Win win, MPI_Request *request)
{
    return acc(origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, false, target_rank,
               target_disp, target_count, target_datatype, op, win, true, request, "MPI_Raccumulate_c");
}

VMPI_WEAK(Get_accumulate)
int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return acc(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, true,
               target_rank, target_disp, target_count, target_datatype, op, win, false, NULL,
               "MPI_Get_accumulate");
}

VMPI_WEAK(Get_accumulate_c)
int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    return acc(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, true,
               target_rank, target_disp, target_count, target_datatype, op, win, false, NULL,
               "MPI_Get_accumulate_c");
}

VMPI_WEAK(Rget_accumulate)
int PMPI_Rget_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    return acc(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, true,
               target_rank, target_disp, target_count, target_datatype, op, win, true, request,
               "MPI_Rget_accumulate");
}

VMPI_WEAK(Rget_accumulate_c)
int PMPI_Rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                           void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                           MPI_Win win, MPI_Request *request)
{
    return acc(origin_addr, origin_count, origin_datatype, result_addr, result_count, result_datatype, true,
               target_rank, target_disp, target_count, target_datatype, op, win, true, request,
               "MPI_Rget_accumulate_c");
}

/* Fetch_and_op and Compare_and_swap take one element of a predefined type. */
static int chk_predefined(vmpi_chk *ck, MPI_Datatype h, const vmpi_dtype **dt)
{
    int err = vmpi_chk_dt(ck, h, dt);
    if (err == MPI_SUCCESS && !(*dt)->builtin) {
        snprintf(ck->why, sizeof ck->why, "the datatype must be a predefined one");
        err = MPI_ERR_TYPE;
    }
    return err;
}

VMPI_WEAK(Fetch_and_op)
int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    const vmpi_dtype *dt;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = chk_predefined(&ck, datatype, &dt)) ||
        (op != MPI_NO_OP && (err = vmpi_chk_ptr(&ck, origin_addr, "origin_addr"))) ||
        (err = vmpi_chk_ptr(&ck, result_addr, "result_addr")) || (err = vmpi_chk_win_rank(&ck, target_rank, w)))
        return vmpi_win_fail(win, err, "MPI_Fetch_and_op", &ck);
    if (!vmpi_op_valid(op)) {
        snprintf(ck.why, sizeof ck.why, op == MPI_OP_NULL ? "MPI_OP_NULL" : "invalid operation handle 0x%x", (unsigned)op);
        return vmpi_win_fail(win, MPI_ERR_OP, "MPI_Fetch_and_op", &ck);
    }
    vmpi_rma_side o = {(void *)origin_addr, 1, dt, datatype}, r = {result_addr, 1, dt, datatype}, t = {NULL, 1, dt, datatype};
    if ((err = vmpi_rma_acc(w, &o, &r, target_rank, target_disp, &t, op, false, ck.why)))
        return vmpi_win_fail(win, err, "MPI_Fetch_and_op", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Compare_and_swap)
int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w;
    const vmpi_dtype *dt;
    int err;
    if ((err = vmpi_chk_win(&ck, win, &w)) || (err = chk_predefined(&ck, datatype, &dt)) ||
        (err = vmpi_chk_ptr(&ck, origin_addr, "origin_addr")) || (err = vmpi_chk_ptr(&ck, compare_addr, "compare_addr")) ||
        (err = vmpi_chk_ptr(&ck, result_addr, "result_addr")) || (err = vmpi_chk_win_rank(&ck, target_rank, w)))
        return vmpi_win_fail(win, err, "MPI_Compare_and_swap", &ck);
    /* C and Fortran integers, logicals, bytes and the multi-language types (MPI-3.1 11.3.4.4) */
    bool ok = vmpi_op_builtin_check(MPI_BAND, datatype) == MPI_SUCCESS ||
              vmpi_op_builtin_check(MPI_LAND, datatype) == MPI_SUCCESS || datatype == MPI_AINT ||
              datatype == MPI_OFFSET || datatype == MPI_COUNT;
    if (!ok) {
        snprintf(ck.why, sizeof ck.why, "MPI_Compare_and_swap takes integer, logical and byte types only");
        return vmpi_win_fail(win, MPI_ERR_TYPE, "MPI_Compare_and_swap", &ck);
    }
    if ((err = vmpi_rma_cas(w, origin_addr, compare_addr, result_addr, dt, target_rank, target_disp, ck.why)))
        return vmpi_win_fail(win, err, "MPI_Compare_and_swap", &ck);
    return MPI_SUCCESS;
}

/* ---- synchronization ---- */

static const char *sync_why(int err)
{
    return err == MPI_ERR_RMA_SYNC       ? "not allowed in the window's current epoch (see MPI-3.1 11.5)"
           : err == MPI_ERR_RMA_CONFLICT ? "the window would be locked and exposed (post .. wait) at once"
                                         : "";
}

#define SYNC_CALL(fn_name, call)                                                                              \
    do {                                                                                                      \
        if (err == MPI_SUCCESS && (err = (call)) != MPI_SUCCESS && !ck.why[0])                                \
            snprintf(ck.why, sizeof ck.why, "%s", sync_why(err));                                             \
        return err ? vmpi_win_fail(win, err, fn_name, &ck) : MPI_SUCCESS;                                     \
    } while (0)

VMPI_WEAK(Win_fence)
int PMPI_Win_fence(int assert, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)))
        err = vmpi_chk_assert(&ck, assert);
    SYNC_CALL("MPI_Win_fence", vmpi_win_fence(w, assert));
}

/* Win_start and Win_post: a group, an assert. */
static int group_sync(MPI_Group group, int assert, MPI_Win win, bool post, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    vmpi_group *g = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)) && !(err = vmpi_chk_assert(&ck, assert)))
        err = vmpi_chk_group(&ck, group, &g);
    SYNC_CALL(fn, post ? vmpi_win_post(w, g, assert) : vmpi_win_start(w, g, assert));
}

VMPI_WEAK(Win_start)
int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    return group_sync(group, assert, win, false, "MPI_Win_start");
}

VMPI_WEAK(Win_complete)
int PMPI_Win_complete(MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err = vmpi_chk_win(&ck, win, &w);
    SYNC_CALL("MPI_Win_complete", vmpi_win_complete(w));
}

VMPI_WEAK(Win_post)
int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    return group_sync(group, assert, win, true, "MPI_Win_post");
}

VMPI_WEAK(Win_wait)
int PMPI_Win_wait(MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err = vmpi_chk_win(&ck, win, &w);
    SYNC_CALL("MPI_Win_wait", vmpi_win_wait(w));
}

VMPI_WEAK(Win_test)
int PMPI_Win_test(MPI_Win win, int *flag)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)))
        err = vmpi_chk_ptr(&ck, flag, "flag");
    SYNC_CALL("MPI_Win_test", vmpi_win_test(w, flag));
}

VMPI_WEAK(Win_lock)
int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)) && !(err = vmpi_chk_assert(&ck, assert)) &&
        !(err = vmpi_chk_win_rank(&ck, rank, w)) && lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED) {
        snprintf(ck.why, sizeof ck.why, "lock type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
        err = MPI_ERR_LOCKTYPE;
    }
    SYNC_CALL("MPI_Win_lock", vmpi_win_lock(w, lock_type, rank, assert));
}

VMPI_WEAK(Win_unlock)
int PMPI_Win_unlock(int rank, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)))
        err = vmpi_chk_win_rank(&ck, rank, w);
    SYNC_CALL("MPI_Win_unlock", vmpi_win_unlock(w, rank));
}

VMPI_WEAK(Win_lock_all)
int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)))
        err = vmpi_chk_assert(&ck, assert);
    SYNC_CALL("MPI_Win_lock_all", vmpi_win_lock_all(w, assert));
}

VMPI_WEAK(Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err = vmpi_chk_win(&ck, win, &w);
    SYNC_CALL("MPI_Win_unlock_all", vmpi_win_unlock_all(w));
}

static int flush(int rank, MPI_Win win, bool all, const char *fn)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err;
    if (!(err = vmpi_chk_win(&ck, win, &w)) && !all)
        err = vmpi_chk_win_rank(&ck, rank, w);
    if (!err && !all && rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    SYNC_CALL(fn, vmpi_win_flush(w, all ? -1 : rank));
}

VMPI_WEAK(Win_flush)
int PMPI_Win_flush(int rank, MPI_Win win) { return flush(rank, win, false, "MPI_Win_flush"); }
VMPI_WEAK(Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win) { return flush(0, win, true, "MPI_Win_flush_all"); }
VMPI_WEAK(Win_flush_local)
int PMPI_Win_flush_local(int rank, MPI_Win win) { return flush(rank, win, false, "MPI_Win_flush_local"); }
VMPI_WEAK(Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win) { return flush(0, win, true, "MPI_Win_flush_local_all"); }

VMPI_WEAK(Win_sync)
int PMPI_Win_sync(MPI_Win win)
{
    VMPI_CHK(ck);
    vmpi_win *w = NULL;
    int err = vmpi_chk_win(&ck, win, &w);
    SYNC_CALL("MPI_Win_sync", vmpi_win_sync(w));
}
