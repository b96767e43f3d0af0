/* SPDX-License-Identifier: BSD-3-Clause */
/* The reductions' implementations (binding/impl.h), for their blocking (request NULL), nonblocking and
 * persistent (persist.h) entry points, generated (spec/coll_reduce.toml) to check the caller, the
 * communicator and the request pointer; and MPI_Reduce_local's.  The operation objects: op.c. */
#include <stdlib.h>
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_inter.h"
#include "mpi/op/op.h"

/* The count array of a reduction without one. */
#define NOV vmpi_iv_int(NULL)

enum red_kind { RED_REDUCE, RED_ALL, RED_SCAN, RED_EXSCAN, RED_SCATTER, RED_SCATTER_BLOCK };

/* MPI_Reduce and MPI_Allreduce on an intercommunicator: the data of one group, reduced, goes to the other. */
static int inter_reduction(vmpi_chk *ck, bool all, const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt,
                           MPI_Op op, int root, vmpi_comm *c, MPI_Request *req)
{
    const vmpi_dtype *d;
    int err;
    if ((!all && (err = vmpi_chk_inter_root(ck, root, c))) || (err = vmpi_chk_count(ck, count)) ||
        (err = vmpi_chk_dt(ck, dt, &d)) || (err = vmpi_chk_op(ck, op, d)))
        return err;
    bool sends = all || root >= 0, gets = all || root == MPI_ROOT;
    if ((sends && ((err = vmpi_chk_not_in_place(ck, sbuf)) || (err = vmpi_chk_buf(ck, sbuf, count, d)))) ||
        (gets && ((err = vmpi_chk_not_in_place(ck, rbuf)) || (err = vmpi_chk_buf(ck, rbuf, count, d)))))
        return err;
    return all ? vmpi_inter_allreduce(sbuf, rbuf, count, d, dt, op, c, req)
               : vmpi_inter_reduce(sbuf, rbuf, count, d, dt, op, root, c, req);
}

/* Reduce_scatter (rcounts) and Reduce_scatter_block (count per rank) on an intercommunicator. */
static int inter_reduce_scatter(vmpi_chk *ck, const void *sbuf, void *rbuf, vmpi_ivec rcounts, bool block,
                                MPI_Count count, MPI_Datatype dt, MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    const vmpi_dtype *d;
    int err, n = c->size;
    if ((err = vmpi_chk_dt(ck, dt, &d)) || (err = vmpi_chk_op(ck, op, d)) ||
        (!block ? (err = vmpi_chk_counts(ck, rcounts, n)) : (err = vmpi_chk_count(ck, count))))
        return err;
    if (block)
        rcounts = vmpi_iv_regular(count, 0);
    MPI_Count total = 0;
    for (int i = 0; i < n; i++)
        total += vmpi_iv_at(rcounts, i);
    if (!(err = vmpi_chk_not_in_place(ck, sbuf)) && !(err = vmpi_chk_buf(ck, sbuf, total, d)) &&
        !(err = vmpi_chk_not_in_place(ck, rbuf)) && !(err = vmpi_chk_buf(ck, rbuf, vmpi_iv_at(rcounts, c->rank), d)))
        err = vmpi_inter_reduce_scatter(sbuf, rbuf, rcounts, d, dt, op, c, req);
    return err;
}

/* Every reduction: `count` is the block count of Reduce_scatter_block, `rcounts` the counts of
 * Reduce_scatter; the send buffer then holds the whole vector. */
