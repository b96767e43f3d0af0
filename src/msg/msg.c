/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/pool.h"
#include "base/tunables.h"
#include "msg/msg.h"

typedef enum { PROTO_EAGER, PROTO_RNDV } proto;

struct vmpi_env {
    vmpi_amsg am;
    vmpi_list node;          /* in the unexpected queue */
    int ctx, src, tag;
    int dst_world, src_world;
    proto proto;
    bool heap;               /* larger than every pool class */
    MPI_Count bytes;
    const void *sbuf;        /* rendezvous: the sender's data, copied by the receiver */
    MPI_Count scount;
    const vmpi_dtype *sdt;
    vmpi_req *sreq;
    max_align_t data[];      /* eager payload, packed */
};

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
    uint32_t h_env, h_rndv_done;
    size_t eager_max;
} M;

static void on_env(vmpi_pe *pe, vmpi_amsg *am);
static void on_rndv_done(vmpi_pe *pe, vmpi_amsg *am);

void vmpi_msg_init(int nranks, int npes)
{
    M.pes = aligned_alloc(VMPI_CACHELINE, sizeof(msg_pe) * (size_t)npes);
    M.eps = calloc((size_t)nranks, sizeof *M.eps);
    M.loc = calloc((size_t)nranks, sizeof *M.loc);
    if (!M.pes || !M.eps || !M.loc)
        vmpi_fatal("out of memory for the messaging tables of %d ranks", nranks);
    for (int p = 0; p < npes; p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_init(&M.pes[p].env[c], sizeof(vmpi_env) + env_class[c], c < 2 ? 64 : 16);
    }
    M.h_env = vmpi_sched_handler_register(on_env);
    M.h_rndv_done = vmpi_sched_handler_register(on_rndv_done);
    M.eager_max = vmpi_cfg.eager_max;
}

void vmpi_msg_fini(void)
{
    for (int p = 0; p < vmpi_sched_npes(); p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_destroy(&M.pes[p].env[c]);
    }
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
    M.eps[world_rank] = ep;
    M.loc[world_rank] = (vmpi_loc){0, pe};
}

vmpi_loc vmpi_msg_loc(int world_rank) { return M.loc[world_rank]; }

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
    vmpi_env *e = malloc(sizeof(vmpi_env) + (size_t)payload);
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
    while (c < NCLASS - 1 && (size_t)e->bytes > env_class[c])
        c++;
    vmpi_pool_free(e, e->proto == PROTO_EAGER ? &mp->env[c] : &mp->env[0]);
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
        if (matches(ctx, src, tag, e->ctx, e->src, e->tag))
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
static void finish_rndv(vmpi_env *e)
{
    vmpi_loc loc = vmpi_msg_loc(e->src_world);
    if (loc.pe == vmpi_pe_self()->id) {
        vmpi_req_complete(e->sreq);
        env_free(e);
    } else {
        e->am.handler = M.h_rndv_done;
        vmpi_pe_send(vmpi_sched_pe(loc.pe), &e->am);
    }
}

/* Moves the data of `e` into receive `r` and completes both sides. */
static void deliver(vmpi_env *e, vmpi_req *r)
{
    MPI_Count n;
    if (e->proto == PROTO_EAGER)
        n = vmpi_dtype_unpack(e->data, e->bytes, r->buf, r->count, r->dt);
    else
        n = vmpi_dtype_copy(e->sbuf, e->scount, e->sdt, r->buf, r->count, r->dt);
    set_status(r, e->src, e->tag, n, e->bytes);
    if (e->proto == PROTO_EAGER)
        env_free(e);
    else
        finish_rndv(e);
    vmpi_req_complete(r);
}

static void arrive(vmpi_ep *ep, vmpi_env *e)
{
    vmpi_req *r = match_posted(ep, e->ctx, e->src, e->tag);
    if (r) {
        deliver(e, r);
        return;
    }
    vmpi_list_push_back(&ep->unexpected, &e->node);
    if (ep->probing)
        vmpi_vp_wake(ep->vp);
}

static void on_env(vmpi_pe *pe, vmpi_amsg *am)
{
    (void)pe;
    vmpi_env *e = vmpi_container_of(am, vmpi_env, am);
    arrive(M.eps[e->dst_world], e);
}

static void on_rndv_done(vmpi_pe *pe, vmpi_amsg *am)
{
    (void)pe;
    vmpi_env *e = vmpi_container_of(am, vmpi_env, am);
    vmpi_req_complete(e->sreq);
    env_free(e);
}

/* ---- operations ---- */

void vmpi_msg_isend(vmpi_req *r)
{
    vmpi_loc loc = vmpi_msg_loc(r->peer);
    bool local = loc.pe == vmpi_pe_self()->id;
    MPI_Count bytes = r->count * r->dt->size;
    r->kind = VMPI_REQ_SEND;
    r->complete = false;
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
    vmpi_env *e;
    if (r->mode == VMPI_SEND_STD && (size_t)bytes <= M.eager_max) {
        e = env_alloc(bytes);
        e->proto = PROTO_EAGER;
        vmpi_dtype_pack(r->buf, r->count, r->dt, e->data, bytes);
        r->complete = true;
    } else {
        e = env_alloc(0);
        e->proto = PROTO_RNDV;
        e->sbuf = r->buf;
        e->scount = r->count;
        e->sdt = r->dt;
        e->sreq = r;
    }
    e->am.handler = M.h_env;
    e->ctx = r->ctx;
    e->src = r->rank;
    e->tag = r->tag;
    e->dst_world = r->peer;
    e->src_world = r->owner->id;
    e->bytes = bytes;
    if (local)
        arrive(M.eps[r->peer], e);
    else
        vmpi_pe_send(vmpi_sched_pe(loc.pe), &e->am);
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

vmpi_env *vmpi_msg_probe(vmpi_ep *ep, int ctx, int source, int tag, bool remove, MPI_Status *st)
{
    vmpi_env *e = match_unexpected(ep, ctx, source, tag);
    if (e == NULL)
        return NULL;
    if (st) {
        st->MPI_SOURCE = e->src;
        st->MPI_TAG = e->tag;
        st->MPI_ERROR = MPI_SUCCESS;
        st->vmpi_cancelled = 0;
        st->vmpi_count = e->bytes;
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
