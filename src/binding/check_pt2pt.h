/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): point-to-point: messages, buffered sends, partitions. */
#ifndef VMPI_BINDING_CHECK_PT2PT_H
#define VMPI_BINDING_CHECK_PT2PT_H

/* ---- point-to-point (the checks the kinds of src/binding/spec/pt2pt.toml's parameters do not give) ---- */

/* A message to receive (MPI_Mrecv, MPI_Imrecv): MPI_MESSAGE_NO_PROC or one that MPI_Mprobe gave this rank. */
static inline int vmpi_chk_msg(vmpi_chk *ck, const MPI_Message *m)
{
    int err = vmpi_chk_ptr(ck, m, "message");
    if (err != MPI_SUCCESS || *m == MPI_MESSAGE_NO_PROC || vmpi_msg_get(*m) != NULL)
        return err;
    snprintf(ck->why, sizeof ck->why, "invalid message handle 0x%x", (unsigned)*m);
    return MPI_ERR_REQUEST;
}

/* A request MPI_Start may start: persistent and not active.  `h` is a valid request (vmpi_chk_req); *comm
 * becomes its communicator, whose error handler reports what is wrong with it. */
static inline int vmpi_chk_startable(vmpi_chk *ck, MPI_Request h, MPI_Comm *comm)
{
    const vmpi_mreq *m = vmpi_mreq_get(h);
    *comm = m->comm;
    if (m->persistent && !m->active)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !m->persistent ? "request is not persistent" : "request is already active");
    return MPI_ERR_REQUEST;
}

/* A partitioned request of the calling rank (MPI_Pready*: a send, MPI_Parrived: a receive); *comm becomes its
 * communicator, whose error handler reports what is wrong with the call. */
static inline int vmpi_chk_part(vmpi_chk *ck, MPI_Request h, bool send, MPI_Comm *comm)
{
    const vmpi_mreq *m = vmpi_mreq_get(h);
    *comm = m->comm;
    if (m->type == VMPI_MREQ_PART && ((const vmpi_mreq_part_head *)m->ptr)->send == send)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "not a partitioned %s request", send ? "send" : "receive");
    return MPI_ERR_REQUEST;
}

/* A partitioned receive's source: a rank or MPI_PROC_NULL, not MPI_ANY_SOURCE (MPI-4.1 4.2.2). */
static inline int vmpi_chk_part_source(vmpi_chk *ck, int source)
{
    if (source != MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "MPI_ANY_SOURCE is not allowed in partitioned communication");
    return MPI_ERR_RANK;
}

/* The buffer MPI_Buffer_attach is given: `size` bytes, not negative, at `buf` (NULL only with 0 bytes), or
 * MPI_BUFFER_AUTOMATIC (whose size is ignored). */
static inline int vmpi_chk_bsend_buf(vmpi_chk *ck, const void *buf, MPI_Count size)
{
    if (buf == MPI_BUFFER_AUTOMATIC || (size >= 0 && (buf != NULL || size == 0)))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "invalid buffer %p of size %lld", buf, (long long)size);
    return MPI_ERR_BUFFER;
}

/* A count or size the int form of a function returns (its _c form returns it as an MPI_Count): MPI_UNDEFINED
 * when it does not fit in an int, as MPI_Get_count does (MPICH does so for MPI_Buffer_detach too). */
static inline int vmpi_count_int(MPI_Count v)
{
    return v >= INT_MIN && v <= INT_MAX ? (int)v : MPI_UNDEFINED;
}

/* Reports a failed check or a failed operation through the communicator's error handler. */
static inline int vmpi_fail(MPI_Comm comm, int err, const char *fn, const vmpi_chk *ck)
{
    return vmpi_err_raise(comm, err, fn, ck && ck->why[0] ? "%s" : NULL, ck ? ck->why : "");
}

static inline int vmpi_raise_h_(MPI_Errhandler h, int obj, int err, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vmpi_err_vraise(h, obj, err, fn, fmt, ap);
    va_end(ap);
    return r;
}

/* Reports a failure through error handler h, on object obj (a window, a session; MPI_COMM_NULL for a
 * communicator that was not made). */
static inline int vmpi_errh_fail(MPI_Errhandler h, int obj, int err, const char *fn, const vmpi_chk *ck)
{
    return vmpi_raise_h_(h, obj, err, fn, ck && ck->why[0] ? "%s" : NULL, ck ? ck->why : "");
}

/* A collective's failure: MPI_ERR_TRUNCATE there means that ranks' counts or types differ in size. */
static inline int vmpi_coll_fail(MPI_Comm comm, int err, const char *fn, const vmpi_chk *ck)
{
    if (err == MPI_ERR_TRUNCATE && !(ck && ck->why[0]))
        return vmpi_err_raise(comm, err, fn, "%s",
                              "the ranks' counts or datatypes differ in size (their type signatures must match)");
    return vmpi_fail(comm, err, fn, ck);
}

#endif
