/* SPDX-License-Identifier: BSD-3-Clause */
/* Topologies created with reorder = 1, where ranks may move (what the placement achieves is checked by
 * tests/unit/topo_reorder.c, which can see the PEs).  On MPI_COMM_WORLD and on a communicator whose rank
 * order interleaves the world's halves:
 *   - Cart_create over a 2D grid (periodic in dimension 0) and over a grid smaller than the communicator:
 *     the new ranks are a permutation of the grid positions, MPI_COMM_NULL exactly where Cart_map says
 *     MPI_UNDEFINED, Cart_map gives each rank its new rank; a halo exchange with Cart_shift neighbours
 *     delivers the world rank of the rank at the neighbouring position;
 *   - Graph_create of a ring with chords: Graph_map agrees, messages to every graph neighbour arrive from it;
 *   - Dist_graph_create (weighted or not) and Dist_graph_create_adjacent (weighted) of the same graph, whose
 *     nodes are ranks of the new communicator as in Graph_create: rank q has node q's neighbour lists with
 *     their weights (out-lists and the adjacent form's in-lists in the order given), and Neighbor_alltoall
 *     delivers from each in-neighbour. */
#include <stdbool.h>
#include "mtest.h"

/* World rank of every rank of `c`. */
static int *world_of(MPI_Comm c)
{
    int n, w;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    int *all = malloc(sizeof(int) * (size_t)n);
    MPI_Allgather(&w, 1, MPI_INT, all, 1, MPI_INT, c);
    return all;
}

static int check_cart(MPI_Comm base, int ndims, const int *dims, const int *periods, const char *what)
{
    int errs = 0, br, bs, mapped, N = 1;
    MPI_Comm_rank(base, &br);
    MPI_Comm_size(base, &bs);
    for (int d = 0; d < ndims; d++)
        N *= dims[d];
    MPI_Cart_map(base, ndims, dims, periods, &mapped);
    MPI_Comm cart;
    MPI_Cart_create(base, ndims, dims, periods, 1, &cart);
    int cr = MPI_UNDEFINED;
    if (cart != MPI_COMM_NULL)
        MPI_Comm_rank(cart, &cr);
    if (cr != mapped)
        MT_ERR(errs, "%s: Cart_create gave rank %d, Cart_map %d", what, cr, mapped);
    /* the new ranks over the base communicator: each position once, MPI_UNDEFINED for bs - N ranks */
    int *all = malloc(sizeof(int) * (size_t)bs), *seen = calloc((size_t)N, sizeof(int)), undef = 0;
    MPI_Allgather(&cr, 1, MPI_INT, all, 1, MPI_INT, base);
    for (int r = 0; r < bs; r++) {
        if (all[r] == MPI_UNDEFINED)
            undef++;
        else if (all[r] < 0 || all[r] >= N || seen[all[r]]++)
            MT_ERR(errs, "%s: rank %d of the base got %d (out of range or twice)", what, r, all[r]);
    }
    if (undef != bs - N)
        MT_ERR(errs, "%s: %d ranks left out, expected %d", what, undef, bs - N);
    free(all);
    free(seen);
    if (cart == MPI_COMM_NULL)
        return errs;
    int *w = world_of(cart), me = w[cr], coords[8], back;
    MPI_Cart_coords(cart, cr, ndims, coords);
    MPI_Cart_rank(cart, coords, &back);
    if (back != cr)
        MT_ERR(errs, "%s: coordinates of %d lead back to %d", what, cr, back);
    for (int d = 0; d < ndims; d++) {
        int src, dst, got = -2;
        MPI_Cart_shift(cart, d, 1, &src, &dst);
        MPI_Sendrecv(&me, 1, MPI_INT, dst, 7, &got, 1, MPI_INT, src, 7, cart, MPI_STATUS_IGNORE);
        int want = src == MPI_PROC_NULL ? -2 : w[src];
        if (got != want)
            MT_ERR(errs, "%s: dimension %d: got world rank %d from below, expected %d", what, d, got, want);
    }
    free(w);
    MPI_Comm_free(&cart);
    return errs;
}

