/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include "mpi/core/greq.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/pt2pt/fill.h"
#include "mpi/pt2pt/pt2pt.h"

int vmpi_send(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c, int ctxoff,
              vmpi_send_kind k)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (k == VMPI_SENDK_BUFFERED)
        return vmpi_bsend_start(buf, count, dt, dest, tag, c);
    vmpi_req r; /* every field is set by vmpi_fill_send and the protocol (zeroing it showed in the latency) */
    vmpi_fill_send(&r, buf, count, dt, dest, tag, c, ctxoff, k);
    vmpi_msg_isend(&r);
    vmpi_req_wait(&r, k == VMPI_SENDK_SYNC ? "MPI_Ssend" : "MPI_Send");
    return MPI_SUCCESS;
}

int vmpi_recv(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c, int ctxoff,
              MPI_Status *st)
{
    if (src == MPI_PROC_NULL) {
        vmpi_status_nomsg(st, MPI_PROC_NULL);
        return MPI_SUCCESS;
    }
    vmpi_req r; /* as in vmpi_send */
    vmpi_fill_recv(&r, buf, count, dt, src, tag, c, ctxoff);
    vmpi_msg_irecv(&vmpi_rank_self()->ep, &r);
    vmpi_req_wait(&r, "MPI_Recv");
    vmpi_status_out(st, &r.status);
    return r.status.MPI_ERROR;
}

int vmpi_isend(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c, int ctxoff,
               vmpi_send_kind k, bool persistent, MPI_Request *out)
{
    vmpi_mreq *m = vmpi_mreq_new(dest == MPI_PROC_NULL ? VMPI_MREQ_PROC_NULL : VMPI_MREQ_SEND, c->handle);
    m->persistent = persistent;
    m->sendk = k;
    m->dest = dest;
    m->r.kind = VMPI_REQ_SEND;
    if (dest != MPI_PROC_NULL) {
        vmpi_fill_send(&m->r, buf, count, dt, dest, tag, c, ctxoff, k);
        vmpi_dtype_retain(dt); /* a derived type freed meanwhile lives until the request is released */
    }
    *out = vmpi_mreq_handle(m);
    return persistent ? MPI_SUCCESS : vmpi_start(m);
}

int vmpi_irecv(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c, int ctxoff,
               bool persistent, MPI_Request *out)
{
    vmpi_mreq *m = vmpi_mreq_new(src == MPI_PROC_NULL ? VMPI_MREQ_PROC_NULL : VMPI_MREQ_RECV, c->handle);
    m->persistent = persistent;
    m->r.kind = VMPI_REQ_RECV;
    vmpi_fill_recv(&m->r, buf, count, dt, src, tag, c, ctxoff);
    vmpi_dtype_retain(dt);
    *out = vmpi_mreq_handle(m);
    return persistent ? MPI_SUCCESS : vmpi_start(m);
}

int vmpi_start(vmpi_mreq *m)
{
    if (m->persistent && m->active)
        return MPI_ERR_REQUEST;
    m->active = true;
    m->r.status.vmpi_cancelled = 0; /* a persistent send cancelled before is started afresh */
    if (m->start)
        return m->start(m);
    if (m->type == VMPI_MREQ_PROC_NULL)
        return MPI_SUCCESS;
    if (m->type == VMPI_MREQ_RECV) {
        vmpi_msg_irecv(&vmpi_rank_self()->ep, &m->r);
        return MPI_SUCCESS;
    }
    if (m->sendk == VMPI_SENDK_BUFFERED) {
        /* the data is copied into the attached buffer at once: the user's request is complete now */
        int err = vmpi_bsend_start(m->r.buf, m->r.count, m->r.dt, m->dest, m->r.tag, vmpi_comm_get(m->comm));
        vmpi_status_empty(&m->r.status);
        m->r.status.MPI_ERROR = err;
        m->r.complete = true;
        return err;
    }
    vmpi_msg_isend(&m->r);
    return MPI_SUCCESS;
}

