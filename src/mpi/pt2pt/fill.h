/* SPDX-License-Identifier: BSD-3-Clause */
/* A messaging request filled for a send or a receive of the calling rank (pt2pt.c, sendrecv.c): every field
 * the protocol reads is set, so the request need not be zeroed first (zeroing it showed in the latency). */
#ifndef VMPI_MPI_PT2PT_FILL_H
#define VMPI_MPI_PT2PT_FILL_H

#include "mpi/core/comm.h"
#include "mpi/core/rank.h"
#include "mpi/core/request.h"

static inline void vmpi_fill_send(vmpi_req *r, const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest,
                                  int tag, vmpi_comm *c, int ctxoff, vmpi_send_kind k)
{
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    r->ctx = c->ctx + ctxoff;
    r->rank = c->rank;
    r->tag = tag;
    r->peer = vmpi_comm_world_rank(c, dest);
    r->mode = k == VMPI_SENDK_SYNC ? VMPI_SEND_SYNC : VMPI_SEND_STD;
    r->owner = &vmpi_rank_self()->vp;
    r->on_done = NULL;
}

static inline void vmpi_fill_recv(vmpi_req *r, void *buf, MPI_Count count, const vmpi_dtype *dt, int src, int tag,
                                  vmpi_comm *c, int ctxoff)
{
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    r->ctx = c->ctx + ctxoff;
    r->rank = src;
    r->tag = tag;
    r->owner = &vmpi_rank_self()->vp;
    r->on_done = NULL;
}

#endif
