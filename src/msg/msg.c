/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/pool.h"
#include "base/sysmem.h"
#include "base/tunables.h"
#include "msg/msg.h"
#include "sched/chan.h"

typedef enum { PROTO_EAGER, PROTO_RNDV } proto;

/* What precedes every message between PEs, and what an unexpected message keeps. */
typedef struct msg_hdr {
    int32_t ctx, src, tag;
    int32_t dst_world, src_world;
    uint32_t proto;
    MPI_Count bytes;
} msg_hdr;

/* Rendezvous: the sender's data, copied by the receiver, and the request to complete afterwards. */
typedef struct rndv_info {
    const void *sbuf;
    MPI_Count scount;
    const vmpi_dtype *sdt;
    vmpi_req *sreq;
} rndv_info;

/* A message held on the receiver's side (unexpected, or sent between ranks of one PE). */
struct vmpi_env {
    vmpi_list node;          /* in the unexpected queue */
    msg_hdr h;
    bool heap;               /* larger than every pool class */
    rndv_info rv;
    max_align_t data[];      /* eager payload, packed */
};

/* Records between PEs (sched/chan.h): eager = header + packed payload; rndv = header + rndv_info;
 * eager_ptr = header + a pooled envelope (eager messages too big for a channel record); rndv_done = the
 * sender's request. */
typedef struct rec_rndv {
    msg_hdr h;
    rndv_info rv;
} rec_rndv;
typedef struct rec_ptr {
    msg_hdr h;
    vmpi_env *env;
} rec_ptr;
/* A large contiguous rendezvous across PEs is copied by both PEs at once when the sender's PE is only
 * waiting: the receiver's PE asks it to copy the second part.  (A PE busy running other ranks is not
 * asked, or the receive would wait for them.) */
typedef struct rec_part {
    const char *from;
    char *to;
    size_t len;
    vmpi_req *sreq, *rreq;
    int rpe;
} rec_part;

/* Cancelling a rendezvous send: the receiver's PE, which owns its queues, takes the message out if it is
 * still unexpected (cancelled) and then tells the sender's PE. */
typedef struct rec_cancel {
    int32_t dst_world, src_world;
    vmpi_req *sreq;
} rec_cancel;

#define SPLIT_MIN (256 * 1024)

/* Envelope payload classes; an eager message bigger than the last comes from malloc. */
static const size_t env_class[] = {64, 512, 4096, 32768};
#define NCLASS (sizeof env_class / sizeof env_class[0])

typedef struct msg_pe {
    VMPI_ALIGNED_CL vmpi_pool env[NCLASS];
} msg_pe;

static struct {
    msg_pe *pes;
    vmpi_ep **eps;           /* world rank -> endpoint */
    vmpi_loc *loc;           /* world rank -> location */
    int nranks;
    uint32_t h_eager, h_rndv, h_eager_ptr, h_rndv_done, h_part, h_cancel, h_cancelled;
    size_t eager_max;
    size_t inline_max;       /* largest eager record copied through a channel; larger ones go by pointer */
} M;

