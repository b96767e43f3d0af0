/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point operations of the calling rank, arguments already checked.  Return MPI error classes.
 * `ctxoff` is 0 for user traffic and 1 for the collectives' private context of the same communicator. */
#ifndef VMPI_MPI_PT2PT_H
#define VMPI_MPI_PT2PT_H

#include <mpi.h>
#include "mpi/core/comm.h"
#include "mpi/core/request.h"

int vmpi_send(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c, int ctxoff,
              vmpi_send_kind k);
int vmpi_recv(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c, int ctxoff,
              MPI_Status *st);
/* Nonblocking: a new request of the rank in *out (already active unless `persistent`). */
int vmpi_isend(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c, int ctxoff,
               vmpi_send_kind k, bool persistent, MPI_Request *out);
int vmpi_irecv(void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c, int ctxoff,
               bool persistent, MPI_Request *out);
int vmpi_start(vmpi_mreq *m);
int vmpi_sendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int stag, int src, int rtag,
                          vmpi_comm *c, MPI_Status *st);
/* MPI_Isendrecv(_replace) (sendrecv.c): a request completed once both parts are. */
int vmpi_isendrecv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, int dest, int stag, void *rbuf,
                   MPI_Count rcount, const vmpi_dtype *rdt, int src, int rtag, vmpi_comm *c, MPI_Request *out);
int vmpi_isendrecv_replace(void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int stag, int src, int rtag,
                           vmpi_comm *c, MPI_Request *out);
void vmpi_sendrecv_cancel(vmpi_mreq *m);
int vmpi_probe(int src, int tag, vmpi_comm *c, bool block, bool remove, int *flag, MPI_Message *msg,
               MPI_Status *st);
int vmpi_mrecv(void *buf, MPI_Count count, const vmpi_dtype *dt, MPI_Message *msg, bool block, MPI_Request *out,
               MPI_Status *st);
int vmpi_request_free(MPI_Request *h);

/* Partitioned communication (part.c, MPI-4.1 4): persistent requests of `partitions` x `count` elements.
 * `send`: the calling rank's partitioned send request (else receive).  The checks that need the request
 * write ck_why (160 bytes). */
int vmpi_psend_init(const void *buf, int partitions, MPI_Count count, const vmpi_dtype *dt, int dest, int tag,
                    vmpi_comm *c, MPI_Request *out);
int vmpi_precv_init(void *buf, int partitions, MPI_Count count, const vmpi_dtype *dt, int src, int tag, vmpi_comm *c,
                    MPI_Request *out);
bool vmpi_part_is(const vmpi_mreq *m, bool send);
int vmpi_pready(vmpi_mreq *m, int lo, int hi, const int *list, int n, char *why);
int vmpi_parrived(vmpi_mreq *m, int partition, int *flag, char *why);
int vmpi_cancel(MPI_Request h);

/* Buffered sends (bsend.c).  `slot`: where the buffer's owner keeps it (a communicator's or a session's
 * `bsend`), NULL for the rank's (MPI_Buffer_*); `obj`: the owner's handle, for an iflush request's errors.
 * Attaching a second buffer gives MPI_ERR_BUFFER; detaching and flushing wait until the buffer's messages
 * are delivered; detaching none gives NULL and 0. */
int vmpi_bsend_attach(struct vmpi_bsend_state **slot, void *buf, MPI_Count size);
int vmpi_bsend_detach(struct vmpi_bsend_state **slot, void *buf_addr, MPI_Count *size, const char *why);
int vmpi_bsend_flush(struct vmpi_bsend_state **slot, const char *why);
int vmpi_bsend_iflush(struct vmpi_bsend_state **slot, MPI_Comm obj, MPI_Request *req);
/* The owner goes (a communicator freed, a session finalized): the buffer's messages still go out, and the
 * last one frees it. */
void vmpi_bsend_release(struct vmpi_bsend_state **slot);
/* At boot: communicators' buffers go with them.  At MPI_Finalize: every buffer's messages are delivered. */
void vmpi_bsend_init(void);
void vmpi_bsend_finalize(void);
/* Copies the message into the attached buffer and sends it from there; completes on its own. */
int vmpi_bsend_start(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c);

#endif