int vmpi_sendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int stag, int src, int rtag,
                          vmpi_comm *c, MPI_Status *st)
{
    MPI_Count bytes = count * dt->size;
    void *tmp = malloc(bytes ? (size_t)bytes : 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_dtype_pack(buf, count, dt, tmp, bytes);
    MPI_Request sreq;
    vmpi_isend(tmp, bytes, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)), dest, stag, c, 0, VMPI_SENDK_STD, false,
               &sreq);
    int err = vmpi_recv(buf, count, dt, src, rtag, c, 0, st);
    vmpi_mreq *m = vmpi_mreq_get(sreq);
    while (!vmpi_mreq_done(m))
        vmpi_vp_block("MPI_Sendrecv_replace");
    vmpi_mreq_finish(&sreq, MPI_STATUS_IGNORE);
    free(tmp);
    return err;
}

/* ---- probes and matched receives ---- */

int vmpi_probe(int src, int tag, vmpi_comm *c, bool block, bool remove, int *flag, MPI_Message *msg,
               MPI_Status *st)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (src == MPI_PROC_NULL) {
        vmpi_status_nomsg(st, MPI_PROC_NULL);
        if (flag)
            *flag = 1;
        if (msg)
            *msg = MPI_MESSAGE_NO_PROC;
        return MPI_SUCCESS;
    }
    MPI_Status tmp;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &tmp : st;
    vmpi_env *e;
    for (int tries = 0;; tries++) {
        vmpi_pe_poll(rk->vp.pe);
        e = vmpi_msg_probe(&rk->ep, c->ctx, src, tag, remove, s);
        if (e || (!block && tries == 1))
            break;
        if (block) {
            rk->ep.probing = true;
            vmpi_vp_block(remove ? "MPI_Mprobe" : "MPI_Probe");
            rk->ep.probing = false;
        } else {
            vmpi_vp_yield(); /* let a sender on this PE run before saying no */
        }
    }
    if (flag)
        *flag = e != NULL;
    if (e && remove) {
        vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_RECV, c->handle);
        m->ptr = e;
        *msg = vmpi_msg_handle(m);
    }
    return MPI_SUCCESS;
}

int vmpi_mrecv(void *buf, MPI_Count count, const vmpi_dtype *dt, MPI_Message *msg, bool block, MPI_Request *out,
               MPI_Status *st)
{
    vmpi_mreq *m;
    if (*msg == MPI_MESSAGE_NO_PROC) {
        m = vmpi_mreq_new(VMPI_MREQ_PROC_NULL, MPI_COMM_NULL);
    } else {
        m = vmpi_msg_get(*msg);
        m->r.buf = buf;
        m->r.count = count;
        m->r.dt = dt;
        vmpi_dtype_retain(dt);
        m->r.owner = &vmpi_rank_self()->vp;
        vmpi_msg_recv_env(m->ptr, &m->r);
    }
    *msg = MPI_MESSAGE_NULL;
    MPI_Request h = vmpi_mreq_handle(m);
    if (!block) {
        *out = h;
        return MPI_SUCCESS;
    }
    while (!vmpi_mreq_done(m))
        vmpi_vp_block("MPI_Mrecv");
    return vmpi_mreq_finish(&h, st);
}

/* ---- freeing and cancelling ---- */

static void release_when_done(vmpi_req *r)
{
    vmpi_mreq_release((vmpi_mreq *)r);
}

int vmpi_request_free(MPI_Request *h)
{
    vmpi_mreq *m = vmpi_mreq_get(*h);
    *h = MPI_REQUEST_NULL;
    if (m->type == VMPI_MREQ_GREQ)
        return vmpi_greq_request_free(m);
    if (vmpi_mreq_done(m) || m->type == VMPI_MREQ_PROC_NULL) {
        vmpi_mreq_release(m);
        return MPI_SUCCESS;
    }
    m->freed = true;
    m->r.on_done = release_when_done; /* still in flight: released by its completion */
    return MPI_SUCCESS;
}

int vmpi_cancel(MPI_Request h)
{
    vmpi_mreq *m = vmpi_mreq_get(h);
    if (m->type == VMPI_MREQ_GREQ)
        return vmpi_greq_cancel(m);
    if (m->type == VMPI_MREQ_SENDRECV) {
        vmpi_sendrecv_cancel(m);
        return MPI_SUCCESS;
    }
    if (m->type == VMPI_MREQ_RECV && !vmpi_mreq_done(m))
        vmpi_msg_cancel_recv(&vmpi_rank_self()->ep, &m->r);
    /* a send: taken back while its message is an unmatched rendezvous; an eager one has left and stays sent */
    if (m->type == VMPI_MREQ_SEND && !vmpi_mreq_done(m))
        vmpi_msg_cancel_send(&m->r);
    return MPI_SUCCESS;
}
