/* SPDX-License-Identifier: BSD-3-Clause */
/* Process topologies: Cartesian and graph constructors and queries.  With reorder, and in Cart_map and
 * Graph_map, the ranks of each PE get a compact part of the topology (mpi/comm/topo_map.h). */
#include <stdlib.h>
#include "binding/check.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/topo.h"
#include "mpi/comm/topo_reorder.h"
#include "mpi/pt2pt/pt2pt.h"

static int topo_comm(vmpi_chk *ck, MPI_Comm comm, vmpi_comm **c, int kind)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_comm(ck, comm, c)))
        return err;
    if ((*c)->topo && (kind == 0 || (*c)->topo->kind == kind))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the communicator has no %s topology",
             kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : kind == MPI_DIST_GRAPH ? "distributed graph" : "");
    return MPI_ERR_TOPOLOGY;
}

static int chk_dims(vmpi_chk *ck, int ndims, const int *dims, const int *periods, int size, long *prod)
{
    int err = vmpi_chk_nonneg_cls(ck, ndims, "ndims", MPI_ERR_DIMS);
    if (!err && ndims > 0 && (!(err = vmpi_chk_ptr(ck, dims, "dims"))))
        err = vmpi_chk_ptr(ck, periods, "periods");
    *prod = 1;
    for (int i = 0; !err && i < ndims; i++) {
        if (dims[i] <= 0) {
            snprintf(ck->why, sizeof ck->why, "dims[%d] = %d is not positive", i, dims[i]);
            err = MPI_ERR_DIMS;
        }
        *prod *= dims[i];
        if (!err && *prod > size) {
            snprintf(ck->why, sizeof ck->why, "the grid needs more than the %d ranks of the communicator", size);
            err = MPI_ERR_DIMS;
        }
    }
    return err;
}

VMPI_WEAK(Cart_create)
int PMPI_Cart_create(MPI_Comm comm, int ndims, const int *dims, const int *periods, int reorder, MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    long prod;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) && !(err = vmpi_chk_intra(&ck, c)) &&
        !(err = chk_dims(&ck, ndims, dims, periods, c->size, &prod)) && !(err = vmpi_chk_ptr(&ck, newcomm, "newcomm")))
        err = vmpi_topo_comm_create(c, vmpi_topo_cart(ndims, dims, periods), reorder != 0, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Cart_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_map)
int PMPI_Cart_map(MPI_Comm comm, int ndims, const int *dims, const int *periods, int *newrank)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    long prod;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) && !(err = vmpi_chk_intra(&ck, c)) &&
        !(err = chk_dims(&ck, ndims, dims, periods, c->size, &prod)) && !(err = vmpi_chk_ptr(&ck, newrank, "newrank")))
        err = vmpi_topo_cart_map(c, ndims, dims, periods, newrank);
    return err ? vmpi_fail(comm, err, "MPI_Cart_map", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Dims_create)
int PMPI_Dims_create(int nnodes, int ndims, int *dims)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Dims_create");
    int err = vmpi_chk_nonneg_cls(&ck, nnodes, "nnodes", MPI_ERR_ARG);
    if (!err)
        err = vmpi_chk_nonneg_cls(&ck, ndims, "ndims", MPI_ERR_DIMS);
    if (!err && ndims > 0)
        err = vmpi_chk_ptr(&ck, dims, "dims");
    if (!err && (err = vmpi_dims_create(nnodes, ndims, dims)) == MPI_ERR_DIMS)
        snprintf(ck.why, sizeof ck.why, "%d ranks do not fit the fixed entries of dims", nnodes);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Dims_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cartdim_get)
int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && !(err = vmpi_chk_ptr(&ck, ndims, "ndims")))
        *ndims = c->topo->ndims;
    return err ? vmpi_fail(comm, err, "MPI_Cartdim_get", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_get)
int PMPI_Cart_get(MPI_Comm comm, int maxdims, int *dims, int *periods, int *coords)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && maxdims < c->topo->ndims) {
        snprintf(ck.why, sizeof ck.why, "maxdims %d is less than the %d dimensions", maxdims, c->topo->ndims);
        err = MPI_ERR_ARG;
    }
    const vmpi_topo *t = err ? NULL : c->topo;
    if (!err && t->ndims > 0 && (!dims || !periods || !coords))
        err = vmpi_chk_ptr(&ck, NULL, "dims, periods or coords");
    if (!err) {
        for (int i = 0; i < t->ndims; i++) {
            dims[i] = t->dims[i];
            periods[i] = t->periods[i];
        }
        vmpi_cart_coords(t, c->rank, coords);
    }
    return err ? vmpi_fail(comm, err, "MPI_Cart_get", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_rank)