/* A ring of n nodes, with a chord from every node to the opposite one (n even, 6 or more): symmetric. */
static int ring_edges(int n, int v, int *nb)
{
    int k = 0;
    if (n < 2)
        return 0;
    nb[k++] = (v + n - 1) % n;
    if (n > 2)
        nb[k++] = (v + 1) % n;
    if (n >= 6 && n % 2 == 0)
        nb[k++] = (v + n / 2) % n;
    return k;
}

static int check_graph(MPI_Comm base, const char *what)
{
    int errs = 0, bs, br, mapped, nb[3];
    MPI_Comm_size(base, &bs);
    MPI_Comm_rank(base, &br);
    int *index = malloc(sizeof(int) * (size_t)bs), *edges = malloc(sizeof(int) * 3 * (size_t)bs), ne = 0;
    for (int v = 0; v < bs; v++) {
        int k = ring_edges(bs, v, nb);
        for (int i = 0; i < k; i++)
            edges[ne++] = nb[i];
        index[v] = ne;
    }
    MPI_Graph_map(base, bs, index, edges, &mapped);
    MPI_Comm g;
    MPI_Graph_create(base, bs, index, edges, 1, &g);
    int gr;
    MPI_Comm_rank(g, &gr);
    if (gr != mapped)
        MT_ERR(errs, "%s: Graph_create gave rank %d, Graph_map %d", what, gr, mapped);
    int *w = world_of(g), cnt;
    MPI_Graph_neighbors_count(g, gr, &cnt);
    int *nbs = malloc(sizeof(int) * (size_t)(cnt + 1)), *got = malloc(sizeof(int) * (size_t)(cnt + 1));
    MPI_Graph_neighbors(g, gr, cnt, nbs);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * (size_t)(2 * cnt + 1));
    for (int i = 0; i < cnt; i++) {
        MPI_Irecv(&got[i], 1, MPI_INT, nbs[i], 8, g, &rq[i]);
        MPI_Isend(&w[gr], 1, MPI_INT, nbs[i], 8, g, &rq[cnt + i]);
    }
    MPI_Waitall(2 * cnt, rq, MPI_STATUSES_IGNORE);
    for (int i = 0; i < cnt; i++)
        if (got[i] != w[nbs[i]])
            MT_ERR(errs, "%s: from graph neighbour %d: world rank %d, expected %d", what, nbs[i], got[i], w[nbs[i]]);
    free(rq);
    free(nbs);
    free(got);
    free(w);
    free(index);
    free(edges);
    MPI_Comm_free(&g);
    return errs;
}

/* The weight node u gives its edge to v (its i-th out-edge): 100 u + i. */
static int in_weight(int n, int u, int v)
{
    int nb[3], k = ring_edges(n, u, nb);
    for (int j = 0; j < k; j++)
        if (nb[j] == v)
            return 100 * u + j;
    return -1;
}

/* Checks a distributed graph made over `base` from the ring.  Its nodes are ranks of the new communicator
 * (as with Graph_create): rank q has node q's out-neighbours in the order given, weights 100 q + i, and the
 * same processes as in-neighbours (the graph is symmetric) with their weights, in the order given when
 * `in_order` (Dist_graph_create_adjacent), else in any order. */
