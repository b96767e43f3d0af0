/* SPDX-License-Identifier: BSD-3-Clause */
/* Topology communicators and their placements (contract in topo_reorder.h).  The placement reads the
 * location table, which every rank sees alike; migration (issue 4) only moves ranks between collective
 * calls, so the ranks of one call read the same map. */
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/comm_create.h"
#include "mpi/comm/topo_map.h"
#include "mpi/comm/topo_reorder.h"
#include "msg/loc.h"
#include "msg/msg.h"

int *vmpi_topo_pes(const vmpi_comm *c)
{
    int *pe = malloc(sizeof(int) * (size_t)(c->size > 0 ? c->size : 1));
    for (int r = 0; pe && r < c->size; r++)
        pe[r] = vmpi_loc_pe(vmpi_comm_world_rank(c, r)); /* one process today: the PE names the place */
    return pe;
}

static int nodes_of(const vmpi_topo *t)
{
    if (t->kind == MPI_GRAPH)
        return t->nnodes;
    int n = 1;
    for (int d = 0; d < t->ndims; d++)
        n *= t->dims[d];
    return n;
}

/* newrank of every rank of `c` (n entries) for topology t: the identity when not reordering or when the
 * placement cannot be computed (reordering is a hint). */
static void placement(const vmpi_comm *c, const vmpi_topo *t, bool reorder, int *newrank)
{
    int n = c->size, N = nodes_of(t), err = MPI_ERR_NO_MEM;
    int *pe = reorder ? vmpi_topo_pes(c) : NULL;
    if (pe && t->kind == MPI_CART)
        err = vmpi_topo_map_cart(t->ndims, t->dims, t->periods, n, pe, newrank);
    else if (pe)
        err = vmpi_topo_map_graph(t->nnodes, t->index, t->edges, n, pe, newrank);
    free(pe);
    for (int r = 0; err && r < n; r++)
        newrank[r] = r < N ? r : MPI_UNDEFINED;
}

int vmpi_topo_comm_create(vmpi_comm *c, vmpi_topo *t, bool reorder, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    if (t == NULL)
        return MPI_ERR_NO_MEM;
    int *newrank = NULL, err = MPI_SUCCESS;
    if (c->rank == 0) {
        newrank = malloc(sizeof(int) * (size_t)c->size);
        if (newrank == NULL)
            err = MPI_ERR_NO_MEM; /* the others then wait: out of memory is fatal in practice */
        else
            placement(c, t, reorder, newrank);
    }
    if (!err)
        err = vmpi_comm_renumber(c, newrank, out);
    if (!err && *out != MPI_COMM_NULL)
        vmpi_comm_get(*out)->topo = vmpi_topo_ref(t);
    vmpi_topo_unref(t);
    free(newrank);
    return err;
}

/* The calling rank's entry of a placement computed here. */
static int map_self(const vmpi_comm *c, const vmpi_topo *t, int *newrank)
{
    int *all = malloc(sizeof(int) * (size_t)c->size);
    if (all == NULL)
        return MPI_ERR_NO_MEM;
    placement(c, t, true, all);
    *newrank = all[c->rank];
    free(all);
    return MPI_SUCCESS;
}

int vmpi_topo_cart_map(const vmpi_comm *c, int ndims, const int *dims, const int *periods, int *newrank)
{
    /* a topology that borrows the caller's arrays: only read here, never freed */
    vmpi_topo t = {.kind = MPI_CART, .ndims = ndims, .dims = (int *)dims, .periods = (int *)periods};
    return map_self(c, &t, newrank);
}

int vmpi_topo_graph_map(const vmpi_comm *c, int nnodes, const int *index, const int *edges, int *newrank)
{
    vmpi_topo t = {.kind = MPI_GRAPH, .nnodes = nnodes, .index = (int *)index, .edges = (int *)edges};
    return map_self(c, &t, newrank);
}

void vmpi_topo_dist_map(const vmpi_comm *c, int *const *adj, int *newrank)
{
    int n = c->size, nedges = 0;
    for (int v = 0; v < n; v++)
        nedges += adj[v][1];
    int *index = malloc(sizeof(int) * (size_t)n), *edges = malloc(sizeof(int) * (size_t)(nedges ? nedges : 1));
    int *placed = malloc(sizeof(int) * (size_t)n), *pe = vmpi_topo_pes(c);
    bool ok = index && edges && placed && pe;
    for (int v = 0, k = 0; ok && v < n; v++) { /* the graph of out-edges, as MPI_Graph_create takes it */
        const int *dst = adj[v] + 2 + 2 * adj[v][0];
        for (int i = 0; i < adj[v][1]; i++)
            edges[k++] = dst[i];
        index[v] = k;
    }
    if (ok && vmpi_topo_map_graph(n, index, edges, n, pe, placed) == MPI_SUCCESS)
        memcpy(newrank, placed, sizeof(int) * (size_t)n);
    free(index);
    free(edges);
    free(placed);
    free(pe);
}
