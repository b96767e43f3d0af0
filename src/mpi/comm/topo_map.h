/* SPDX-License-Identifier: BSD-3-Clause */
/* Where the ranks of a reordered topology go (MPI_Cart_create/Graph_create/Dist_graph_create with reorder,
 * MPI_Cart_map, MPI_Graph_map): pure functions of the topology and of the PE of each rank, so every rank
 * that computes them gets the same answer.  Ranks of one PE get a compact part of the topology: a Cartesian
 * grid is cut by recursive bisection (each cut along the dimension that cuts fewest neighbour edges), a
 * graph is grown breadth-first one PE at a time.  The result is kept only when it has fewer cross-PE edges
 * than the identity, so reordering never makes locality worse. */
#ifndef VMPI_MPI_COMM_TOPO_MAP_H
#define VMPI_MPI_COMM_TOPO_MAP_H

/* For an n-rank communicator whose rank r runs on PE pe_of[r] (any non-negative PE numbers), fills
 * newrank[r]: the row-major grid position of rank r, or MPI_UNDEFINED when the grid (dims[0] x ... ,
 * at most n positions) leaves it out.  Returns MPI_SUCCESS or MPI_ERR_NO_MEM. */
int vmpi_topo_map_cart(int ndims, const int *dims, const int *periods, int n, const int *pe_of, int *newrank);
/* The same for a graph of nnodes <= n nodes, given as MPI_Graph_create takes it (edges may be one-sided). */
int vmpi_topo_map_graph(int nnodes, const int *index, const int *edges, int n, const int *pe_of, int *newrank);

/* Cross-PE edges when grid position i runs on PE pe_at[i]: each position counts its neighbour one step up
 * in every dimension (across the wrap when periodic), so a halo exchange's messages are counted once per
 * direction pair. */
long vmpi_topo_cart_cut(int ndims, const int *dims, const int *periods, const int *pe_at);
/* Cross-PE edges of a graph (every listed edge counts) when node i runs on PE pe_at[i]. */
long vmpi_topo_graph_cut(int nnodes, const int *index, const int *edges, const int *pe_at);

#endif
