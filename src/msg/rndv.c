/* SPDX-License-Identifier: BSD-3-Clause */
/* The rendezvous protocol (messages above eager-max, and every synchronous send), and the cancellation of
 * its sends.
 *   In one process: the record carries the sender's buffer description; the receiver copies straight from
 *   it (single copy) and a small record completes the send.  A large contiguous message whose sender's PE
 *   is only waiting is copied by both PEs at once, half each.
 *   Between processes: a request to send carries the address of the message's bytes in the sender's process
 *   (its buffer when contiguous, else a packed copy) and a cookie for the sender's request; the receiver
 *   gets the bytes through the transport (xport.h) and sends the cookie back to complete the send. */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "iso/iso.h"
#include "msg/proto.h"
#include "xport/chan.h"

typedef struct rec_rndv {
    msg_hdr h;
    rndv_info rv;
} rec_rndv;
typedef struct rec_rts {
    msg_hdr h;
    rts_info rts;
} rec_rts;
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

#define SPLIT_MIN (256 * 1024)

static inline vmpi_req *req_of(uint64_t cookie) { return (vmpi_req *)(uintptr_t)cookie; }
static inline uint64_t cookie_of(const vmpi_req *r) { return (uint64_t)(uintptr_t)r; }

void vmpi_msg_send_rec(int world, uint32_t id, const void *rec, size_t len)
{
    vmpi_loc loc = vmpi_loc_of(world);
    switch (vmpi_loc_path_pe(loc.pe)) {
    case VMPI_PATH_SAME_PE: {
        vmpi_pe *pe = vmpi_pe_self();
        vmpi_xport_am_table[id](pe, pe->id, (void *)rec, len);
        break;
    }
    case VMPI_PATH_SAME_PROC: vmpi_chan_am_send(loc.pe, id, len, vmpi_xport_pack_copy, (void *)rec); break;
    default: vmpi_xport_am_send(vmpi_xport_remote(loc.pe), loc.pe, id, len, vmpi_xport_pack_copy, (void *)rec); break;
    }
}

/* ---- in one process ---- */

/* Completes the sender's side of a rendezvous, on whichever PE the sender lives. */
static void finish_rndv(const msg_hdr *h, const rndv_info *rv)
{
    rec_cookie c = {h->src_world, cookie_of(rv->sreq)};
    vmpi_msg_send_rec(h->src_world, vmpi_msg_ids.rndv_done, &c, sizeof c);
}

/* Both parts are copied: whichever PE finished last completes both requests (the sender's buffer may be
 * reused only once neither PE reads it). */
static void part_finished(vmpi_req *sreq, vmpi_req *rreq, int spe, int rpe)
{
    if (atomic_fetch_sub_explicit(&rreq->parts, 1, memory_order_acq_rel) != 1)
        return;
    int me = vmpi_pe_self()->id, other = me == spe ? rpe : spe;
    rec_cookie *q = vmpi_chan_reserve(other, sizeof *q);
    *q = (rec_cookie){-1, cookie_of(me == spe ? rreq : sreq)};
    vmpi_chan_commit(other, vmpi_msg_ids.rndv_done);
    vmpi_req_complete(me == spe ? sreq : rreq);
}

/* Copies a large contiguous message with the sender's PE; true when it did (the receive then completes
 * when both parts are done). */
static bool deliver_split(const msg_hdr *h, const rndv_info *rv, vmpi_req *r)
{
    int spe = vmpi_loc_pe(h->src_world), me = vmpi_pe_self()->id;
    if (h->bytes < SPLIT_MIN || spe == me || !rv->sdt->contig || !r->dt->contig ||
        r->count * r->dt->size < h->bytes || !vmpi_sched_pe_waiting(vmpi_sched_pe(spe)))
        return false;
    size_t half = ((size_t)h->bytes / 2) & ~(size_t)63;
    const char *from = (const char *)rv->sbuf + rv->sdt->lb;
    char *to = (char *)r->buf + r->dt->lb;
    vmpi_msg_set_status(r, h->src, h->tag, h->bytes, h->bytes);
    atomic_store_explicit(&r->parts, 2, memory_order_relaxed);
    rec_part *p = vmpi_chan_reserve(spe, sizeof *p);
    *p = (rec_part){from + half, to + half, (size_t)h->bytes - half, rv->sreq, r, me};
    vmpi_chan_commit(spe, vmpi_msg_ids.part);
    memcpy(to, from, half);
    part_finished(rv->sreq, r, spe, me);
    return true;
}

static void on_part(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    rec_part p = *(rec_part *)rec;
    memcpy(p.to, p.from, p.len);
    part_finished(p.sreq, p.rreq, pe->id, p.rpe);
}

