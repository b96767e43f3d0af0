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
#include "mpi/pt2pt/wait.h"
#include "msg/loc.h"

/* Every message between leaders goes on the parent's collective context with one negative tag (comm/
 * internals use -100..-106, adapt/migrate.c -400) and starts with a header: which step sent it, the sender's
 * size, and its error.  One tag for all, so that ranks of an erroneous program that enter different
 * collectives meet each other's headers (and fail) instead of waiting for a tag that never comes; blocking
 * collectives run in the same order on every rank, and messages between two ranks do not overtake. */
enum { TAG_HIER = -300 };
enum { H_BARRIER = 1, H_BCAST, H_PARTIAL, H_OPERANDS };

/* Allreduces over up to this many processes gather every contribution at every leader (recursive
 * doubling); over more, a reduce to rank 0 and a broadcast move less data in all. */
enum { DOUBLING_MAX = 64 };

typedef struct head {
    MPI_Count what;          /* H_*: the step that sent it */
    MPI_Count bytes;         /* the sender's data size per rank */
    MPI_Count err;           /* MPI_SUCCESS, or the error found upstream: then no data follows */
} head;

typedef struct hier {
    vmpi_comm node;          /* this process's ranks of the communicator */
    int nprocs;              /* processes it spans, numbered in order of their lowest rank */
    int me;                  /* the calling rank's process, in that numbering */
    int *leader;             /* [nprocs] each process's lowest rank */
    int *proc_of;            /* [size] rank -> process */
    int *node_rank;          /* [size] rank -> its rank in its process's node communicator */
    int *members;            /* [node.size] this process's ranks, in node-rank order */
    bool ordered;            /* each process holds a contiguous range of ranks, in process order */
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
    h->members = malloc(sizeof(int) * (size_t)n);
    if (!h->leader || !h->proc_of || !h->node_rank || !world_of || !h->members)
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
        if (p == mine) {
            h->members[nlocal] = r;
            world_of[nlocal++] = w;
        }
        if (r == c->rank)
            h->me = pid[p];
    }
    for (int r = n - 1; r >= 0; r--)
        if (h->node_rank[r] == 0)
            h->leader[h->proc_of[r]] = r;
    h->ordered = true;
    for (int r = 1; r < n; r++)
        h->ordered &= h->proc_of[r] >= h->proc_of[r - 1];
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
    free(h->members);
    free(h);
    c->coll_hier = NULL;
}

static const vmpi_dtype *count_type(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_COUNT)); }

static char *bytes_new(MPI_Count bytes) { return malloc(bytes > 0 ? (size_t)bytes : 1); }

static int head_send(int what, MPI_Count bytes, int err, int to, vmpi_comm *c)
{
    head hd = {what, bytes, err};
    return vmpi_send(&hd, 3, count_type(), to, TAG_HIER, c, 1, VMPI_SENDK_STD);
}

/* A reduction's contributions (a process's partial result, or its ranks' operands) answer each other: a
 * root that expects one kind and gets the other reports the mismatch (MPI_ERR_TRUNCATE), as the
 * shared-memory path does for ranks that disagree on folding per PE. */
static bool is_step(MPI_Count got, int what)
{
    return got == what || (what >= H_PARTIAL && got >= H_PARTIAL && got <= H_OPERANDS);
}

/* Receives the header of step `what` from `from`.  A message that is not one (another collective's: the
 * ranks entered different collectives) fails the receiver with MPI_ERR_OTHER and counts as carrying no
 * data; what follows is out of step, as on the shared-memory path. */
static int head_recv(head *hd, int what, int from, vmpi_comm *c)
{
    MPI_Status st;
    int err = vmpi_recv(hd, 3, count_type(), from, TAG_HIER, c, 1, &st);
    if (err == MPI_SUCCESS && (st.vmpi_count != (MPI_Count)sizeof *hd || !is_step(hd->what, what)))
        err = MPI_ERR_OTHER;
    if (err != MPI_SUCCESS)
        *hd = (head){what, -1, err};
    return err;
}

/* A received message must be exactly the size the receiver expects (MPI makes the signatures match).
 * Without a buffer (out of memory) the message is taken and dropped. */
