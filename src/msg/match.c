/* SPDX-License-Identifier: BSD-3-Clause */
/* Endpoints: each rank's posted receives and unexpected messages, matched in arrival order (MPI's
 * non-overtaking rule); the envelopes that hold messages on the receiver's side; and their checkpoint form. */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/pool.h"
#include "base/sysmem.h"
#include "msg/proto.h"

/* Envelope payload classes; an eager message bigger than the last comes from malloc. */
static const size_t env_class[] = {64, 512, 4096, 32768};
#define NCLASS (sizeof env_class / sizeof env_class[0])

typedef struct msg_pe {
    VMPI_ALIGNED_CL vmpi_pool env[NCLASS];
} msg_pe;

static struct {
    msg_pe *pes;
    int npes;
    vmpi_ep **eps;           /* world rank -> endpoint */
    int nranks;
} M;

void vmpi_match_init(int nranks, int npes)
{
    M.pes = aligned_alloc(VMPI_CACHELINE, sizeof(msg_pe) * (size_t)npes);
    M.eps = calloc((size_t)nranks, sizeof *M.eps);
    M.nranks = nranks;
    M.npes = npes;
    if (!M.pes || !M.eps)
        vmpi_fatal("out of memory for the messaging tables of %d ranks", nranks);
    for (int p = 0; p < npes; p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_init(&M.pes[p].env[c], sizeof(vmpi_env) + env_class[c], c < 2 ? 64 : 16);
    }
}

void vmpi_match_fini(void)
{
    for (int p = 0; p < M.npes; p++) {
        for (size_t c = 0; c < NCLASS; c++)
            vmpi_pool_destroy(&M.pes[p].env[c]);
    }
    for (int r = 0; r < M.nranks; r++)
        if (M.eps[r])
            vmpi_commstat_free(&M.eps[r]->sent);
    free(M.pes);
    free(M.eps);
    memset(&M, 0, sizeof M);
}

void vmpi_msg_ep_init(vmpi_ep *ep, int world_rank, vmpi_vp *vp, int pe)
{
    vmpi_list_init(&ep->posted);
    vmpi_list_init(&ep->unexpected);
    ep->vp = vp;
    ep->probing = false;
    ep->sent = (vmpi_commstat){0};
    ep->nsent = ep->bytes_sent = 0;
    M.eps[world_rank] = ep;
    vmpi_loc_set(world_rank, pe);
}

vmpi_ep *vmpi_msg_ep(int world_rank) { return M.eps[world_rank]; }

size_t vmpi_msg_unexpected_count(const vmpi_ep *ep, int ctx)
{
    size_t n = 0;
    vmpi_list_foreach(it, &ep->unexpected)
        n += ctx < 0 || vmpi_container_of(it, vmpi_env, node)->h.ctx == ctx;
    return n;
}

static inline msg_pe *my_pools(void) { return &M.pes[vmpi_pe_self()->id]; }

/* ---- envelopes ---- */

vmpi_env *vmpi_env_alloc(MPI_Count payload)
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

void vmpi_env_free(vmpi_env *e)
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

/* ---- checkpoints ----
 * A held message is saved in a form any process can deliver: eager ones with their bytes; a request to
 * send (between processes) as it is, an address in its sender's slot or packed copy and a cookie; and an
 * in-process rendezvous, whose pointers are valid only where its sender lives, in one of those forms too: a
 * request to send when the sender's type is contiguous (the address of its bytes, in its slot), else its
 * bytes packed into the record (PROTO_PACKED).  A restart on another number of processes may put the
 * sender and the receiver in different processes (docs/research/restart-procs.md). */

_Static_assert(sizeof(rts_info) == sizeof(rndv_info), "a saved envelope holds either");

static bool saved_packed(const vmpi_env *e) { return e->h.proto == PROTO_RNDV && !e->rv.sdt->contig; }

/* (a PROTO_PACKED envelope, one such message restored or moved here, has its bytes with it) */
static size_t saved_payload(const vmpi_env *e)
{
    return e->h.proto == PROTO_EAGER || e->h.proto == PROTO_PACKED || saved_packed(e) ? (size_t)e->h.bytes : 0;
}

size_t vmpi_msg_env_saved_size(const vmpi_env *e) { return sizeof e->h + sizeof e->rv + saved_payload(e); }

void vmpi_msg_env_save(const vmpi_env *e, void *out)
{
    char *p = out;
    msg_hdr h = e->h;
    rts_info rts;
    char *payload = p + sizeof h + sizeof rts;
    if (h.proto == PROTO_RNDV) {
        rts = (rts_info){.cookie = (uint64_t)(uintptr_t)e->rv.sreq};
        if (saved_packed(e)) {
            h.proto = PROTO_PACKED;
            if (h.bytes > 0)
                vmpi_dtype_pack(e->rv.sbuf, e->rv.scount, e->rv.sdt, payload, h.bytes);
        } else {
            h.proto = PROTO_RTS;
            rts.addr = (uint64_t)(uintptr_t)((const char *)e->rv.sbuf + e->rv.sdt->lb);
        }
    } else {
        memcpy(&rts, &e->rts, sizeof rts); /* or the unused rendezvous fields of an eager message */
        if (h.proto == PROTO_EAGER || h.proto == PROTO_PACKED)
            memcpy(payload, e->data, (size_t)h.bytes);
    }
    memcpy(p, &h, sizeof h);
    memcpy(p + sizeof h, &rts, sizeof rts);
}

