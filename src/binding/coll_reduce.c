/* SPDX-License-Identifier: BSD-3-Clause */
/* Reduction entry points (blocking, nonblocking and persistent: persist.h); the operation objects: op.c. */
#include <stdlib.h>
#include "binding/check.h"
#include "binding/persist.h"
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
                     MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm, bool nb, MPI_Request *req, const char *fn)
{
    VMPI_VP_CALL(fn);
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    if (vmpi_comm_is_inter(c)) {
        MPI_Request *r = nb ? req : NULL;
        err = nb ? vmpi_chk_ptr(&ck, req, "the request argument") : MPI_SUCCESS;
        if (!err && (k == RED_SCAN || k == RED_EXSCAN)) /* defined on intracommunicators only */
            err = vmpi_chk_intra(&ck, c);
        else if (!err && (k == RED_SCATTER || k == RED_SCATTER_BLOCK))
            err = inter_reduce_scatter(&ck, sbuf, rbuf, rcounts, k == RED_SCATTER_BLOCK, count, dt, op, c, r);
        else if (!err)
            err = inter_reduction(&ck, k == RED_ALL, sbuf, rbuf, count, dt, op, root, c, r);
        return err ? vmpi_coll_fail(comm, err, fn, &ck) : MPI_SUCCESS;
    }
    if ((nb && (err = vmpi_chk_ptr(&ck, req, "the request argument"))) ||
        (k == RED_REDUCE && (err = vmpi_chk_root(&ck, root, c))) || (err = vmpi_chk_dt(&ck, dt, &d)) ||
        (err = vmpi_chk_op(&ck, op, d)))
        return vmpi_coll_fail(comm, err, fn, &ck);
    MPI_Count total = count, mine = count; /* send-side and receive-side counts */
    if (k == RED_SCATTER) {
        if ((err = vmpi_chk_counts(&ck, rcounts, c->size)))
            return vmpi_coll_fail(comm, err, fn, &ck);
        total = 0;
        for (int i = 0; i < c->size; i++)
            total += vmpi_iv_at(rcounts, i);
        mine = vmpi_iv_at(rcounts, c->rank);
    } else if ((err = vmpi_chk_count(&ck, count))) {
        return vmpi_coll_fail(comm, err, fn, &ck);
    } else if (k == RED_SCATTER_BLOCK) {
        total = count * c->size;
    }
    bool gets = k != RED_REDUCE || c->rank == root; /* whether this rank's receive buffer is used */
    if (sbuf == MPI_IN_PLACE && !gets) {
        snprintf(ck.why, sizeof ck.why, "MPI_IN_PLACE is only allowed at the root");
        err = MPI_ERR_BUFFER;
    }
    if (!err && sbuf != MPI_IN_PLACE)
        err = vmpi_chk_buf(&ck, sbuf, total, d);
    if (!err && gets)
        err = vmpi_chk_not_in_place(&ck, rbuf);
    if (!err && gets)
        err = vmpi_chk_buf(&ck, rbuf, sbuf == MPI_IN_PLACE ? total : mine, d);
    if (!err && gets)
        err = vmpi_chk_alias(&ck, sbuf, rbuf, total > 0 && d->size > 0);
    if (err)
        return vmpi_coll_fail(comm, err, fn, &ck);
    MPI_Request *r = nb ? req : NULL;
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
    return err ? vmpi_coll_fail(comm, err, fn, NULL) : MPI_SUCCESS;
}

