/* SPDX-License-Identifier: BSD-3-Clause */
/* A neighbourhood collective is one round of a collective schedule (coll/csched.h): every receive and send
 * at once, blocking or not. */
#include <stdlib.h>
#include "mpi/comm/neighbor.h"
#include "mpi/comm/topo.h"
#include "mpi/coll/csched.h"

int vmpi_nbr_degrees(const vmpi_comm *c, int *in, int *out)
{
    const vmpi_topo *t = c->topo;
    if (t == NULL)
        return MPI_ERR_TOPOLOGY;
    if (t->kind == MPI_CART)
        *in = *out = 2 * t->ndims;
    else if (t->kind == MPI_GRAPH)
        *in = *out = vmpi_graph_nneighbors(t, c->rank);
    else {
        *in = t->indegree;
        *out = t->outdegree;
    }
    return MPI_SUCCESS;
}

/* Neighbour k (in or out) of the calling rank. */
static int neighbor(const vmpi_comm *c, int k, bool incoming)
{
    const vmpi_topo *t = c->topo;
    if (t->kind == MPI_GRAPH)
        return vmpi_graph_neighbors(t, c->rank)[k];
    if (t->kind == MPI_DIST_GRAPH)
        return incoming ? t->sources[k] : t->dests[k];
    int co[64], *coords = t->ndims <= 64 ? co : malloc(sizeof(int) * (size_t)t->ndims);
    if (coords == NULL)
        return MPI_PROC_NULL;
    vmpi_cart_coords(t, c->rank, coords);
    coords[k / 2] += k % 2 ? 1 : -1;
    int r = vmpi_cart_rank(t, coords);
    if (coords != co)
        free(coords);
    return r;
}

static void block(const vmpi_nbr_side *s, int k, MPI_Aint *off, MPI_Count *count, const vmpi_dtype **type)
{
    *count = vmpi_iv_at(s->counts, k);
    *type = s->types ? s->types[k] : s->type;
    if (s->same_block)
        *off = 0;
    else
        *off = s->off ? s->off[k] : (MPI_Aint)k * s->count * s->type->extent;
}

int vmpi_nbr_exchange(vmpi_comm *c, const void *sbuf, const vmpi_nbr_side *s, void *rbuf, const vmpi_nbr_side *r,
                      MPI_Request *req, const char *why)
{
    int in, out, err = vmpi_nbr_degrees(c, &in, &out);
    if (err)
        return err;
    vmpi_csched *cs = vmpi_cs_new(c);
    if (cs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 0; k < in; k++) {
        MPI_Aint off;
        MPI_Count cnt;
        const vmpi_dtype *dt;
        block(r, k, &off, &cnt, &dt);
        int peer = neighbor(c, k, true);
        if (peer != MPI_PROC_NULL)
            vmpi_cs_recv(cs, (char *)rbuf + off, cnt, dt, peer);
    }
    /* One tag per collective, so blocks between two ranks match in order.  On a Cartesian grid a rank can
     * be both neighbours along a dimension (2 ranks, periodic, or 1): the receiver takes its negative
     * neighbour's block first, which is the block that neighbour sends in the positive direction; so each
     * dimension sends its positive block, then its negative one. */
    bool cart = c->topo->kind == MPI_CART;
    for (int j = 0; j < out; j++) {
        int k = cart ? j ^ 1 : j;
        MPI_Aint off;
        MPI_Count cnt;
        const vmpi_dtype *dt;
        block(s, k, &off, &cnt, &dt);
        int peer = neighbor(c, k, false);
        if (peer != MPI_PROC_NULL)
            vmpi_cs_send(cs, (const char *)sbuf + off, cnt, dt, peer);
    }
    vmpi_cs_round(cs);
    return vmpi_cs_run(cs, req, why);
}