vmpi_env *vmpi_msg_env_load(const void *in, size_t avail, size_t *used)
{
    const char *p = in;
    msg_hdr h;
    if (avail < sizeof h + sizeof(rndv_info))
        return NULL;
    memcpy(&h, p, sizeof h);
    size_t pl = h.proto == PROTO_EAGER || h.proto == PROTO_PACKED ? (size_t)h.bytes : 0;
    if (h.bytes < 0 || h.proto > PROTO_PACKED || h.proto == PROTO_RNDV || pl > avail - sizeof h - sizeof(rndv_info))
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

void vmpi_msg_env_discard(vmpi_env *e) { vmpi_env_free(e); }

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

void *vmpi_msg_ep_leave(vmpi_ep *ep, int world_rank, size_t *len)
{
    void *saved = vmpi_msg_save_unexpected(ep, len);
    while (!vmpi_list_empty(&ep->unexpected)) {
        vmpi_env *e = vmpi_container_of(ep->unexpected.next, vmpi_env, node);
        vmpi_list_remove(&e->node);
        vmpi_env_free(e);
    }
    vmpi_commstat_free(&ep->sent); /* (measurements: they start again where it goes) */
    ep->sent = (vmpi_commstat){0};
    M.eps[world_rank] = NULL;
    return saved;
}

vmpi_env *vmpi_msg_env_portable(vmpi_env *e, bool (*leaving)(int world_rank))
{
    if (e->h.proto != PROTO_RNDV || !leaving(e->h.src_world))
        return e;
    size_t n = vmpi_msg_env_saved_size(e), used;
    char *buf = vmpi_sys_malloc(n);
    if (buf == NULL)
        vmpi_fatal("out of memory moving a rank's message to another process");
    vmpi_msg_env_save(e, buf);
    vmpi_env *p = vmpi_msg_env_load(buf, n, &used);
    vmpi_sys_free(buf);
    if (p == NULL)
        vmpi_fatal("internal error: a saved message cannot be read back");
    return p;
}

void vmpi_msg_make_portable(bool (*leaving)(int world_rank))
{
    for (int r = 0; r < M.nranks; r++) {
        vmpi_ep *ep = M.eps[r];
        if (ep == NULL)
            continue;
        vmpi_list_foreach(it, &ep->unexpected)
        {
            vmpi_env *e = vmpi_container_of(it, vmpi_env, node), *p = vmpi_msg_env_portable(e, leaving);
            if (p != e) { /* in its place: the queue's order is MPI's non-overtaking order */
                vmpi_list_insert_before(it, &p->node);
                vmpi_list_remove(it);
                it = &p->node;
                vmpi_env_free(e);
            }
        }
    }
}

bool vmpi_msg_ep_restored(vmpi_ep *ep, int world_rank, const void *buf, size_t len)
{
    vmpi_list_init(&ep->unexpected); /* its envelopes were the old process's */
    ep->probing = false;
    /* so may its send counts be (a table grown by a handler outside any rank is the PE's system memory):
     * they are measurements, which start again */
    ep->sent = (vmpi_commstat){0};
    M.eps[world_rank] = ep;
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

vmpi_req *vmpi_match_posted(vmpi_ep *ep, int ctx, int src, int tag)
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

vmpi_env *vmpi_match_unexpected(vmpi_ep *ep, int ctx, int src, int tag)
{
    vmpi_list_foreach(it, &ep->unexpected)
    {
        vmpi_env *e = vmpi_container_of(it, vmpi_env, node);
        if (matches(ctx, src, tag, e->h.ctx, e->h.src, e->h.tag))
            return e;
    }
    return NULL;
}

void vmpi_msg_set_status(vmpi_req *r, int src, int tag, MPI_Count bytes, MPI_Count sent)
{
    r->status.MPI_SOURCE = src;
    r->status.MPI_TAG = tag;
    r->status.vmpi_count = bytes;
    r->status.vmpi_cancelled = 0;
    r->status.MPI_ERROR = sent > bytes ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

void vmpi_msg_deliver(vmpi_env *e, vmpi_req *r)
{
    switch (e->h.proto) {
    case PROTO_EAGER: vmpi_eager_deliver(&e->h, e->data, r); break;
    case PROTO_RNDV: vmpi_rndv_deliver(&e->h, &e->rv, r); break;
    case PROTO_PACKED: vmpi_packed_deliver(&e->h, &e->rts, e->data, r); break;
    default: vmpi_rts_deliver(&e->h, &e->rts, r); break;
    }
    vmpi_env_free(e);
}

void vmpi_msg_hold(vmpi_ep *ep, vmpi_env *e)
{
    vmpi_list_push_back(&ep->unexpected, &e->node);
    if (ep->probing)
        vmpi_vp_wake(ep->vp);
}

void vmpi_msg_arrive(vmpi_ep *ep, vmpi_env *e)
{
    vmpi_req *r = vmpi_match_posted(ep, e->h.ctx, e->h.src, e->h.tag);
    if (r)
        vmpi_msg_deliver(e, r);
    else
        vmpi_msg_hold(ep, e);
}

bool vmpi_msg_unqueue_rndv(vmpi_ep *ep, int src_world, uint64_t cookie)
{
    vmpi_list_foreach(it, &ep->unexpected)
    {
        vmpi_env *e = vmpi_container_of(it, vmpi_env, node);
        if (e->h.src_world == src_world &&
            ((e->h.proto == PROTO_RNDV && (uint64_t)(uintptr_t)e->rv.sreq == cookie) ||
             ((e->h.proto == PROTO_RTS || e->h.proto == PROTO_PACKED) && e->rts.cookie == cookie))) {
            vmpi_list_remove(it);
            vmpi_env_free(e);
            return true;
        }
    }
    return false;
}
