/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "mpi/core/greq.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/core/request.h"

void vmpi_req_table_init(vmpi_req_table *t)
{
    t->chunks = NULL;
    t->nchunks = 0;
    t->free_head = -1;
}

void vmpi_req_table_fini(vmpi_req_table *t)
{
    for (int i = 0; i < t->nchunks; i++)
        free(t->chunks[i]);
    free(t->chunks);
    vmpi_req_table_init(t);
}

static inline vmpi_mreq *slot(vmpi_req_table *t, int i)
{
    return &t->chunks[i / VMPI_REQ_CHUNK][i % VMPI_REQ_CHUNK];
}

static void grow(vmpi_req_table *t)
{
    vmpi_mreq **c = realloc(t->chunks, sizeof *c * (size_t)(t->nchunks + 1));
    if (c == NULL)
        vmpi_fatal("out of memory for requests of rank %d", vmpi_rank_self()->world_rank);
    t->chunks = c;
    vmpi_mreq *chunk = calloc(VMPI_REQ_CHUNK, sizeof *chunk);
    if (chunk == NULL)
        vmpi_fatal("out of memory for requests of rank %d", vmpi_rank_self()->world_rank);
    c[t->nchunks] = chunk;
    int base = t->nchunks * VMPI_REQ_CHUNK;
    for (int i = VMPI_REQ_CHUNK - 1; i >= 0; i--) {
        chunk[i].type = VMPI_MREQ_FREE;
        chunk[i].next_free = t->free_head;
        t->free_head = base + i;
    }
    t->nchunks++;
}

vmpi_mreq *vmpi_mreq_new(vmpi_mreq_type type, MPI_Comm comm)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_req_table *t = &rk->reqs;
    if (t->free_head < 0)
        grow(t);
    int i = t->free_head;
    vmpi_mreq *m = slot(t, i);
    t->free_head = m->next_free;
    memset(m, 0, sizeof *m);
    m->next_free = i; /* while in use, next_free holds the slot's own index */
    m->type = type;
    m->comm = comm;
    m->r.owner = &rk->vp;
    return m;
}

MPI_Request vmpi_mreq_new_complete(MPI_Comm comm)
{
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_RECV, comm);
    m->r.kind = VMPI_REQ_RECV;
    m->r.complete = true;
    vmpi_status_empty(&m->r.status);
    return vmpi_mreq_handle(m);
}

void vmpi_mreq_release(vmpi_mreq *m)
{
    /* the owner's table: completion callbacks may run while another rank of the PE is current */
    vmpi_req_table *t = &vmpi_container_of(m->r.owner, vmpi_rank, vp)->reqs;
    int i = m->next_free;
    if (m->release)
        m->release(m);
    if (m->r.dt) { /* the reference its operation held on a derived datatype */
        vmpi_dtype_release(m->r.dt);
        m->r.dt = NULL;
    }
    m->type = VMPI_MREQ_FREE;
    m->next_free = t->free_head;
    t->free_head = i;
}

MPI_Request vmpi_mreq_handle(const vmpi_mreq *m) { return VMPI_HANDLE(VMPI_KIND_REQUEST, m->next_free + 1); }

vmpi_mreq *vmpi_mreq_get(MPI_Request h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_REQUEST)
        return NULL;
    int i = VMPI_HANDLE_INDEX(h) - 1;
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || i < 0 || i >= rk->reqs.nchunks * VMPI_REQ_CHUNK)
        return NULL;
    vmpi_mreq *m = slot(&rk->reqs, i);
    return m->type == VMPI_MREQ_FREE ? NULL : m;
}

MPI_Message vmpi_msg_handle(const vmpi_mreq *m) { return VMPI_HANDLE(VMPI_KIND_MESSAGE, m->next_free + 2); }

vmpi_mreq *vmpi_msg_get(MPI_Message h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_MESSAGE || VMPI_HANDLE_INDEX(h) < 2)
        return NULL;
    vmpi_mreq *m = vmpi_mreq_get(VMPI_HANDLE(VMPI_KIND_REQUEST, VMPI_HANDLE_INDEX(h) - 1));
    return m && m->ptr && !m->r.complete ? m : NULL;
}

bool vmpi_mreq_done(vmpi_mreq *m)
{
    if (m->type == VMPI_MREQ_PROC_NULL || (m->persistent && !m->active))
        return true;
    return m->r.complete;
}

int vmpi_mreq_finish(MPI_Request *h, MPI_Status *st)
{
    vmpi_mreq *m = vmpi_mreq_get(*h);
    int err = MPI_SUCCESS;
    if (m->persistent && !m->active) {
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    if (m->type == VMPI_MREQ_PROC_NULL) {
        vmpi_status_nomsg(st, MPI_PROC_NULL);
    } else if (m->type == VMPI_MREQ_GREQ) {
        return vmpi_greq_finish(m, h, st);
    } else if (m->r.kind == VMPI_REQ_RECV || m->r.status.vmpi_cancelled) {
        err = m->r.status.MPI_ERROR;
        vmpi_status_out(st, &m->r.status);
    } else {
        /* a collective's error (a failed persistent buffered send reported it in MPI_Start) */
        err = m->persistent && m->type != VMPI_MREQ_COLL ? MPI_SUCCESS : m->r.status.MPI_ERROR;
        vmpi_status_send(st); /* a send's status: only the cancelled flag means anything */
    }
    if (m->persistent) {
        m->active = false;
    } else {
        vmpi_mreq_release(m);
        *h = MPI_REQUEST_NULL;
    }
    return err;
}

void vmpi_req_wait(vmpi_req *r, const char *why)
{
    while (!r->complete)
        vmpi_vp_block_on(why, r);
}
