/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/coll/hier.h"

#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/shm.h"
#include "mpi/coll/span.h"
#include "mpi/core/handle.h"
#include "mpi/op/op.h"
#include "mpi/pt2pt/pt2pt.h"
#include "msg/loc.h"

/* Tags on the parent's collective context: negative, as comm/ internals (comm_create.c uses -100..-106,
 * adapt/migrate.c -400). */
enum { TAG_BARRIER = -300, TAG_BCAST = -301, TAG_PARTIAL = -302, TAG_BCAST_SIZE = -303 };

typedef struct hier {
    vmpi_comm node;          /* this process's ranks of the communicator */
    int nprocs;              /* processes it spans, numbered in order of their lowest rank */
    int me;                  /* the calling rank's process, in that numbering */
    int *leader;             /* [nprocs] each process's lowest rank */
    int *proc_of;            /* [size] rank -> process */
    int *node_rank;          /* [size] rank -> its rank in its process's node communicator */
} hier;

static const vmpi_dtype *byte_type(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

/* O(size) per rank, once per communicator (only in a job of several processes). */
static hier *build(vmpi_comm *c)
{
    int n = c->size;
    hier *h = calloc(1, sizeof *h);
    int *pid = h ? malloc(sizeof(int) * (size_t)vmpi_xport_nprocs()) : NULL;
    if (h == NULL || pid == NULL)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    h->leader = malloc(sizeof(int) * (size_t)vmpi_xport_nprocs());
    h->proc_of = malloc(sizeof(int) * (size_t)n);
    h->node_rank = malloc(sizeof(int) * (size_t)n);
    int *world_of = malloc(sizeof(int) * (size_t)n);
    if (!h->leader || !h->proc_of || !h->node_rank || !world_of)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    for (int p = 0; p < vmpi_xport_nprocs(); p++)
        pid[p] = -1;
    int *count = h->leader; /* counts per job process first, then leaders */
    int mine = vmpi_loc_of(vmpi_comm_world_rank(c, c->rank)).proc, nlocal = 0;
    for (int r = 0; r < n; r++) {
        int w = vmpi_comm_world_rank(c, r), p = vmpi_loc_of(w).proc;
        if (pid[p] < 0) {
            pid[p] = h->nprocs;
            count[h->nprocs++] = 0;
        }
        h->proc_of[r] = pid[p];
        h->node_rank[r] = count[pid[p]]++;
        if (p == mine)
            world_of[nlocal++] = w;
        if (r == c->rank)
            h->me = pid[p];
    }
    for (int r = n - 1; r >= 0; r--)
        if (h->node_rank[r] == 0)
            h->leader[h->proc_of[r]] = r;
    free(pid);
    h->node = (vmpi_comm){.ctx = c->ctx, .rank = h->node_rank[c->rank], .size = nlocal, .peer_size = nlocal,
                          .world_of = world_of, .errh = c->errh, .handle = c->handle,
                          .coll_span = VMPI_SPAN_ONE};
    memcpy(h->node.name, c->name, sizeof h->node.name);
    return h;
}

static hier *get(vmpi_comm *c)
{
    if (c->coll_hier == NULL)
        c->coll_hier = build(c);
    return c->coll_hier;
}

void vmpi_hier_release(vmpi_comm *c)
{
    hier *h = c->coll_hier;
    if (h == NULL)
        return;
    vmpi_shm_release(&h->node);
    free((int *)h->node.world_of);
    free(h->leader);
    free(h->proc_of);
    free(h->node_rank);
    free(h);
    c->coll_hier = NULL;
}

int vmpi_hier_barrier(vmpi_comm *c)
{
    hier *h = get(c);
    int err = vmpi_shm_barrier(&h->node);
    if (h->node.rank == 0) /* dissemination among the leaders: log2(processes) rounds */
        for (int k = 1; k < h->nprocs && err == MPI_SUCCESS; k <<= 1) {
            err = vmpi_send(NULL, 0, byte_type(), h->leader[(h->me + k) % h->nprocs], TAG_BARRIER, c, 1,
                            VMPI_SENDK_STD);
            if (err == MPI_SUCCESS)
                err = vmpi_recv(NULL, 0, byte_type(), h->leader[(h->me - k + h->nprocs) % h->nprocs], TAG_BARRIER,
                                c, 1, MPI_STATUS_IGNORE);
        }
    int e2 = vmpi_shm_barrier(&h->node);
    return err ? err : e2;
}

/* The rank that stands for process p in a collective rooted at `root`: the root in its own process, the
 * leader elsewhere. */
static int stand_in(const hier *h, int p, int root) { return h->proc_of[root] == p ? root : h->leader[p]; }

/* A received message must be exactly the size the receiver expects (MPI makes the signatures match). */
static int recv_exact(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c)
{
    MPI_Status st;
    int err = vmpi_recv(buf, count, dt, src, tag, c, 1, &st);
    if (err == MPI_SUCCESS && st.vmpi_count != count * dt->size)
        err = MPI_ERR_TRUNCATE;
    return err;
}

/* A leader that is not the root forwards the root's bytes whatever its own count (a reader whose count
 * differs fails alone and gets the part that fits, as on the shared-memory path): each edge of the tree
 * carries the byte count, then the packed data. */
static int bcast_forward(hier *h, int vr, int rp, int root, MPI_Count bytes, const void *buf, MPI_Count count,
                         const vmpi_dtype *dt, vmpi_comm *c)
{
    int K = h->nprocs, err = MPI_SUCCESS, mask = 1;
    while (mask < K && !(vr & mask))
        mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < K) {
            int to = stand_in(h, (vr + mask + rp) % K, root);
            int e = vmpi_send(&bytes, 1, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_COUNT)), to, TAG_BCAST_SIZE, c, 1,
                              VMPI_SENDK_STD);
            if (e == MPI_SUCCESS)
                e = vmpi_send(buf, count, dt, to, TAG_BCAST, c, 1, VMPI_SENDK_STD);
            err = err ? err : e;
        }
    return err;
}