static void on_eager(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_rndv(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_eager_ptr(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_rndv_done(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_part(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_cancel(vmpi_pe *pe, int src_pe, void *rec, size_t len);
static void on_cancelled(vmpi_pe *pe, int src_pe, void *rec, size_t len);

void vmpi_msg_init(int nranks, int npes)
{
    M.pes = aligned_alloc(VMPI_CACHELINE, sizeof(msg_pe) * (size_t)npes);
    M.eps = calloc((size_t)nranks, sizeof *M.eps);
    M.loc = calloc((size_t)nranks, sizeof *M.loc);
    M.nranks = nranks;
    if (!M.pes || !M.eps || !M.loc)
        vmpi_fatal("out of memory for the messaging tables of %d ranks", nranks);
    for (int p = 0; p < npes; p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_init(&M.pes[p].env[c], sizeof(vmpi_env) + env_class[c], c < 2 ? 64 : 16);
    }
    M.h_eager = vmpi_chan_handler_register(on_eager);
    M.h_rndv = vmpi_chan_handler_register(on_rndv);
    M.h_eager_ptr = vmpi_chan_handler_register(on_eager_ptr);
    M.h_rndv_done = vmpi_chan_handler_register(on_rndv_done);
    M.h_part = vmpi_chan_handler_register(on_part);
    M.h_cancel = vmpi_chan_handler_register(on_cancel);
    M.h_cancelled = vmpi_chan_handler_register(on_cancelled);

    M.eager_max = vmpi_cfg.eager_max;
    /* Inline records up to 1/16 of a ring: a window of sends then fits without queuing on the sender's
     * side; bigger eager messages travel in pooled envelopes (one copy in, one out, as inline). */
    M.inline_max = vmpi_chan_max_record() / 4;
}

void vmpi_msg_fini(void)
{
    for (int p = 0; p < vmpi_sched_npes(); p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_destroy(&M.pes[p].env[c]);
    }
    for (int r = 0; r < M.nranks; r++)
        if (M.eps[r])
            vmpi_commstat_free(&M.eps[r]->sent);
    free(M.pes);
    free(M.eps);
    free(M.loc);
}

void vmpi_msg_ep_init(vmpi_ep *ep, int world_rank, vmpi_vp *vp, int pe)
{
    vmpi_list_init(&ep->posted);
    vmpi_list_init(&ep->unexpected);
    ep->vp = vp;
    ep->probing = false;
    ep->sent = (vmpi_commstat){0};
    M.eps[world_rank] = ep;
    M.loc[world_rank] = (vmpi_loc){0, pe};
}

vmpi_loc vmpi_msg_loc(int world_rank) { return M.loc[world_rank]; }
vmpi_ep *vmpi_msg_ep(int world_rank) { return M.eps[world_rank]; }
void vmpi_msg_set_loc(int world_rank, int pe) { M.loc[world_rank].pe = pe; }

static inline msg_pe *my_pools(void) { return &M.pes[vmpi_pe_self()->id]; }

/* ---- requests ---- */

void vmpi_req_complete(vmpi_req *r)
{
    r->complete = true;
    vmpi_vp_wake(r->owner);
    if (r->on_done)
        r->on_done(r); /* last: it may release r */
}

/* ---- envelopes ---- */

static vmpi_env *env_alloc(MPI_Count payload)
{
    msg_pe *mp = my_pools();
    for (size_t c = 0; c < NCLASS; c++)
        if ((size_t)payload <= env_class[c]) {
            vmpi_env *e = vmpi_pool_alloc(&mp->env[c]);
            e->heap = false;
            return e;
        }
    vmpi_env *e = vmpi_sys_malloc(sizeof(vmpi_env) + (size_t)payload); /* not the sender's slot */
    if (e == NULL)
        vmpi_fatal("out of memory buffering a %lld-byte message", (long long)payload);
    e->heap = true;
    return e;
}

static void env_free(vmpi_env *e)
{
    if (e->heap) {
        free(e);
        return;
    }
    /* the pool is found from the object; `self` only decides whether the free is local */
    msg_pe *mp = my_pools();
    size_t c = 0;
    while (c < NCLASS - 1 && (size_t)e->h.bytes > env_class[c])
        c++;
    vmpi_pool_free(e, e->h.proto == PROTO_EAGER ? &mp->env[c] : &mp->env[0]);
}

/* ---- checkpoints ---- */

size_t vmpi_msg_env_saved_size(const vmpi_env *e)
{
    return sizeof e->h + sizeof e->rv + (e->h.proto == PROTO_EAGER ? (size_t)e->h.bytes : 0);
}

void vmpi_msg_env_save(const vmpi_env *e, void *out)
{
    char *p = out;
    memcpy(p, &e->h, sizeof e->h);
    memcpy(p + sizeof e->h, &e->rv, sizeof e->rv);
    memcpy(p + sizeof e->h + sizeof e->rv, e->data, e->h.proto == PROTO_EAGER ? (size_t)e->h.bytes : 0);
}

vmpi_env *vmpi_msg_env_load(const void *in, size_t avail, size_t *used)
{
    const char *p = in;
    msg_hdr h;
    if (avail < sizeof h + sizeof(rndv_info))
        return NULL;
    memcpy(&h, p, sizeof h);
    size_t pl = h.proto == PROTO_EAGER ? (size_t)h.bytes : 0;
    if (h.bytes < 0 || pl > avail - sizeof h - sizeof(rndv_info))
        return NULL;
    /* from the system allocator: no PE runs yet, and any PE may free it */
    vmpi_env *e = vmpi_sys_malloc(sizeof(vmpi_env) + pl);
    if (e == NULL)
        vmpi_fatal("out of memory restoring a message of %zu bytes", pl);
    e->heap = true;
    e->h = h;
    memcpy(&e->rv, p + sizeof h, sizeof e->rv);
    memcpy(e->data, p + sizeof h + sizeof e->rv, pl);
    vmpi_list_init(&e->node);
    *used = sizeof h + sizeof e->rv + pl;
    return e;
}

void *vmpi_msg_save_unexpected(const vmpi_ep *ep, size_t *len)
{
    size_t n = 0;
    vmpi_list_foreach(it, &ep->unexpected)
        n += vmpi_msg_env_saved_size(vmpi_container_of(it, vmpi_env, node));
    *len = n;
    char *buf = n ? vmpi_sys_malloc(n) : NULL, *p = buf;
    if (n && buf == NULL)
        vmpi_fatal("out of memory saving rank %d's unexpected messages", ep->vp->id);
    vmpi_list_foreach(it, &ep->unexpected)
    {
        const vmpi_env *e = vmpi_container_of(it, vmpi_env, node);
        vmpi_msg_env_save(e, p);
        p += vmpi_msg_env_saved_size(e);
    }
    return buf;
}

bool vmpi_msg_ep_restored(vmpi_ep *ep, int world_rank, int pe, const void *buf, size_t len)
{
    vmpi_list_init(&ep->unexpected); /* its envelopes were the old process's */
    ep->probing = false;
    /* so may its send counts be (a table grown by a handler outside any rank is the PE's system memory):
     * they are measurements, which start again */
    ep->sent = (vmpi_commstat){0};
    M.eps[world_rank] = ep;
    M.loc[world_rank] = (vmpi_loc){0, pe};
    for (const char *p = buf, *end = p + len; p < end;) {
        size_t used;
        vmpi_env *e = vmpi_msg_env_load(p, (size_t)(end - p), &used);
        if (e == NULL)
            return false;
        vmpi_list_push_back(&ep->unexpected, &e->node);
        p += used;
    }
    return true;
}

/* ---- matching ---- */

static inline bool matches(int ctx, int src, int tag, int ectx, int esrc, int etag)
{
    return ctx == ectx && (src == MPI_ANY_SOURCE || src == esrc) && (tag == MPI_ANY_TAG || tag == etag);
}

static vmpi_req *match_posted(vmpi_ep *ep, int ctx, int src, int tag)
{
    vmpi_list_foreach(it, &ep->posted)
    {
        vmpi_req *r = vmpi_container_of(it, vmpi_req, node);
        if (matches(r->ctx, r->rank, r->tag, ctx, src, tag)) {
            vmpi_list_remove(it);
            return r;
        }
    }
    return NULL;
}

static vmpi_env *match_unexpected(vmpi_ep *ep, int ctx, int src, int tag)
{
    vmpi_list_foreach(it, &ep->unexpected)
    {
        vmpi_env *e = vmpi_container_of(it, vmpi_env, node);
        if (matches(ctx, src, tag, e->h.ctx, e->h.src, e->h.tag))
            return e;
    }
    return NULL;
}

static void set_status(vmpi_req *r, int src, int tag, MPI_Count bytes, MPI_Count sent)
{
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->status.vmpi_count = bytes;
    r->status.vmpi_cancelled = 0;
    r->status.MPI_ERROR = sent > bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

/* Completes the sender's side of a rendezvous, on whichever PE the sender lives. */
static void finish_rndv(const msg_hdr *h, const rndv_info *rv)
{
    vmpi_loc loc = vmpi_msg_loc(h->src_world);
    if (loc.pe == vmpi_pe_self()->id) {
        vmpi_req_complete(rv->sreq);
    } else {
        vmpi_req **p = vmpi_chan_reserve(loc.pe, sizeof *p);
        *p = rv->sreq;
        vmpi_chan_commit(loc.pe, M.h_rndv_done);
    }
}

/* Both parts are copied: whichever PE finished last completes both requests (the sender's buffer may be
 * reused only once neither PE reads it). */
static void part_finished(vmpi_req *sreq, vmpi_req *rreq, int spe, int rpe)
{
    if (atomic_fetch_sub_explicit(&rreq->parts, 1, memory_order_acq_rel) != 1)
        return;
    int me = vmpi_pe_self()->id, other = me == spe ? rpe : spe;
    vmpi_req **q = vmpi_chan_reserve(other, sizeof *q);
    *q = me == spe ? rreq : sreq;
    vmpi_chan_commit(other, M.h_rndv_done);
    vmpi_req_complete(me == spe ? sreq : rreq);
}

/* Copies a large contiguous message with the sender's PE; true when it did (the receive then completes
 * when both parts are done). */
static bool deliver_split(const msg_hdr *h, const rndv_info *rv, vmpi_req *r)
{
    vmpi_loc loc = vmpi_msg_loc(h->src_world);
    int me = vmpi_pe_self()->id;
    if (h->bytes < SPLIT_MIN || loc.pe == me || !rv->sdt->contig || !r->dt->contig ||
        r->count * r->dt->size < h->bytes || !vmpi_sched_pe_waiting(vmpi_sched_pe(loc.pe)))
        return false;
    size_t half = ((size_t)h->bytes / 2) & ~(size_t)63;
    const char *from = (const char *)rv->sbuf + rv->sdt->lb;
    char *to = (char *)r->buf + r->dt->lb;
    set_status(r, h->src, h->tag, h->bytes, h->bytes);
    atomic_store_explicit(&r->parts, 2, memory_order_relaxed);
    rec_part *p = vmpi_chan_reserve(loc.pe, sizeof *p);
    *p = (rec_part){from + half, to + half, (size_t)h->bytes - half, rv->sreq, r, me};
    vmpi_chan_commit(loc.pe, M.h_part);
    memcpy(to, from, half);
    part_finished(rv->sreq, r, loc.pe, me);
    return true;
}

static void on_part(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    rec_part p = *(rec_part *)rec;
    memcpy(p.to, p.from, p.len);
    part_finished(p.sreq, p.rreq, pe->id, p.rpe);
}

/* Moves a rendezvous message into receive `r` and completes both sides. */
static void deliver_rndv(const msg_hdr *h, const rndv_info *rv, vmpi_req *r)
{
    if (deliver_split(h, rv, r))
        return;
    MPI_Count n = vmpi_dtype_copy(rv->sbuf, rv->scount, rv->sdt, r->buf, r->count, r->dt);
    set_status(r, h->src, h->tag, n, h->bytes);
    finish_rndv(h, rv);
    vmpi_req_complete(r);
}

static void deliver_eager(const msg_hdr *h, const void *payload, vmpi_req *r)
{
    MPI_Count n = vmpi_dtype_unpack(payload, h->bytes, r->buf, r->count, r->dt);
    set_status(r, h->src, h->tag, n, h->bytes);
    vmpi_req_complete(r);
}

/* Moves the data of held message `e` into receive `r`, completes both sides and frees `e`. */
static void deliver(vmpi_env *e, vmpi_req *r)
{
    if (e->h.proto == PROTO_EAGER)
        deliver_eager(&e->h, e->data, r);
    else
        deliver_rndv(&e->h, &e->rv, r);
    env_free(e);
}

static void hold(vmpi_ep *ep, vmpi_env *e)
{
    vmpi_list_push_back(&ep->unexpected, &e->node);
    if (ep->probing)
        vmpi_vp_wake(ep->vp);
}

static void arrive(vmpi_ep *ep, vmpi_env *e)
{
    vmpi_req *r = match_posted(ep, e->h.ctx, e->h.src, e->h.tag);
    if (r)
        deliver(e, r);
    else
        hold(ep, e);
}

/* Cross-PE arrivals: matched in place in the channel, copied into an envelope only when unexpected. */
static void on_eager(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const msg_hdr *h = rec;
    vmpi_ep *ep = M.eps[h->dst_world];
    vmpi_req *r = match_posted(ep, h->ctx, h->src, h->tag);
    if (r) {
        deliver_eager(h, h + 1, r);
        return;
    }
    vmpi_env *e = env_alloc(h->bytes);
    e->h = *h;
    memcpy(e->data, h + 1, (size_t)h->bytes);
    hold(ep, e);
}

static void on_rndv(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_rndv *m = rec;
    vmpi_ep *ep = M.eps[m->h.dst_world];
    vmpi_req *r = match_posted(ep, m->h.ctx, m->h.src, m->h.tag);
    if (r) {
        deliver_rndv(&m->h, &m->rv, r);
        return;
    }
    vmpi_env *e = env_alloc(0);
    e->h = m->h;
    e->rv = m->rv;
    hold(ep, e);
}

static void on_eager_ptr(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_ptr *m = rec;
    arrive(M.eps[m->h.dst_world], m->env);
}

static void on_rndv_done(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    vmpi_req_complete(*(vmpi_req **)rec);
}

/* ---- operations ---- */

void vmpi_msg_isend(vmpi_req *r)
{
    vmpi_loc loc = vmpi_msg_loc(r->peer);
    bool local = loc.pe == vmpi_pe_self()->id;
    MPI_Count bytes = r->count * r->dt->size;
    r->kind = VMPI_REQ_SEND;
    r->complete = false;
    if (VMPI_UNLIKELY(vmpi_commstat_tracking()))
        vmpi_commstat_add(&M.eps[r->owner->id]->sent, r->peer, (double)bytes);
    if (local) {
        vmpi_req *rr = match_posted(M.eps[r->peer], r->ctx, r->rank, r->tag);
        if (rr) { /* the receive is waiting on this PE: one copy, straight into it */
            MPI_Count n = vmpi_dtype_copy(r->buf, r->count, r->dt, rr->buf, rr->count, rr->dt);
            set_status(rr, r->rank, r->tag, n, bytes);
            vmpi_req_complete(rr);
            r->complete = true;
            return;
        }
    }
    msg_hdr h = {.ctx = r->ctx, .src = r->rank, .tag = r->tag, .dst_world = r->peer,
                 .src_world = r->owner->id, .bytes = bytes};
    bool eager = r->mode == VMPI_SEND_STD && (size_t)bytes <= M.eager_max;
    h.proto = eager ? PROTO_EAGER : PROTO_RNDV;
    rndv_info rv = {.sbuf = r->buf, .scount = r->count, .sdt = r->dt, .sreq = r};
    r->complete = eager;
    if (!local && !eager) {
        rec_rndv *m = vmpi_chan_reserve(loc.pe, sizeof *m);
        m->h = h;
        m->rv = rv;
        vmpi_chan_commit(loc.pe, M.h_rndv);
        return;
    }
    if (!local && sizeof h + (size_t)bytes <= M.inline_max) {
        msg_hdr *m = vmpi_chan_reserve(loc.pe, sizeof h + (size_t)bytes);
        *m = h;
        vmpi_dtype_pack(r->buf, r->count, r->dt, m + 1, bytes);
        vmpi_chan_commit(loc.pe, M.h_eager);
        return;
    }
    vmpi_env *e = env_alloc(eager ? bytes : 0);
    e->h = h;
    if (eager)
        vmpi_dtype_pack(r->buf, r->count, r->dt, e->data, bytes);
    else
        e->rv = rv;
    if (local) {
        arrive(M.eps[r->peer], e);
        return;
    }
    rec_ptr *m = vmpi_chan_reserve(loc.pe, sizeof *m); /* an eager message too big for a record */
    m->h = h;
    m->env = e;
    vmpi_chan_commit(loc.pe, M.h_eager_ptr);
}

void vmpi_msg_irecv(vmpi_ep *ep, vmpi_req *r)
{
    r->kind = VMPI_REQ_RECV;
    r->complete = false;
    vmpi_env *e = match_unexpected(ep, r->ctx, r->rank, r->tag);
    if (e) {
        vmpi_list_remove(&e->node);
        deliver(e, r);
        return;
    }
    vmpi_list_push_back(&ep->posted, &r->node);
}

bool vmpi_msg_cancel_recv(vmpi_ep *ep, vmpi_req *r)
{
    (void)ep;
    if (r->complete)
        return false;
    vmpi_list_remove(&r->node);
    r->status.vmpi_cancelled = 1;
    r->status.vmpi_count = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    vmpi_req_complete(r);
    return true;
}

/* Send cancellation.  MPI_Wait on a cancelled send must return whatever the receiver does (MPI-3.1 3.8.4):
 * a rendezvous send's data is still the sender's, so the message is taken back if no receive has matched it
 * yet (the send then completes as cancelled); once matched it completes normally.  An eager send is
 * complete already and its data gone: it stays sent. */
static bool unqueue_rndv(vmpi_ep *ep, const vmpi_req *sreq)
{
    vmpi_list_foreach(it, &ep->unexpected)
    {
        vmpi_env *e = vmpi_container_of(it, vmpi_env, node);
        if (e->h.proto == PROTO_RNDV && e->rv.sreq == sreq) {
            vmpi_list_remove(it);
            env_free(e);
            return true;
        }
    }
    return false;
}

/* On the sender's PE. */
static void send_cancelled(vmpi_req *r)
{
    r->status.vmpi_cancelled = 1;
    r->status.vmpi_count = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    vmpi_req_complete(r);
}

static void on_cancel(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_cancel *c = rec;
    if (!unqueue_rndv(M.eps[c->dst_world], c->sreq))
        return; /* matched: the send completes as a send */
    vmpi_loc loc = vmpi_msg_loc(c->src_world);
    if (loc.pe == pe->id) {
        send_cancelled(c->sreq);
        return;
    }
    vmpi_req **p = vmpi_chan_reserve(loc.pe, sizeof *p);
    *p = c->sreq;
    vmpi_chan_commit(loc.pe, M.h_cancelled);
}

static void on_cancelled(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    send_cancelled(*(vmpi_req **)rec);
}

void vmpi_msg_cancel_send(vmpi_req *r)
{
    if (r->complete)
        return;
    vmpi_loc loc = vmpi_msg_loc(r->peer);
    if (loc.pe == vmpi_pe_self()->id) {
        if (unqueue_rndv(M.eps[r->peer], r))
            send_cancelled(r);
        return;
    }
    /* after the message's own record in the same channel, so the receiver's PE has queued or matched it */
    rec_cancel *c = vmpi_chan_reserve(loc.pe, sizeof *c);
    *c = (rec_cancel){r->peer, r->owner->id, r};
    vmpi_chan_commit(loc.pe, M.h_cancel);
}

vmpi_env *vmpi_msg_probe(vmpi_ep *ep, int ctx, int source, int tag, bool remove, MPI_Status *st)
{
    vmpi_env *e = match_unexpected(ep, ctx, source, tag);
    if (e == NULL)
        return NULL;
    if (st) {
        st->MPI_SOURCE = e->h.src;
        st->MPI_TAG = e->h.tag;
        st->vmpi_cancelled = 0;
        st->vmpi_count = e->h.bytes;
    }
    if (remove)
        vmpi_list_remove(&e->node);
    return e;
}

void vmpi_msg_recv_env(vmpi_env *e, vmpi_req *r)
{
    r->kind = VMPI_REQ_RECV;
    r->complete = false;
    deliver(e, r);
}
