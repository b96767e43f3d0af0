/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): windows (one-sided communication). */
#ifndef VMPI_BINDING_CHECK_WIN_H
#define VMPI_BINDING_CHECK_WIN_H

#include "mpi/rma/win.h"

/* ---- windows (one-sided communication) ---- */

static inline int vmpi_chk_win(vmpi_chk *ck, MPI_Win h, vmpi_win **out)
{
    int err = vmpi_chk_ranked(ck);
    if (err)
        return err;
    if ((*out = vmpi_win_get(h)) != NULL)
        return MPI_SUCCESS;
    return vmpi_chk_bad_handle(ck, h, MPI_WIN_NULL, "MPI_WIN_NULL", "or freed window", MPI_ERR_WIN);
}

/* Reports a failure through the window's error handler (MPI_COMM_WORLD's when the handle is not a window, or
 * the caller is outside MPI, as every call's outside MPI is). */
static inline int vmpi_win_fail(MPI_Win h, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_win *w = rk && rk->live ? vmpi_win_get(h) : NULL;
    if (w == NULL)
        return vmpi_fail(MPI_COMM_WORLD, err, fn, ck);
    return vmpi_errh_fail(w->errh, h, err, fn, ck);
}

/* A size in bytes of memory (a window's, MPI_Alloc_mem's): not negative. */
static inline int vmpi_chk_size(vmpi_chk *ck, MPI_Aint size)
{
    if (size >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "negative size %td", size);
    return MPI_ERR_SIZE;
}

/* Memory to attach to a dynamic window: no NULL base for a positive size. */
static inline int vmpi_chk_base(vmpi_chk *ck, const void *base, MPI_Aint size)
{
    if (base != NULL || size == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "NULL base for %td bytes", size);
    return MPI_ERR_BASE;
}

/* A window's displacement unit: positive. */
static inline int vmpi_chk_disp_unit(vmpi_chk *ck, MPI_Aint disp_unit)
{
    if (disp_unit > 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "disp_unit %td is not positive", disp_unit);
    return MPI_ERR_DISP;
}

/* A window made by `what` (its flavor `flavor`: MPI_Win_attach's must be dynamic). */
static inline int vmpi_chk_flavor(vmpi_chk *ck, const vmpi_win *w, int flavor, const char *what)
{
    if (w->flavor == flavor)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the window was not made by %s", what);
    return MPI_ERR_RMA_FLAVOR;
}

/* The window MPI_Win_free frees, through its pointer: no epoch of it open on this rank. */
static inline int vmpi_chk_win_free(vmpi_chk *ck, const MPI_Win *p)
{
    vmpi_win *w;
    int err = vmpi_chk_ptr(ck, p, "win");
    if (err || (err = vmpi_chk_win(ck, *p, &w)))
        return err;
    if ((w->epoch == VMPI_EPOCH_NONE || (w->epoch == VMPI_EPOCH_FENCE && w->fence_ops == 0)) && !w->post_group)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "an epoch of the window is still open on this rank");
    return MPI_ERR_RMA_SYNC;
}

/* A target (or lock) rank: a rank of the window's group or MPI_PROC_NULL. */
static inline int vmpi_chk_win_rank(vmpi_chk *ck, int r, const vmpi_win *w)
{
    if (r == MPI_PROC_NULL || (r >= 0 && r < w->size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in the window's group of size %d", r, w->size);
    return MPI_ERR_RANK;
}

static inline int vmpi_chk_lock_type(vmpi_chk *ck, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE || lock_type == MPI_LOCK_SHARED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "lock type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
    return MPI_ERR_LOCKTYPE;
}

/* The origin side of an accumulate: a buffer, unless the operation is MPI_NO_OP (which ignores it). */
static inline int vmpi_chk_acc_origin(vmpi_chk *ck, MPI_Op op, const void *buf, MPI_Count count, MPI_Datatype h)
{
    const vmpi_dtype *dt;
    int err;
    if (op == MPI_NO_OP)
        return MPI_SUCCESS;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, h, &dt)))
        return err;
    return vmpi_chk_buf(ck, buf, count, dt);
}

/* The one element of MPI_Fetch_and_op and MPI_Compare_and_swap: of a predefined type. */
static inline int vmpi_chk_dt_builtin(vmpi_chk *ck, const vmpi_dtype *dt)
{
    if (dt->builtin)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the datatype must be a predefined one");
    return MPI_ERR_TYPE;
}

static inline int vmpi_chk_assert(vmpi_chk *ck, int assert)
{
    const int all = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
    if ((assert & ~all) == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "assert 0x%x has bits that are no MPI_MODE_ constant", (unsigned)assert);
    return MPI_ERR_ASSERT;
}

#endif
