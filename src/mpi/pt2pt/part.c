/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioned point-to-point communication (MPI-4.1 chapter 4): MPI_Psend_init, MPI_Precv_init, MPI_Pready*,
 * MPI_Parrived.
 *
 * A partitioned request (VMPI_MREQ_PART) is a persistent request whose state (`preq`) is a block the rank
 * allocates, so it lives in the rank's slot and moves with it (as Isendrecv's parts do); its messages go in
 * the communicator's private context (ctx + 1), where no user message can take them.
 *
 * Matching is at initialization, as MPI-4.1 4.2.2 says: the i-th Psend_init from s to d with tag t pairs with
 * the i-th Precv_init at d from s with tag t on that communicator, whatever the order of their starts.  So
 * each Psend_init sends a hello {tag, id} (TAG_HELLO) and each Precv_init posts a receive for one hello from
 * its source.  Hellos from one source arrive in the order of its Psend_inits; the hello callback gives each to
 * the rank's earliest unmatched receive request with that source, tag and context (vmpi_part_rank.wait), or
 * keeps it (`stash`) for a later Precv_init.  The id is the send request's handle, unique among its rank's
 * live requests, and each round's data travels with tag TAG_DATA + id: pairs never mix, and successive rounds
 * of one pair stay in order by MPI's non-overtaking rule (a rank starts a request again only after it
 * completed).
 *
 * Each round is one message: the sender sends the whole buffer (partitions x count elements) when the last
 * partition is marked ready (at once, with no partitions); the receiver posts its receive at MPI_Start, or
 * when its hello arrives if that is later.  So the partition counts of the two sides may differ as long as the
 * type signatures of the whole messages match, and MPI_Parrived reports a partition when the whole message
 * has arrived (allowed: arrival may be reported late, never early). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "mpi/core/handle.h"
#include "mpi/pt2pt/fill.h"
#include "mpi/pt2pt/pt2pt.h"

/* In ctx + 1: the collectives' schedules take tags below 1 << 30, the shared-memory ones 1 << 30 + 1 and 2,
 * the hierarchical ones -300. */
enum { TAG_HELLO = -400, TAG_DATA = (1 << 30) + 16 };
#define ID_MAX (INT_MAX - TAG_DATA)

typedef struct preq {
    vmpi_mreq_part_head h;  /* first: whether a send (vmpi_chk_part) */
    vmpi_mreq *m;           /* NULL once the program's request is released */
    vmpi_rank *rk;          /* the owner */
    int partitions;
    MPI_Count count;        /* per partition */
    const vmpi_dtype *dt;   /* the reference the request holds */
    void *buf;
    int peer;               /* rank in the communicator, or MPI_PROC_NULL */
    int peer_world;
    int me;                 /* the owner's rank in the communicator */
    int tag, ctx;
    int id;                 /* the pair's: data tag TAG_DATA + id; a receive's is -1 until matched */
    int hello[2];           /* {tag, id}: sent, or the buffer a hello is received into */
    vmpi_req hreq, data;
    bool hpending;          /* hreq not complete: the block waits for it */
    bool want;              /* receive: started but not matched yet, posted at its match */
    int nready;
    struct preq *next;      /* receive: the rank's unmatched receives, in init order */
    unsigned char ready[];  /* send: per partition, marked in this round */
} preq;

typedef struct vmpi_part_rank {
    preq *wait;             /* unmatched receive requests, in init order */
    int nblocks;            /* receive blocks alive: the state is freed with the last when no hello waits */
    int nstash, cap;
    struct {
        int ctx, peer, tag, id;
    } *stash;               /* hellos no receive request took yet, in arrival order */
} vmpi_part_rank;

static void free_block(preq *q)
{
    vmpi_part_rank *pr = q->rk->part;
    if (!q->h.send && q->peer != MPI_PROC_NULL && --pr->nblocks == 0 && pr->nstash == 0) {
        free(pr->stash);
        free(pr);
        q->rk->part = NULL;
    }
    vmpi_dtype_release(q->dt);
    free(q);
}

/* ---- matching ---- */

static void post_data(preq *q);

static void matched(preq *q, int id)
{
    q->id = id;
    if (q->want) {
        q->want = false;
        post_data(q);
    }
}

static void unwait(vmpi_part_rank *pr, preq *q)
{
    for (preq **p = &pr->wait; *p; p = &(*p)->next)
        if (*p == q) {
            *p = q->next;
            return;
        }
}

/* A hello arrived into q's buffer: it is the earliest unmatched receive's with its tag (q's or another's). */
static void on_hello(vmpi_req *r)
{
    preq *q = r->on_done_arg;
    q->hpending = false;
    vmpi_part_rank *pr = q->rk->part;
    if (!r->status.vmpi_cancelled && r->status.MPI_ERROR == MPI_SUCCESS) {
        int tag = q->hello[0], id = q->hello[1];
        preq *w = pr->wait;
        while (w && !(w->ctx == q->ctx && w->peer == q->peer && w->tag == tag))
            w = w->next;
        if (w) {
            unwait(pr, w);
            matched(w, id);
        } else {
            if (pr->nstash == pr->cap) {
                int cap = pr->cap ? 2 * pr->cap : 8;
                void *s = realloc(pr->stash, (size_t)cap * sizeof *pr->stash);
                if (s == NULL)
                    vmpi_fatal("MPI_Precv_init: out of memory");
                pr->stash = s;
                pr->cap = cap;
            }
            pr->stash[pr->nstash].ctx = q->ctx;
            pr->stash[pr->nstash].peer = q->peer;
            pr->stash[pr->nstash].tag = tag;
            pr->stash[pr->nstash].id = id;
            pr->nstash++;
        }
    }
    if (q->m == NULL)
        free_block(q);
}