VMPI_WEAK(Reduce)
int PMPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, false, NULL, "MPI_Reduce");
}
VMPI_WEAK(Reduce_c)
int PMPI_Reduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, false, NULL, "MPI_Reduce_c");
}
VMPI_WEAK(Ireduce)
int PMPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *req)
{
    return reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, true, req, "MPI_Ireduce");
}
VMPI_WEAK(Ireduce_c)
int PMPI_Ireduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                   MPI_Request *req)
{
    return reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, true, req, "MPI_Ireduce_c");
}
VMPI_WEAK(Allreduce)
int PMPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Allreduce");
}
VMPI_WEAK(Allreduce_c)
int PMPI_Allreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Allreduce_c");
}
VMPI_WEAK(Iallreduce)
int PMPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                    MPI_Request *req)
{
    return reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iallreduce");
}
VMPI_WEAK(Iallreduce_c)
int PMPI_Iallreduce_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                      MPI_Request *req)
{
    return reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iallreduce_c");
}
VMPI_WEAK(Scan)
int PMPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Scan");
}
VMPI_WEAK(Scan_c)
int PMPI_Scan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Scan_c");
}
VMPI_WEAK(Iscan)
int PMPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Request *req)
{
    return reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iscan");
}
VMPI_WEAK(Iscan_c)
int PMPI_Iscan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                 MPI_Request *req)
{
    return reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iscan_c");
}
VMPI_WEAK(Exscan)
int PMPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Exscan");
}
VMPI_WEAK(Exscan_c)
int PMPI_Exscan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, false, NULL, "MPI_Exscan_c");
}
VMPI_WEAK(Iexscan)
int PMPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                 MPI_Request *req)
{
    return reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iexscan");
}
VMPI_WEAK(Iexscan_c)
int PMPI_Iexscan_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                   MPI_Request *req)
{
    return reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Iexscan_c");
}
VMPI_WEAK(Reduce_scatter)
int PMPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_int(rcounts), dt, op, 0, comm, false, NULL,
                     "MPI_Reduce_scatter");
}
VMPI_WEAK(Reduce_scatter_c)
int PMPI_Reduce_scatter_c(const void *sbuf, void *rbuf, const MPI_Count rcounts[], MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm)
{
    return reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_count(rcounts), dt, op, 0, comm, false, NULL,
                     "MPI_Reduce_scatter_c");
}
VMPI_WEAK(Ireduce_scatter)
int PMPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                         MPI_Comm comm, MPI_Request *req)
{
    return reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_int(rcounts), dt, op, 0, comm, true, req,
                     "MPI_Ireduce_scatter");
}
VMPI_WEAK(Ireduce_scatter_c)
int PMPI_Ireduce_scatter_c(const void *sbuf, void *rbuf, const MPI_Count rcounts[], MPI_Datatype dt, MPI_Op op,
                           MPI_Comm comm, MPI_Request *req)
{
    return reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_count(rcounts), dt, op, 0, comm, true, req,
                     "MPI_Ireduce_scatter_c");
}
VMPI_WEAK(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    return reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, false, NULL,
                     "MPI_Reduce_scatter_block");
}
VMPI_WEAK(Reduce_scatter_block_c)
int PMPI_Reduce_scatter_block_c(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype dt, MPI_Op op,
                                MPI_Comm comm)
{
    return reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, false, NULL,
                     "MPI_Reduce_scatter_block_c");
}
VMPI_WEAK(Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                               MPI_Request *req)
{
    return reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, true, req,
                     "MPI_Ireduce_scatter_block");
}
VMPI_WEAK(Ireduce_scatter_block_c)
int PMPI_Ireduce_scatter_block_c(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype dt, MPI_Op op,
                                 MPI_Comm comm, MPI_Request *req)
{
    return reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, true, req,
                     "MPI_Ireduce_scatter_block_c");
}

