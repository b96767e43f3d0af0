/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 3.10): one request over a send and a receive.
 *
 * The program's request (VMPI_MREQ_SENDRECV) is never given to the messaging layer: its two parts are
 * messaging requests of their own, in one block with the packed copy Isendrecv_replace sends from, and the
 * last part to complete copies the receive's status into the program's request and completes it.  The block
 * is allocated by the rank, so it lives in the rank's slot and moves with it (the parts' owner is the rank's
 * VP, whose completions run on whichever PE the rank is on, as for any pending request); it is freed with
 * the request (its `release`), also when the program freed the request while it was pending. */
#include <stddef.h>
#include <stdlib.h>
#include "mpi/core/handle.h"
#include "mpi/pt2pt/fill.h"
#include "mpi/pt2pt/pt2pt.h"

typedef struct srq {
    vmpi_req send, recv;
    vmpi_mreq *m;
    int left;                 /* parts not complete, plus one while they are being started */
    bool send_done, recv_done;
    bool no_recv;             /* the source is MPI_PROC_NULL */
    const vmpi_dtype *sdt, *rdt; /* the references the request holds */
    max_align_t tmp[];        /* Isendrecv_replace: the send's packed bytes */
} srq;

/* The last part completes the program's request with the receive's status (cancelled when the receive was
 * cancelled, or with no receive the send: what the status describes). */
static void finish(srq *q)
{
    vmpi_mreq *m = q->m;
    m->r.status = q->recv.status;
    if (q->no_recv)
        m->r.status.vmpi_cancelled = q->send.status.vmpi_cancelled;
    vmpi_req_complete(&m->r); /* last: a request freed while pending is released here, and `q` with it */
}

static void part_done(srq *q, bool *done)
{
    if (*done)
        return;
    *done = true;
    if (--q->left == 0)
        finish(q);
}

static void on_send(vmpi_req *r)
{
    srq *q = r->on_done_arg;
    part_done(q, &q->send_done);
}

static void on_recv(vmpi_req *r)
{
    srq *q = r->on_done_arg;
    part_done(q, &q->recv_done);
}

static void release(vmpi_mreq *m)
{
    srq *q = m->ptr;
    vmpi_dtype_release(q->sdt);
    vmpi_dtype_release(q->rdt);
    free(q);
    m->ptr = NULL;
}

/* Both parts of a request whose block `q` is filled but for its messaging requests. */
static void start_parts(srq *q, const void *sbuf, MPI_Count scount, int dest, int stag, void *rbuf,
                        MPI_Count rcount, int src, int rtag, vmpi_comm *c)
{
    q->left = 3;
    vmpi_status_nomsg(&q->send.status, MPI_ANY_SOURCE);
    q->send.status.MPI_ERROR = MPI_SUCCESS;
    if (src == MPI_PROC_NULL) {
        q->no_recv = true;
        vmpi_status_nomsg(&q->recv.status, MPI_PROC_NULL);
        q->recv.status.MPI_ERROR = MPI_SUCCESS;
        part_done(q, &q->recv_done);
    } else {
        /* posted before the send goes, so that a message to itself finds it */
        vmpi_fill_recv(&q->recv, rbuf, rcount, q->rdt, src, rtag, c, 0);
        q->recv.kind = VMPI_REQ_RECV;
        q->recv.complete = false;
        q->recv.on_done = on_recv;
        q->recv.on_done_arg = q;
        vmpi_msg_irecv(&vmpi_rank_self()->ep, &q->recv);
        if (q->recv.complete)
            part_done(q, &q->recv_done);
    }
    if (dest == MPI_PROC_NULL) {
        part_done(q, &q->send_done);
    } else {
        vmpi_fill_send(&q->send, sbuf, scount, q->sdt, dest, stag, c, 0, VMPI_SENDK_STD);
        q->send.on_done = on_send;
        q->send.on_done_arg = q;
        vmpi_msg_isend(&q->send);
        if (q->send.complete) /* out at once: no callback */
            part_done(q, &q->send_done);
    }
    if (--q->left == 0)
        finish(q);
}

/* A new request and its block with `extra` bytes of scratch; NULL when out of memory. */
static srq *new_srq(vmpi_comm *c, const vmpi_dtype *sdt, const vmpi_dtype *rdt, size_t extra, MPI_Request *out)
{
    srq *q = calloc(1, sizeof *q + extra);
    if (q == NULL)
        return NULL;
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_SENDRECV, c->handle);
    m->r.kind = VMPI_REQ_RECV; /* its status is the receive's */
    m->r.complete = false;
    m->r.on_done = NULL;
    m->ptr = q;
    m->release = release;
    q->m = m;
    q->sdt = sdt;
    q->rdt = rdt;
    vmpi_dtype_retain(sdt); /* derived types freed meanwhile live until the request is released */
    vmpi_dtype_retain(rdt);
    *out = vmpi_mreq_handle(m);
    return q;
}

int vmpi_isendrecv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, int dest, int stag, void *rbuf,
                   MPI_Count rcount, const vmpi_dtype *rdt, int src, int rtag, vmpi_comm *c, MPI_Request *out)
{
    srq *q = new_srq(c, sdt, rdt, 0, out);
    if (q == NULL)
        return MPI_ERR_NO_MEM;
    start_parts(q, sbuf, scount, dest, stag, rbuf, rcount, src, rtag, c);
    return MPI_SUCCESS;
}

/* The send goes from a packed copy taken now, so the receive may fill the buffer at once. */
int vmpi_isendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int stag, int src, int rtag,
                           vmpi_comm *c, MPI_Request *out)
{
    MPI_Count bytes = dest == MPI_PROC_NULL ? 0 : count * dt->size;
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    srq *q = new_srq(c, byte, dt, (size_t)bytes, out);
    if (q == NULL)
        return MPI_ERR_NO_MEM;
    if (bytes > 0)
        vmpi_dtype_pack(buf, count, dt, q->tmp, bytes);
    start_parts(q, q->tmp, bytes, dest, stag, buf, count, src, rtag, c);
    return MPI_SUCCESS;
}

/* MPI_Cancel: the receive is taken back while no message has matched it, the send while it is an unmatched
 * rendezvous (an eager send has left and stays sent, as for MPI_Isend). */
void vmpi_sendrecv_cancel(vmpi_mreq *m)
{
    srq *q = m->ptr;
    if (m->r.complete)
        return;
    bool send_pending = !q->send_done;
    if (!q->recv_done)
        vmpi_msg_cancel_recv(&vmpi_rank_self()->ep, &q->recv); /* may complete the request */
    if (send_pending && !q->send.complete)
        vmpi_msg_cancel_send(&q->send);
}
