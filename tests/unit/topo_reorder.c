/* SPDX-License-Identifier: BSD-3-Clause */
/* What reorder = 1 achieves, seen from inside: a rank program linked with the library's objects, so it can
 * read the PE of every rank from the location table (MPI has no call for it).  Ranks are placed on PEs in
 * blocks (rank r on PE r * P / N); a second communicator interleaves the world's PEs (its rank k runs on
 * PE k mod 2 with two PEs), the round-robin placement the launcher does not offer.  For each, on 2D grids
 * (not periodic) and on a ring given as a graph and as a distributed graph, it counts the neighbour pairs
 * that cross PEs:
 *   - with reorder they are never more than without;
 *   - 8 ranks on 2 PEs: 2x4 and 4x2 grids cross 2 edges (the minimum: two 2x2 blocks) in both placements,
 *     where the interleaved order without reorder crosses 6 and 4; the ring crosses twice;
 *   - 64 ranks on 2 PEs: 8x8 crosses 8, 4x16 / 16x4 cross 4 and 2x32 / 32x2 cross 2 (one straight cut),
 *     the ring twice. */
#include <stdbool.h>
#include "msg/loc.h"
#include "mtest.h"

static int pe_of_world(int w) { return vmpi_loc_pe(w); }

/* PE of the rank at every position of the grid or graph communicator c. */
static int *pes_of(MPI_Comm c, int *n)
{
    int w;
    MPI_Comm_size(c, n);
    MPI_Comm_rank(MPI_COMM_WORLD, &w);
    int *pe = malloc(sizeof(int) * (size_t)*n);
    MPI_Allgather(&w, 1, MPI_INT, pe, 1, MPI_INT, c);
    for (int i = 0; i < *n; i++)
        pe[i] = pe_of_world(pe[i]);
    return pe;
}

/* Cross-PE neighbour pairs of a non-periodic 2D grid communicator (each pair once). */
static int grid_cut(MPI_Comm cart, int rows, int cols)
{
    int n, cut = 0, *pe = pes_of(cart, &n);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int p = r * cols + c;
            cut += r + 1 < rows && pe[p] != pe[p + cols];
            cut += c + 1 < cols && pe[p] != pe[p + 1];
        }
    free(pe);
    return cut;
}

/* Cross-PE ring edges (each once) of a communicator whose rank k neighbours k + 1. */
static int ring_cut(MPI_Comm c)
{
    int n, cut = 0, *pe = pes_of(c, &n);
    for (int v = 0; v < n && n > 2; v++)
        cut += pe[v] != pe[(v + 1) % n];
    free(pe);
    return cut;
}

static int check_grid(MPI_Comm base, int rows, int cols, int expect, const char *what)
{
    int errs = 0, dims[2] = {rows, cols}, periods[2] = {0, 0}, cut[2] = {-1, -1}, rank;
    MPI_Comm plain, re;
    MPI_Cart_create(base, 2, dims, periods, 0, &plain);
    MPI_Cart_create(base, 2, dims, periods, 1, &re);
    /* ranks left out differ between the two: the counts meet over the base */
    int mine[2] = {plain != MPI_COMM_NULL ? grid_cut(plain, rows, cols) : -1,
                   re != MPI_COMM_NULL ? grid_cut(re, rows, cols) : -1};
    MPI_Allreduce(mine, cut, 2, MPI_INT, MPI_MAX, base);
    MPI_Comm_rank(base, &rank);
    if (cut[1] > cut[0])
        MT_ERR(errs, "%s %dx%d: %d cross-PE edges with reorder, %d without", what, rows, cols, cut[1], cut[0]);
    if (expect >= 0 && cut[1] != expect)
        MT_ERR(errs, "%s %dx%d: %d cross-PE edges with reorder, expected %d", what, rows, cols, cut[1], expect);
    if (rank == 0)
        printf("%s %dx%d: %d cross-PE edges with reorder, %d without\n", what, rows, cols, cut[1], cut[0]);
    if (plain != MPI_COMM_NULL)
        MPI_Comm_free(&plain);
    if (re != MPI_COMM_NULL)
        MPI_Comm_free(&re);
    return errs;
}

static int check_ring(MPI_Comm base, int expect, const char *what)
{
    int errs = 0, n, br;
    MPI_Comm_size(base, &n);
    MPI_Comm_rank(base, &br);
    int *index = malloc(sizeof(int) * (size_t)n), *edges = malloc(sizeof(int) * 2 * (size_t)n), ne = 0;
    for (int v = 0; v < n; v++) {
        if (n > 1)
            edges[ne++] = (v + n - 1) % n;
        if (n > 2)
            edges[ne++] = (v + 1) % n;
        index[v] = ne;
    }
    MPI_Comm g, dg;
    MPI_Graph_create(base, n, index, edges, 1, &g);
    int cut_plain = ring_cut(base), cut_graph = ring_cut(g);
    /* the same ring as a distributed graph: its nodes are the new communicator's ranks too */
    int b0 = br ? index[br - 1] : 0, deg = index[br] - b0;
    MPI_Dist_graph_create_adjacent(base, deg, edges + b0, MPI_UNWEIGHTED, deg, edges + b0, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 1, &dg);
    int cut_dist = ring_cut(dg);
    if (cut_graph > cut_plain || cut_dist > cut_plain)
        MT_ERR(errs, "%s ring: %d (graph) and %d (distributed) cross-PE edges with reorder, %d without", what,
               cut_graph, cut_dist, cut_plain);
    if (expect >= 0 && (cut_graph != expect || cut_dist != expect))
        MT_ERR(errs, "%s ring: %d (graph) and %d (distributed) cross-PE edges, expected %d", what, cut_graph,
               cut_dist, expect);
    if (br == 0)
        printf("%s ring: %d (graph) and %d (distributed) cross-PE edges with reorder, %d without\n", what,
               cut_graph, cut_dist, cut_plain);
    free(index);
    free(edges);
    MPI_Comm_free(&g);
    MPI_Comm_free(&dg);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, npes = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int w = 0; w < size; w++)
        npes = pe_of_world(w) + 1 > npes ? pe_of_world(w) + 1 : npes;
    /* rank k of `mixed` is the k/2-th rank of PE k mod 2 (two PEs of equal size), else world order */
    int key = rank;
    if (npes == 2 && size % 2 == 0)
        key = pe_of_world(rank) == 0 ? 2 * rank : 2 * (rank - size / 2) + 1;
    MPI_Comm mixed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, key, &mixed);
    bool exact8 = npes == 2 && size == 8, exact64 = npes == 2 && size == 64;
    for (int m = 0; m < 2; m++) {
        MPI_Comm base = m ? mixed : MPI_COMM_WORLD;
        const char *what = m ? "interleaved" : "block";
        int dims[2] = {0, 0};
        MPI_Dims_create(size, 2, dims);
        errs += check_grid(base, dims[0], dims[1], exact64 ? 8 : -1, what);
        errs += check_grid(base, dims[1], dims[0], exact64 ? 8 : -1, what);
        if (size >= 2) {
            errs += check_grid(base, 2, size / 2, exact8 || exact64 ? 2 : -1, what);
            errs += check_grid(base, size / 2, 2, exact8 || exact64 ? 2 : -1, what);
        }
        if (size >= 16) {
            errs += check_grid(base, 4, size / 4, exact64 ? 4 : -1, what);
            errs += check_grid(base, size / 4, 4, exact64 ? 4 : -1, what);
        }
        errs += check_ring(base, exact8 || exact64 ? 2 : -1, what);
    }
    MPI_Comm_free(&mixed);
    return mt_finish(errs);
}
