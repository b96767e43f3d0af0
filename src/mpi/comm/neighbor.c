/* SPDX-License-Identifier: BSD-3-Clause */
/* Every block travels on the communicator's collective context.  Tags keep blocks apart when one rank is a
 * neighbour several times: on a Cartesian grid the block for direction slot k carries tag k and is
 * received in the opposite slot (k ^ 1) of the receiver; on graphs repeated neighbours are matched in
 * order (MPI's non-overtaking rule), so one tag does. */
#include <stdlib.h>
#include "mpi/comm/neighbor.h"
#include "mpi/comm/topo.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/pt2pt/wait.h"

enum { TAG_NBR = -200 }; /* minus the Cartesian slot */
#define COLL 1

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

static void block(const vmpi_nbr_side *s, int k, MPI_Aint *off, int *count, const vmpi_dtype **type)
{
    *count = s->counts ? s->counts[k] : s->count;
    *type = s->types ? s->types[k] : s->type;
    if (s->same_block)
        *off = 0;
    else
        *off = s->off ? s->off[k] : (MPI_Aint)k * s->count * s->type->extent;
}

int vmpi_nbr_exchange(vmpi_comm *c, const void *sbuf, const vmpi_nbr_side *s, void *rbuf, const vmpi_nbr_side *r)
{
    int in, out, err = vmpi_nbr_degrees(c, &in, &out);
    if (err)
        return err;
    bool cart = c->topo->kind == MPI_CART;
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(in + out + 1));
    if (rq == NULL)
        return MPI_ERR_NO_MEM;
    int n = 0;
    for (int k = 0; k < in && !err; k++) {
        MPI_Aint off;
        int cnt;
        const vmpi_dtype *dt;
        block(r, k, &off, &cnt, &dt);
        err = vmpi_irecv((char *)rbuf + off, cnt, dt, neighbor(c, k, true), cart ? TAG_NBR - (k ^ 1) : TAG_NBR, c, COLL,
                         false, &rq[n++]);
    }
    for (int k = 0; k < out && !err; k++) {
        MPI_Aint off;
        int cnt;
        const vmpi_dtype *dt;
        block(s, k, &off, &cnt, &dt);
        err = vmpi_isend((const char *)sbuf + off, cnt, dt, neighbor(c, k, false), cart ? TAG_NBR - k : TAG_NBR, c,
                         COLL, VMPI_SENDK_STD, false, &rq[n++]);
    }
    int e = vmpi_waitall(n, rq, MPI_STATUSES_IGNORE);
    free(rq);
    return err ? err : e;
}
