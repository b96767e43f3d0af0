/* SPDX-License-Identifier: BSD-3-Clause */
/* Every intercommunicator collective is one schedule (csched.h): steps within a group run on the
 * internal intracommunicator over it (vmpi_cs_local), the crossing between the groups on the
 * intercommunicator itself.  Blocking and nonblocking forms share it, as on intracommunicators. */
#include <stdlib.h>
#include "mpi/coll/coll_build.h"
#include "mpi/coll/coll_inter.h"
#include "mpi/coll/csched.h"
#include "mpi/core/handle.h"

static const vmpi_dtype *BYTE(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

static char *at(const void *buf, MPI_Count i, const vmpi_dtype *dt) { return (char *)buf + i * dt->extent; }

/* The leaders swap data (a round of its own, on the remote side); the schedule goes on in the local group. */
static void leaders_swap(vmpi_csched *s, vmpi_comm *c, const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt,
                         void *rbuf, MPI_Count rcount, const vmpi_dtype *rdt)
{
    if (c->rank == 0) {
        vmpi_cs_local(s, false);
        vmpi_cs_recv(s, rbuf, rcount, rdt, 0);
        vmpi_cs_send(s, sbuf, scount, sdt, 0);
        vmpi_cs_round(s);
    }
    vmpi_cs_local(s, true);
}

int vmpi_inter_barrier(vmpi_comm *c, MPI_Request *req)
{
    /* each group fans in to its leader, the leaders swap word, each leader fans out */
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_cs_local(s, true);
    vmpi_build_fanin(s, c->size, c->rank);
    leaders_swap(s, c, NULL, 0, BYTE(), NULL, 0, BYTE());
    vmpi_build_bcast(s, NULL, 0, BYTE(), 0, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Barrier");
}

int vmpi_inter_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    if (root == MPI_ROOT) {
        vmpi_cs_send(s, buf, count, dt, 0);
    } else if (root != MPI_PROC_NULL) {
        if (c->rank == 0)
            vmpi_cs_recv(s, buf, count, dt, root);
        vmpi_cs_round(s);
        vmpi_cs_local(s, true);
        vmpi_build_bcast(s, buf, count, dt, 0, c->size, c->rank);
    }
    return vmpi_cs_run(s, req, "MPI_Bcast");
}

int vmpi_inter_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                      MPI_Op op, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    if (root == MPI_ROOT) {
        vmpi_cs_recv(s, rbuf, count, dt, 0);
    } else if (root != MPI_PROC_NULL) {
        void *tmp = c->rank == 0 ? vmpi_cs_tmp(s, count, dt) : NULL;
        vmpi_cs_local(s, true);
        vmpi_build_reduce(s, sbuf, tmp, count, dt, dth, op, 0, c->size, c->rank);
        vmpi_cs_local(s, false);
        if (c->rank == 0)
            vmpi_cs_send(s, tmp, count, dt, root);
    }
    return vmpi_cs_run(s, req, "MPI_Reduce");
}

int vmpi_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                         MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    /* each group reduces its own data at its leader; the leaders swap; each group gets the other's result */
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    void *tmp = c->rank == 0 ? vmpi_cs_tmp(s, count, dt) : NULL;
    vmpi_cs_local(s, true);
    vmpi_build_reduce(s, sbuf, tmp, count, dt, dth, op, 0, c->size, c->rank);
    leaders_swap(s, c, tmp, count, dt, rbuf, count, dt);
    vmpi_build_bcast(s, rbuf, count, dt, 0, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Allreduce");
}

/* This group's blocks gathered, in rank order, at its leader: a scratch buffer there (NULL elsewhere). */
static void *gather_at_leader(vmpi_csched *s, vmpi_comm *c, const void *sbuf, MPI_Count scount,
                              const vmpi_dtype *sdt)
{
    void *tmp = c->rank == 0 ? vmpi_cs_tmp(s, scount * c->size, sdt) : NULL;
    vmpi_cs_local(s, true);
    vmpi_build_gatherv(s, sbuf, scount, sdt, tmp, vmpi_iv_regular(scount, 0), vmpi_iv_regular(0, scount), sdt, 0,
                       c->size, c->rank);
    return tmp;
}

