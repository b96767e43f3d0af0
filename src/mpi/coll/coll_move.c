/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives that move data without combining it: barrier, broadcast, gather, scatter, allgather,
 * all-to-all. */
#include <stdbool.h>
#include <stdlib.h>
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_build.h"
#include "mpi/coll/csched.h"
#include "mpi/coll/hier.h"
#include "mpi/coll/shm.h"
#include "mpi/coll/span.h"
#include "mpi/core/handle.h"

static char *at(const void *buf, MPI_Aint disp, const vmpi_dtype *dt) { return (char *)buf + disp * dt->extent; }

void vmpi_build_fanin(vmpi_csched *s, int n, int rank)
{
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    int mask = 1;
    for (; mask < n && !(rank & mask); mask <<= 1) /* every child at once */
        if (rank + mask < n)
            vmpi_cs_recv(s, NULL, 0, byte, rank + mask);
    vmpi_cs_round(s);
    if (rank != 0) {
        vmpi_cs_send(s, NULL, 0, byte, rank - mask);
        vmpi_cs_round(s);
    }
}

int vmpi_coll_barrier(vmpi_comm *c, MPI_Request *req)
{
    if (req == NULL)
        return vmpi_coll_spans(c) ? vmpi_hier_barrier(c) : vmpi_shm_barrier(c);
    /* binomial fan-in to rank 0, then fan-out: 2 (n - 1) empty messages in all (a dissemination barrier
     * needs n log n, and on a few PEs the message count is what costs) */
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_fanin(s, c->size, c->rank);
    vmpi_build_bcast(s, NULL, 0, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)), 0, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Ibarrier");
}

void vmpi_build_bcast(vmpi_csched *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int root, int n, int rank)
{
    /* binomial tree over ranks relative to the root: receive from the parent, then send to every child */
    int vr = (rank - root + n) % n, mask = 1;
    while (mask < n) {
        if (vr & mask) {
            vmpi_cs_recv(s, buf, count, dt, (vr - mask + root) % n);
            vmpi_cs_round(s);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            vmpi_cs_send(s, buf, count, dt, (vr + mask + root) % n);
    vmpi_cs_round(s);
}

int vmpi_coll_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c, MPI_Request *req)
{
    if (req == NULL && vmpi_coll_spans(c))
        return vmpi_hier_bcast(buf, count, dt, root, c);
    if (req == NULL)
        return vmpi_shm_bcast(buf, count, dt, root, c);
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_bcast(s, buf, count, dt, root, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Bcast");
}

void vmpi_build_scatterv(vmpi_csched *s, const void *sbuf, vmpi_ivec scounts, vmpi_ivec displs,
                         const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount, const vmpi_dtype *rdt, int root, int n,
                         int rank)
{
    if (rank == root) {
        for (int i = 1; i < n; i++) {
            int p = (root + i) % n;
            vmpi_cs_send(s, at(sbuf, vmpi_iv_at(displs, p), sdt), vmpi_iv_at(scounts, p), sdt, p);
        }
        if (rbuf != MPI_IN_PLACE)
            vmpi_cs_copy(s, at(sbuf, vmpi_iv_at(displs, root), sdt), vmpi_iv_at(scounts, root), sdt, rbuf, rcount,
                         rdt);
    } else {
        vmpi_cs_recv(s, rbuf, rcount, rdt, root);
    }
    vmpi_cs_round(s);
}

void vmpi_build_gatherv(vmpi_csched *s, const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf,
                        vmpi_ivec rcounts, vmpi_ivec displs, const vmpi_dtype *rdt, int root, int n, int rank)
{
    if (rank == root) {
        for (int i = 1; i < n; i++) {
            int p = (root + i) % n;
            vmpi_cs_recv(s, at(rbuf, vmpi_iv_at(displs, p), rdt), vmpi_iv_at(rcounts, p), rdt, p);
        }
        if (sbuf != MPI_IN_PLACE)
            vmpi_cs_copy(s, sbuf, scount, sdt, at(rbuf, vmpi_iv_at(displs, root), rdt), vmpi_iv_at(rcounts, root),
                         rdt);
    } else {
        vmpi_cs_send(s, sbuf, scount, sdt, root);
    }
    vmpi_cs_round(s);
}

int vmpi_coll_gatherv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, vmpi_ivec rcounts,
                      vmpi_ivec displs, const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_gatherv(s, sbuf, scount, sdt, rbuf, rcounts, displs, rdt, root, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Gather");
}

int vmpi_coll_gather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                     const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    return vmpi_coll_gatherv(sbuf, scount, sdt, rbuf, vmpi_iv_regular(rcount, 0), vmpi_iv_regular(0, rcount), rdt,
                             root, c, req);
}

int vmpi_coll_scatterv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec displs, const vmpi_dtype *sdt, void *rbuf,
                       MPI_Count rcount, const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_build_scatterv(s, sbuf, scounts, displs, sdt, rbuf, rcount, rdt, root, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Scatter");
}

int vmpi_coll_scatter(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    return vmpi_coll_scatterv(sbuf, vmpi_iv_regular(scount, 0), vmpi_iv_regular(0, scount), sdt, rbuf, rcount, rdt,
                              root, c, req);
}

int vmpi_coll_allgatherv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, vmpi_ivec rcounts,
                         vmpi_ivec displs, const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req)
{
    /* every rank sends its block to every other at once (one round; n - 1 messages each) */
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int n = c->size, r = c->rank;
    void *mine = at(rbuf, vmpi_iv_at(displs, r), rdt);
    if (sbuf == MPI_IN_PLACE) {
        sbuf = mine;
        scount = vmpi_iv_at(rcounts, r);
        sdt = rdt;
    } else {
        vmpi_cs_copy(s, sbuf, scount, sdt, mine, vmpi_iv_at(rcounts, r), rdt);
    }
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        vmpi_cs_send(s, sbuf, scount, sdt, to);
        vmpi_cs_recv(s, at(rbuf, vmpi_iv_at(displs, from), rdt), vmpi_iv_at(rcounts, from), rdt, from);
    }
    return vmpi_cs_run(s, req, "MPI_Allgather");
}

