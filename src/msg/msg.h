/* SPDX-License-Identifier: BSD-3-Clause */
/* Messaging: per-rank matching (posted receives, unexpected messages, MPI's non-overtaking order; match.c),
 * the location table that routes every message (loc.h), and the protocols:
 *   - a receive already posted on the sender's own PE is filled directly (one copy, no envelope, no atomics);
 *   - eager (eager.c): up to eager-max bytes travel with the message and the send completes at once;
 *   - rendezvous (rndv.c; large or synchronous sends): in one process the receiver copies straight from the
 *     sender's buffer (single copy); between processes it gets the bytes through the transport.
 * Only a rank's own PE touches its queues; other PEs reach it through the transports of xport/. */
#ifndef VMPI_MSG_MSG_H
#define VMPI_MSG_MSG_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "base/list.h"
#include "dtype/dtype.h"
#include "msg/commstat.h"
#include "sched/sched.h"

typedef enum { VMPI_REQ_SEND, VMPI_REQ_RECV } vmpi_req_kind;
typedef enum { VMPI_SEND_STD, VMPI_SEND_SYNC } vmpi_send_mode;

typedef struct vmpi_req vmpi_req;
typedef void (*vmpi_req_done_fn)(vmpi_req *r);

struct vmpi_req {
    vmpi_req_kind kind;
    bool complete;
    vmpi_vp *owner;          /* the rank that waits for it */
    void *buf;
    MPI_Count count;
    const vmpi_dtype *dt;
    int ctx;                 /* communicator context */
    int rank;                /* send: my rank in the comm; recv: source rank or MPI_ANY_SOURCE */
    int tag;
    int peer;                /* send: destination world rank */
    vmpi_send_mode mode;
    vmpi_list node;          /* in the posted queue */
    MPI_Status status;
    _Atomic int parts;       /* a receive copied by two PEs: parts still being copied */
    vmpi_req_done_fn on_done; /* called once at completion, on the owner's PE */
    void *on_done_arg;
    void *packed;            /* a send to another process: the packed copy of its non-contiguous data */
};

typedef struct vmpi_env vmpi_env;

/* The messaging state of one rank. */
typedef struct vmpi_ep {
    vmpi_list posted;
    vmpi_list unexpected;
    vmpi_vp *vp;
    bool probing;            /* blocked in a probe: wake on any arrival */
    vmpi_commstat sent;      /* messages and bytes it sent, per destination (while tracking) */
    uint64_t nsent, bytes_sent; /* messages and bytes it sent, since it began (MPI_T; plain: its own PE's) */
} vmpi_ep;

/* Start-up, after vmpi_sched_init: the transports for a job of `npes` PEs in `nprocs` processes (xport/: OS
 * processes started by a PMIx launcher, or with --emulate-procs process groups of this one), the location
 * table and the endpoints' tables. */
void vmpi_msg_init(int nranks, int npes, int nprocs);
void vmpi_msg_fini(void);
/* A new rank's endpoint; the rank lives on PE `pe`. */
void vmpi_msg_ep_init(vmpi_ep *ep, int world_rank, vmpi_vp *vp, int pe);
/* World rank `world_rank`'s endpoint. */
vmpi_ep *vmpi_msg_ep(int world_rank);

/* The messages in `ep`'s unexpected queue in context `ctx` (< 0: in any); its rank's PE only. */
size_t vmpi_msg_unexpected_count(const vmpi_ep *ep, int ctx);
/* Checkpoint: the messages in `ep`'s unexpected queue (headers, eager payloads; a rendezvous message's
 * data stays in its sender's slot), serialized into a system-allocated buffer of *len bytes (NULL, 0 when
 * there are none). */
void *vmpi_msg_save_unexpected(const vmpi_ep *ep, size_t *len);
/* One message (an envelope outside any queue: one matched by MPI_Mprobe) in the same form: its size, its
 * bytes (`out` has that many), and back again into a fresh envelope (NULL when malformed; *used: bytes
 * read). */
size_t vmpi_msg_env_saved_size(const vmpi_env *e);
void vmpi_msg_env_save(const vmpi_env *e, void *out);
vmpi_env *vmpi_msg_env_load(const void *in, size_t avail, size_t *used);
/* Frees an envelope outside any queue whose message was saved (its rank left the process). */
void vmpi_msg_env_discard(vmpi_env *e);
/* Migration between processes, world stopped.  A rank leaves: its unexpected messages saved as by
 * vmpi_msg_save_unexpected, their envelopes freed, its endpoint no longer this process's.  Senders leave: an
 * envelope held here that names its sender's buffer and request by address (an in-process rendezvous) is
 * replaced by one in the saved form (a request to send from the sender's rank, or its bytes packed), which
 * any process can deliver; make_portable does so in every unexpected queue of this process, env_portable
 * for one envelope outside the queues (returns its replacement, or `e` when it needs none: the caller frees
 * `e` with vmpi_msg_env_discard once it is replaced). */
void *vmpi_msg_ep_leave(vmpi_ep *ep, int world_rank, size_t *len);
vmpi_env *vmpi_msg_env_portable(vmpi_env *e, bool (*leaving)(int world_rank));
void vmpi_msg_make_portable(bool (*leaving)(int world_rank));
/* Restart: world rank `world_rank`'s endpoint is back at its address (placed with vmpi_loc_adopt); queues
 * again the messages of a buffer made by vmpi_msg_save_unexpected.  False when the buffer is malformed. */
bool vmpi_msg_ep_restored(vmpi_ep *ep, int world_rank, const void *buf, size_t len);

/* Marks `r` complete, wakes its owner, then runs its callback; on the owner's PE only. */
void vmpi_req_complete(vmpi_req *r);

/* Starts a send described by `r` (buf, count, dt, ctx, rank, tag, peer, mode, owner): r->complete is true
 * on return when the data is already out of the user's buffer (then on_done is not called). */
void vmpi_msg_isend(vmpi_req *r);
/* Starts a receive (buf, count, dt, ctx, rank = source or ANY, tag or ANY, owner) on endpoint `ep`. */
void vmpi_msg_irecv(vmpi_ep *ep, vmpi_req *r);
/* Removes a not yet matched receive; returns false when it has matched already. */
bool vmpi_msg_cancel_recv(vmpi_ep *ep, vmpi_req *r);
/* Asks for send `r` (started by the calling rank) to be cancelled: it then completes, as cancelled while its
 * message is an unmatched rendezvous, else normally (an eager send is complete already: nothing changes). */
void vmpi_msg_cancel_send(vmpi_req *r);

/* Finds the first unexpected message matching (ctx, source, tag) without receiving it; `remove` takes it
 * out of the queue (MPI_Mprobe).  Returns NULL when none has arrived. */
vmpi_env *vmpi_msg_probe(vmpi_ep *ep, int ctx, int source, int tag, bool remove, MPI_Status *st);
/* Receives a message taken by vmpi_msg_probe(remove = true). */
void vmpi_msg_recv_env(vmpi_env *e, vmpi_req *r);

#endif
