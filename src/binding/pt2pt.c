/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point: the implementations behind the generated entry points (<build>/gen/binding/pt2pt_entry.c,
 * from src/binding/spec/pt2pt.toml), which check the arguments, resolve the handles and report the errors
 * these return.  The int and _c (MPI_Count) forms of a function share its implementation. */
#include "binding/impl.h"
#include "mpi/pt2pt/pt2pt.h"

int vmpi_b_Send(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm)
{
    return vmpi_send(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_STD);
}

int vmpi_b_Ssend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm)
{
    return vmpi_send(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_SYNC);
}

int vmpi_b_Rsend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm)
{
    return vmpi_send(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_READY);
}

int vmpi_b_Bsend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm)
{
    return vmpi_send(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_BUFFERED);
}

int vmpi_b_Recv(void *buf, MPI_Count count, const vmpi_dtype *datatype, int source, int tag, vmpi_comm *comm,
                MPI_Status *status)
{
    return vmpi_recv(buf, count, datatype, source, tag, comm, 0, status);
}

int vmpi_b_Isend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                 MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_STD, false, request);
}

int vmpi_b_Issend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                  MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_SYNC, false, request);
}

int vmpi_b_Irsend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                  MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_READY, false, request);
}

int vmpi_b_Ibsend(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                  MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_BUFFERED, false, request);
}

int vmpi_b_Irecv(void *buf, MPI_Count count, const vmpi_dtype *datatype, int source, int tag, vmpi_comm *comm,
                 MPI_Request *request)
{
    return vmpi_irecv(buf, count, datatype, source, tag, comm, 0, false, request);
}

int vmpi_b_Send_init(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                     MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_STD, true, request);
}

int vmpi_b_Ssend_init(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                      MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_SYNC, true, request);
}

int vmpi_b_Rsend_init(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                      MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_READY, true, request);
}

int vmpi_b_Bsend_init(const void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag, vmpi_comm *comm,
                      MPI_Request *request)
{
    return vmpi_isend(buf, count, datatype, dest, tag, comm, 0, VMPI_SENDK_BUFFERED, true, request);
}

int vmpi_b_Recv_init(void *buf, MPI_Count count, const vmpi_dtype *datatype, int source, int tag, vmpi_comm *comm,
                     MPI_Request *request)
{
    return vmpi_irecv(buf, count, datatype, source, tag, comm, 0, true, request);
}

/* The send goes out nonblocking while the receive waits, so that two ranks exchanging both progress. */
int vmpi_b_Sendrecv(const void *sendbuf, MPI_Count sendcount, const vmpi_dtype *sendtype, int dest, int sendtag,
                    void *recvbuf, MPI_Count recvcount, const vmpi_dtype *recvtype, int source, int recvtag,
                    vmpi_comm *comm, MPI_Status *status)
{
    MPI_Request sreq;
    int err = vmpi_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, 0, VMPI_SENDK_STD, false, &sreq);
    if (err != MPI_SUCCESS)
        return err;
    err = vmpi_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, 0, status);
    vmpi_mreq *m = vmpi_mreq_get(sreq);
    while (!vmpi_mreq_done(m))
        vmpi_vp_block("MPI_Sendrecv");
    vmpi_mreq_finish(&sreq, MPI_STATUS_IGNORE);
    return err;
}

int vmpi_b_Sendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int sendtag, int source,
                            int recvtag, vmpi_comm *comm, MPI_Status *status)
{
    return vmpi_sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}

int vmpi_b_Isendrecv(const void *sendbuf, MPI_Count sendcount, const vmpi_dtype *sendtype, int dest, int sendtag,
                     void *recvbuf, MPI_Count recvcount, const vmpi_dtype *recvtype, int source, int recvtag,
                     vmpi_comm *comm, MPI_Request *request)
{
    return vmpi_isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                          comm, request);
}

int vmpi_b_Isendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *datatype, int dest, int sendtag,
                             int source, int recvtag, vmpi_comm *comm, MPI_Request *request)
{
    return vmpi_isendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, request);
}

int vmpi_b_Buffer_attach(void *buffer, MPI_Count size, vmpi_chk *ck)
{
    int err = vmpi_bsend_attach(NULL, buffer, size);
    if (err == MPI_ERR_BUFFER)
        snprintf(ck->why, sizeof ck->why, "a buffer is already attached");
    return err;
}

int vmpi_b_Buffer_detach(void *buffer_addr, MPI_Count *size)
{
    return vmpi_bsend_detach(NULL, buffer_addr, size, "MPI_Buffer_detach");
}