void vmpi_rndv_deliver(const msg_hdr *h, const rndv_info *rv, vmpi_req *r)
{
    if (deliver_split(h, rv, r))
        return;
    MPI_Count n = vmpi_dtype_copy(rv->sbuf, rv->scount, rv->sdt, r->buf, r->count, r->dt);
    vmpi_msg_set_status(r, h->src, h->tag, n, h->bytes);
    finish_rndv(h, rv);
    vmpi_req_complete(r);
}

static void on_rndv(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_rndv *m = rec;
    vmpi_ep *ep = vmpi_msg_ep(m->h.dst_world);
    vmpi_req *r = vmpi_match_posted(ep, m->h.ctx, m->h.src, m->h.tag);
    if (r) {
        vmpi_rndv_deliver(&m->h, &m->rv, r);
        return;
    }
    vmpi_env *e = vmpi_env_alloc(0);
    e->h = m->h;
    e->rv = m->rv;
    vmpi_msg_hold(ep, e);
}

/* A send or receive whose other side is done (a record of this process: the cookie is a request here). */
static void on_rndv_done(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    vmpi_req_complete(req_of(((const rec_cookie *)rec)->cookie));
}

/* ---- between processes ---- */

/* A remote send is over: its packed copy (if it made one) goes.  The copy is in the sender's slot (made by
 * vmpi_rndv_send), where the receiver gets it from: a checkpoint taken while it waits writes it with the
 * slot, so that a restarted receiver still finds it at that address. */
static void release_packed(vmpi_req *s)
{
    if (s->packed) {
        vmpi_iso_free(s->packed);
        s->packed = NULL;
    }
}

/* The receiver has the bytes (on the sender's PE). */
static void on_fin(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    vmpi_req *s = req_of(((const rec_cookie *)rec)->cookie);
    release_packed(s);
    vmpi_req_complete(s);
}

typedef struct rts_get {
    vmpi_xport_comp c;
    vmpi_req *r;
    char *bounce;            /* the bytes, when the receive's layout is not contiguous */
    msg_hdr h;
    uint64_t cookie;
    MPI_Count n;             /* bytes taken */
} rts_get;

static void rts_got(vmpi_xport_comp *c)
{
    rts_get *g = (rts_get *)c;
    vmpi_req *r = g->r;
    MPI_Count n = g->n;
    if (g->bounce) {
        n = vmpi_dtype_unpack(g->bounce, g->n, r->buf, r->count, r->dt);
        vmpi_sys_free(g->bounce);
    }
    vmpi_msg_set_status(r, g->h.src, g->h.tag, n, g->h.bytes);
    rec_cookie fin = {g->h.src_world, g->cookie};
    vmpi_msg_send_rec(g->h.src_world, vmpi_msg_ids.fin, &fin, sizeof fin);
    vmpi_sys_free(g);
    vmpi_req_complete(r);
}

void vmpi_rts_deliver(const msg_hdr *h, const rts_info *rts, vmpi_req *r)
{
    MPI_Count room = r->count * r->dt->size, n = h->bytes < room ? h->bytes : room;
    rts_get *g = vmpi_sys_malloc(sizeof *g);
    if (g == NULL)
        vmpi_fatal("out of memory receiving a %lld-byte message", (long long)h->bytes);
    *g = (rts_get){.c = {rts_got}, .r = r, .h = *h, .cookie = rts->cookie, .n = n};
    void *to = (char *)r->buf + r->dt->lb;
    if (!r->dt->contig && n > 0) {
        g->bounce = to = vmpi_sys_malloc((size_t)n);
        if (g->bounce == NULL)
            vmpi_fatal("out of memory receiving a %lld-byte message", (long long)n);
    }
    if (n == 0) {
        rts_got(&g->c);
        return;
    }
    int spe = vmpi_loc_pe(h->src_world);
    if (vmpi_loc_path_pe(spe) != VMPI_PATH_REMOTE) { /* held across a restart that put the sender here */
        memcpy(to, (const void *)(uintptr_t)rts->addr, (size_t)n);
        rts_got(&g->c);
        return;
    }
    vmpi_xport *x = vmpi_xport_remote(spe);
    x->ops->get(x, spe, to, rts->addr, (size_t)n, &g->c);
}

void vmpi_packed_deliver(const msg_hdr *h, const rts_info *rts, const void *payload, vmpi_req *r)
{
    MPI_Count n = vmpi_dtype_unpack(payload, h->bytes, r->buf, r->count, r->dt);
    vmpi_msg_set_status(r, h->src, h->tag, n, h->bytes);
    rec_cookie fin = {h->src_world, rts->cookie};
    vmpi_msg_send_rec(h->src_world, vmpi_msg_ids.fin, &fin, sizeof fin);
    vmpi_req_complete(r);
}