static void on_hello_sent(vmpi_req *r)
{
    preq *q = r->on_done_arg;
    q->hpending = false;
    if (q->m == NULL)
        free_block(q);
}

/* ---- rounds ---- */

static void on_data(vmpi_req *r)
{
    preq *q = r->on_done_arg;
    vmpi_mreq *m = q->m;
    if (q->h.send)
        m->r.status.MPI_ERROR = r->status.MPI_ERROR;
    else {
        m->r.status = r->status;
        m->r.status.MPI_TAG = q->tag; /* the program's tag, not the message's internal one */
    }
    vmpi_req_complete(&m->r); /* last: a request freed while active is released here, and `q` with it */
}

static void post_data(preq *q)
{
    vmpi_req *d = &q->data;
    d->buf = q->buf;
    d->count = (MPI_Count)q->partitions * q->count;
    d->dt = q->dt;
    d->ctx = q->ctx + 1;
    d->tag = TAG_DATA + q->id;
    d->owner = &q->rk->vp;
    d->on_done = on_data;
    d->on_done_arg = q;
    if (q->h.send) {
        d->rank = q->me;
        d->peer = q->peer_world;
        d->mode = VMPI_SEND_STD;
        vmpi_msg_isend(d);
        if (d->complete) /* out at once: no callback */
            on_data(d);
    } else {
        d->rank = q->peer;
        d->kind = VMPI_REQ_RECV;
        d->complete = false;
        vmpi_msg_irecv(&q->rk->ep, d);
    }
}

/* MPI_Start (the request is marked active already). */
static int start(vmpi_mreq *m)
{
    preq *q = m->ptr;
    m->r.complete = false;
    m->r.status.MPI_ERROR = MPI_SUCCESS;
    if (q->h.send) {
        memset(q->ready, 0, (size_t)q->partitions);
        q->nready = 0;
        if (q->partitions > 0)
            return MPI_SUCCESS;
    }
    if (q->peer == MPI_PROC_NULL) {
        if (!q->h.send) {
            vmpi_status_nomsg(&m->r.status, MPI_PROC_NULL);
            vmpi_req_complete(&m->r);
        }
        return MPI_SUCCESS; /* a send: complete when its partitions are ready (at once with none) */
    }
    if (q->h.send || q->id >= 0)
        post_data(q);
    else
        q->want = true;
    return MPI_SUCCESS;
}

static void release(vmpi_mreq *m)
{
    preq *q = m->ptr;
    m->ptr = NULL;
    q->m = NULL;
    q->want = false;
    if (!q->h.send && q->rk->part)
        unwait(q->rk->part, q);
    if (!q->hpending)
        free_block(q);
    else if (!q->h.send) /* taken back (its callback frees the block) or matched (its callback will) */
        vmpi_msg_cancel_recv(&q->rk->ep, &q->hreq);
    /* a hello still being sent: its callback frees the block */
}

static preq *new_preq(bool send, void *buf, int partitions, MPI_Count count, const vmpi_dtype *dt, int peer, int tag,
                      vmpi_comm *c, MPI_Request *out)
{
    preq *q = calloc(1, sizeof *q + (size_t)(send ? partitions : 0));
    if (q == NULL)
        return NULL;
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_PART, c->handle);
    m->persistent = true;
    m->r.kind = send ? VMPI_REQ_SEND : VMPI_REQ_RECV;
    m->r.complete = false;
    m->r.on_done = NULL;
    m->r.dt = NULL;
    m->ptr = q;
    m->start = start;
    m->release = release;
    q->m = m;
    q->rk = vmpi_rank_self();
    q->h.send = send;
    q->buf = buf;
    q->partitions = partitions;
    q->count = count;
    q->dt = dt;
    vmpi_dtype_retain(dt); /* a derived type freed meanwhile lives until the request is released */
    q->peer = peer;
    q->peer_world = peer == MPI_PROC_NULL ? -1 : vmpi_comm_world_rank(c, peer);
    q->me = c->rank;
    q->tag = tag;
    q->ctx = c->ctx;
    q->id = -1;
    *out = vmpi_mreq_handle(m);
    return q;
}