int vmpi_b_Buffer_flush(void) { return vmpi_bsend_flush(NULL, "MPI_Buffer_flush"); }

int vmpi_b_Buffer_iflush(MPI_Request *request) { return vmpi_bsend_iflush(NULL, MPI_COMM_WORLD, request); }

int vmpi_b_Comm_attach_buffer(vmpi_comm *comm, void *buffer, MPI_Count size, vmpi_chk *ck)
{
    int err = vmpi_bsend_attach(&comm->bsend, buffer, size);
    if (err == MPI_ERR_BUFFER)
        snprintf(ck->why, sizeof ck->why, "a buffer is already attached to %s", comm->name);
    return err;
}

int vmpi_b_Comm_detach_buffer(vmpi_comm *comm, void *buffer_addr, MPI_Count *size)
{
    return vmpi_bsend_detach(&comm->bsend, buffer_addr, size, "MPI_Comm_detach_buffer");
}

int vmpi_b_Comm_flush_buffer(vmpi_comm *comm) { return vmpi_bsend_flush(&comm->bsend, "MPI_Comm_flush_buffer"); }

int vmpi_b_Comm_iflush_buffer(vmpi_comm *comm, MPI_Request *request)
{
    return vmpi_bsend_iflush(&comm->bsend, comm->handle, request);
}

int vmpi_b_Probe(int source, int tag, vmpi_comm *comm, MPI_Status *status)
{
    return vmpi_probe(source, tag, comm, true, false, NULL, NULL, status);
}

int vmpi_b_Iprobe(int source, int tag, vmpi_comm *comm, int *flag, MPI_Status *status)
{
    return vmpi_probe(source, tag, comm, false, false, flag, NULL, status);
}

int vmpi_b_Mprobe(int source, int tag, vmpi_comm *comm, MPI_Message *message, MPI_Status *status)
{
    return vmpi_probe(source, tag, comm, true, true, NULL, message, status);
}

int vmpi_b_Improbe(int source, int tag, vmpi_comm *comm, int *flag, MPI_Message *message, MPI_Status *status)
{
    return vmpi_probe(source, tag, comm, false, true, flag, message, status);
}

int vmpi_b_Mrecv(void *buf, MPI_Count count, const vmpi_dtype *datatype, MPI_Message *message, MPI_Status *status)
{
    return vmpi_mrecv(buf, count, datatype, message, true, NULL, status);
}

int vmpi_b_Imrecv(void *buf, MPI_Count count, const vmpi_dtype *datatype, MPI_Message *message, MPI_Request *request)
{
    return vmpi_mrecv(buf, count, datatype, message, false, request, MPI_STATUS_IGNORE);
}

int vmpi_b_Start(MPI_Request *request)
{
    return vmpi_start(vmpi_mreq_get(*request));
}

/* Each request as MPI_Start starts it, with its checks and its errors reported under MPI_Start's name; the
 * first failure ends the call. */
int vmpi_b_Startall(int count, MPI_Request array_of_requests[])
{
    for (int i = 0; i < count; i++) {
        int err = PMPI_Start(&array_of_requests[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* ---- partitioned communication (MPI-4.1 4: mpi/pt2pt/part.c); the info holds no hint vmpi uses ---- */

int vmpi_b_Psend_init(const void *buf, int partitions, MPI_Count count, const vmpi_dtype *datatype, int dest, int tag,
                      vmpi_comm *comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return vmpi_psend_init(buf, partitions, count, datatype, dest, tag, comm, request);
}

int vmpi_b_Precv_init(void *buf, int partitions, MPI_Count count, const vmpi_dtype *datatype, int source, int tag,
                      vmpi_comm *comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return vmpi_precv_init(buf, partitions, count, datatype, source, tag, comm, request);
}

int vmpi_b_Pready(int partition, MPI_Request request, vmpi_chk *ck)
{
    return vmpi_pready(vmpi_mreq_get(request), partition, partition, NULL, -1, ck->why);
}

int vmpi_b_Pready_range(int partition_low, int partition_high, MPI_Request request, vmpi_chk *ck)
{
    return vmpi_pready(vmpi_mreq_get(request), partition_low, partition_high, NULL, -1, ck->why);
}

int vmpi_b_Pready_list(int length, const int array_of_partitions[], MPI_Request request, vmpi_chk *ck)
{
    return vmpi_pready(vmpi_mreq_get(request), 0, 0, array_of_partitions, length, ck->why);
}

int vmpi_b_Parrived(MPI_Request request, int partition, int *flag, vmpi_chk *ck)
{
    return vmpi_parrived(vmpi_mreq_get(request), partition, flag, ck->why);
}