static int recv_exact(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, vmpi_comm *c)
{
    MPI_Status st;
    if (buf == NULL && count > 0) {
        vmpi_recv(NULL, 0, byte_type(), src, TAG_HIER, c, 1, MPI_STATUS_IGNORE);
        return MPI_ERR_NO_MEM;
    }
    int err = vmpi_recv(buf, count, dt, src, TAG_HIER, c, 1, &st);
    if (err == MPI_SUCCESS && st.vmpi_count != count * dt->size)
        err = MPI_ERR_TRUNCATE;
    return err;
}

/* The node synchronizes (the leader then knows its ranks arrived; ranks of an erroneous program that enter
 * different collectives are paired by it, as on the shared-memory path), the leaders run a dissemination
 * barrier (log2(processes) rounds, all run even after an error), then the node synchronizes again. */
int vmpi_hier_barrier(vmpi_comm *c)
{
    hier *h = get(c);
    int err = vmpi_shm_barrier(&h->node);
    if (h->node.rank == 0) {
        head hd;
        for (int k = 1; k < h->nprocs; k <<= 1) {
            /* the send does not wait for its receiver: with rendezvous (--eager-max 0) two leaders sending to
             * each other first would wait for each other */
            head out = {H_BARRIER, 0, MPI_SUCCESS};
            MPI_Request rq = MPI_REQUEST_NULL;
            int e = vmpi_isend(&out, 3, count_type(), h->leader[(h->me + k) % h->nprocs], TAG_HIER, c, 1,
                               VMPI_SENDK_STD, false, &rq);
            int e2 = head_recv(&hd, H_BARRIER, h->leader[(h->me - k + h->nprocs) % h->nprocs], c);
            int e3 = rq != MPI_REQUEST_NULL ? vmpi_wait(&rq, MPI_STATUS_IGNORE) : MPI_SUCCESS;
            err = err ? err : e ? e : e2 ? e2 : e3;
        }
    }
    int e2 = vmpi_shm_barrier(&h->node);
    return err ? err : e2;
}

/* The rank that stands for process p in a collective rooted at `root`: the root in its own process, the
 * leader elsewhere. */
static int stand_in(const hier *h, int p, int root) { return h->proc_of[root] == p ? root : h->leader[p]; }

/* Sends the header (the root's byte count and the error found so far) down each edge of the binomial tree
 * over the processes, then the data unless there is an error. */
static int bcast_forward(hier *h, int vr, int rp, int root, const head *hd, const void *buf, MPI_Count count,
                         const vmpi_dtype *dt, vmpi_comm *c)
{
    int K = h->nprocs, err = MPI_SUCCESS, mask = 1;
    while (mask < K && !(vr & mask))
        mask <<= 1;
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < K) {
            int to = stand_in(h, (vr + mask + rp) % K, root);
            int e = head_send(H_BCAST, hd->bytes, (int)hd->err, to, c);
            if (e == MPI_SUCCESS && hd->err == MPI_SUCCESS)
                e = vmpi_send(buf, count, dt, to, TAG_HIER, c, 1, VMPI_SENDK_STD);
            err = err ? err : e;
        }
    return err;
}

/* A leader of a process other than the root's: takes the header and the root's packed bytes from its
 * parent in the tree (into *tmp, malloc'd; NULL when none came) and passes both on whatever its own
 * count.  An error met here travels on in the header, so the processes below fail instead of waiting. */
static int bcast_relay(hier *h, int vr, int rp, int root, head *hd, char **tmp, vmpi_comm *c)
{
    int K = h->nprocs, mask = 1;
    while (!(vr & mask))
        mask <<= 1;
    int from = stand_in(h, (vr - mask + rp) % K, root);
    *tmp = NULL;
    head_recv(hd, H_BCAST, from, c);
    if (hd->err == MPI_SUCCESS) {
        *tmp = bytes_new(hd->bytes);
        hd->err = recv_exact(*tmp, hd->bytes, byte_type(), from, c);
        if (hd->err != MPI_SUCCESS) {
            free(*tmp);
            *tmp = NULL;
        }
    }
    int e = bcast_forward(h, vr, rp, root, hd, *tmp, hd->bytes, byte_type(), c);
    return hd->err ? (int)hd->err : e;
}