int vmpi_psend_init(const void *buf, int partitions, MPI_Count count, const vmpi_dtype *dt, int dest, int tag,
                    vmpi_comm *c, MPI_Request *out)
{
    preq *q = new_preq(true, (void *)buf, partitions, count, dt, dest, tag, c, out);
    if (q == NULL)
        return MPI_ERR_NO_MEM;
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    q->id = (int)(*out % ID_MAX);
    q->hello[0] = tag;
    q->hello[1] = q->id;
    q->hpending = true;
    vmpi_fill_send(&q->hreq, q->hello, 2, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)), dest, TAG_HELLO, c, 1,
                   VMPI_SENDK_STD);
    q->hreq.on_done = on_hello_sent;
    q->hreq.on_done_arg = q;
    vmpi_msg_isend(&q->hreq);
    if (q->hreq.complete)
        q->hpending = false;
    return MPI_SUCCESS;
}

int vmpi_precv_init(void *buf, int partitions, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c,
                    MPI_Request *out)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (src != MPI_PROC_NULL && rk->part == NULL && (rk->part = calloc(1, sizeof *rk->part)) == NULL)
        return MPI_ERR_NO_MEM;
    preq *q = new_preq(false, buf, partitions, count, dt, src, tag, c, out);
    if (q == NULL)
        return MPI_ERR_NO_MEM;
    if (src == MPI_PROC_NULL)
        return MPI_SUCCESS;
    vmpi_part_rank *pr = rk->part;
    pr->nblocks++;
    int i = 0;
    while (i < pr->nstash && !(pr->stash[i].ctx == q->ctx && pr->stash[i].peer == src && pr->stash[i].tag == tag))
        i++;
    if (i < pr->nstash) { /* its sender's hello came first */
        q->id = pr->stash[i].id;
        memmove(&pr->stash[i], &pr->stash[i + 1], (size_t)(pr->nstash - i - 1) * sizeof *pr->stash);
        pr->nstash--;
    } else {
        preq **p = &pr->wait;
        while (*p)
            p = &(*p)->next;
        *p = q;
    }
    /* one hello receive per receive request: together they take every hello of this source, whichever
     * request's they are */
    q->hpending = true;
    vmpi_fill_recv(&q->hreq, q->hello, 2, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)), src, TAG_HELLO, c, 1);
    q->hreq.kind = VMPI_REQ_RECV;
    q->hreq.complete = false;
    q->hreq.on_done = on_hello;
    q->hreq.on_done_arg = q;
    vmpi_msg_irecv(&rk->ep, &q->hreq);
    return MPI_SUCCESS;
}

bool vmpi_part_is(const vmpi_mreq *m, bool send)
{
    return m->type == VMPI_MREQ_PART && ((const preq *)m->ptr)->h.send == send;
}

static int bad_partition(preq *q, int p, char *why)
{
    if (p < 0 || p >= q->partitions) {
        snprintf(why, 160, "partition %d is not in 0..%d", p, q->partitions - 1);
        return MPI_ERR_ARG;
    }
    if (q->h.send && q->ready[p]) {
        snprintf(why, 160, "partition %d is marked ready already in this round", p);
        return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

/* MPI_Pready (lo == hi), MPI_Pready_range (lo..hi), both with n < 0; MPI_Pready_list (`list`, n >= 0): all are
 * checked before any is marked.  The last partition sends the message. */
int vmpi_pready(vmpi_mreq *m, int lo, int hi, const int *list, int n, char *why)
{
    preq *q = m->ptr;
    if (!m->active) {
        snprintf(why, 160, "the partitioned send request is not active (MPI_Start it first)");
        return MPI_ERR_REQUEST;
    }
    int err;
    if (n >= 0) {
        for (int i = 0; i < n; i++) {
            if ((err = bad_partition(q, list[i], why)))
                return err;
            for (int j = 0; j < i; j++)
                if (list[j] == list[i]) {
                    snprintf(why, 160, "partition %d is listed twice", list[i]);
                    return MPI_ERR_ARG;
                }
        }
        for (int i = 0; i < n; i++)
            q->ready[list[i]] = 1;
        q->nready += n;
    } else {
        if (lo > hi) {
            snprintf(why, 160, "partition_low %d is above partition_high %d", lo, hi);
            return MPI_ERR_ARG;
        }
        for (int p = lo; p <= hi; p++)
            if ((err = bad_partition(q, p, why)))
                return err;
        memset(q->ready + lo, 1, (size_t)(hi - lo + 1));
        q->nready += hi - lo + 1;
    }
    if (n != 0 && q->nready == q->partitions) {
        if (q->peer == MPI_PROC_NULL)
            vmpi_req_complete(&m->r);
        else
            post_data(q);
    }
    return MPI_SUCCESS;
}

int vmpi_parrived(vmpi_mreq *m, int partition, int *flag, char *why)
{
    preq *q = m->ptr;
    if (!m->active) { /* MPI-4.1 4.2.3: an inactive request's partitions have arrived */
        *flag = 1;
        return MPI_SUCCESS;
    }
    int err = bad_partition(q, partition, why);
    if (err)
        return err;
    if (!m->r.complete) {
        vmpi_rank *rk = vmpi_rank_self();
        vmpi_pe_poll(rk->vp.pe);
        if (!m->r.complete)
            vmpi_vp_yield(); /* let a sender on this PE run: a polling loop progresses */
    }
    *flag = m->r.complete;
    return MPI_SUCCESS;
}
