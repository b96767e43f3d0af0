/* SPDX-License-Identifier: BSD-3-Clause */
/* The one-sided operations, executed by the origin in the target's memory (win.h): the epoch check, the
 * target address and its range check, then a datatype copy (put, get) or an element-wise update
 * (accumulates, atomic.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/spin.h"
#include "mpi/op/op_builtin.h"
#include "mpi/rma/atomic.h"
#include "mpi/rma/remote.h"
#include "mpi/rma/win.h"

enum { SMALL = 256 }; /* temporaries up to this size live on the stack */

/* The target address of (disp, count, dt) at `rank`, after checking that every byte it covers is in the
 * window (or, for a dynamic window, in attached memory: one region or adjacent ones). */
int vmpi_rma_target_addr(vmpi_win *w, int rank, MPI_Aint disp, const vmpi_rma_side *t, char **addr, char *why)
{
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        vmpi_fatal("internal error: the local way of one-sided communication was taken to rank %d of the window, "
                   "which lives in another process", rank);
    vmpi_win_target *tg = &w->sh->t[rank];
    const vmpi_dtype *dt = t->dt;
    MPI_Aint lo = 0, hi = 0;
    if (t->count > 0 && dt->size > 0) {
        MPI_Aint first = dt->true_lb, last = (MPI_Aint)(t->count - 1) * dt->extent + dt->true_lb;
        lo = first < last ? first : last;
        hi = (first > last ? first : last) + dt->true_extent;
    }
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *addr = (char *)disp; /* the target's address (MPI_Get_address) */
        if (hi > lo && !vmpi_win_dynamic_covers(tg, *addr + lo, *addr + hi)) {
            snprintf(why, 160, "bytes [%p, %p) of rank %d are not in memory attached to the window", (void *)(*addr + lo),
                     (void *)(*addr + hi), rank);
            return MPI_ERR_RMA_RANGE;
        }
        return MPI_SUCCESS;
    }
    MPI_Aint off; /* a large-count window's disp_unit may make it overflow: out of range */
    bool over = __builtin_mul_overflow(disp, tg->disp_unit, &off);
    *addr = over ? tg->base : tg->base + off;
    if (hi > lo && (over || off + lo < 0 || off + hi > tg->size)) {
        snprintf(why, 160, "bytes [%td, %td) of rank %d's window of %td bytes (disp %td x disp_unit %td)", off + lo,
                 off + hi, rank, tg->size, disp, tg->disp_unit);
        return MPI_ERR_RMA_RANGE;
    }
    return MPI_SUCCESS;
}

static int begin(vmpi_win *w, int rank, bool req, char *why)
{
    const char *reason = NULL;
    int err = vmpi_win_access(w, rank, req, &reason);
    if (err && reason)
        snprintf(why, 160, "%s", reason);
    return err;
}

static int same_size(const vmpi_rma_side *o, const vmpi_rma_side *t, char *why)
{
    MPI_Count ob = o->count * o->dt->size, tb = t->count * t->dt->size;
    if (ob == tb)
        return MPI_SUCCESS;
    snprintf(why, 160, "the origin has %lld bytes of data, the target %lld: the type signatures differ", (long long)ob,
             (long long)tb);
    return MPI_ERR_TRUNCATE;
}

int vmpi_rma_xfer(vmpi_win *w, bool put, const vmpi_rma_side *o, int rank, MPI_Aint disp, const vmpi_rma_side *t,
                  bool req, char *why)
{
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    char *addr;
    int err;
    if ((err = begin(w, rank, req, why)) || (err = same_size(o, t, why)))
        return err;
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        return vmpi_rma_remote_xfer(w, put, o, rank, disp, t, req, why);
    if ((err = vmpi_rma_target_addr(w, rank, disp, t, &addr, why)))
        return err;
    if (put)
        vmpi_dtype_copy(o->buf, o->count, o->dt, addr, t->count, t->dt);
    else
        vmpi_dtype_copy(addr, t->count, t->dt, o->buf, o->count, o->dt);
    return MPI_SUCCESS;
}

/* Whether (buf, count, dt) is `n` elements of its basic type back to back (usable in place). */
static bool basic_array(const vmpi_dtype *dt, const vmpi_dtype *b)
{
    return dt->builtin || (dt->contig && b->size == b->extent);
}

static const char *basic_ptr(const void *buf, const vmpi_dtype *dt)
{
    return (const char *)buf + (dt->builtin ? 0 : dt->blocks[0].disp);
}

/* A scratch buffer of `bytes`: `small` when it fits. */
static void *scratch(char *small, MPI_Count bytes)
{
    return bytes <= SMALL ? small : malloc((size_t)bytes);
}

static void unscratch(void *p, char *small)
{
    if (p != small)
        free(p);
}

/* Elements of the predefined type `basic` in (count, dt): a pair type (MPI_2INT, MPI_DOUBLE_INT...) is one
 * element, though the datatype engine counts its two members in nelems. */
static MPI_Count acc_elems(const vmpi_rma_side *s, int basic)
{
    return s->count * (s->dt->size / vmpi_dtype_builtin(basic)->size);
}