static void on_rts(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_rts *m = rec;
    vmpi_ep *ep = vmpi_msg_ep(m->h.dst_world);
    vmpi_req *r = vmpi_match_posted(ep, m->h.ctx, m->h.src, m->h.tag);
    if (r) {
        vmpi_rts_deliver(&m->h, &m->rts, r);
        return;
    }
    vmpi_env *e = vmpi_env_alloc(0);
    e->h = m->h;
    e->rts = m->rts;
    vmpi_msg_hold(ep, e);
}

/* ---- sending ---- */

void vmpi_rndv_send(vmpi_req *r, msg_hdr *h, vmpi_loc loc, vmpi_path path)
{
    if (path != VMPI_PATH_REMOTE) {
        h->proto = PROTO_RNDV;
        rndv_info rv = {.sbuf = r->buf, .scount = r->count, .sdt = r->dt, .sreq = r};
        if (path == VMPI_PATH_SAME_PE) {
            vmpi_env *e = vmpi_env_alloc(0);
            e->h = *h;
            e->rv = rv;
            vmpi_msg_arrive(vmpi_msg_ep(h->dst_world), e);
            return;
        }
        rec_rndv *m = vmpi_chan_reserve(loc.pe, sizeof *m);
        m->h = *h;
        m->rv = rv;
        vmpi_chan_commit(loc.pe, vmpi_msg_ids.rndv);
        return;
    }
    h->proto = PROTO_RTS;
    const void *bytes = (const char *)r->buf + r->dt->lb;
    if (!r->dt->contig && h->bytes > 0) { /* a network reads one run: pack the message (in the sender's slot:
                                           * this runs on its PE, its rank's or a schedule's step) */
        r->packed = r->owner->heap ? vmpi_iso_heap_malloc(r->owner->heap, (size_t)h->bytes)
                                   : vmpi_sys_malloc((size_t)h->bytes);
        if (r->packed == NULL)
            vmpi_fatal("out of memory packing a %lld-byte message", (long long)h->bytes);
        vmpi_dtype_pack(r->buf, r->count, r->dt, r->packed, h->bytes);
        bytes = r->packed;
    }
    rec_rts m = {*h, {.addr = (uint64_t)(uintptr_t)bytes, .cookie = cookie_of(r)}};
    vmpi_xport_am_send(vmpi_xport_remote(loc.pe), loc.pe, vmpi_msg_ids.rts, sizeof m, vmpi_xport_pack_copy, &m);
}

/* ---- cancelling a send ----
 * MPI_Wait on a cancelled send must return whatever the receiver does (MPI-3.1 3.8.4): a rendezvous send's
 * data is still the sender's, so the message is taken back if no receive has matched it yet (the send then
 * completes as cancelled); once matched it completes normally.  An eager send is complete already and its
 * data gone: it stays sent.  The receiver's PE owns its queues: the request goes there, after the message's
 * own record on the same path, and the answer comes back. */

static void send_cancelled(vmpi_req *r)
{
    release_packed(r);
    r->status.vmpi_cancelled = 1;
    r->status.vmpi_count = 0;
    r->status.MPI_ERROR = MPI_SUCCESS;
    vmpi_req_complete(r);
}

static void on_cancel(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_cancel *c = rec;
    if (!vmpi_msg_unqueue_rndv(vmpi_msg_ep(c->dst_world), c->src_world, c->cookie))
        return; /* matched: the send completes as a send */
    rec_cookie back = {c->src_world, c->cookie};
    vmpi_msg_send_rec(c->src_world, vmpi_msg_ids.cancelled, &back, sizeof back);
}

static void on_cancelled(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    send_cancelled(req_of(((const rec_cookie *)rec)->cookie));
}

void vmpi_rndv_cancel(vmpi_req *r)
{
    rec_cancel c = {r->peer, r->owner->id, cookie_of(r)};
    vmpi_msg_send_rec(r->peer, vmpi_msg_ids.cancel, &c, sizeof c);
}

void vmpi_rndv_init(void)
{
    vmpi_msg_ids.rndv = vmpi_xport_am_register(on_rndv);
    vmpi_msg_ids.rndv_done = vmpi_xport_am_register(on_rndv_done);
    vmpi_msg_ids.part = vmpi_xport_am_register(on_part);
    vmpi_msg_ids.cancel = vmpi_xport_am_register(on_cancel);
    vmpi_msg_ids.cancelled = vmpi_xport_am_register(on_cancelled);
    vmpi_msg_ids.rts = vmpi_xport_am_register(on_rts);
    vmpi_msg_ids.fin = vmpi_xport_am_register(on_fin);
}