int vmpi_coll_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req)
{
    if (req == NULL && !vmpi_coll_spans(c))
        return vmpi_shm_allgather(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    return vmpi_coll_allgatherv(sbuf, scount, sdt, rbuf, vmpi_iv_regular(rcount, 0), vmpi_iv_regular(0, rcount), rdt,
                                c, req);
}

int vmpi_coll_alltoallw(const void *sbuf, vmpi_ivec scounts, const MPI_Aint *sdispls, const vmpi_dtype *const *sdts,
                        void *rbuf, vmpi_ivec rcounts, const MPI_Aint *rdispls, const vmpi_dtype *const *rdts,
                        vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int n = c->size, r = c->rank;
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    const char *src = sbuf;
    if (sbuf == MPI_IN_PLACE) {
        /* send what the receive buffer holds now: a copy of its whole span, taken before any receive */
        MPI_Aint lo = 0, hi = 0;
        bool any = false;
        for (int i = 0; i < n; i++) {
            MPI_Count k = vmpi_iv_at(rcounts, i);
            if (k == 0 || rdts[i]->size == 0)
                continue;
            const vmpi_dtype *d = rdts[i];
            MPI_Aint a = rdispls[i] + d->true_lb, b = a + d->true_extent + (k - 1) * d->extent;
            lo = !any || a < lo ? a : lo;
            hi = !any || b > hi ? b : hi;
            any = true;
        }
        char *copy = hi > lo ? vmpi_cs_tmp(s, hi - lo, byte) : NULL;
        if (copy) {
            vmpi_cs_copy(s, (char *)rbuf + lo, hi - lo, byte, copy, hi - lo, byte);
            vmpi_cs_round(s);
        }
        src = copy ? copy - lo : rbuf;
        scounts = rcounts;
        sdispls = rdispls;
        sdts = rdts;
    }
    for (int i = 1; i < n; i++) {
        int to = (r + i) % n, from = (r - i + n) % n;
        vmpi_cs_send(s, src + sdispls[to], vmpi_iv_at(scounts, to), sdts[to], to);
        vmpi_cs_recv(s, (char *)rbuf + rdispls[from], vmpi_iv_at(rcounts, from), rdts[from], from);
    }
    if (sbuf != MPI_IN_PLACE)
        vmpi_cs_copy(s, src + sdispls[r], vmpi_iv_at(scounts, r), sdts[r], (char *)rbuf + rdispls[r],
                     vmpi_iv_at(rcounts, r), rdts[r]);
    return vmpi_cs_run(s, req, "MPI_Alltoall");
}

int vmpi_coll_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req)
{
    /* in place, ranks would read what others overwrite */
    if (req == NULL && sbuf != MPI_IN_PLACE && !vmpi_coll_spans(c))
        return vmpi_shm_alltoall(sbuf, scount, sdt, rbuf, rcount, rdt, c);
    int n = c->size;
    MPI_Aint *d = malloc(sizeof *d * (size_t)(2 * n));
    const vmpi_dtype **t = malloc(sizeof *t * (size_t)(2 * n));
    int err = MPI_ERR_NO_MEM;
    if (d && t) {
        for (int i = 0; i < n; i++) {
            d[i] = sbuf == MPI_IN_PLACE ? 0 : i * scount * sdt->extent;
            d[n + i] = i * rcount * rdt->extent;
            t[i] = sdt;
            t[n + i] = rdt;
        }
        err = vmpi_coll_alltoallw(sbuf, vmpi_iv_regular(scount, 0), d, t, rbuf, vmpi_iv_regular(rcount, 0), d + n,
                                  t + n, c, req);
    }
    free(d);
    free(t);
    return err;
}
