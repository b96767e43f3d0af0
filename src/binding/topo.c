/* SPDX-License-Identifier: BSD-3-Clause */
/* Process topologies, Cartesian and graph constructors and queries: the implementations behind the generated
 * entry points (<build>/gen/binding/topo_entry.c, from src/binding/spec/topo.toml), which check the
 * arguments against the communicator and its topology and report the errors these return.  With reorder,
 * and in Cart_map and Graph_map, the ranks of each PE get a compact part of the topology
 * (mpi/comm/topo_map.h). */
#include <stdlib.h>
#include "binding/impl.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/topo.h"
#include "mpi/comm/topo_reorder.h"
#include "mpi/pt2pt/pt2pt.h"

int vmpi_b_Cart_create(vmpi_comm *comm_old, int ndims, const int dims[], const int periods[], int reorder,
                       MPI_Comm *comm_cart)
{
    return vmpi_topo_comm_create(comm_old, vmpi_topo_cart(ndims, dims, periods), reorder != 0, comm_cart);
}

int vmpi_b_Cart_map(vmpi_comm *comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    return vmpi_topo_cart_map(comm, ndims, dims, periods, newrank);
}

int vmpi_b_Dims_create(int nnodes, int ndims, int dims[], vmpi_chk *ck)
{
    int err = vmpi_dims_create(nnodes, ndims, dims);
    if (err == MPI_ERR_DIMS)
        snprintf(ck->why, sizeof ck->why, "%d ranks do not fit the fixed entries of dims", nnodes);
    return err;
}

int vmpi_b_Cartdim_get(vmpi_comm *comm, int *ndims)
{
    *ndims = comm->topo->ndims;
    return MPI_SUCCESS;
}

int vmpi_b_Cart_get(vmpi_comm *comm, int maxdims, int dims[], int periods[], int coords[])
{
    (void)maxdims; /* at least the dimensions (checked) */
    const vmpi_topo *t = comm->topo;
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    vmpi_cart_coords(t, comm->rank, coords);
    return MPI_SUCCESS;
}

int vmpi_b_Cart_rank(vmpi_comm *comm, const int coords[], int *rank, vmpi_chk *ck)
{
    if ((*rank = vmpi_cart_rank(comm->topo, coords)) != MPI_PROC_NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "coordinates out of range in a non-periodic dimension");
    return MPI_ERR_ARG;
}

int vmpi_b_Cart_coords(vmpi_comm *comm, int rank, int maxdims, int coords[])
{
    (void)maxdims; /* at least the dimensions (checked) */
    vmpi_cart_coords(comm->topo, rank, coords);
    return MPI_SUCCESS;
}

int vmpi_b_Cart_shift(vmpi_comm *comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    const vmpi_topo *t = comm->topo;
    int co[64], *coords = t->ndims <= 64 ? co : malloc(sizeof(int) * (size_t)t->ndims);
    if (coords == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_cart_coords(t, comm->rank, coords);
    int mine = coords[direction];
    coords[direction] = mine + disp;
    *rank_dest = vmpi_cart_rank(t, coords);
    coords[direction] = mine - disp;
    *rank_source = vmpi_cart_rank(t, coords);
    if (coords != co)
        free(coords);
    return MPI_SUCCESS;
}

int vmpi_b_Cart_sub(vmpi_comm *comm, const int remain_dims[], MPI_Comm *newcomm)
{
    const vmpi_topo *t = comm->topo;
    int n = t->ndims, *coords = malloc(sizeof(int) * (size_t)(n + 1)), *dims = malloc(sizeof(int) * (size_t)(n + 1)),
        *per = malloc(sizeof(int) * (size_t)(n + 1)), k = 0;
    if (!coords || !dims || !per) {
        free(coords);
        free(dims);
        free(per);
        return MPI_ERR_NO_MEM;
    }
    /* color: the coordinates along the dropped dimensions; key: the position in the kept ones */
    vmpi_cart_coords(t, comm->rank, coords);
    int color = 0, key = 0;
    for (int i = 0; i < n; i++) {
        if (remain_dims[i]) {
            key = key * t->dims[i] + coords[i];
            dims[k] = t->dims[i];
            per[k++] = t->periods[i];
        } else {
            color = color * t->dims[i] + coords[i];
        }
    }
    vmpi_topo *sub = vmpi_topo_cart(k, dims, per);
    free(coords);
    free(dims);
    free(per);
    if (sub == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_comm_split(comm, color, key, newcomm);
    if (!err && *newcomm != MPI_COMM_NULL)
        vmpi_comm_get(*newcomm)->topo = vmpi_topo_ref(sub);
    vmpi_topo_unref(sub);
    return err;
}

/* ---- graphs ---- */

int vmpi_b_Graph_create(vmpi_comm *comm_old, int nnodes, const int index[], const int edges[], int reorder,
                        MPI_Comm *comm_graph)
{
    return vmpi_topo_comm_create(comm_old, vmpi_topo_graph(nnodes, index, edges), reorder != 0, comm_graph);
}

int vmpi_b_Graph_map(vmpi_comm *comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    return vmpi_topo_graph_map(comm, nnodes, index, edges, newrank);
}

int vmpi_b_Graphdims_get(vmpi_comm *comm, int *nnodes, int *nedges)
{
    const vmpi_topo *t = comm->topo;
    *nnodes = t->nnodes;
    *nedges = t->nnodes ? t->index[t->nnodes - 1] : 0;
    return MPI_SUCCESS;
}

/* As much of the graph as the arrays hold. */
int vmpi_b_Graph_get(vmpi_comm *comm, int maxindex, int maxedges, int index[], int edges[])
{
    const vmpi_topo *t = comm->topo;
    int ne = t->nnodes ? t->index[t->nnodes - 1] : 0;
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index[i];
    for (int e = 0; e < ne && e < maxedges; e++)
        edges[e] = t->edges[e];
    return MPI_SUCCESS;
}

int vmpi_b_Graph_neighbors_count(vmpi_comm *comm, int rank, int *nneighbors)
{
    *nneighbors = vmpi_graph_nneighbors(comm->topo, rank);
    return MPI_SUCCESS;
}

int vmpi_b_Graph_neighbors(vmpi_comm *comm, int rank, int maxneighbors, int neighbors[])
{
    int n = vmpi_graph_nneighbors(comm->topo, rank);
    const int *nb = vmpi_graph_neighbors(comm->topo, rank);
    for (int i = 0; i < n && i < maxneighbors; i++)
        neighbors[i] = nb[i];
    return MPI_SUCCESS;
}

int vmpi_b_Topo_test(vmpi_comm *comm, int *status)
{
    *status = comm->topo ? comm->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
