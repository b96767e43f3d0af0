/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the message layer: what its parts share.  match.c holds the endpoints' queues, matching and
 * envelopes; eager.c and rndv.c the protocols (each with its in-process form, which may pass pointers, and
 * its remote form, which passes only bytes and addresses); msg.c the operations that choose between them
 * with vmpi_loc_path (msg/loc.h). */
#ifndef VMPI_MSG_PROTO_H
#define VMPI_MSG_PROTO_H

#include "msg/loc.h"
#include "msg/msg.h"

/* PROTO_PACKED is a checkpoint's form of an in-process rendezvous whose sender's type is not contiguous: the
 * bytes are in the envelope (as an eager message's) and the send completes when they are taken (as a
 * request to send's, by cookie): a restart delivers it wherever the sender now lives (msg/match.c). */
typedef enum { PROTO_EAGER, PROTO_RNDV, PROTO_RTS, PROTO_PACKED } proto;

/* What precedes every message between PEs, and what an unexpected message keeps. */
typedef struct msg_hdr {
    int32_t ctx, src, tag;
    int32_t dst_world, src_world;
    uint32_t proto;
    MPI_Count bytes;
} msg_hdr;

/* In-process rendezvous: the sender's data, copied by the receiver, and the request to complete afterwards. */
typedef struct rndv_info {
    const void *sbuf;
    MPI_Count scount;
    const vmpi_dtype *sdt;
    vmpi_req *sreq;
} rndv_info;

/* Remote rendezvous (request to send): where the message's packed bytes lie in the sender's process (an
 * address valid there), and the sender's cookie for its request, which only the sender's process reads.
 * PROTO_PACKED uses the cookie only. */
typedef struct rts_info {
    uint64_t addr;
    uint64_t cookie;
    uint64_t unused[2];      /* the same size as rndv_info: checkpoints keep either */
} rts_info;

/* A message held on the receiver's side (unexpected, or sent between ranks of one PE). */
struct vmpi_env {
    vmpi_list node;          /* in the unexpected queue */
    msg_hdr h;
    bool heap;               /* larger than every pool class */
    union {
        rndv_info rv;        /* PROTO_RNDV */
        rts_info rts;        /* PROTO_RTS, PROTO_PACKED */
    };
    max_align_t data[];      /* eager (and PROTO_PACKED) payload, packed */
};

/* Completion records (rndv_done, cancel, cancelled) name a send request by cookie: its address, which only
 * its own process reads. */
typedef struct rec_cookie {
    int32_t src_world;       /* the sender, whose process the record goes to */
    uint64_t cookie;
} rec_cookie;
typedef struct rec_cancel {
    int32_t dst_world, src_world;
    uint64_t cookie;
} rec_cancel;

/* The message layer's active-message ids (xport.h), registered at start-up. */
typedef struct msg_ids {
    uint32_t eager, rndv, eager_ptr, rndv_done, part, cancel, cancelled, rts, fin;
} msg_ids;
extern msg_ids vmpi_msg_ids;

/* The layer's settings. */
extern size_t vmpi_msg_eager_max;
extern size_t vmpi_msg_inline_max; /* largest eager record copied through a channel */

/* ---- match.c ---- */
vmpi_env *vmpi_env_alloc(MPI_Count payload);
void vmpi_env_free(vmpi_env *e);
vmpi_req *vmpi_match_posted(vmpi_ep *ep, int ctx, int src, int tag);
vmpi_env *vmpi_match_unexpected(vmpi_ep *ep, int ctx, int src, int tag);
/* Queues `e` as unexpected (waking a probing rank). */
void vmpi_msg_hold(vmpi_ep *ep, vmpi_env *e);
/* A held or just arrived message meets receive `r`: its data moves, both sides complete, `e` is freed. */
void vmpi_msg_deliver(vmpi_env *e, vmpi_req *r);
/* An envelope made on this PE arrives at `ep`: delivered to a posted receive or held. */
void vmpi_msg_arrive(vmpi_ep *ep, vmpi_env *e);
void vmpi_msg_set_status(vmpi_req *r, int src, int tag, MPI_Count bytes, MPI_Count sent);
/* Takes the rendezvous of send `cookie` from `ep`'s unexpected queue, if no receive has matched it. */
bool vmpi_msg_unqueue_rndv(vmpi_ep *ep, int src_world, uint64_t cookie);

/* ---- eager.c ---- */
void vmpi_eager_init(void);
void vmpi_eager_deliver(const msg_hdr *h, const void *payload, vmpi_req *r);
/* Sends eager message `h` of send `r` on `path` (not the same PE when the receive is posted there). */
void vmpi_eager_send(vmpi_req *r, const msg_hdr *h, vmpi_loc loc, vmpi_path path);

/* ---- rndv.c ---- */
void vmpi_rndv_init(void);
void vmpi_rndv_send(vmpi_req *r, msg_hdr *h, vmpi_loc loc, vmpi_path path);
void vmpi_rndv_deliver(const msg_hdr *h, const rndv_info *rv, vmpi_req *r);
void vmpi_rts_deliver(const msg_hdr *h, const rts_info *rts, vmpi_req *r);
/* A PROTO_PACKED message's bytes are in `payload`: unpacked into `r`, and the send completed by cookie. */
void vmpi_packed_deliver(const msg_hdr *h, const rts_info *rts, const void *payload, vmpi_req *r);
/* Sends record `rec` of `len` bytes with handler `id` to the PE of world rank `world`, by whichever path
 * leads there (only records without pointers but cookies). */
void vmpi_msg_send_rec(int world, uint32_t id, const void *rec, size_t len);
void vmpi_rndv_cancel(vmpi_req *r);

#endif