static int check_dist(MPI_Comm dg, bool weighted, bool in_order, const char *what)
{
    int errs = 0, n, q, nb[3], in, out, wflag;
    MPI_Comm_size(dg, &n);
    MPI_Comm_rank(dg, &q);
    int k = ring_edges(n, q, nb);
    MPI_Dist_graph_neighbors_count(dg, &in, &out, &wflag);
    if (in != k || out != k || wflag != weighted) {
        MT_ERR(errs, "%s: degrees %d/%d weighted %d, expected %d/%d %d", what, in, out, wflag, k, k, weighted);
        return errs;
    }
    int src[3], sw[3], dst[3], dwt[3];
    bool used[3] = {false, false, false};
    MPI_Dist_graph_neighbors(dg, 3, src, sw, 3, dst, dwt);
    for (int i = 0; i < k; i++) {
        if (dst[i] != nb[i])
            MT_ERR(errs, "%s: rank %d: out-neighbour %d is %d, expected %d", what, q, i, dst[i], nb[i]);
        if (weighted && dwt[i] != 100 * q + i)
            MT_ERR(errs, "%s: rank %d: out weight %d = %d, expected %d", what, q, i, dwt[i], 100 * q + i);
        int j = in_order ? i : -1;
        for (int t = 0; j < 0 && t < k; t++)
            if (!used[t] && nb[t] == src[i])
                j = t;
        if (j < 0 || src[i] != nb[j]) {
            MT_ERR(errs, "%s: rank %d: in-neighbour %d is %d, not an expected one", what, q, i, src[i]);
            continue;
        }
        used[j] = true;
        if (weighted && sw[i] != in_weight(n, src[i], q))
            MT_ERR(errs, "%s: rank %d: in weight %d = %d, expected %d", what, q, i, sw[i], in_weight(n, src[i], q));
    }
    int sendv[3] = {q, q, q}, recvv[3] = {-1, -1, -1};
    MPI_Neighbor_alltoall(sendv, 1, MPI_INT, recvv, 1, MPI_INT, dg);
    for (int i = 0; i < k; i++)
        if (recvv[i] != src[i])
            MT_ERR(errs, "%s: rank %d: Neighbor_alltoall from source %d: %d, expected %d", what, q, i, recvv[i], src[i]);
    return errs;
}

/* The ring given over `base` (node = rank in base), in both forms, with reorder. */
static int check_dists(MPI_Comm base, const char *what)
{
    int errs = 0, bs, br, nb[3], w[3], inw[3];
    char name[96];
    MPI_Comm_size(base, &bs);
    MPI_Comm_rank(base, &br);
    int k = ring_edges(bs, br, nb);
    if (k == 0 && MT_MPICH_BUGS)
        return errs; /* MPICH 4.0 crashes in Dist_graph_neighbors on a weighted graph without edges */
    for (int i = 0; i < k; i++) {
        w[i] = 100 * br + i;
        inw[i] = in_weight(bs, nb[i], br);
    }
    MPI_Comm dg;
    MPI_Dist_graph_create_adjacent(base, k, nb, inw, k, nb, w, MPI_INFO_NULL, 1, &dg);
    snprintf(name, sizeof name, "%s, adjacent", what);
    errs += check_dist(dg, true, true, name);
    MPI_Comm_free(&dg);
    /* general form: each rank names its own node's out-edges */
    MPI_Dist_graph_create(base, 1, &br, &k, nb, w, MPI_INFO_NULL, 1, &dg);
    snprintf(name, sizeof name, "%s, general", what);
    errs += check_dist(dg, true, false, name);
    MPI_Comm_free(&dg);
    MPI_Dist_graph_create(base, 1, &br, &k, nb, MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &dg);
    snprintf(name, sizeof name, "%s, unweighted", what);
    errs += check_dist(dg, false, false, name);
    MPI_Comm_free(&dg);
    return errs;
}

static int check_all(MPI_Comm base, const char *what)
{
    int errs = 0, bs, dims[2] = {0, 0}, periods[2] = {1, 0};
    char name[96];
    MPI_Comm_size(base, &bs);
    MPI_Dims_create(bs, 2, dims);
    snprintf(name, sizeof name, "%s: %dx%d grid", what, dims[0], dims[1]);
    errs += check_cart(base, 2, dims, periods, name);
    int swapped[2] = {dims[1], dims[0]};
    snprintf(name, sizeof name, "%s: %dx%d grid", what, swapped[0], swapped[1]);
    errs += check_cart(base, 2, swapped, periods, name);
    int small[1] = {(bs + 1) / 2}, nonper[1] = {0};
    snprintf(name, sizeof name, "%s: %d of %d ranks", what, small[0], bs);
    errs += check_cart(base, 1, small, nonper, name);
    snprintf(name, sizeof name, "%s: graph", what);
    errs += check_graph(base, name);
    errs += check_dists(base, what);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    errs += check_all(MPI_COMM_WORLD, "world");
    /* ranks of the world's two halves alternate: (0, h, 1, h + 1, ...) */
    int h = (size + 1) / 2;
    MPI_Comm mixed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank < h ? 2 * rank : 2 * (rank - h) + 1, &mixed);
    errs += check_all(mixed, "interleaved");
    MPI_Comm_free(&mixed);
    return mt_finish(errs);
}
