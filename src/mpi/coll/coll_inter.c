/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages between the groups use the intercommunicator's collective context with negative tags (the
 * intracommunicator schedules use non-negative ones). */
#include <stdlib.h>
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_inter.h"
#include "mpi/core/handle.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/pt2pt/wait.h"

enum { TAG_IBARRIER = -300, TAG_IBCAST = -301, TAG_IREDUCE = -302, TAG_IALLREDUCE = -303, TAG_IGATHER = -304,
       TAG_ISCATTER = -305, TAG_IALLGATHER = -306, TAG_IPAIRS = -308, TAG_IREDSCAT = -309 };
#define COLL 1

static const vmpi_dtype *BYTE(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

/* A scratch buffer for `count` elements of `dt`, and the pointer to use as its buffer argument. */
static void *scratch(MPI_Count count, const vmpi_dtype *dt, void **base)
{
    MPI_Count span = count > 0 ? (count - 1) * dt->extent + dt->true_extent : 0;
    *base = malloc((size_t)(span > 0 ? span : 1));
    return *base ? (char *)*base - dt->true_lb : NULL;
}

/* The leaders swap data over the intercommunicator. */
static int leaders_swap(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, int tag, vmpi_comm *c)
{
    MPI_Request r;
    int err = vmpi_irecv(rbuf, rcount, rdt, 0, tag, c, COLL, false, &r);
    if (!err)
        err = vmpi_send(sbuf, scount, sdt, 0, tag, c, COLL, VMPI_SENDK_STD);
    int e = err ? MPI_SUCCESS : vmpi_wait(&r, MPI_STATUS_IGNORE);
    return err ? err : e;
}

int vmpi_inter_barrier(vmpi_comm *c)
{
    int err = vmpi_coll_barrier(c->local, NULL);
    if (!err && c->rank == 0)
        err = leaders_swap(NULL, 0, BYTE(), NULL, 0, BYTE(), TAG_IBARRIER, c);
    int e = vmpi_coll_barrier(c->local, NULL); /* nobody leaves before both groups have arrived */
    return err ? err : e;
}

int vmpi_inter_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return vmpi_send(buf, count, dt, 0, TAG_IBCAST, c, COLL, VMPI_SENDK_STD);
    int err = c->rank == 0 ? vmpi_recv(buf, count, dt, root, TAG_IBCAST, c, COLL, MPI_STATUS_IGNORE) : MPI_SUCCESS;
    int e = vmpi_coll_bcast(buf, count, dt, 0, c->local, NULL);
    return err ? err : e;
}

int vmpi_inter_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                      MPI_Op op, int root, vmpi_comm *c)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return vmpi_recv(rbuf, count, dt, 0, TAG_IREDUCE, c, COLL, MPI_STATUS_IGNORE);
    void *base = NULL, *tmp = c->rank == 0 ? scratch(count, dt, &base) : NULL;
    if (c->rank == 0 && tmp == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_coll_reduce(sbuf, tmp, count, dt, dth, op, 0, c->local, NULL);
    if (!err && c->rank == 0)
        err = vmpi_send(tmp, count, dt, root, TAG_IREDUCE, c, COLL, VMPI_SENDK_STD);
    free(base);
    return err;
}

int vmpi_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                         MPI_Op op, vmpi_comm *c)
{
    /* each group reduces its own data at its leader; the leaders swap; each group gets the other's result */
    void *base = NULL, *tmp = c->rank == 0 ? scratch(count, dt, &base) : NULL;
    if (c->rank == 0 && tmp == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_coll_reduce(sbuf, tmp, count, dt, dth, op, 0, c->local, NULL);
    if (!err && c->rank == 0)
        err = leaders_swap(tmp, count, dt, rbuf, count, dt, TAG_IALLREDUCE, c);
    free(base);
    int e = vmpi_coll_bcast(rbuf, count, dt, 0, c->local, NULL);
    return err ? err : e;
}

int vmpi_inter_gather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, int root, vmpi_comm *c)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return vmpi_recv(rbuf, rcount * c->peer_size, rdt, 0, TAG_IGATHER, c, COLL, MPI_STATUS_IGNORE);
    MPI_Count n = scount * c->size;
    void *base = NULL, *tmp = c->rank == 0 ? scratch(n, sdt, &base) : NULL;
    if (c->rank == 0 && tmp == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_coll_gather(sbuf, scount, sdt, tmp, scount, sdt, 0, c->local, NULL);
    if (!err && c->rank == 0)
        err = vmpi_send(tmp, n, sdt, root, TAG_IGATHER, c, COLL, VMPI_SENDK_STD);
    free(base);
    return err;
}