int vmpi_hier_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    hier *h = get(c);
    int K = h->nprocs, rp = h->proc_of[root], vr = (h->me - rp + K) % K, err = MPI_SUCCESS;
    int node_root = h->node_rank[stand_in(h, h->me, root)];
    if (c->rank == root) {
        err = bcast_forward(h, vr, rp, root, count * dt->size, buf, count, dt, c);
        int e2 = vmpi_shm_bcast(buf, count, dt, node_root, &h->node);
        return err ? err : e2;
    }
    if (c->rank != h->leader[h->me] || h->me == rp)
        return vmpi_shm_bcast(buf, count, dt, node_root, &h->node);
    int mask = 1; /* a leader: from its parent in the binomial tree over the processes, relative to the root's */
    while (!(vr & mask))
        mask <<= 1;
    int from = stand_in(h, (vr - mask + rp) % K, root);
    MPI_Count bytes = 0;
    err = vmpi_recv(&bytes, 1, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_COUNT)), from, TAG_BCAST_SIZE, c, 1,
                    MPI_STATUS_IGNORE);
    char *tmp = err == MPI_SUCCESS ? malloc(bytes ? (size_t)bytes : 1) : NULL;
    const vmpi_dtype *byte = byte_type();
    if (err == MPI_SUCCESS && tmp == NULL)
        err = MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS)
        err = recv_exact(tmp, bytes, byte, from, TAG_BCAST, c);
    if (err == MPI_SUCCESS)
        err = bcast_forward(h, vr, rp, root, bytes, tmp, bytes, byte, c);
    int e2 = vmpi_shm_bcast(tmp, err == MPI_SUCCESS ? bytes : 0, byte, node_root, &h->node);
    if (err == MPI_SUCCESS) { /* like a receive: at most what fits */
        vmpi_dtype_unpack(tmp, bytes < count * dt->size ? bytes : count * dt->size, buf, count, dt);
        if (bytes != count * dt->size)
            err = MPI_ERR_TRUNCATE;
    }
    free(tmp);
    return err ? err : e2;
}