static int reduction(enum red_kind k, const void *sbuf, void *rbuf, MPI_Count count, vmpi_ivec rcounts,
                     MPI_Datatype dt, MPI_Op op, int root, vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    const vmpi_dtype *d;
    int err;
    if (vmpi_comm_is_inter(c)) {
        if (k == RED_SCAN || k == RED_EXSCAN) /* defined on intracommunicators only */
            return vmpi_chk_intra(ck, c);
        if (k == RED_SCATTER || k == RED_SCATTER_BLOCK)
            return inter_reduce_scatter(ck, sbuf, rbuf, rcounts, k == RED_SCATTER_BLOCK, count, dt, op, c, req);
        return inter_reduction(ck, k == RED_ALL, sbuf, rbuf, count, dt, op, root, c, req);
    }
    if ((k == RED_REDUCE && (err = vmpi_chk_root(ck, root, c))) || (err = vmpi_chk_dt(ck, dt, &d)) ||
        (err = vmpi_chk_op(ck, op, d)))
        return err;
    MPI_Count total = count, mine = count; /* send-side and receive-side counts */
    if (k == RED_SCATTER) {
        if ((err = vmpi_chk_counts(ck, rcounts, c->size)))
            return err;
        total = 0;
        for (int i = 0; i < c->size; i++)
            total += vmpi_iv_at(rcounts, i);
        mine = vmpi_iv_at(rcounts, c->rank);
    } else if ((err = vmpi_chk_count(ck, count))) {
        return err;
    } else if (k == RED_SCATTER_BLOCK) {
        total = count * c->size;
    }
    bool gets = k != RED_REDUCE || c->rank == root; /* whether this rank's receive buffer is used */
    if (sbuf == MPI_IN_PLACE && !gets) {
        snprintf(ck->why, sizeof ck->why, "MPI_IN_PLACE is only allowed at the root");
        err = MPI_ERR_BUFFER;
    }
    if (!err && sbuf != MPI_IN_PLACE)
        err = vmpi_chk_buf(ck, sbuf, total, d);
    if (!err && gets)
        err = vmpi_chk_not_in_place(ck, rbuf);
    if (!err && gets)
        err = vmpi_chk_buf(ck, rbuf, sbuf == MPI_IN_PLACE ? total : mine, d);
    if (!err && gets)
        err = vmpi_chk_alias(ck, sbuf, rbuf, total > 0 && d->size > 0);
    if (err)
        return err;
    MPI_Request *r = req;
    switch (k) {
    case RED_REDUCE:
        err = vmpi_coll_reduce(sbuf, rbuf, count, d, dt, op, root, c, r);
        break;
    case RED_ALL:
        err = vmpi_coll_allreduce(sbuf, rbuf, count, d, dt, op, c, r);
        break;
    case RED_SCAN:
    case RED_EXSCAN:
        err = vmpi_coll_scan(sbuf, rbuf, count, d, dt, op, k == RED_EXSCAN, c, r);
        break;
    case RED_SCATTER:
        err = vmpi_coll_reduce_scatter(sbuf, rbuf, rcounts, d, dt, op, c, r);
        break;
    case RED_SCATTER_BLOCK:
        err = vmpi_coll_reduce_scatter_block(sbuf, rbuf, count, d, dt, op, c, r);
        break;
    }
    return err;
}

/* ---- the operations ---- */

int vmpi_b_Reduce(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, vmpi_comm *c,
                  MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, c, req, ck);
}

int vmpi_b_Allreduce(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, vmpi_comm *c,
                     MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, c, req, ck);
}

int vmpi_b_Reduce_scatter(const void *sbuf, void *rbuf, vmpi_ivec rcounts, MPI_Datatype dt, MPI_Op op, vmpi_comm *c,
                          MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_SCATTER, sbuf, rbuf, 0, rcounts, dt, op, 0, c, req, ck);
}

int vmpi_b_Reduce_scatter_block(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype dt, MPI_Op op,
                                vmpi_comm *c, MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, c, req, ck);
}

int vmpi_b_Scan(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, vmpi_comm *c,
                MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, c, req, ck);
}

int vmpi_b_Exscan(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, vmpi_comm *c,
                  MPI_Request *req, vmpi_chk *ck)
{
    return reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, c, req, ck);
}

int vmpi_b_Reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, vmpi_chk *ck)
{
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, dt, &d)) || (err = vmpi_chk_op(ck, op, d)) ||
        (err = vmpi_chk_not_in_place(ck, inbuf)) || (err = vmpi_chk_not_in_place(ck, inoutbuf)) ||
        (err = vmpi_chk_buf(ck, inbuf, count, d)) || (err = vmpi_chk_buf(ck, inoutbuf, count, d)) ||
        (err = vmpi_chk_alias(ck, inbuf, inoutbuf, count > 0 && d->size > 0)))
        return err;
    vmpi_op_apply(op, dt, d, inbuf, inoutbuf, count);
    return MPI_SUCCESS;
}
