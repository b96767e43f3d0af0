/* SPDX-License-Identifier: BSD-3-Clause */
/* Process topologies attached to a communicator: Cartesian grids, general graphs and distributed graphs.
 * A topology is immutable once attached, shared by duplicates of its communicator (reference-counted). */
#ifndef VMPI_MPI_COMM_TOPO_H
#define VMPI_MPI_COMM_TOPO_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct vmpi_topo {
    _Atomic int refs;
    int kind;                /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    /* Cartesian */
    int ndims;
    int *dims, *periods;
    /* graph: the whole graph, as given to MPI_Graph_create */
    int nnodes;
    int *index, *edges;
    /* distributed graph: the calling rank's own neighbours */
    int indegree, outdegree;
    int *sources, *sweights, *dests, *dweights;
    bool weighted;
} vmpi_topo;

/* At boot: registers the release of a communicator's topology with core. */
void vmpi_topo_init(void);
vmpi_topo *vmpi_topo_ref(vmpi_topo *t);   /* NULL-safe */
void vmpi_topo_unref(vmpi_topo *t);       /* NULL-safe */

vmpi_topo *vmpi_topo_cart(int ndims, const int *dims, const int *periods);
vmpi_topo *vmpi_topo_graph(int nnodes, const int *index, const int *edges);
vmpi_topo *vmpi_topo_dist(int indeg, const int *src, const int *sw, int outdeg, const int *dst, const int *dw,
                          bool weighted);

/* Cartesian helpers: rank <-> coordinates (row-major), with periodic wrap; MPI_PROC_NULL off a
 * non-periodic edge. */
int vmpi_cart_rank(const vmpi_topo *t, const int *coords);
void vmpi_cart_coords(const vmpi_topo *t, int rank, int *coords);
/* Neighbours of `rank` in a graph topology. */
int vmpi_graph_nneighbors(const vmpi_topo *t, int rank);
const int *vmpi_graph_neighbors(const vmpi_topo *t, int rank);
/* MPI_Dims_create: fills the zero entries of dims so that their product with the others is nnodes, as
 * balanced as possible (non-increasing); MPI_ERR_DIMS when impossible. */
int vmpi_dims_create(int nnodes, int ndims, int *dims);

#endif