/* Scratch for `count` instances of `dt` (a base pointer), or NULL; freed with free_tmp. */
static void *tmp_new(MPI_Count count, const vmpi_dtype *dt, void **mem)
{
    size_t bytes = count > 0 ? (size_t)(dt->true_extent + (count - 1) * dt->extent) : 1;
    *mem = malloc(bytes);
    return *mem ? (char *)*mem - dt->true_lb : NULL;
}

/* Grouping-independent operations: each process reduces on its node, the root folds the partial results of
 * the processes (in process order, right to left: the predefined operations commute anyway). */
static int reduce_by_process(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt,
                             MPI_Datatype dth, MPI_Op op, int root, vmpi_comm *c, hier *h)
{
    int K = h->nprocs, rp = h->proc_of[root], target = stand_in(h, h->me, root);
    void *mem = NULL, *part = rbuf;
    if (c->rank == target && c->rank != root && (part = tmp_new(count, dt, &mem)) == NULL)
        return MPI_ERR_NO_MEM; /* (the others then wait: out of memory in a collective is fatal in effect) */
    int err = vmpi_shm_reduce(sbuf, part, count, dt, dth, op, h->node_rank[target], &h->node);
    if (c->rank == target && c->rank != root) {
        int e = vmpi_send(part, count, dt, root, TAG_PARTIAL, c, 1, VMPI_SENDK_STD);
        err = err ? err : e;
    } else if (c->rank == root && K > 1) {
        /* acc = P_{K-1}; then acc = P_p op acc for p = K-2 .. 0, where P_rp is already in rbuf */
        void *m2 = NULL, *acc = tmp_new(count, dt, &mem), *in = tmp_new(count, dt, &m2);
        if (acc == NULL || in == NULL) {
            free(m2);
            free(mem);
            return MPI_ERR_NO_MEM;
        }
        for (int p = K - 1; p >= 0; p--) {
            const void *x = rbuf;
            if (p != rp) {
                int e = recv_exact(p == K - 1 ? acc : in, count, dt, h->leader[p], TAG_PARTIAL, c);
                err = err ? err : e;
                x = p == K - 1 ? acc : in;
            }
            if (p == K - 1 && p == rp)
                vmpi_dtype_copy(rbuf, count, dt, acc, count, dt);
            else if (p != K - 1)
                vmpi_op_apply(op, dth, dt, x, acc, count);
        }
        vmpi_dtype_copy(acc, count, dt, rbuf, count, dt);
        free(m2);
    }
    free(mem);
    return err;
}

/* Other operations: the root gathers every operand and folds them in rank order, right to left, as the
 * shared-memory path does (shm.c), so the bits do not depend on where the ranks live. */
static int reduce_in_rank_order(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt,
                                MPI_Datatype dth, MPI_Op op, int root, vmpi_comm *c)
{
    int n = c->size;
    void *mem = NULL, *all = NULL;
    if (c->rank == root) {
        all = tmp_new(count * n, dt, &mem);
        if (all == NULL)
            return MPI_ERR_NO_MEM;
    }
    int err = vmpi_coll_gather(sbuf, count, dt, all, count, dt, root, c, NULL);
    if (c->rank == root && err == MPI_SUCCESS) {
        MPI_Aint blk = count * dt->extent;
        for (int r = n - 2; r >= 0; r--)
            vmpi_op_apply(op, dth, dt, (char *)all + r * blk, (char *)all + (n - 1) * blk, count);
        vmpi_dtype_copy((char *)all + (n - 1) * blk, count, dt, rbuf, count, dt);
    }
    free(mem);
    return err;
}

int vmpi_hier_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                     MPI_Op op, int root, vmpi_comm *c)
{
    hier *h = get(c);
    int r0 = root < 0 ? 0 : root, err;
    if (vmpi_op_reassociable(op, dt))
        err = reduce_by_process(sbuf, rbuf, count, dt, dth, op, r0, c, h);
    else
        err = reduce_in_rank_order(sbuf, rbuf, count, dt, dth, op, r0, c);
    if (root >= 0)
        return err;
    int e2 = vmpi_hier_bcast(rbuf, count, dt, 0, c);
    return err ? err : e2;
}
