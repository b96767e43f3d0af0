/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): communicators, groups, process topologies, an intercommunicator's root. */
#ifndef VMPI_BINDING_CHECK_COMM_H
#define VMPI_BINDING_CHECK_COMM_H

#include "mpi/comm/topo.h"

/* ---- communicators, groups, topologies ---- */

static inline int vmpi_chk_group(vmpi_chk *ck, MPI_Group h, vmpi_group **out)
{
    return (*out = vmpi_group_get(h)) != NULL ? MPI_SUCCESS
           : vmpi_chk_bad_handle(ck, h, MPI_GROUP_NULL, "MPI_GROUP_NULL", "group", MPI_ERR_GROUP);
}

/* A group handle, left unresolved for the implementation (which needs the handle itself). */
static inline int vmpi_chk_group_valid(vmpi_chk *ck, MPI_Group h)
{
    vmpi_group *g;
    return vmpi_chk_group(ck, h, &g);
}

/* Operations defined on intracommunicators only. */
static inline int vmpi_chk_intra(vmpi_chk *ck, const vmpi_comm *c)
{
    if (!vmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "an intercommunicator where an intracommunicator is required");
    return MPI_ERR_COMM;
}

/* Operations defined on intercommunicators only (MPI_Comm_remote_size, MPI_Intercomm_merge). */
static inline int vmpi_chk_inter(vmpi_chk *ck, const vmpi_comm *c)
{
    if (vmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "not an intercommunicator");
    return MPI_ERR_COMM;
}

/* The communicator MPI_Comm_free frees, through its pointer: valid and not predefined; *errcomm becomes it
 * (its handler reports what goes wrong freeing it). */
static inline int vmpi_chk_comm_free(vmpi_chk *ck, const MPI_Comm *p, MPI_Comm *errcomm)
{
    vmpi_comm *c;
    int err = vmpi_chk_ptr(ck, p, "comm");
    if (err || (err = vmpi_chk_comm(ck, *p, &c)))
        return err;
    *errcomm = *p;
    if (*p != MPI_COMM_WORLD && *p != MPI_COMM_SELF)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "a predefined communicator cannot be freed");
    return MPI_ERR_COMM;
}

/* MPI_Comm_split's color: not negative, or MPI_UNDEFINED (no new communicator). */
static inline int vmpi_chk_color(vmpi_chk *ck, int color)
{
    if (color >= 0 || color == MPI_UNDEFINED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "color %d is negative and not MPI_UNDEFINED", color);
    return MPI_ERR_ARG;
}

/* A non-negative integer whose error class depends on the call (MPI_ERR_DIMS for ndims, ...). */
static inline int vmpi_chk_nonneg_cls(vmpi_chk *ck, int v, const char *what, int cls)
{
    if (v >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "negative %s %d", what, v);
    return cls;
}

/* ---- process topologies (area: topo) ---- */

/* An intracommunicator (what a topology is made on). */
static inline int vmpi_chk_intra_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out)
{
    int err = vmpi_chk_comm(ck, h, out);
    return err ? err : vmpi_chk_intra(ck, *out);
}

/* A communicator with a topology of `kind` (MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH). */
static inline int vmpi_chk_topo_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out, int kind)
{
    int err = vmpi_chk_comm(ck, h, out);
    if (err || ((*out)->topo && (*out)->topo->kind == kind))
        return err;
    snprintf(ck->why, sizeof ck->why, "the communicator has no %s topology",
             kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph");
    return MPI_ERR_TOPOLOGY;
}

/* A Cartesian grid of `ndims` (checked) dimensions that fits the communicator. */
static inline int vmpi_chk_grid(vmpi_chk *ck, int ndims, const int *dims, const int *periods, const vmpi_comm *c)
{
    int err = MPI_SUCCESS;
    if (ndims > 0 && (err = vmpi_chk_ptr(ck, dims, "dims")) == MPI_SUCCESS)
        err = vmpi_chk_ptr(ck, periods, "periods");
    long prod = 1;
    for (int i = 0; !err && i < ndims; i++) {
        if (dims[i] <= 0) {
            snprintf(ck->why, sizeof ck->why, "dims[%d] = %d is not positive", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        if ((prod *= dims[i]) > c->size) {
            snprintf(ck->why, sizeof ck->why, "the grid needs more than the %d ranks of the communicator", c->size);
            return MPI_ERR_DIMS;
        }
    }
    return err;
}

/* A query's room for a Cartesian topology's dimensions. */
static inline int vmpi_chk_maxdims(vmpi_chk *ck, int maxdims, const vmpi_comm *c)
{
    if (maxdims >= c->topo->ndims)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "maxdims %d is less than the %d dimensions", maxdims, c->topo->ndims);
    return MPI_ERR_ARG;
}

/* An array of one entry per dimension of a Cartesian topology (MPI_Cart_rank's coords). */
static inline int vmpi_chk_per_dim(vmpi_chk *ck, const int *a, const vmpi_comm *c, const char *what)
{
    return c->topo->ndims > 0 ? vmpi_chk_ptr(ck, a, what) : MPI_SUCCESS;
}

/* A rank of the communicator (MPI_Cart_coords'). */
static inline int vmpi_chk_rank_in(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r >= 0 && r < c->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in the communicator of size %d", r, c->size);
    return MPI_ERR_RANK;
}

/* A dimension of a Cartesian topology (MPI_Cart_shift's direction). */
static inline int vmpi_chk_direction(vmpi_chk *ck, int direction, const vmpi_comm *c)
{
    if (direction >= 0 && direction < c->topo->ndims)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "direction %d is not a dimension (0..%d)", direction, c->topo->ndims - 1);
    return MPI_ERR_ARG;
}

/* A graph of `nnodes` nodes, at most the communicator's size: index non-decreasing, edges naming nodes. */
static inline int vmpi_chk_graph(vmpi_chk *ck, int nnodes, const int *index, const int *edges, const vmpi_comm *c)
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
            return MPI_ERR_ARG;
        }
    for (int e = 0; !err && nnodes > 0 && e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes) {
            snprintf(ck->why, sizeof ck->why, "edges[%d] = %d is not a node", e, edges[e]);
            return MPI_ERR_ARG;
        }
    return err;
}

/* A node of a graph topology. */
static inline int vmpi_chk_node(vmpi_chk *ck, int rank, const vmpi_comm *c)
{
    if (rank >= 0 && rank < c->topo->nnodes)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not a node of the graph (%d nodes)", rank, c->topo->nnodes);
    return MPI_ERR_RANK;
}

/* ---- intercommunicator collectives ---- */

/* A root argument on an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group. */
static inline int vmpi_chk_inter_root(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r == MPI_ROOT || r == MPI_PROC_NULL || (r >= 0 && r < c->peer_size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "root %d is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (size %d)",
             r, c->peer_size);
    return MPI_ERR_ROOT;
}

#endif
