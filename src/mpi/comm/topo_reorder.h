/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators with a process topology, and the placements of reorder = true (MPI_Cart_map and
 * MPI_Graph_map too), computed by topo_map.c from the rank-to-PE map.  Arguments already checked. */
#ifndef VMPI_MPI_COMM_TOPO_REORDER_H
#define VMPI_MPI_COMM_TOPO_REORDER_H

#include <stdbool.h>
#include "mpi/comm/topo.h"
#include "mpi/core/comm.h"

/* The PE of every rank of intracommunicator `c` (c->size entries, malloc'ed); NULL when out of memory. */
int *vmpi_topo_pes(const vmpi_comm *c);
/* MPI_Cart_create / MPI_Graph_create: the ranks that get a node of `t` (a Cartesian or graph topology,
 * owned) form a new communicator carrying it, in node order; the others get MPI_COMM_NULL.  Without reorder
 * the first ranks of `c` take the nodes in order; with it, rank 0 places them (topo_map.h) and tells the
 * others. */
int vmpi_topo_comm_create(vmpi_comm *c, vmpi_topo *t, bool reorder, MPI_Comm *out);
/* MPI_Cart_map / MPI_Graph_map: the calling rank's rank in the placement that creating the topology with
 * reorder would make, or MPI_UNDEFINED.  Local: every rank computes the same placement. */
int vmpi_topo_cart_map(const vmpi_comm *c, int ndims, const int *dims, const int *periods, int *newrank);
int vmpi_topo_graph_map(const vmpi_comm *c, int nnodes, const int *index, const int *edges, int *newrank);
/* MPI_Dist_graph_create(_adjacent) with reorder, at rank 0: adj[v] is the adjacency of graph node v
 * [indeg, outdeg, sources, sourceweights, dests, destweights].  The nodes are ranks of the new communicator,
 * as in MPI_Graph_create: fills newrank[r], the node rank r of `c` takes (left as given when the placement
 * cannot be computed). */
void vmpi_topo_dist_map(const vmpi_comm *c, int *const *adj, int *newrank);

#endif