int vmpi_hier_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    hier *h = get(c);
    int K = h->nprocs, rp = h->proc_of[root], vr = (h->me - rp + K) % K;
    int node_root = h->node_rank[stand_in(h, h->me, root)];
    if (c->rank == root) {
        head hd = {H_BCAST, count * dt->size, MPI_SUCCESS};
        int err = bcast_forward(h, vr, rp, root, &hd, buf, count, dt, c);
        int e2 = vmpi_shm_bcast(buf, count, dt, node_root, &h->node);
        return err ? err : e2;
    }
    if (c->rank != h->leader[h->me] || h->me == rp)
        return vmpi_shm_bcast(buf, count, dt, node_root, &h->node);
    head hd;
    char *tmp;
    int err = bcast_relay(h, vr, rp, root, &hd, &tmp, c);
    /* the node's readers compare their sizes with the root's, as on the shared-memory path (when nothing
     * came, the ones that expect data fail) */
    int e2 = vmpi_shm_bcast(tmp, tmp ? hd.bytes : 0, byte_type(), node_root, &h->node);
    if (tmp) { /* like a receive: at most what fits */
        vmpi_dtype_unpack(tmp, hd.bytes < count * dt->size ? hd.bytes : count * dt->size, buf, count, dt);
        if (hd.bytes != count * dt->size && err == MPI_SUCCESS)
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

/* One reduction between processes, as the calling rank sees it. */
typedef struct red {
    const void *sbuf;
    void *rbuf;
    MPI_Count count, bytes; /* bytes: of one rank's operand */
    const vmpi_dtype *dt;
    MPI_Datatype dth;
    MPI_Op op;
    int root, kind;         /* H_PARTIAL (by process) or H_OPERANDS (in rank order) */
    int *off;               /* at the root, H_OPERANDS: [nprocs + 1] each process's first operand in pk */
    int nerr;               /* the node's error: the same on each of its ranks */
    bool lost;              /* the root met another collective's message: out of step */
} red;

/* Rank-order reductions: the operands of this process's ranks, packed in node-rank order at `pk` (bytes
 * each), gathered by the rank that stands for the process.  Every member sends: a size that differs is
 * found here. */
static int collect_operands(const red *r, char *pk, int target, vmpi_comm *c, hier *h)
{
    if (c->rank != target)
        return vmpi_send(r->sbuf, r->count, r->dt, target, TAG_HIER, c, 1, VMPI_SENDK_STD);
    int err = pk ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int k = 0; k < h->node.size; k++) {
        int q = h->members[k];
        char *at = pk ? pk + k * r->bytes : NULL;
        int e = MPI_SUCCESS;
        if (q == c->rank && at)
            vmpi_dtype_pack(r->sbuf, r->count, r->dt, at, r->bytes);
        else if (q != c->rank)
            e = recv_exact(at, r->bytes, byte_type(), q, c);
        err = err ? err : e;
    }
    return err;
}

/* The root takes process p's header and, unless it carries an error, its data (`n` of `dt` into `into`).
 * A contribution of another kind or size fails the root.  A message that is no contribution at all (the
 * ranks entered different collectives) makes it stop taking: the senders it would wait for may be waiting
 * for it in their own collective, and what follows is out of step anyway. */
static int take(red *r, int from, void *into, MPI_Count n, const vmpi_dtype *dt, vmpi_comm *c)
{
    head hd;
    int err = head_recv(&hd, r->kind, from, c);
    r->lost = err != MPI_SUCCESS;
    if (err != MPI_SUCCESS || hd.err != MPI_SUCCESS)
        return err ? err : (int)hd.err;
    if (hd.what != r->kind || hd.bytes != r->bytes) { /* its data does not fit: taken and dropped */
        vmpi_recv(NULL, 0, byte_type(), from, TAG_HIER, c, 1, MPI_STATUS_IGNORE);
        return MPI_ERR_TRUNCATE;
    }
    return recv_exact(into, n, dt, from, c);
}