static int check_acc(const vmpi_rma_side *o, const vmpi_rma_side *res, const vmpi_rma_side *t, MPI_Op op, int *basic,
                     char *why)
{
    if (!(op >= MPI_MAX && op <= MPI_NO_OP) || (op == MPI_NO_OP && res == NULL)) {
        snprintf(why, 160, op == MPI_NO_OP ? "MPI_NO_OP is only for MPI_Get_accumulate and MPI_Fetch_and_op"
                                           : "accumulate operations take predefined operations and MPI_REPLACE only");
        return MPI_ERR_OP;
    }
    int b = t->dt->basic;
    if (b == 0 || (op != MPI_NO_OP && o->dt->basic != b) || (res && res->dt->basic != b)) {
        snprintf(why, 160, "the origin%s and target datatypes must be made of one same predefined type",
                 res ? ", result" : "");
        return MPI_ERR_TYPE;
    }
    if (op != MPI_REPLACE && op != MPI_NO_OP && vmpi_op_builtin_check(op, VMPI_DT(b)) != MPI_SUCCESS) {
        snprintf(why, 160, "the operation is not defined on the target's datatype");
        return MPI_ERR_OP;
    }
    MPI_Count n = acc_elems(t, b);
    if ((op != MPI_NO_OP && acc_elems(o, b) != n) || (res && acc_elems(res, b) != n)) {
        snprintf(why, 160, "the target has %lld elements, the origin %lld%s", (long long)n,
                 (long long)(op != MPI_NO_OP ? acc_elems(o, b) : 0),
                 res ? " (or the result buffer another number)" : "");
        return MPI_ERR_TRUNCATE;
    }
    *basic = b;
    return MPI_SUCCESS;
}

int vmpi_rma_acc(vmpi_win *w, const vmpi_rma_side *o, const vmpi_rma_side *res, int rank, MPI_Aint disp,
                 const vmpi_rma_side *t, MPI_Op op, bool req, char *why)
{
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    char *addr;
    int basic, err;
    if ((err = begin(w, rank, req, why)) || (err = check_acc(o, res, t, op, &basic, why)))
        return err;
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        return vmpi_rma_remote_acc(w, o, res, rank, disp, t, op, basic, req, why);
    if ((err = vmpi_rma_target_addr(w, rank, disp, t, &addr, why)))
        return err;
    MPI_Count n = acc_elems(t, basic);
    if (n == 0)
        return MPI_SUCCESS;
    vmpi_win_target *tg = &w->sh->t[rank];
    bool exclusive = vmpi_win_lock_held(w, rank) == MPI_LOCK_EXCLUSIVE;
    if (t->dt->builtin && (op == MPI_NO_OP || o->dt->builtin) && (res == NULL || res->dt->builtin)) {
        /* arrays of a predefined type (Fetch_and_op): no copy at all */
        vmpi_rma_acc_whole(tg, op, basic, op == MPI_NO_OP ? NULL : o->buf, addr, res ? res->buf : NULL, n, exclusive);
        return MPI_SUCCESS;
    }
    const vmpi_dtype *b = vmpi_dtype_builtin(basic);
    MPI_Count bytes = n * b->extent;
    char s_in[SMALL], s_old[SMALL], s_tgt[SMALL];

    /* the origin's elements, back to back */
    const char *in = NULL;
    void *in_tmp = NULL;
    if (op != MPI_NO_OP) {
        if (basic_array(o->dt, b))
            in = basic_ptr(o->buf, o->dt);
        else if ((in_tmp = scratch(s_in, bytes)) == NULL)
            return MPI_ERR_NO_MEM;
        else {
            vmpi_dtype_copy(o->buf, o->count, o->dt, in_tmp, n, b);
            in = in_tmp;
        }
    }
    char *old = res ? scratch(s_old, bytes) : NULL;
    if (res && old == NULL) {
        unscratch(in_tmp, s_in);
        return MPI_ERR_NO_MEM;
    }
    if (basic_array(t->dt, b)) { /* the target's elements are back to back too */
        vmpi_rma_acc_whole(tg, op, basic, in, (char *)basic_ptr(addr, t->dt), old, n, exclusive);
    } else { /* the whole operation on a copy in the type's own layout */
        char *tgt = scratch(s_tgt, bytes);
        if (tgt == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            if (!exclusive)
                vmpi_rma_bulk_begin(tg);
            vmpi_dtype_copy(addr, t->count, t->dt, tgt, n, b);
            vmpi_rma_apply_plain(op, basic, in, tgt, old, n);
            if (op != MPI_NO_OP)
                vmpi_dtype_copy(tgt, n, b, addr, t->count, t->dt);
            if (!exclusive)
                vmpi_rma_bulk_end(tg);
            unscratch(tgt, s_tgt);
        }
    }
    if (res && err == MPI_SUCCESS)
        vmpi_dtype_copy(old, n, b, res->buf, res->count, res->dt);
    unscratch(in_tmp, s_in);
    if (old)
        unscratch(old, s_old);
    return err;
}

int vmpi_rma_cas(vmpi_win *w, const void *origin, const void *compare, void *result, const vmpi_dtype *dt, int rank,
                 MPI_Aint disp, char *why)
{
    if (rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    vmpi_rma_side t = {NULL, 1, dt};
    char *addr;
    int err;
    if ((err = begin(w, rank, false, why)))
        return err;
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        return vmpi_rma_remote_cas(w, origin, compare, result, dt, rank, disp, why);
    if ((err = vmpi_rma_target_addr(w, rank, disp, &t, &addr, why)))
        return err;
    vmpi_rma_cas_apply(&w->sh->t[rank], dt->basic, origin, compare, addr, result,
                       vmpi_win_lock_held(w, rank) == MPI_LOCK_EXCLUSIVE);
    return MPI_SUCCESS;
}