/* persistent forms (MPI-4.1 6.13) */
VMPI_WEAK(Reduce_init)
int PMPI_Reduce_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_init",
                 reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, true, req, "MPI_Reduce_init"));
}
VMPI_WEAK(Reduce_init_c)
int PMPI_Reduce_init_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_init_c",
                 reduction(RED_REDUCE, sbuf, rbuf, count, NOV, dt, op, root, comm, true, req, "MPI_Reduce_init_c"));
}
VMPI_WEAK(Allreduce_init)
int PMPI_Allreduce_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                        MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allreduce_init",
                 reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Allreduce_init"));
}
VMPI_WEAK(Allreduce_init_c)
int PMPI_Allreduce_init_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                          MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Allreduce_init_c",
                 reduction(RED_ALL, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Allreduce_init_c"));
}
VMPI_WEAK(Scan_init)
int PMPI_Scan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, MPI_Info info,
                   MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scan_init",
                 reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Scan_init"));
}
VMPI_WEAK(Scan_init_c)
int PMPI_Scan_init_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Scan_init_c",
                 reduction(RED_SCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Scan_init_c"));
}
VMPI_WEAK(Exscan_init)
int PMPI_Exscan_init(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                     MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Exscan_init",
                 reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Exscan_init"));
}
VMPI_WEAK(Exscan_init_c)
int PMPI_Exscan_init_c(const void *sbuf, void *rbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Exscan_init_c",
                 reduction(RED_EXSCAN, sbuf, rbuf, count, NOV, dt, op, 0, comm, true, req, "MPI_Exscan_init_c"));
}
VMPI_WEAK(Reduce_scatter_init)
int PMPI_Reduce_scatter_init(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype dt, MPI_Op op,
                             MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_scatter_init",
                 reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_int(rcounts), dt, op, 0, comm, true, req,
                           "MPI_Reduce_scatter_init"));
}
VMPI_WEAK(Reduce_scatter_init_c)
int PMPI_Reduce_scatter_init_c(const void *sbuf, void *rbuf, const MPI_Count rcounts[], MPI_Datatype dt, MPI_Op op,
                               MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_scatter_init_c",
                 reduction(RED_SCATTER, sbuf, rbuf, 0, vmpi_iv_count(rcounts), dt, op, 0, comm, true, req,
                           "MPI_Reduce_scatter_init_c"));
}
VMPI_WEAK(Reduce_scatter_block_init)
int PMPI_Reduce_scatter_block_init(const void *sbuf, void *rbuf, int rcount, MPI_Datatype dt, MPI_Op op,
                                   MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_scatter_block_init",
                 reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, true, req,
                           "MPI_Reduce_scatter_block_init"));
}
VMPI_WEAK(Reduce_scatter_block_init_c)
int PMPI_Reduce_scatter_block_init_c(const void *sbuf, void *rbuf, MPI_Count rcount, MPI_Datatype dt, MPI_Op op,
                                     MPI_Comm comm, MPI_Info info, MPI_Request *req)
{
    VMPI_PERSIST(comm, info, "MPI_Reduce_scatter_block_init_c",
                 reduction(RED_SCATTER_BLOCK, sbuf, rbuf, rcount, NOV, dt, op, 0, comm, true, req,
                           "MPI_Reduce_scatter_block_init_c"));
}

static int reduce_local(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op,
                        const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_count(&ck, count)) || (err = vmpi_chk_dt(&ck, dt, &d)) || (err = vmpi_chk_op(&ck, op, d)) ||
        (err = vmpi_chk_not_in_place(&ck, inbuf)) || (err = vmpi_chk_not_in_place(&ck, inoutbuf)) ||
        (err = vmpi_chk_buf(&ck, inbuf, count, d)) || (err = vmpi_chk_buf(&ck, inoutbuf, count, d)) ||
        (err = vmpi_chk_alias(&ck, inbuf, inoutbuf, count > 0 && d->size > 0)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    vmpi_op_apply(op, dt, d, inbuf, inoutbuf, count);
    return MPI_SUCCESS;
}

VMPI_WEAK(Reduce_local)
int PMPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype dt, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, dt, op, "MPI_Reduce_local");
}
VMPI_WEAK(Reduce_local_c)
int PMPI_Reduce_local_c(const void *inbuf, void *inoutbuf, MPI_Count count, MPI_Datatype dt, MPI_Op op)
{
    return reduce_local(inbuf, inoutbuf, count, dt, op, "MPI_Reduce_local_c");
}