/* Grouping-independent operations, at the root: P_rp is in rbuf (the root's node reduced there); acc =
 * P_{K-1}, then acc = P_p op acc for p = K-2 .. 0 (the predefined operations commute anyway).  Every
 * process's contribution is taken even after an error. */
static int fold_partials(red *r, int err, vmpi_comm *c, hier *h)
{
    int K = h->nprocs, rp = h->proc_of[r->root];
    void *m1 = NULL, *m2 = NULL, *acc = tmp_new(r->count, r->dt, &m1), *in = tmp_new(r->count, r->dt, &m2);
    if ((acc == NULL || in == NULL) && err == MPI_SUCCESS)
        err = MPI_ERR_NO_MEM;
    for (int p = K - 1; p >= 0; p--) {
        void *x = p == K - 1 ? acc : in;
        if (p != rp && !r->lost) {
            int e = take(r, h->leader[p], x, r->count, r->dt, c);
            err = err ? err : e;
        }
        if (err != MPI_SUCCESS)
            continue;
        if (p == K - 1 && p == rp)
            vmpi_dtype_copy(r->rbuf, r->count, r->dt, acc, r->count, r->dt);
        else if (p != K - 1)
            vmpi_op_apply(r->op, r->dth, r->dt, p == rp ? r->rbuf : x, acc, r->count);
    }
    if (err == MPI_SUCCESS)
        vmpi_dtype_copy(acc, r->count, r->dt, r->rbuf, r->count, r->dt);
    free(m1);
    free(m2);
    return err;
}

/* Other operations, at the root: every rank's operand (its process's packed in pk), folded in rank order,
 * right to left, as the shared-memory path does (shm.c), so the bits do not depend on where the ranks
 * live. */
static int fold_gathered(red *r, char *pk, int err, vmpi_comm *c, hier *h);

static int fold_operands(red *r, char *pk, int err, vmpi_comm *c, hier *h)
{
    int rp = h->proc_of[r->root];
    for (int p = 0; p < h->nprocs; p++)
        if (p != rp && !r->lost) {
            int e = take(r, h->leader[p], pk ? pk + r->off[p] * r->bytes : NULL,
                         (r->off[p + 1] - r->off[p]) * r->bytes, byte_type(), c);
            err = err ? err : e;
        }
    return fold_gathered(r, pk, err, c, h);
}

/* The fold of every rank's operand, packed in pk by process (r->off) into r->rbuf. */
static int fold_gathered(red *r, char *pk, int err, vmpi_comm *c, hier *h)
{
    int n = c->size;
    /* a contiguous type's packed operands are already in place, in process order */
    bool direct = r->dt->contig && h->ordered;
    void *mem = NULL, *all = NULL;
    if (err == MPI_SUCCESS)
        all = direct ? pk - r->dt->true_lb : tmp_new(r->count * n, r->dt, &mem);
    if (err == MPI_SUCCESS && all == NULL)
        err = MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS) {
        MPI_Aint blk = r->count * r->dt->extent;
        for (int q = 0; q < n && !direct; q++)
            vmpi_dtype_unpack(pk + (r->off[h->proc_of[q]] + h->node_rank[q]) * r->bytes, r->bytes,
                              (char *)all + q * blk, r->count, r->dt);
        for (int q = n - 2; q >= 0; q--)
            vmpi_op_apply(r->op, r->dth, r->dt, (char *)all + q * blk, (char *)all + (n - 1) * blk, r->count);
        vmpi_dtype_copy((char *)all + (n - 1) * blk, r->count, r->dt, r->rbuf, r->count, r->dt);
    }
    free(mem);
    return err;
}

/* The reduction to r->root.  Within each process, every kind of reduction starts with a reduction on the
 * node communicator, so that the node compares its ranks' sizes and kinds (a rank-order one passes no data:
 * its operands then travel as messages to the process's stand-in).  Each other process's stand-in sends
 * the root one header (its kind, its size, the error its node found) and, without an error, its data; the
 * root compares.  Returns the rank's error: at the root, every process's. */
