/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI requests of one rank: a chunked table (entries never move, so the messaging layer can point at them)
 * with a free list; the handle is the slot index.  Waiting blocks the rank's user-level thread until the
 * messaging layer completes the request. */
#ifndef VMPI_MPI_REQUEST_H
#define VMPI_MPI_REQUEST_H

#include <mpi.h>
#include <stdbool.h>
#include "msg/msg.h"

typedef enum {
    VMPI_MREQ_FREE,
    VMPI_MREQ_SEND,      /* nonblocking send */
    VMPI_MREQ_RECV,
    VMPI_MREQ_PROC_NULL, /* complete at once, empty status */
    VMPI_MREQ_GREQ,      /* generalized request (MPI_Grequest_start): `ptr` is its vmpi_greq */
    VMPI_MREQ_SENDRECV,  /* MPI_Isendrecv(_replace): `ptr` is its two parts (pt2pt/sendrecv.c) */
    VMPI_MREQ_COLL,      /* persistent collective (MPI_Bcast_init...): `ptr` is its schedule (coll/csched.c) */
    VMPI_MREQ_PART,      /* partitioned send or receive (MPI_Psend_init...): `ptr` is its state (pt2pt/part.c) */
    VMPI_MREQ_FLUSH,     /* MPI_*_iflush_buffer: completed by the buffer's last delivery (pt2pt/bsend.c) */
} vmpi_mreq_type;

/* A generalized request's callbacks (core/greq.c). */
typedef struct vmpi_greq {
    MPI_Grequest_query_function *query;
    MPI_Grequest_free_function *free;
    MPI_Grequest_cancel_function *cancel;
    void *extra_state;
} vmpi_greq;

/* The head of a partitioned request's state (pt2pt/part.c), for the binding's checks. */
typedef struct vmpi_mreq_part_head {
    bool send;
} vmpi_mreq_part_head;

typedef enum { VMPI_SENDK_STD, VMPI_SENDK_SYNC, VMPI_SENDK_READY, VMPI_SENDK_BUFFERED } vmpi_send_kind;

typedef struct vmpi_mreq {
    vmpi_req r;             /* the messaging request (must stay first) */
    vmpi_mreq_type type;
    bool persistent;
    bool active;            /* persistent: started and not yet completed by Wait/Test */
    bool freed;             /* Request_free'd while active: release at completion */
    vmpi_send_kind sendk;
    int next_free;
    MPI_Comm comm;          /* for error handling */
    int dest;               /* send: destination rank in `comm` (buffered sends re-address through it) */
    void *ptr;              /* matched message (MPI_Message) or buffered-send segment */
    /* Set by the areas whose requests carry more than a message (a persistent collective's schedule, the
     * parts of an Isendrecv), so that MPI_Start and every release reach it through pt2pt and core, which
     * are below those areas: `start` starts a persistent request (it is marked active already), `release`
     * frees what `ptr` holds when the request is released, wherever that happens. */
    int (*start)(struct vmpi_mreq *m);
    void (*release)(struct vmpi_mreq *m);
} vmpi_mreq;

#define VMPI_REQ_CHUNK 32

typedef struct vmpi_req_table {
    vmpi_mreq **chunks;
    int nchunks;
    int free_head;          /* -1 when empty */
} vmpi_req_table;

struct vmpi_rank;

void vmpi_req_table_init(vmpi_req_table *t);
void vmpi_req_table_fini(vmpi_req_table *t);
/* A new request of the calling rank; its handle is vmpi_mreq_handle(). */
vmpi_mreq *vmpi_mreq_new(vmpi_mreq_type type, MPI_Comm comm);
/* A request that is complete already, with an empty status: for nonblocking calls done in the call
 * (MPI_Comm_idup, the request-based one-sided operations). */
MPI_Request vmpi_mreq_new_complete(MPI_Comm comm);
void vmpi_mreq_release(vmpi_mreq *m);
MPI_Request vmpi_mreq_handle(const vmpi_mreq *m);
/* The calling rank's request for a handle; NULL if it is not one of its live requests. */
vmpi_mreq *vmpi_mreq_get(MPI_Request h);

/* A matched message (MPI_Mprobe) is held in a request slot; its handle is the slot's shifted by one, since
 * index 1 is MPI_MESSAGE_NO_PROC. */
MPI_Message vmpi_msg_handle(const vmpi_mreq *m);
vmpi_mreq *vmpi_msg_get(MPI_Message h);

/* Whether the request is done; copies its status and frees / deactivates it (MPI_Wait/Test semantics). */
bool vmpi_mreq_done(vmpi_mreq *m);
/* Completes *h: copies the status, frees non-persistent requests; returns the status' error. */
int vmpi_mreq_finish(MPI_Request *h, MPI_Status *st);
/* Blocks until request `r` (a messaging request owned by the calling rank) is complete. */
void vmpi_req_wait(vmpi_req *r, const char *why);

/* Statuses given to the program: MPI_ERROR of a completed operation's status is left as it was, except by
 * the calls that take arrays of statuses when they return MPI_ERR_IN_STATUS (MPI-3.1 3.2.5; MPICH and Open
 * MPI do the same); an empty status (a null or inactive request) has MPI_SUCCESS there (MPI-3.1 3.7.3).  A
 * request's own status (vmpi_req) carries its error in MPI_ERROR. */

/* The status of an operation with no message (`source`: MPI_PROC_NULL, or MPI_ANY_SOURCE for a send):
 * MPI_ANY_TAG, count 0, not cancelled; MPI_ERROR untouched. */
static inline void vmpi_status_nomsg(MPI_Status *st, int source)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = source;
    st->MPI_TAG = MPI_ANY_TAG;
    st->vmpi_cancelled = 0;
    st->vmpi_count = 0;
}

/* A completed send's status: not cancelled, no data; its source and tag are undefined (MPI-4.1 3.2.5) and
 * stay as they were, as MPICH leaves them (MPICH's f77/pt2pt/irsendf reads, after MPI_WAITANY completed a
 * receive then a send into one status, the receive's source). */
static inline void vmpi_status_send(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->vmpi_cancelled = 0;
    st->vmpi_count = 0;
}

/* An empty status: MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, count 0. */
static inline void vmpi_status_empty(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    vmpi_status_nomsg(st, MPI_ANY_SOURCE);
    st->MPI_ERROR = MPI_SUCCESS;
}

/* Copies a request's status to the program's, all but MPI_ERROR. */
static inline void vmpi_status_out(MPI_Status *st, const MPI_Status *from)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    st->MPI_SOURCE = from->MPI_SOURCE;
    st->MPI_TAG = from->MPI_TAG;
    st->vmpi_cancelled = from->vmpi_cancelled;
    st->vmpi_count = from->vmpi_count;
}

#endif