int PMPI_Cart_rank(MPI_Comm comm, const int *coords, int *rank)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && c->topo->ndims > 0)
        err = vmpi_chk_ptr(&ck, coords, "coords");
    if (!err)
        err = vmpi_chk_ptr(&ck, rank, "rank");
    if (!err && (*rank = vmpi_cart_rank(c->topo, coords)) == MPI_PROC_NULL) {
        snprintf(ck.why, sizeof ck.why, "coordinates out of range in a non-periodic dimension");
        err = MPI_ERR_ARG;
    }
    return err ? vmpi_fail(comm, err, "MPI_Cart_rank", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_coords)
int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int *coords)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && (rank < 0 || rank >= c->size)) {
        snprintf(ck.why, sizeof ck.why, "rank %d is not in the communicator of size %d", rank, c->size);
        err = MPI_ERR_RANK;
    }
    if (!err && maxdims < c->topo->ndims) {
        snprintf(ck.why, sizeof ck.why, "maxdims %d is less than the %d dimensions", maxdims, c->topo->ndims);
        err = MPI_ERR_ARG;
    }
    if (!err && c->topo->ndims > 0)
        err = vmpi_chk_ptr(&ck, coords, "coords");
    if (!err)
        vmpi_cart_coords(c->topo, rank, coords);
    return err ? vmpi_fail(comm, err, "MPI_Cart_coords", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_shift)
int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && (direction < 0 || direction >= c->topo->ndims)) {
        snprintf(ck.why, sizeof ck.why, "direction %d is not a dimension (0..%d)", direction, c->topo->ndims - 1);
        err = MPI_ERR_ARG;
    }
    if (!err && (!(err = vmpi_chk_ptr(&ck, rank_source, "rank_source"))))
        err = vmpi_chk_ptr(&ck, rank_dest, "rank_dest");
    if (!err) {
        int co[64], *coords = c->topo->ndims <= 64 ? co : malloc(sizeof(int) * (size_t)c->topo->ndims);
        if (coords == NULL)
            return vmpi_fail(comm, MPI_ERR_NO_MEM, "MPI_Cart_shift", &ck);
        vmpi_cart_coords(c->topo, c->rank, coords);
        int mine = coords[direction];
        coords[direction] = mine + disp;
        *rank_dest = vmpi_cart_rank(c->topo, coords);
        coords[direction] = mine - disp;
        *rank_source = vmpi_cart_rank(c->topo, coords);
        if (coords != co)
            free(coords);
    }
    return err ? vmpi_fail(comm, err, "MPI_Cart_shift", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Cart_sub)
int PMPI_Cart_sub(MPI_Comm comm, const int *remain_dims, MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_CART);
    if (!err && c->topo->ndims > 0)
        err = vmpi_chk_ptr(&ck, remain_dims, "remain_dims");
    if (!err)
        err = vmpi_chk_ptr(&ck, newcomm, "newcomm");
    if (err)
        return vmpi_fail(comm, err, "MPI_Cart_sub", &ck);
    const vmpi_topo *t = c->topo;
    int n = t->ndims, *coords = malloc(sizeof(int) * (size_t)(n + 1)), *dims = malloc(sizeof(int) * (size_t)(n + 1)),
        *per = malloc(sizeof(int) * (size_t)(n + 1)), k = 0;
    if (!coords || !dims || !per) {
        free(coords);
        free(dims);
        free(per);
        return vmpi_fail(comm, MPI_ERR_NO_MEM, "MPI_Cart_sub", &ck);
    }
    /* color: the coordinates along the dropped dimensions; key: the position in the kept ones */
    vmpi_cart_coords(t, c->rank, coords);
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
    vmpi_topo *sub = k > 0 ? vmpi_topo_cart(k, dims, per) : vmpi_topo_cart(0, dims, per);
    free(coords);
    free(dims);
    free(per);
    if (sub == NULL)
        return vmpi_fail(comm, MPI_ERR_NO_MEM, "MPI_Cart_sub", &ck);
    err = vmpi_comm_split(c, color, key, newcomm);
    if (!err && *newcomm != MPI_COMM_NULL)
        vmpi_comm_get(*newcomm)->topo = vmpi_topo_ref(sub);
    vmpi_topo_unref(sub);
    return err ? vmpi_fail(comm, err, "MPI_Cart_sub", &ck) : MPI_SUCCESS;
}

/* ---- graphs ---- */