static int reduce_to_root(red *r, vmpi_comm *c, hier *h)
{
    int target = stand_in(h, h->me, r->root), ntarget = h->node_rank[target];
    bool part = r->kind == H_PARTIAL, am_root = c->rank == r->root;
    void *mem = NULL, *out = r->rbuf;
    char *pk = NULL;
    if (part && c->rank == target && !am_root && (out = tmp_new(r->count, r->dt, &mem)) == NULL)
        return MPI_ERR_NO_MEM; /* (the others then wait: out of memory in a collective is fatal in effect) */
    int err = vmpi_shm_reduce(r->sbuf, out, part ? r->count : 0, r->dt, r->dth, r->op, ntarget, &h->node);
    int nerr = r->nerr = err;
    if (!part && am_root) {
        r->off = malloc(sizeof(int) * (size_t)(h->nprocs + 1));
        if (r->off == NULL)
            return MPI_ERR_NO_MEM;
        memset(r->off, 0, sizeof(int) * (size_t)(h->nprocs + 1));
        for (int q = 0; q < c->size; q++)
            r->off[h->proc_of[q] + 1]++;
        for (int p = 0; p < h->nprocs; p++)
            r->off[p + 1] += r->off[p];
        pk = bytes_new(c->size * r->bytes);
    } else if (!part && c->rank == target)
        pk = bytes_new(h->node.size * r->bytes);
    if (!part && nerr == MPI_SUCCESS)
        err = collect_operands(r, am_root && pk ? pk + r->off[h->me] * r->bytes : pk, target, c, h);
    if (am_root)
        err = part ? fold_partials(r, err, c, h) : fold_operands(r, pk, err, c, h);
    else if (c->rank == target) {
        int e = head_send(r->kind, r->bytes, err, r->root, c);
        if (e == MPI_SUCCESS && err == MPI_SUCCESS)
            e = part ? vmpi_send(out, r->count, r->dt, r->root, TAG_HIER, c, 1, VMPI_SENDK_STD)
                     : vmpi_send(pk, h->node.size * r->bytes, byte_type(), r->root, TAG_HIER, c, 1, VMPI_SENDK_STD);
        err = err ? err : e;
    }
    free(pk);
    free(r->off);
    free(mem);
    return err;
}

/* What the node's ranks learn from their leader at the end of an allreduce: its error (the job's), then,
 * without one, the result.  A node whose own reduction failed knows that already (all its ranks do). */
static int node_spread(void *rbuf, MPI_Count count, const vmpi_dtype *dt, int err, int nerr, hier *h)
{
    if (nerr != MPI_SUCCESS)
        return nerr;
    int flag = err;
    int e = vmpi_shm_bcast(&flag, 1, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)), 0, &h->node);
    if (e == MPI_SUCCESS && flag == MPI_SUCCESS)
        e = vmpi_shm_bcast(rbuf, count, dt, 0, &h->node);
    return flag ? flag : e;
}

/* Allreduce: rank 0 sends the result down the tree of the processes with the error found anywhere (its
 * own: it heard from every process).  A node that failed its reduction knows it already (all its ranks
 * do); the others first learn the error from their leader (a broadcast of one int that does not
 * synchronize), then, without one, the result: every rank that the one-process path fails fails too. */
static int allreduce_spread(void *rbuf, MPI_Count count, const vmpi_dtype *dt, int err, int nerr, vmpi_comm *c,
                            hier *h)
{
    int vr = h->me; /* rank 0 is the leader of process 0 */
    if (c->rank == 0) {
        head hd = {H_BCAST, count * dt->size, err};
        int e = bcast_forward(h, vr, 0, 0, &hd, rbuf, count, dt, c);
        err = err ? err : e;
    } else if (h->node.rank == 0) {
        head hd;
        char *tmp;
        err = bcast_relay(h, vr, 0, 0, &hd, &tmp, c);
        if (tmp && err == MPI_SUCCESS) /* the root checked that every size is this one */
            vmpi_dtype_unpack(tmp, hd.bytes, rbuf, count, dt);
        free(tmp);
    }
    return node_spread(rbuf, count, dt, err, nerr, h);
}

