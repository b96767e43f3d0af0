/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include "mpi/core/greq.h"
#include "mpi/core/rank.h"

int vmpi_greq_start(MPI_Grequest_query_function *q, MPI_Grequest_free_function *f, MPI_Grequest_cancel_function *c,
                    void *extra, MPI_Request *out)
{
    vmpi_greq *g = malloc(sizeof *g);
    if (g == NULL)
        return MPI_ERR_NO_MEM;
    *g = (vmpi_greq){q, f, c, extra};
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_GREQ, MPI_COMM_WORLD);
    m->ptr = g;
    m->r.complete = false;
    m->r.on_done = NULL;
    vmpi_status_empty(&m->r.status);
    *out = vmpi_mreq_handle(m);
    return MPI_SUCCESS;
}

static int release(vmpi_mreq *m)
{
    vmpi_greq *g = m->ptr;
    int err = g->free ? g->free(g->extra_state) : MPI_SUCCESS;
    free(g);
    vmpi_mreq_release(m);
    return err;
}

int vmpi_greq_complete(vmpi_mreq *m)
{
    if (m->r.complete)
        return MPI_ERR_REQUEST;
    m->r.complete = true;
    if (m->freed)
        return release(m); /* MPI_Request_free came first */
    vmpi_vp_wake(m->r.owner);
    return MPI_SUCCESS;
}

int vmpi_greq_status(vmpi_mreq *m, MPI_Status *st)
{
    vmpi_greq *g = m->ptr;
    MPI_Status tmp;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &tmp : st;
    vmpi_status_empty(s); /* the query function fills it in */
    int err = g->query ? g->query(g->extra_state, s) : MPI_SUCCESS;
    return err ? err : s->MPI_ERROR;
}

int vmpi_greq_finish(vmpi_mreq *m, MPI_Request *h, MPI_Status *st)
{
    int err = vmpi_greq_status(m, st);
    int ferr = release(m);
    *h = MPI_REQUEST_NULL;
    return err ? err : ferr;
}

int vmpi_greq_cancel(vmpi_mreq *m)
{
    vmpi_greq *g = m->ptr;
    return g->cancel ? g->cancel(g->extra_state, m->r.complete) : MPI_SUCCESS;
}

int vmpi_greq_request_free(vmpi_mreq *m)
{
    if (m->r.complete)
        return release(m);
    m->freed = true;
    return MPI_SUCCESS;
}
