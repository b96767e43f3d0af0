/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point entry points. */
#include "binding/check.h"
#include "mpi/pt2pt/pt2pt.h"

/* Checks shared by every send: communicator, count, type, buffer, destination, tag. */
static int check_send(vmpi_chk *ck, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                      vmpi_comm **c, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = vmpi_chk_count(ck, count)) ||
        (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_buf(ck, buf, count, *d)) ||
        (err = vmpi_chk_dest(ck, dest, *c)) || (err = vmpi_chk_send_tag(ck, tag)))
        return err;
    return MPI_SUCCESS;
}

static int check_recv(vmpi_chk *ck, const void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                      vmpi_comm **c, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)) || (err = vmpi_chk_count(ck, count)) ||
        (err = vmpi_chk_dt(ck, dt, d)) || (err = vmpi_chk_buf(ck, buf, count, *d)) ||
        (err = vmpi_chk_source(ck, src, *c)) || (err = vmpi_chk_recv_tag(ck, tag)))
        return err;
    return MPI_SUCCESS;
}

static int send_any(const char *fn, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                    vmpi_send_kind k)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err = check_send(&ck, buf, count, dt, dest, tag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = vmpi_send(buf, count, d, dest, tag, c, 0, k);
    return err ? vmpi_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

static int isend_any(const char *fn, const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                     vmpi_send_kind k, bool persistent, MPI_Request *req)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err = check_send(&ck, buf, count, dt, dest, tag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = vmpi_chk_ptr(&ck, req, "request pointer");
    if (err == MPI_SUCCESS)
        err = vmpi_isend(buf, count, d, dest, tag, c, 0, k, persistent, req);
    return err ? vmpi_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

static int irecv_any(const char *fn, void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm,
                     bool persistent, MPI_Request *req)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err = check_recv(&ck, buf, count, dt, src, tag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = vmpi_chk_ptr(&ck, req, "request pointer");
    if (err == MPI_SUCCESS)
        err = vmpi_irecv(buf, count, d, src, tag, c, 0, persistent, req);
    return err ? vmpi_fail(comm, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Send)
int PMPI_Send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    return send_any("MPI_Send", buf, count, dt, dest, tag, comm, VMPI_SENDK_STD);
}

VMPI_WEAK(Ssend)
int PMPI_Ssend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    return send_any("MPI_Ssend", buf, count, dt, dest, tag, comm, VMPI_SENDK_SYNC);
}

VMPI_WEAK(Rsend)
int PMPI_Rsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    return send_any("MPI_Rsend", buf, count, dt, dest, tag, comm, VMPI_SENDK_READY);
}

VMPI_WEAK(Bsend)
int PMPI_Bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm)
{
    return send_any("MPI_Bsend", buf, count, dt, dest, tag, comm, VMPI_SENDK_BUFFERED);
}

VMPI_WEAK(Isend)
int PMPI_Isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Isend", buf, count, dt, dest, tag, comm, VMPI_SENDK_STD, false, req);
}

VMPI_WEAK(Issend)
int PMPI_Issend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Issend", buf, count, dt, dest, tag, comm, VMPI_SENDK_SYNC, false, req);
}

VMPI_WEAK(Irsend)
int PMPI_Irsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Irsend", buf, count, dt, dest, tag, comm, VMPI_SENDK_READY, false, req);
}

VMPI_WEAK(Ibsend)
int PMPI_Ibsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Ibsend", buf, count, dt, dest, tag, comm, VMPI_SENDK_BUFFERED, false, req);
}

VMPI_WEAK(Send_init)
int PMPI_Send_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Send_init", buf, count, dt, dest, tag, comm, VMPI_SENDK_STD, true, req);
}

VMPI_WEAK(Ssend_init)
int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Ssend_init", buf, count, dt, dest, tag, comm, VMPI_SENDK_SYNC, true, req);
}

VMPI_WEAK(Rsend_init)
int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Rsend_init", buf, count, dt, dest, tag, comm, VMPI_SENDK_READY, true, req);
}

VMPI_WEAK(Bsend_init)
int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    return isend_any("MPI_Bsend_init", buf, count, dt, dest, tag, comm, VMPI_SENDK_BUFFERED, true, req);
}

VMPI_WEAK(Recv)
int PMPI_Recv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err = check_recv(&ck, buf, count, dt, src, tag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = vmpi_recv(buf, count, d, src, tag, c, 0, st);
    return err ? vmpi_fail(comm, err, "MPI_Recv", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Irecv)
int PMPI_Irecv(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    return irecv_any("MPI_Irecv", buf, count, dt, src, tag, comm, false, req);
}

VMPI_WEAK(Recv_init)
int PMPI_Recv_init(void *buf, int count, MPI_Datatype dt, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    return irecv_any("MPI_Recv_init", buf, count, dt, src, tag, comm, true, req);
}

VMPI_WEAK(Sendrecv)
int PMPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype sdt, int dest, int stag, void *rbuf, int rcount,
                  MPI_Datatype rdt, int src, int rtag, MPI_Comm comm, MPI_Status *st)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *sd, *rd;
    MPI_Request sreq;
    int err = check_send(&ck, sbuf, scount, sdt, dest, stag, comm, &c, &sd);
    if (err == MPI_SUCCESS)
        err = check_recv(&ck, rbuf, rcount, rdt, src, rtag, comm, &c, &rd);
    if (err == MPI_SUCCESS && (err = vmpi_isend(sbuf, scount, sd, dest, stag, c, 0, VMPI_SENDK_STD, false, &sreq)) ==
                                  MPI_SUCCESS) {
        err = vmpi_recv(rbuf, rcount, rd, src, rtag, c, 0, st);
        vmpi_mreq *m = vmpi_mreq_get(sreq);
        while (!vmpi_mreq_done(m))
            vmpi_vp_block("MPI_Sendrecv");
        vmpi_mreq_finish(&sreq, MPI_STATUS_IGNORE);
    }
    return err ? vmpi_fail(comm, err, "MPI_Sendrecv", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Sendrecv_replace)