/* ---- allreduce by recursive doubling among the leaders ----
 * After the node's step each leader holds its process's contribution (H_PARTIAL: the node's partial
 * result; H_OPERANDS: its ranks' operands); in the round of distance d it swaps all it holds with the
 * leader d away (one message: header and data), so that after log2(K) rounds every leader holds every
 * contribution and folds them itself in the root's order (fold_partials, fold_operands): the same bits as
 * the reduce to rank 0 and its broadcast, with one message latency per round instead of two trees'.  No
 * leader receives more than the root of that path does.  With K not a power of two, the leaders past the
 * largest power of two m hand their contribution to the leader m below and get the result from it at the
 * end.  Errors travel in the headers and are combined in every round (the smallest class), so every leader
 * ends with the same one. */

typedef struct gath {
    char *pk;                /* contributions by process: p's at pk + off[p] * unit */
    const int *off;          /* [K + 1], in units: process numbers (H_PARTIAL) or ranks (H_OPERANDS) */
    MPI_Count unit;
    int K, m;                /* m: the largest power of two <= K */
    int err;
} gath;

static int err_min(int a, int b) { return a == 0 ? b : b == 0 ? a : a < b ? a : b; }

/* Two ranges of processes [r[0], r[1]) and [r[2], r[3]): what a message carries. */
static MPI_Count span(const gath *g, const int *r)
{
    MPI_Count n = 0;
    for (int i = 0; i < 4; i += 2)
        n += r[i] < r[i + 1] ? (MPI_Count)(g->off[r[i + 1]] - g->off[r[i]]) * g->unit : 0;
    return n;
}

/* What leader v (< m) holds before the round of distance d: processes [lo, lo + d) and the ones past m
 * that handed theirs to them. */
static void held(const gath *g, int v, int d, int *r)
{
    int lo = v & ~(d - 1), hi = lo + d < g->K - g->m ? lo + d : g->K - g->m;
    r[0] = lo, r[1] = lo + d, r[2] = lo + g->m, r[3] = (hi > lo ? hi : lo) + g->m;
}

/* A message to `to` (header, then the ranges snd of pk unless there is an error) while one comes from `from`
 * (into the ranges rcv); either may be -1.  A message that is no contribution (another collective's: the
 * ranks entered different ones) or not of the expected kind or size fails the receiver, which goes on
 * with the rounds: the others wait for it. */
static void swap(gath *g, const red *r, int to, const int *snd, int from, const int *rcv, vmpi_comm *c)
{
    head hd = {r->kind, r->bytes, g->err};
    MPI_Request rq = MPI_REQUEST_NULL;
    char *out = NULL;
    int e = MPI_SUCCESS;
    if (to >= 0) {
        MPI_Count n = g->err ? 0 : span(g, snd);
        if ((out = bytes_new((MPI_Count)sizeof hd + n)) == NULL) { /* the header alone, with the error */
            g->err = err_min(g->err, MPI_ERR_NO_MEM);
            hd.err = g->err;
            n = 0;
        } else {
            memcpy(out, &hd, sizeof hd);
            char *at = out + sizeof hd;
            for (int i = 0; i < 4 && n; i += 2)
                if (snd[i] < snd[i + 1]) {
                    MPI_Count k = (MPI_Count)(g->off[snd[i + 1]] - g->off[snd[i]]) * g->unit;
                    memcpy(at, g->pk + g->off[snd[i]] * g->unit, (size_t)k);
                    at += k;
                }
        }
        e = vmpi_isend(out ? out : (char *)&hd, (MPI_Count)sizeof hd + n, byte_type(), to, TAG_HIER, c, 1,
                       VMPI_SENDK_STD, false, &rq);
    }
    if (from >= 0) {
        MPI_Count n = span(g, rcv);
        char *in = bytes_new((MPI_Count)sizeof hd + n);
        MPI_Status st;
        int e2 = in ? vmpi_recv(in, (MPI_Count)sizeof hd + n, byte_type(), from, TAG_HIER, c, 1, &st)
                    : vmpi_recv(NULL, 0, byte_type(), from, TAG_HIER, c, 1, &st);
        head got = {0, -1, MPI_ERR_NO_MEM};
        if (in && e2 == MPI_SUCCESS && st.vmpi_count >= (MPI_Count)sizeof got)
            memcpy(&got, in, sizeof got);
        else if (e2 == MPI_SUCCESS)
            got.err = in ? MPI_ERR_OTHER : MPI_ERR_NO_MEM;
        else
            got.err = e2;
        if (got.err == MPI_SUCCESS && !is_step(got.what, r->kind))
            got.err = MPI_ERR_OTHER;
        else if (got.err == MPI_SUCCESS && (got.what != r->kind || got.bytes != r->bytes ||
                                            st.vmpi_count != (MPI_Count)sizeof got + n))
            got.err = MPI_ERR_TRUNCATE;
        g->err = err_min(g->err, (int)got.err);
        if (g->err == MPI_SUCCESS) {
            const char *at = in + sizeof got;
            for (int i = 0; i < 4; i += 2)
                if (rcv[i] < rcv[i + 1]) {
                    MPI_Count k = (MPI_Count)(g->off[rcv[i + 1]] - g->off[rcv[i]]) * g->unit;
                    memcpy(g->pk + g->off[rcv[i]] * g->unit, at, (size_t)k);
                    at += k;
                }
        }
        free(in);
    }
    if (rq != MPI_REQUEST_NULL)
        e = vmpi_wait(&rq, MPI_STATUS_IGNORE);
    g->err = err_min(g->err, e);
    free(out);
}

