/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/topo.h"
#include "mpi/core/comm.h"

vmpi_topo *vmpi_topo_ref(vmpi_topo *t)
{
    if (t)
        atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
    return t;
}

void vmpi_topo_unref(vmpi_topo *t)
{
    if (t == NULL || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->sources);
    free(t->sweights);
    free(t->dests);
    free(t->dweights);
    free(t);
}

static void comm_released(vmpi_comm *c) { vmpi_topo_unref(c->topo); }

void vmpi_topo_init(void) { vmpi_comm_on_release(comm_released); }

/* A copy of n ints (an empty array is a valid, freeable pointer); *ok turns false when out of memory. */
static int *dupints(const int *a, int n, bool *ok)
{
    int *d = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (d == NULL) {
        *ok = false;
        return NULL;
    }
    if (n > 0 && a)
        memcpy(d, a, sizeof(int) * (size_t)n);
    return d;
}

static vmpi_topo *topo_new(int kind)
{
    vmpi_topo *t = calloc(1, sizeof *t);
    if (t) {
        atomic_init(&t->refs, 1);
        t->kind = kind;
    }
    return t;
}

static vmpi_topo *checked(vmpi_topo *t, bool ok)
{
    if (!ok) {
        vmpi_topo_unref(t);
        return NULL;
    }
    return t;
}

vmpi_topo *vmpi_topo_cart(int ndims, const int *dims, const int *periods)
{
    vmpi_topo *t = topo_new(MPI_CART);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->ndims = ndims;
    t->dims = dupints(dims, ndims, &ok);
    t->periods = dupints(NULL, ndims, &ok);
    for (int i = 0; ok && i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    return checked(t, ok);
}

vmpi_topo *vmpi_topo_graph(int nnodes, const int *index, const int *edges)
{
    vmpi_topo *t = topo_new(MPI_GRAPH);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->nnodes = nnodes;
    t->index = dupints(index, nnodes, &ok);
    t->edges = dupints(edges, nnodes ? index[nnodes - 1] : 0, &ok);
    return checked(t, ok);
}

vmpi_topo *vmpi_topo_dist(int indeg, const int *src, const int *sw, int outdeg, const int *dst, const int *dw,
                          bool weighted)
{
    vmpi_topo *t = topo_new(MPI_DIST_GRAPH);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->indegree = indeg;
    t->outdegree = outdeg;
    t->weighted = weighted;
    t->sources = dupints(src, indeg, &ok);
    t->dests = dupints(dst, outdeg, &ok);
    t->sweights = dupints(weighted ? sw : NULL, indeg, &ok);
    t->dweights = dupints(weighted ? dw : NULL, outdeg, &ok);
    for (int i = 0; ok && !weighted && i < indeg; i++)
        t->sweights[i] = 1;
    for (int i = 0; ok && !weighted && i < outdeg; i++)
        t->dweights[i] = 1;
    return checked(t, ok);
}

int vmpi_cart_rank(const vmpi_topo *t, const int *coords)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (c < 0 || c >= d) {
            if (!t->periods[i])
                return MPI_PROC_NULL;
            c = ((c % d) + d) % d;
        }
        r = r * d + c;
    }
    return r;
}

void vmpi_cart_coords(const vmpi_topo *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int vmpi_graph_nneighbors(const vmpi_topo *t, int rank)
{
    return t->index[rank] - (rank ? t->index[rank - 1] : 0);
}

const int *vmpi_graph_neighbors(const vmpi_topo *t, int rank) { return t->edges + (rank ? t->index[rank - 1] : 0); }
