/* SPDX-License-Identifier: BSD-3-Clause */
/* The messaging operations: each chooses its protocol and path (msg/loc.h) and hands over to eager.c,
 * rndv.c and match.c. */
#include "base/log.h"
#include "base/tunables.h"
#include "msg/proto.h"
#include "xport/xport.h"

msg_ids vmpi_msg_ids;
size_t vmpi_msg_eager_max;
size_t vmpi_msg_inline_max;
static size_t remote_eager_max; /* the largest eager message a remote transport's record takes */

void vmpi_match_init(int nranks, int npes);
void vmpi_match_fini(void);

void vmpi_msg_init(int nranks, int npes, int nprocs)
{
    int k = nprocs;
    vmpi_xport_init(npes, k);
    vmpi_loc_init(nranks);
    vmpi_match_init(nranks, npes);
    vmpi_eager_init();
    vmpi_rndv_init();
    vmpi_msg_eager_max = vmpi_cfg.eager_max;
    /* Inline records up to 1/16 of a ring: a window of sends then fits without queuing on the sender's
     * side; bigger eager messages travel in pooled envelopes (one copy in, one out, as inline). */
    vmpi_msg_inline_max = vmpi_xport_am_max(&vmpi_xport_inproc) / 4;
    remote_eager_max = 0;
    if (k > 1) {
        size_t m = vmpi_xport_am_max(vmpi_xport_remote(npes - 1)) / 4 - sizeof(msg_hdr);
        remote_eager_max = m < vmpi_msg_eager_max ? m : vmpi_msg_eager_max;
    }
}

void vmpi_msg_fini(void)
{
    vmpi_match_fini();
    vmpi_loc_fini();
    vmpi_xport_fini();
}

/* ---- requests ---- */

void vmpi_req_complete(vmpi_req *r)
{
    r->complete = true;
    vmpi_vp_wake(r->owner);
    if (r->on_done)
        r->on_done(r); /* last: it may release r */
}

/* ---- operations ---- */

void vmpi_msg_isend(vmpi_req *r)
{
    vmpi_loc loc = vmpi_loc_of(r->peer);
    vmpi_path path = vmpi_loc_path_pe(loc.pe);
    MPI_Count bytes = r->count * r->dt->size;
    r->kind = VMPI_REQ_SEND;
    r->complete = false;
    r->packed = NULL;
    vmpi_ep *self = vmpi_msg_ep(r->owner->id);
    self->nsent++;
    self->bytes_sent += (uint64_t)bytes;
    if (VMPI_UNLIKELY(vmpi_commstat_tracking()))
        vmpi_commstat_add(&self->sent, r->peer, (double)bytes);
    if (path == VMPI_PATH_SAME_PE) {
        vmpi_req *rr = vmpi_match_posted(vmpi_msg_ep(r->peer), r->ctx, r->rank, r->tag);
        if (rr) { /* the receive is waiting on this PE: one copy, straight into it */
            MPI_Count n = vmpi_dtype_copy(r->buf, r->count, r->dt, rr->buf, rr->count, rr->dt);
            vmpi_msg_set_status(rr, r->rank, r->tag, n, bytes);
            vmpi_req_complete(rr);
            r->complete = true;
            return;
        }
    }
    msg_hdr h = {.ctx = r->ctx, .src = r->rank, .tag = r->tag, .dst_world = r->peer,
                 .src_world = r->owner->id, .bytes = bytes, .proto = PROTO_EAGER};
    size_t eager_max = VMPI_LIKELY(path != VMPI_PATH_REMOTE) ? vmpi_msg_eager_max : remote_eager_max;
    if (r->mode == VMPI_SEND_STD && (size_t)bytes <= eager_max) {
        r->complete = true;
        vmpi_eager_send(r, &h, loc, path);
        return;
    }
    vmpi_rndv_send(r, &h, loc, path);
}

void vmpi_msg_irecv(vmpi_ep *ep, vmpi_req *r)
{
    r->kind = VMPI_REQ_RECV;
    r->complete = false;
    vmpi_env *e = vmpi_match_unexpected(ep, r->ctx, r->rank, r->tag);
    if (e) {
        vmpi_list_remove(&e->node);
        vmpi_msg_deliver(e, r);
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

void vmpi_msg_cancel_send(vmpi_req *r)
{
    if (!r->complete)
        vmpi_rndv_cancel(r);
}

vmpi_env *vmpi_msg_probe(vmpi_ep *ep, int ctx, int source, int tag, bool remove, MPI_Status *st)
{
    vmpi_env *e = vmpi_match_unexpected(ep, ctx, source, tag);
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
    vmpi_msg_deliver(e, r);
}