/* Grouping-independent operations: the processes' partial results in pk (r->bytes each, in process
 * order), folded as fold_partials does (acc = P_{K-1}, then acc = P_p op acc), into r->rbuf. */
static int fold_gathered_partials(red *r, const char *pk, int K)
{
    void *mem = NULL, *in = tmp_new(r->count, r->dt, &mem);
    if (in == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_dtype_unpack(pk + (K - 1) * r->bytes, r->bytes, r->rbuf, r->count, r->dt);
    for (int p = K - 2; p >= 0; p--) {
        vmpi_dtype_unpack(pk + p * r->bytes, r->bytes, in, r->count, r->dt);
        vmpi_op_apply(r->op, r->dth, r->dt, in, r->rbuf, r->count);
    }
    free(mem);
    return MPI_SUCCESS;
}

/* The result (or the error) between a leader below m and its partner past m, at the end. */
static void result_pass(gath *g, const red *r, int to, int from, vmpi_comm *c)
{
    head hd = {r->kind, r->bytes, g->err};
    if (to >= 0) {
        char *out = bytes_new((MPI_Count)sizeof hd + r->bytes);
        if (out == NULL)
            hd.err = err_min(g->err, MPI_ERR_NO_MEM);
        MPI_Count n = out && hd.err == MPI_SUCCESS ? r->bytes : 0;
        if (out) {
            memcpy(out, &hd, sizeof hd);
            if (n)
                vmpi_dtype_pack(r->rbuf, r->count, r->dt, out + sizeof hd, n);
        }
        g->err = err_min(g->err, vmpi_send(out ? out : (char *)&hd, (MPI_Count)sizeof hd + n, byte_type(), to,
                                           TAG_HIER, c, 1, VMPI_SENDK_STD));
        free(out);
        return;
    }
    char *in = bytes_new((MPI_Count)sizeof hd + r->bytes);
    MPI_Status st;
    int e = in ? vmpi_recv(in, (MPI_Count)sizeof hd + r->bytes, byte_type(), from, TAG_HIER, c, 1, &st)
               : vmpi_recv(NULL, 0, byte_type(), from, TAG_HIER, c, 1, &st);
    head got = {0, -1, in ? MPI_ERR_OTHER : MPI_ERR_NO_MEM};
    if (in && e == MPI_SUCCESS && st.vmpi_count >= (MPI_Count)sizeof got)
        memcpy(&got, in, sizeof got);
    g->err = err_min(g->err, e ? e : (int)got.err);
    if (g->err == MPI_SUCCESS && st.vmpi_count == (MPI_Count)sizeof got + r->bytes)
        vmpi_dtype_unpack(in + sizeof got, r->bytes, r->rbuf, r->count, r->dt);
    else if (g->err == MPI_SUCCESS)
        g->err = MPI_ERR_TRUNCATE;
    free(in);
}

/* The leaders' part (see above); returns the job's error. */
static int leaders_doubling(red *r, gath *g, vmpi_comm *c, hier *h)
{
    int me = h->me, K = g->K, m = g->m;
    if (me >= m) {
        int one[4] = {me, me + 1, me, me};
        swap(g, r, h->leader[me - m], one, -1, NULL, c);
        result_pass(g, r, -1, h->leader[me - m], c);
        return g->err;
    }
    if (me < K - m) {
        int one[4] = {me + m, me + m + 1, me, me};
        swap(g, r, -1, NULL, h->leader[me + m], one, c);
    }
    for (int d = 1; d < m; d <<= 1) {
        int snd[4], rcv[4];
        held(g, me, d, snd);
        held(g, me ^ d, d, rcv);
        swap(g, r, h->leader[me ^ d], snd, h->leader[me ^ d], rcv, c);
    }
    if (g->err == MPI_SUCCESS)
        g->err = r->kind == H_PARTIAL ? fold_gathered_partials(r, g->pk, K) : fold_gathered(r, g->pk, 0, c, h);
    if (me < K - m)
        result_pass(g, r, h->leader[me + m], -1, c);
    return g->err;
}

static int allreduce_doubling(red *r, vmpi_comm *c, hier *h)
{
    int K = h->nprocs, leader = h->leader[h->me];
    bool part = r->kind == H_PARTIAL, lead = c->rank == leader;
    /* the node's step, as in reduce_to_root: a partial result in the leader's rbuf, or the operands */
    int nerr = vmpi_shm_reduce(r->sbuf, r->rbuf, part ? r->count : 0, r->dt, r->dth, r->op, 0, &h->node);
    int err = nerr;
    gath g = {NULL, NULL, r->bytes, K, 1, MPI_SUCCESS};
    int *off = NULL;
    if (lead) {
        while (g.m * 2 <= K)
            g.m *= 2;
        off = calloc((size_t)K + 1, sizeof(int));
        if (off) {
            for (int q = 0; q < c->size; q++)
                off[h->proc_of[q] + 1] += part ? 0 : 1;
            for (int p = 0; p < K; p++)
                off[p + 1] += off[p] + (part ? 1 : 0);
            g.pk = bytes_new(off[K] * r->bytes);
        }
        g.off = off;
        r->off = off;
    }
    if (!part && nerr == MPI_SUCCESS)
        err = collect_operands(r, lead && g.pk ? g.pk + off[h->me] * r->bytes : NULL, leader, c, h);
    if (lead) {
        if (g.pk == NULL && err == MPI_SUCCESS)
            err = MPI_ERR_NO_MEM;
        if (part && err == MPI_SUCCESS)
            vmpi_dtype_pack(r->rbuf, r->count, r->dt, g.pk + h->me * r->bytes, r->bytes);
        g.err = err;
        if (off)
            err = leaders_doubling(r, &g, c, h);
        else /* without its offsets a leader cannot take part: out of memory in a collective is fatal */
            vmpi_fatal("out of memory in MPI_Allreduce (%d processes)", K);
        free(g.pk);
        free(off);
        r->off = NULL;
    }
    return node_spread(r->rbuf, r->count, r->dt, err, nerr, h);
}

int vmpi_hier_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                     MPI_Op op, int root, vmpi_comm *c)
{
    hier *h = get(c);
    red r = {sbuf, rbuf, count, count * dt->size, dt, dth, op, root < 0 ? 0 : root,
             vmpi_op_reassociable(op, dt) ? H_PARTIAL : H_OPERANDS, NULL, MPI_SUCCESS, false};
    if (root < 0 && h->nprocs <= DOUBLING_MAX)
        return allreduce_doubling(&r, c, h);
    int err = reduce_to_root(&r, c, h);
    if (root >= 0)
        return err;
    return allreduce_spread(rbuf, count, dt, err, r.nerr, c, h);
}