int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int stag, int src, int rtag,
                          MPI_Comm comm, MPI_Status *st)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    const vmpi_dtype *d;
    int err = check_send(&ck, buf, count, dt, dest, stag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = check_recv(&ck, buf, count, dt, src, rtag, comm, &c, &d);
    if (err == MPI_SUCCESS)
        err = vmpi_sendrecv_replace(buf, count, d, dest, stag, src, rtag, c, st);
    return err ? vmpi_fail(comm, err, "MPI_Sendrecv_replace", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Buffer_attach)
int PMPI_Buffer_attach(void *buffer, int size)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (err == MPI_SUCCESS && (size < 0 || (buffer == NULL && size > 0))) {
        snprintf(ck.why, sizeof ck.why, "invalid buffer %p of size %d", buffer, size);
        err = MPI_ERR_BUFFER;
    }
    if (err == MPI_SUCCESS && (err = vmpi_bsend_attach(buffer, size)) != MPI_SUCCESS)
        snprintf(ck.why, sizeof ck.why, "a buffer is already attached");
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Buffer_attach", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Buffer_detach)
int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, buffer_addr, "buffer address")) ||
        (err = vmpi_chk_ptr(&ck, size, "size")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Buffer_detach", &ck);
    return vmpi_bsend_detach(buffer_addr, size);
}

static int probe_any(const char *fn, int src, int tag, MPI_Comm comm, bool block, bool remove, int *flag,
                     MPI_Message *msg, MPI_Status *st)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = vmpi_chk_source(&ck, src, c)) || (err = vmpi_chk_recv_tag(&ck, tag)) ||
        (!block && (err = vmpi_chk_ptr(&ck, flag, "flag"))) || (remove && (err = vmpi_chk_ptr(&ck, msg, "message"))))
        return vmpi_fail(comm, err, fn, &ck);
    return vmpi_probe(src, tag, c, block, remove, flag, msg, st);
}

VMPI_WEAK(Probe)
int PMPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    return probe_any("MPI_Probe", src, tag, comm, true, false, NULL, NULL, st);
}

VMPI_WEAK(Iprobe)
int PMPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st)
{
    return probe_any("MPI_Iprobe", src, tag, comm, false, false, flag, NULL, st);
}

VMPI_WEAK(Mprobe)
int PMPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *msg, MPI_Status *st)
{
    return probe_any("MPI_Mprobe", src, tag, comm, true, true, NULL, msg, st);
}

VMPI_WEAK(Improbe)
int PMPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *msg, MPI_Status *st)
{
    return probe_any("MPI_Improbe", src, tag, comm, false, true, flag, msg, st);
}

static int mrecv_any(const char *fn, void *buf, int count, MPI_Datatype dt, MPI_Message *msg, bool block,
                     MPI_Request *req, MPI_Status *st)
{
    VMPI_CHK(ck);
    const vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, msg, "message")) ||
        (err = vmpi_chk_count(&ck, count)) || (err = vmpi_chk_dt(&ck, dt, &d)) ||
        (err = vmpi_chk_buf(&ck, buf, count, d)) || (!block && (err = vmpi_chk_ptr(&ck, req, "request pointer"))))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if (*msg != MPI_MESSAGE_NO_PROC &&
        vmpi_msg_get(*msg) == NULL) {
        snprintf(ck.why, sizeof ck.why, "invalid message handle 0x%x", (unsigned)*msg);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_REQUEST, fn, &ck);
    }
    err = vmpi_mrecv(buf, count, d, msg, block, req, st);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, fn, NULL) : MPI_SUCCESS;
}

VMPI_WEAK(Mrecv)
int PMPI_Mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Status *st)
{
    return mrecv_any("MPI_Mrecv", buf, count, dt, msg, true, NULL, st);
}

VMPI_WEAK(Imrecv)
int PMPI_Imrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *msg, MPI_Request *req)
{
    return mrecv_any("MPI_Imrecv", buf, count, dt, msg, false, req, MPI_STATUS_IGNORE);
}

VMPI_WEAK(Start)
int PMPI_Start(MPI_Request *req)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_req(&ck, *req, false)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Start", &ck);
    vmpi_mreq *m = vmpi_mreq_get(*req);
    if (!m->persistent) {
        snprintf(ck.why, sizeof ck.why, "request is not persistent");
        return vmpi_fail(m->comm, MPI_ERR_REQUEST, "MPI_Start", &ck);
    }
    if (m->active) {
        snprintf(ck.why, sizeof ck.why, "request is already active");
        return vmpi_fail(m->comm, MPI_ERR_REQUEST, "MPI_Start", &ck);
    }
    err = vmpi_start(m);
    return err ? vmpi_fail(m->comm, err, "MPI_Start", NULL) : MPI_SUCCESS;
}

VMPI_WEAK(Startall)
int PMPI_Startall(int count, MPI_Request *reqs)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_count(&ck, count)) ||
        (count > 0 && (err = vmpi_chk_ptr(&ck, reqs, "request array"))))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Startall", &ck);
    for (int i = 0; i < count; i++)
        if ((err = PMPI_Start(&reqs[i])) != MPI_SUCCESS)
            return err;
    return MPI_SUCCESS;
}