int vmpi_inter_gather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    if (root == MPI_ROOT) {
        vmpi_cs_recv(s, rbuf, rcount * c->peer_size, rdt, 0);
    } else if (root != MPI_PROC_NULL) {
        void *tmp = gather_at_leader(s, c, sbuf, scount, sdt);
        vmpi_cs_local(s, false);
        if (c->rank == 0)
            vmpi_cs_send(s, tmp, scount * c->size, sdt, root);
    }
    return vmpi_cs_run(s, req, "MPI_Gather");
}

int vmpi_inter_scatter(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    if (root == MPI_ROOT) {
        vmpi_cs_send(s, sbuf, scount * c->peer_size, sdt, 0);
    } else if (root != MPI_PROC_NULL) {
        void *tmp = c->rank == 0 ? vmpi_cs_tmp(s, rcount * c->size, rdt) : NULL;
        if (c->rank == 0)
            vmpi_cs_recv(s, tmp, rcount * c->size, rdt, root);
        vmpi_cs_round(s);
        vmpi_cs_local(s, true);
        vmpi_build_scatterv(s, tmp, vmpi_iv_regular(rcount, 0), vmpi_iv_regular(0, rcount), rdt, rbuf, rcount, rdt, 0,
                            c->size, c->rank);
    }
    return vmpi_cs_run(s, req, "MPI_Scatter");
}

int vmpi_inter_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                         const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    void *tmp = gather_at_leader(s, c, sbuf, scount, sdt);
    leaders_swap(s, c, tmp, scount * c->size, sdt, rbuf, rcount * c->peer_size, rdt);
    vmpi_build_bcast(s, rbuf, rcount * c->peer_size, rdt, 0, c->size, c->rank);
    return vmpi_cs_run(s, req, "MPI_Allgather");
}

int vmpi_inter_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < c->peer_size; j++) {
        vmpi_cs_recv(s, at(rbuf, j * rcount, rdt), rcount, rdt, j);
        vmpi_cs_send(s, at(sbuf, j * scount, sdt), scount, sdt, j);
    }
    return vmpi_cs_run(s, req, "MPI_Alltoall");
}

int vmpi_inter_pairs(vmpi_comm *c, int ns, const vmpi_inter_blk *sb, int nr, const vmpi_inter_blk *rb,
                     MPI_Request *req)
{
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < nr; j++)
        vmpi_cs_recv(s, rb[j].buf, rb[j].count, rb[j].dt, rb[j].peer);
    for (int j = 0; j < ns; j++)
        vmpi_cs_send(s, sb[j].buf, sb[j].count, sb[j].dt, sb[j].peer);
    return vmpi_cs_run(s, req, "MPI_Alltoallv");
}

int vmpi_inter_reduce_scatter(const void *sbuf, void *rbuf, vmpi_ivec rcounts, const vmpi_dtype *dt,
                              MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req)
{
    /* every vector holds sum(rcounts) elements of this group's counts (the same total in both groups, as
     * MPI requires): reduce ours at our leader, swap with theirs, scatter theirs over us */
    int n = c->size;
    MPI_Count *displs = malloc(sizeof *displs * (size_t)n);
    vmpi_csched *s = displs ? vmpi_cs_new(c) : NULL;
    if (s == NULL) {
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    MPI_Count total = 0;
    for (int i = 0; i < n; i++) {
        displs[i] = total;
        total += vmpi_iv_at(rcounts, i);
    }
    void *mine = c->rank == 0 ? vmpi_cs_tmp(s, total, dt) : NULL;
    void *theirs = c->rank == 0 ? vmpi_cs_tmp(s, total, dt) : NULL;
    vmpi_cs_local(s, true);
    vmpi_build_reduce(s, sbuf, mine, total, dt, dth, op, 0, n, c->rank);
    leaders_swap(s, c, mine, total, dt, theirs, total, dt);
    vmpi_build_scatterv(s, theirs, rcounts, vmpi_iv_count(displs), dt, rbuf, vmpi_iv_at(rcounts, c->rank), dt, 0, n,
                        c->rank);
    free(displs);
    return vmpi_cs_run(s, req, "MPI_Reduce_scatter");
}