static int chk_graph(vmpi_chk *ck, const vmpi_comm *c, int nnodes, const int *index, const int *edges)
{
    int err = vmpi_chk_nonneg_cls(ck, nnodes, "nnodes", MPI_ERR_ARG);
    if (!err && nnodes > c->size) {
        snprintf(ck->why, sizeof ck->why, "%d nodes but only %d ranks", nnodes, c->size);
        return MPI_ERR_ARG;
    }
    if (!err && nnodes > 0 && !(err = vmpi_chk_ptr(ck, index, "index")))
        err = index[nnodes - 1] > 0 ? vmpi_chk_ptr(ck, edges, "edges") : MPI_SUCCESS;
    for (int i = 0; !err && i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0)) {
            snprintf(ck->why, sizeof ck->why, "index[%d] = %d decreases", i, index[i]);
            err = MPI_ERR_ARG;
        }
    for (int e = 0; !err && nnodes > 0 && e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes) {
            snprintf(ck->why, sizeof ck->why, "edges[%d] = %d is not a node", e, edges[e]);
            err = MPI_ERR_ARG;
        }
    return err;
}

VMPI_WEAK(Graph_create)
int PMPI_Graph_create(MPI_Comm comm, int nnodes, const int *index, const int *edges, int reorder, MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) && !(err = vmpi_chk_intra(&ck, c)) &&
        !(err = chk_graph(&ck, c, nnodes, index, edges)) && !(err = vmpi_chk_ptr(&ck, newcomm, "newcomm")))
        err = vmpi_topo_comm_create(c, vmpi_topo_graph(nnodes, index, edges), reorder != 0, newcomm);
    return err ? vmpi_fail(comm, err, "MPI_Graph_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Graph_map)
int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int *index, const int *edges, int *newrank)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) && !(err = vmpi_chk_intra(&ck, c)) &&
        !(err = chk_graph(&ck, c, nnodes, index, edges)) && !(err = vmpi_chk_ptr(&ck, newrank, "newrank")))
        err = vmpi_topo_graph_map(c, nnodes, index, edges, newrank);
    return err ? vmpi_fail(comm, err, "MPI_Graph_map", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Graphdims_get)
int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_GRAPH);
    if (!err && !(err = vmpi_chk_ptr(&ck, nnodes, "nnodes")) && !(err = vmpi_chk_ptr(&ck, nedges, "nedges"))) {
        *nnodes = c->topo->nnodes;
        *nedges = c->topo->nnodes ? c->topo->index[c->topo->nnodes - 1] : 0;
    }
    return err ? vmpi_fail(comm, err, "MPI_Graphdims_get", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Graph_get)
int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int *index, int *edges)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_GRAPH);
    if (!err) {
        const vmpi_topo *t = c->topo;
        int ne = t->nnodes ? t->index[t->nnodes - 1] : 0;
        for (int i = 0; i < t->nnodes && i < maxindex; i++)
            index[i] = t->index[i];
        for (int e = 0; e < ne && e < maxedges; e++)
            edges[e] = t->edges[e];
    }
    return err ? vmpi_fail(comm, err, "MPI_Graph_get", &ck) : MPI_SUCCESS;
}

static int chk_node(vmpi_chk *ck, const vmpi_comm *c, int rank)
{
    if (rank >= 0 && rank < c->topo->nnodes)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not a node of the graph (%d nodes)", rank, c->topo->nnodes);
    return MPI_ERR_RANK;
}

VMPI_WEAK(Graph_neighbors_count)
int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_GRAPH);
    if (!err && !(err = chk_node(&ck, c, rank)) && !(err = vmpi_chk_ptr(&ck, nneighbors, "nneighbors")))
        *nneighbors = vmpi_graph_nneighbors(c->topo, rank);
    return err ? vmpi_fail(comm, err, "MPI_Graph_neighbors_count", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Graph_neighbors)
int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int *neighbors)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err = topo_comm(&ck, comm, &c, MPI_GRAPH);
    if (!err && !(err = chk_node(&ck, c, rank))) {
        int n = vmpi_graph_nneighbors(c->topo, rank);
        const int *nb = vmpi_graph_neighbors(c->topo, rank);
        for (int i = 0; i < n && i < maxneighbors; i++)
            neighbors[i] = nb[i];
    }
    return err ? vmpi_fail(comm, err, "MPI_Graph_neighbors", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Topo_test)
int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) &&
        !(err = vmpi_chk_ptr(&ck, status, "status")))
        *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return err ? vmpi_fail(comm, err, "MPI_Topo_test", &ck) : MPI_SUCCESS;
}
