/* SPDX-License-Identifier: BSD-3-Clause */
/* Process topologies (Dims_create: comm/dims):
 *   - a 2D Cartesian grid from Dims_create, periodic in x only: coords/rank round trip for every rank,
 *     Cart_shift in both directions (MPI_PROC_NULL off the non-periodic edge), a halo exchange with the
 *     shifted neighbours, Cart_get, Cartdim_get, Cart_sub into rows and columns, Cart_map, Topo_test;
 *   - a ring as a graph (Graph_create/get/neighbors), ranks beyond nnodes get MPI_COMM_NULL;
 *   - distributed graphs: adjacent (ring, weighted) and general (each rank names the edge to its right
 *     and rank 0 also names every edge into itself) with the neighbour lists checked. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* 2D grid, periodic in dimension 0 only */
    int dims[2] = {0, 0}, periods[2] = {1, 0}, coords[2];
    MPI_Dims_create(size, 2, dims);
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Topo_test(cart, &st);
    if (st != MPI_CART)
        MT_ERR(errs, "Topo_test(cart) = %d", st);
    MPI_Topo_test(MPI_COMM_WORLD, &st);
    if (st != MPI_UNDEFINED)
        MT_ERR(errs, "Topo_test(world) = %d", st);
    int cr, nd;
    MPI_Comm_rank(cart, &cr);
    MPI_Cartdim_get(cart, &nd);
    if (nd != 2)
        MT_ERR(errs, "Cartdim_get = %d", nd);
    for (int r = 0; r < size; r++) {
        int back;
        MPI_Cart_coords(cart, r, 2, coords);
        if (coords[0] != r / dims[1] || coords[1] != r % dims[1])
            MT_ERR(errs, "coords of %d = (%d,%d)", r, coords[0], coords[1]);
        MPI_Cart_rank(cart, coords, &back);
        if (back != r)
            MT_ERR(errs, "rank of coords of %d = %d", r, back);
    }
    int gd[2], gp[2], gc[2];
    MPI_Cart_get(cart, 2, gd, gp, gc);
    if (gd[0] != dims[0] || gd[1] != dims[1] || gp[0] != 1 || gp[1] != 0 || gc[0] != cr / dims[1] ||
        gc[1] != cr % dims[1])
        MT_ERR(errs, "Cart_get mismatch");
    int src, dst;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    int x = cr / dims[1], y = cr % dims[1];
    if (dst != ((x + 1) % dims[0]) * dims[1] + y || src != ((x + dims[0] - 1) % dims[0]) * dims[1] + y)
        MT_ERR(errs, "periodic shift gave %d/%d", src, dst);
    MPI_Cart_shift(cart, 1, 1, &src, &dst);
    if (dst != (y + 1 < dims[1] ? cr + 1 : MPI_PROC_NULL) || src != (y > 0 ? cr - 1 : MPI_PROC_NULL))
        MT_ERR(errs, "non-periodic shift gave %d/%d", src, dst);
    int got = -7;
    MPI_Sendrecv(&cr, 1, MPI_INT, dst, 1, &got, 1, MPI_INT, src, 1, cart, MPI_STATUS_IGNORE);
    if (got != (src == MPI_PROC_NULL ? -7 : src))
        MT_ERR(errs, "halo from %d gave %d", src, got);
    /* rows (keep dimension 1) and columns (keep dimension 0) */
    MPI_Comm row, col;
    MPI_Cart_sub(cart, (int[]){0, 1}, &row);
    MPI_Cart_sub(cart, (int[]){1, 0}, &col);
    int rr, rs, cc, cs;
    MPI_Comm_rank(row, &rr);
    MPI_Comm_size(row, &rs);
    MPI_Comm_rank(col, &cc);
    MPI_Comm_size(col, &cs);
    if (rr != y || rs != dims[1] || cc != x || cs != dims[0])
        MT_ERR(errs, "Cart_sub: row %d/%d col %d/%d", rr, rs, cc, cs);
    int sum = 0;
    MPI_Allreduce(&cr, &sum, 1, MPI_INT, MPI_SUM, row);
    if (sum != x * dims[1] * dims[1] + dims[1] * (dims[1] - 1) / 2)
        MT_ERR(errs, "row sum %d", sum);
    MPI_Cartdim_get(row, &nd);
    if (nd != 1)
        MT_ERR(errs, "row has %d dimensions", nd);
    int newrank;
    MPI_Cart_map(MPI_COMM_WORLD, 1, (int[]){1}, (int[]){0}, &newrank);
    if (newrank != (rank == 0 ? 0 : MPI_UNDEFINED))
        MT_ERR(errs, "Cart_map gave %d", newrank);
    MPI_Comm_free(&row);
    MPI_Comm_free(&col);

    /* a ring graph over all but the last rank (when there are 3 or more) */
    int nn = size >= 3 ? size - 1 : size;
    int *index = malloc(sizeof(int) * (size_t)nn), *edges = malloc(sizeof(int) * 2 * (size_t)nn);
    for (int i = 0; i < nn; i++) {
        index[i] = 2 * (i + 1);
        edges[2 * i] = (i + nn - 1) % nn;
        edges[2 * i + 1] = (i + 1) % nn;
    }
    MPI_Comm graph;
    MPI_Graph_create(MPI_COMM_WORLD, nn, index, edges, 0, &graph);
    if ((rank < nn) != (graph != MPI_COMM_NULL))
        MT_ERR(errs, "Graph_create membership");
    if (graph != MPI_COMM_NULL) {
        int gn, ge, cnt, nb[2];
        MPI_Graphdims_get(graph, &gn, &ge);
        MPI_Graph_neighbors_count(graph, rank, &cnt);
        MPI_Graph_neighbors(graph, rank, 2, nb);
        if (gn != nn || ge != 2 * nn || cnt != 2 || nb[0] != (rank + nn - 1) % nn || nb[1] != (rank + 1) % nn)
            MT_ERR(errs, "graph queries: %d %d %d (%d,%d)", gn, ge, cnt, nb[0], nb[1]);
        MPI_Topo_test(graph, &st);
        if (st != MPI_GRAPH)
            MT_ERR(errs, "Topo_test(graph) = %d", st);
        MPI_Comm_free(&graph);
    }
    free(index);
    free(edges);

    /* distributed graphs */
    MPI_Comm dg;
    int left = (rank + size - 1) % size, right = (rank + 1) % size, w_in = 10 + left, w_out = 10 + rank;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &w_in, 1, &right, &w_out, MPI_INFO_NULL, 0, &dg);
    int ind, outd, wtd, s1, sw1, d1, dw1;
    MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &wtd);
    MPI_Dist_graph_neighbors(dg, 1, &s1, &sw1, 1, &d1, &dw1);
    if (ind != 1 || outd != 1 || !wtd || s1 != left || sw1 != w_in || d1 != right || dw1 != w_out)
        MT_ERR(errs, "adjacent dist graph: %d %d %d %d %d %d %d", ind, outd, wtd, s1, sw1, d1, dw1);
    MPI_Comm_free(&dg);
    /* general: everyone names (me -> right); rank 0 also names (r -> 0) for every r */
    int *srcs = malloc(sizeof(int) * (size_t)(size + 1)), *degs = malloc(sizeof(int) * (size_t)(size + 1)),
        *dsts = malloc(sizeof(int) * (size_t)(size + 1)), n = 0;
    srcs[n] = rank;
    degs[n] = 1;
    dsts[n++] = right;
    if (rank == 0)
        for (int r = 0; r < size; r++) {
            srcs[n] = r;
            degs[n] = 1;
            dsts[n++] = 0;
        }
    MPI_Dist_graph_create(MPI_COMM_WORLD, n, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dg);
    MPI_Dist_graph_neighbors_count(dg, &ind, &outd, &wtd);
    int ein = 1 + (rank == 0 ? size : 0), eout = 1 + 1;
    if (ind != ein || outd != eout || wtd)
        MT_ERR(errs, "general dist graph degrees %d %d %d, expected %d %d 0", ind, outd, wtd, ein, eout);
    else {
        int *is = malloc(sizeof(int) * (size_t)ind), *os = malloc(sizeof(int) * (size_t)outd);
        MPI_Dist_graph_neighbors(dg, ind, is, MPI_UNWEIGHTED, outd, os, MPI_UNWEIGHTED);
        int has_left = 0, has_right = 0, has_zero = 0;
        for (int i = 0; i < ind; i++)
            has_left += is[i] == left;
        for (int i = 0; i < outd; i++) {
            has_right += os[i] == right;
            has_zero += os[i] == 0;
        }
        if (!has_left || !has_right || !has_zero)
            MT_ERR(errs, "general dist graph neighbours missing (left %d right %d zero %d)", has_left, has_right,
                   has_zero);
        free(is);
        free(os);
    }
    MPI_Comm_free(&dg);
    free(srcs);
    free(degs);
    free(dsts);

    /* errors */
    MPI_Comm bad;
    if (MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){size + 1}, (int[]){0}, 0, &bad) != MPI_ERR_DIMS)
        MT_ERR(errs, "a grid larger than the communicator did not give MPI_ERR_DIMS");
    if (MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &src, &dst) != MPI_ERR_TOPOLOGY)
        MT_ERR(errs, "Cart_shift without a topology did not give MPI_ERR_TOPOLOGY");
    MPI_Comm_free(&cart);
    return mt_finish(errs);
}
