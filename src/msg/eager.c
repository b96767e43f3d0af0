/* SPDX-License-Identifier: BSD-3-Clause */
/* The eager protocol: the data travels with the message and the send completes at once.  Across PEs a
 * message that fits a record is packed straight into it and matched in place by the receiver; in one process
 * a bigger one travels in an envelope the record points to (so a window of sends does not fill the ring).
 * Between processes only the packed form exists: a message too big for the transport's records goes by
 * rendezvous instead (msg.c decides). */
#include <string.h>
#include "msg/proto.h"
#include "xport/chan.h"

typedef struct rec_ptr {
    msg_hdr h;
    vmpi_env *env;
} rec_ptr;

void vmpi_eager_deliver(const msg_hdr *h, const void *payload, vmpi_req *r)
{
    MPI_Count n = vmpi_dtype_unpack(payload, h->bytes, r->buf, r->count, r->dt);
    vmpi_msg_set_status(r, h->src, h->tag, n, h->bytes);
    vmpi_req_complete(r);
}

/* Arrivals from another PE, of this process or another: matched in place in the record, copied into an
 * envelope only when unexpected. */
static void on_eager(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const msg_hdr *h = rec;
    vmpi_ep *ep = vmpi_msg_ep(h->dst_world);
    vmpi_req *r = vmpi_match_posted(ep, h->ctx, h->src, h->tag);
    if (r) {
        vmpi_eager_deliver(h, h + 1, r);
        return;
    }
    vmpi_env *e = vmpi_env_alloc(h->bytes);
    e->h = *h;
    memcpy(e->data, h + 1, (size_t)h->bytes);
    vmpi_msg_hold(ep, e);
}

static void on_eager_ptr(vmpi_pe *pe, int src_pe, void *rec, size_t len)
{
    const rec_ptr *m = rec;
    vmpi_msg_arrive(vmpi_msg_ep(m->h.dst_world), m->env);
}

void vmpi_eager_init(void)
{
    vmpi_msg_ids.eager = vmpi_xport_am_register(on_eager);
    vmpi_msg_ids.eager_ptr = vmpi_xport_am_register(on_eager_ptr);
}

typedef struct pack_eager {
    const msg_hdr *h;
    const vmpi_req *r;
} pack_eager;

static void pack_eager_rec(void *dst, size_t len, void *arg)
{
    const pack_eager *a = arg;
    msg_hdr *m = dst;
    *m = *a->h;
    vmpi_dtype_pack(a->r->buf, a->r->count, a->r->dt, m + 1, a->h->bytes);
}

void vmpi_eager_send(vmpi_req *r, const msg_hdr *h, vmpi_loc loc, vmpi_path path)
{
    MPI_Count bytes = h->bytes;
    pack_eager a = {h, r};
    if (path == VMPI_PATH_REMOTE) {
        vmpi_xport_am_send(vmpi_xport_remote(loc.pe), loc.pe, vmpi_msg_ids.eager, sizeof *h + (size_t)bytes,
                           pack_eager_rec, &a);
        return;
    }
    if (path == VMPI_PATH_SAME_PROC && sizeof *h + (size_t)bytes <= vmpi_msg_inline_max) {
        vmpi_chan_am_send(loc.pe, vmpi_msg_ids.eager, sizeof *h + (size_t)bytes, pack_eager_rec, &a);
        return;
    }
    vmpi_env *e = vmpi_env_alloc(bytes);
    e->h = *h;
    vmpi_dtype_pack(r->buf, r->count, r->dt, e->data, bytes);
    if (path == VMPI_PATH_SAME_PE) {
        vmpi_msg_arrive(vmpi_msg_ep(h->dst_world), e);
        return;
    }
    rec_ptr *m = vmpi_chan_reserve(loc.pe, sizeof *m); /* an eager message too big for a record */
    m->h = *h;
    m->env = e;
    vmpi_chan_commit(loc.pe, vmpi_msg_ids.eager_ptr);
}