int vmpi_inter_scatter(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, int root, vmpi_comm *c)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return vmpi_send(sbuf, scount * c->peer_size, sdt, 0, TAG_ISCATTER, c, COLL, VMPI_SENDK_STD);
    MPI_Count n = rcount * c->size;
    void *base = NULL, *tmp = c->rank == 0 ? scratch(n, rdt, &base) : NULL;
    if (c->rank == 0 && tmp == NULL)
        return MPI_ERR_NO_MEM;
    int err = c->rank == 0 ? vmpi_recv(tmp, n, rdt, root, TAG_ISCATTER, c, COLL, MPI_STATUS_IGNORE) : MPI_SUCCESS;
    int e = vmpi_coll_scatter(tmp, rcount, rdt, rbuf, rcount, rdt, 0, c->local, NULL);
    free(base);
    return err ? err : e;
}

int vmpi_inter_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                         const vmpi_dtype *rdt, vmpi_comm *c)
{
    MPI_Count n = scount * c->size;
    void *base = NULL, *tmp = c->rank == 0 ? scratch(n, sdt, &base) : NULL;
    if (c->rank == 0 && tmp == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_coll_gather(sbuf, scount, sdt, tmp, scount, sdt, 0, c->local, NULL);
    if (!err && c->rank == 0)
        err = leaders_swap(tmp, n, sdt, rbuf, rcount * c->peer_size, rdt, TAG_IALLGATHER, c);
    free(base);
    int e = vmpi_coll_bcast(rbuf, rcount * c->peer_size, rdt, 0, c->local, NULL);
    return err ? err : e;
}

int vmpi_inter_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, vmpi_comm *c)
{
    int n = c->peer_size;
    vmpi_inter_blk *b = malloc(sizeof *b * (size_t)(2 * n + 1));
    if (b == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < n; j++) {
        b[j] = (vmpi_inter_blk){(char *)sbuf + (MPI_Aint)j * scount * sdt->extent, scount, sdt, j};
        b[n + j] = (vmpi_inter_blk){(char *)rbuf + (MPI_Aint)j * rcount * rdt->extent, rcount, rdt, j};
    }
    int err = vmpi_inter_pairs(c, n, b, n, b + n);
    free(b);
    return err;
}

/* ---- the v and w forms: every block goes straight to its rank of the other group ---- */

int vmpi_inter_pairs(vmpi_comm *c, int ns, const vmpi_inter_blk *sb, int nr, const vmpi_inter_blk *rb)
{
    int k = 0, err = MPI_SUCCESS;
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(ns + nr + 1));
    if (rq == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < nr && !err; j++)
        err = vmpi_irecv(rb[j].buf, rb[j].count, rb[j].dt, rb[j].peer, TAG_IPAIRS, c, COLL, false, &rq[k++]);
    for (int j = 0; j < ns && !err; j++)
        err = vmpi_isend(sb[j].buf, sb[j].count, sb[j].dt, sb[j].peer, TAG_IPAIRS, c, COLL, VMPI_SENDK_STD, false,
                         &rq[k++]);
    int e = vmpi_waitall(k, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return err ? err : e;
}

int vmpi_inter_reduce_scatter(const void *sbuf, void *rbuf, const int *rcounts, const vmpi_dtype *dt,
                              MPI_Datatype dth, MPI_Op op, vmpi_comm *c)
{
    /* every vector holds sum(rcounts) elements of this group's counts (the same total in both groups, as
     * MPI requires): reduce ours at our leader, swap with theirs, scatter theirs over us */
    MPI_Count total = 0;
    int n = c->size, err;
    int *displs = malloc(sizeof(int) * (size_t)n);
    if (displs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++) {
        displs[i] = (int)total;
        total += rcounts[i];
    }
    void *b1 = NULL, *b2 = NULL, *mine = NULL, *theirs = NULL;
    if (c->rank == 0 && ((mine = scratch(total, dt, &b1)) == NULL || (theirs = scratch(total, dt, &b2)) == NULL)) {
        free(b1);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    err = vmpi_coll_reduce(sbuf, mine, total, dt, dth, op, 0, c->local, NULL);
    if (!err && c->rank == 0)
        err = leaders_swap(mine, total, dt, theirs, total, dt, TAG_IREDSCAT, c);
    int e = vmpi_coll_scatterv(theirs, rcounts, displs, dt, rbuf, rcounts[c->rank], dt, 0, c->local, NULL);
    free(b1);
    free(b2);
    free(displs);
    return err ? err : e;
}
