/* SPDX-License-Identifier: BSD-3-Clause */
/* Reductions: reduce, allreduce, reduce-scatter, scans. */
#include <stdlib.h>
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_build.h"
#include "mpi/coll/csched.h"
#include "mpi/coll/hier.h"
#include "mpi/coll/shm.h"
#include "mpi/coll/span.h"
#include "mpi/op/op.h"

void vmpi_build_reduce(vmpi_csched *s, const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt,
                       MPI_Datatype dth, MPI_Op op, int root, int n, int rank)
{
    /* Binomial tree: node vr holds the reduction of [vr, vr + mask) and appends the block on its right, so
     * operands combine in the order of vr.  A commutative op roots the tree at `root`; otherwise the tree
     * is rooted at rank 0 (vr = rank: true rank order) and rank 0 forwards the result. */
    int base = vmpi_op_commutative(op) ? root : 0;
    int vr = (rank - base + n) % n;
    if (vr & 1) { /* a leaf: sends its own data, no copy */
        vmpi_cs_send(s, sbuf, count, dt, (vr - 1 + base) % n);
        vmpi_cs_round(s);
    } else {
        char *acc = vmpi_cs_tmp(s, count, dt), *other = NULL;
        vmpi_cs_copy(s, sbuf, count, dt, acc, count, dt);
        vmpi_cs_round(s);
        for (int mask = 1; mask < n; mask <<= 1) {
            if (vr & mask) {
                vmpi_cs_send(s, acc, count, dt, (vr - mask + base) % n);
                vmpi_cs_round(s);
                break;
            }
            if (vr + mask < n) {
                if (other == NULL)
                    other = vmpi_cs_tmp(s, count, dt);
                vmpi_cs_recv(s, other, count, dt, (vr + mask + base) % n);
                vmpi_cs_reduce(s, acc, other, count, dt, dth, op); /* other = mine op the right block */
                vmpi_cs_round(s);
                char *t = acc;
                acc = other;
                other = t;
            }
        }
        if (vr == 0 && base == root)
            vmpi_cs_copy(s, acc, count, dt, rbuf, count, dt);
        else if (vr == 0)
            vmpi_cs_send(s, acc, count, dt, root);
        vmpi_cs_round(s);
    }
    if (base != root && rank == root) {
        vmpi_cs_recv(s, rbuf, count, dt, base);
        vmpi_cs_round(s);
    }
}

int vmpi_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                     MPI_Op op, int root, vmpi_comm *c, MPI_Request *req)
{
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    if (req == NULL && vmpi_coll_spans(c))
        return vmpi_hier_reduce(sbuf, rbuf, count, dt, dth, op, root, c);
    if (req == NULL)
        return vmpi_shm_reduce(sbuf, rbuf, count, dt, dth, op, root, c);
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_reduce(s, sbuf, rbuf, count, dt, dth, op, root, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Reduce");
}

int vmpi_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                        MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    if (req == NULL && vmpi_coll_spans(c))
        return vmpi_hier_reduce(sbuf, rbuf, count, dt, dth, op, -1, c);
    if (req == NULL)
        return vmpi_shm_reduce(sbuf, rbuf, count, dt, dth, op, -1, c);
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_reduce(s, sbuf, rbuf, count, dt, dth, op, 0, c->size, c->rank);
    vmpi_build_bcast(s, rbuf, count, dt, 0, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Allreduce");
}

int vmpi_coll_reduce_scatter(const void *sbuf, void *rbuf, vmpi_ivec rcounts, const vmpi_dtype *dt,
                             MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    /* reduce everything to rank 0, then scatter the blocks */
    int n = c->size, r = c->rank;
    MPI_Count *displs = rcounts.kind == VMPI_IV_REGULAR ? NULL : malloc(sizeof *displs * (size_t)n);
    if (rcounts.kind != VMPI_IV_REGULAR && displs == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL) {
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    MPI_Count total = 0;
    for (int i = 0; i < n; i++) {
        if (displs)
            displs[i] = total;
        total += vmpi_iv_at(rcounts, i);
    }
    /* Reduce_scatter_block's blocks are regular: no displacement array */
    vmpi_ivec dv = displs ? vmpi_iv_count(displs) : vmpi_iv_regular(0, rcounts.base);
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    void *all = r == 0 ? vmpi_cs_tmp(s, total, dt) : NULL;
    vmpi_build_reduce(s, sbuf, all, total, dt, dth, op, 0, n, r);
    vmpi_build_scatterv(s, all, rcounts, dv, dt, rbuf, vmpi_iv_at(rcounts, r), dt, 0, n, r);
    int err = vmpi_cs_run(s, req, "MPI_Reduce_scatter");
    free(displs);
    return err;
}

int vmpi_coll_reduce_scatter_block(const void *sbuf, void *rbuf, MPI_Count rcount, const vmpi_dtype *dt,
                                   MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    return vmpi_coll_reduce_scatter(sbuf, rbuf, vmpi_iv_regular(rcount, 0), dt, dth, op, c, req);
}

int vmpi_coll_scan(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth, MPI_Op op,
                   bool exclusive, vmpi_comm *c, MPI_Request *req)
{
    /* a chain in rank order: rank r receives the prefix of 0..r-1, combines its own data on the right and
     * passes the prefix of 0..r on */
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int n = c->size, r = c->rank;
    if (sbuf == MPI_IN_PLACE)
        sbuf = rbuf;
    const void *out = sbuf; /* what goes on to r + 1 */
    if (!exclusive) {
        if (sbuf != rbuf)
            vmpi_cs_copy(s, sbuf, count, dt, rbuf, count, dt);
        if (r > 0) {
            void *prev = vmpi_cs_tmp(s, count, dt);
            vmpi_cs_recv(s, prev, count, dt, r - 1);
            vmpi_cs_reduce(s, prev, rbuf, count, dt, dth, op);
        }
        out = rbuf;
    } else if (r > 0) {
        void *prev = vmpi_cs_tmp(s, count, dt), *acc = vmpi_cs_tmp(s, count, dt);
        vmpi_cs_recv(s, prev, count, dt, r - 1);
        vmpi_cs_copy(s, sbuf, count, dt, acc, count, dt); /* before rbuf is overwritten (in place) */
        vmpi_cs_copy(s, prev, count, dt, rbuf, count, dt);
        vmpi_cs_reduce(s, prev, acc, count, dt, dth, op);
        out = acc;
    }
    vmpi_cs_round(s);
    if (r + 1 < n)
        vmpi_cs_send(s, out, count, dt, r + 1);
    return vmpi_cs_run(s, req, exclusive ? "MPI_Exscan" : "MPI_Scan");
}
