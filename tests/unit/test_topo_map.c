/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the topology placement (src/mpi/comm/topo_map.c), on made-up rank-to-PE maps:
 *   - every result is a valid placement: the positions 0..N-1 each held by one rank, the other ranks
 *     MPI_UNDEFINED, left-out ranks forming whole PEs where possible;
 *   - never more cross-PE edges than the identity, and the identity kept when it is as good;
 *   - two PEs: the fewest cross-PE edges possible, checked against exhaustive search over every grid of up
 *     to 16 positions (1-3 dimensions, periodic or not, even and uneven PE sizes), with block, round-robin
 *     and scattered rank-to-PE maps;
 *   - more PEs: known optima where the grid tiles into equal boxes, and exhaustive search on small grids
 *     with three PEs (reported, and bounded: the placement is a heuristic there);
 *   - graphs: rings and grids given as graphs, disconnected graphs, one-sided edge lists;
 *   - a large grid (2^18 positions on 6 uneven PEs): a valid placement no worse than the identity. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/topo_map.h"

#include "unit_check.h"

enum { MAXN = 64 };

/* Checks newrank is a placement of N positions on n ranks; fills pe_at (position -> PE).  Returns 0 when
 * invalid. */
static int valid(const char *what, int n, int N, const int *pe_of, const int *newrank, int *pe_at)
{
    int held[MAXN], undef = 0;
    for (int p = 0; p < N; p++)
        held[p] = -1;
    for (int r = 0; r < n; r++) {
        if (newrank[r] == MPI_UNDEFINED) {
            undef++;
            continue;
        }
        if (newrank[r] < 0 || newrank[r] >= N || held[newrank[r]] >= 0) {
            CHECK(0, "%s: rank %d got position %d (invalid or taken)", what, r, newrank[r]);
            return 0;
        }
        held[newrank[r]] = r;
        pe_at[newrank[r]] = pe_of[r];
    }
    CHECK(undef == n - N, "%s: %d ranks left out, expected %d", what, undef, n - N);
    return undef == n - N;
}

/* Fewest cross-PE edges over every way to give `cnt[g]` positions to PE g (exhaustive). */
static long best_cut(int ndims, const int *dims, const int *periods, int N, const int *cnt, int k, int *pe_at,
                     int pos)
{
    if (pos == N)
        return vmpi_topo_cart_cut(ndims, dims, periods, pe_at);
    long best = LONG_MAX;
    for (int g = 0; g < k; g++) {
        if (cnt[g] == 0)
            continue;
        int c[8];
        memcpy(c, cnt, sizeof(int) * (size_t)k);
        c[g]--;
        pe_at[pos] = g;
        long b = best_cut(ndims, dims, periods, N, c, k, pe_at, pos + 1);
        best = b < best ? b : best;
    }
    return best;
}

/* Maps, validates, and returns the cross-PE edges of the result (and of the identity in *identity). */
static long map_cut(const char *what, int ndims, const int *dims, const int *periods, int n, const int *pe_of,
                    long *identity, int *newrank)
{
    int N = 1, pe_at[MAXN];
    for (int d = 0; d < ndims; d++)
        N *= dims[d];
    CHECK(vmpi_topo_map_cart(ndims, dims, periods, n, pe_of, newrank) == MPI_SUCCESS, "%s: map failed", what);
    if (!valid(what, n, N, pe_of, newrank, pe_at))
        return LONG_MAX;
    long cut = vmpi_topo_cart_cut(ndims, dims, periods, pe_at);
    memcpy(pe_at, pe_of, sizeof(int) * (size_t)N);
    *identity = vmpi_topo_cart_cut(ndims, dims, periods, pe_at);
    CHECK(cut <= *identity, "%s: %ld cross-PE edges, more than the identity's %ld", what, cut, *identity);
    if (cut == *identity)
        for (int r = 0; r < n; r++)
            CHECK(newrank[r] == (r < N ? r : MPI_UNDEFINED), "%s: the identity is as good but rank %d moved", what, r);
    return cut;
}

/* rank -> PE maps of n ranks on k PEs of sizes cnt[] */
static void block_map(int n, const int *cnt, int k, int *pe_of)
{
    for (int g = 0, r = 0; g < k; g++)
        for (int i = 0; i < cnt[g]; i++)
            pe_of[r++] = g;
    (void)n;
}

static void round_robin_map(int n, const int *cnt, int k, int *pe_of)
{
    int left[8];
    memcpy(left, cnt, sizeof(int) * (size_t)k);
    for (int r = 0, g = 0; r < n; r++) {
        while (left[g] == 0)
            g = (g + 1) % k;
        pe_of[r] = g;
        left[g]--;
        g = (g + 1) % k;
    }
}

static void scattered_map(int n, const int *cnt, int k, int *pe_of)
{
    block_map(n, cnt, k, pe_of);
    for (int r = n - 1; r > 0; r--) { /* a fixed shuffle */
        int j = (r * 7 + 3) % (r + 1), x = pe_of[r];
        pe_of[r] = pe_of[j];
        pe_of[j] = x;
    }
}

/* Every grid of 2..16 positions in 1-3 dimensions, periodic or not, on two PEs: optimal. */
static void two_pes_exhaustive(void)
{
    int shapes[][3] = {{2, 1, 1}, {3, 1, 1}, {4, 1, 1}, {7, 1, 1}, {2, 2, 1}, {2, 3, 1}, {3, 2, 1}, {2, 4, 1},
                       {4, 2, 1}, {3, 3, 1}, {3, 4, 1}, {4, 3, 1}, {2, 5, 1}, {2, 6, 1}, {4, 4, 1}, {2, 8, 1},
                       {8, 2, 1}, {5, 3, 1}, {2, 2, 2}, {2, 2, 3}, {2, 2, 4}, {2, 4, 2}, {3, 2, 2}};
    void (*maps[])(int, const int *, int, int *) = {block_map, round_robin_map, scattered_map};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int ndims = shapes[s][2] > 1 ? 3 : shapes[s][1] > 1 ? 2 : 1, N = shapes[s][0] * shapes[s][1] * shapes[s][2];
        for (int per = 0; per < (1 << ndims); per++) {
            int periods[3] = {per & 1, per >> 1 & 1, per >> 2 & 1};
            for (int uneven = 0; uneven < 2; uneven++) {
                int cnt[2] = {(N + 1) / 2, N / 2};
                if (uneven) {
                    cnt[0] = N / 3 > 0 ? N / 3 : 1;
                    cnt[1] = N - cnt[0];
                }
                int pe_at[MAXN];
                long best = best_cut(ndims, shapes[s], periods, N, cnt, 2, pe_at, 0);
                for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++) {
                    int pe_of[MAXN], newrank[MAXN];
                    long identity;
                    char what[96];
                    maps[m](N, cnt, 2, pe_of);
                    snprintf(what, sizeof what, "%dx%dx%d periods %d%d%d PEs %d+%d map %zu", shapes[s][0],
                             shapes[s][1], shapes[s][2], periods[0], periods[1], periods[2], cnt[0], cnt[1], m);
                    long cut = map_cut(what, ndims, shapes[s], periods, N, pe_of, &identity, newrank);
                    CHECK(cut == best, "%s: %ld cross-PE edges, the fewest possible is %ld", what, cut, best);
                }
            }
        }
    }
}

/* The cases of the MPI-level test: 8 ranks on 2 PEs, 2x4 and 4x2, block and round-robin. */
static void eight_on_two(void)
{
    int dims24[2] = {2, 4}, dims42[2] = {4, 2}, nonper[2] = {0, 0}, cnt[2] = {4, 4}, pe_of[8], newrank[8];
    long identity;
    block_map(8, cnt, 2, pe_of);
    CHECK(map_cut("2x4 block", 2, dims24, nonper, 8, pe_of, &identity, newrank) == 2, "2x4 block: not 2");
    CHECK(identity == 4, "2x4 block: identity %ld, expected 4", identity);
    CHECK(map_cut("4x2 block", 2, dims42, nonper, 8, pe_of, &identity, newrank) == 2, "4x2 block: not 2");
    round_robin_map(8, cnt, 2, pe_of);
    CHECK(map_cut("2x4 rr", 2, dims24, nonper, 8, pe_of, &identity, newrank) == 2, "2x4 round-robin: not 2");
    CHECK(identity == 6, "2x4 round-robin: identity %ld, expected 6", identity);
    CHECK(map_cut("4x2 rr", 2, dims42, nonper, 8, pe_of, &identity, newrank) == 2, "4x2 round-robin: not 2");
    CHECK(identity == 4, "4x2 round-robin: identity %ld, expected 4", identity);
}

/* Grids that tile into equal boxes, one per PE: the boxes' surfaces are the optimum. */
static void tiling_optima(void)
{
    struct {
        int ndims, dims[3], periods[3], k;
        long best;
    } t[] = {
        {2, {4, 4, 1}, {0, 0, 0}, 4, 8},     /* four 2x2 */
        {2, {8, 8, 1}, {0, 0, 0}, 4, 16},    /* four 4x4 */
        {2, {8, 8, 1}, {1, 1, 0}, 4, 32},    /* the same, wrapped: every cut doubled */
        {3, {4, 4, 4}, {0, 0, 0}, 8, 48},    /* eight 2x2x2: three planes of 16 */
        {2, {6, 4, 1}, {0, 0, 0}, 3, 8},     /* three 2x4 slabs */
        {1, {12, 1, 1}, {1, 0, 0}, 4, 4},    /* a ring in four arcs */
        {2, {16, 4, 1}, {0, 0, 0}, 4, 12},   /* four 4x4 along the long side */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int N = t[i].dims[0] * t[i].dims[1] * t[i].dims[2], cnt[8], pe_of[MAXN], newrank[MAXN];
        for (int g = 0; g < t[i].k; g++)
            cnt[g] = N / t[i].k;
        for (int rr = 0; rr < 2; rr++) {
            char what[64];
            long identity;
            (rr ? round_robin_map : block_map)(N, cnt, t[i].k, pe_of);
            snprintf(what, sizeof what, "tiling case %zu, %s", i, rr ? "round-robin" : "block");
            long cut = map_cut(what, t[i].ndims, t[i].dims, t[i].periods, N, pe_of, &identity, newrank);
            CHECK(cut == t[i].best, "%s: %ld cross-PE edges, expected %ld", what, cut, t[i].best);
        }
    }
}

/* Three PEs on small grids, uneven where 3 does not divide: the optimum on each of these (the placement is
 * a heuristic in general; these pin down what it achieves). */
static void three_pes(void)
{
    int shapes[][2] = {{3, 4}, {4, 3}, {2, 6}, {3, 3}, {2, 5}, {4, 4}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int N = shapes[s][0] * shapes[s][1], cnt[3] = {N / 3 + (N % 3 > 0), N / 3 + (N % 3 > 1), N / 3};
        int periods[2] = {0, 0}, pe_at[MAXN], pe_of[MAXN], newrank[MAXN];
        if (N > 12)
            continue; /* exhaustive search too long */
        long best = best_cut(2, shapes[s], periods, N, cnt, 3, pe_at, 0), identity;
        round_robin_map(N, cnt, 3, pe_of);
        char what[64];
        snprintf(what, sizeof what, "%dx%d on 3 PEs", shapes[s][0], shapes[s][1]);
        long cut = map_cut(what, 2, shapes[s], periods, N, pe_of, &identity, newrank);
        CHECK(cut == best, "%s: %ld cross-PE edges, optimum %ld", what, cut, best);
        printf("%s: %ld cross-PE edges (optimum %ld, identity %ld)\n", what, cut, best, identity);
    }
}

/* Fewer positions than ranks: whole PEs left out, ranks of other PEs kept. */
static void left_out(void)
{
    int dims[2] = {2, 4}, periods[2] = {0, 0}, pe_of[12], newrank[12], cnt[3] = {4, 4, 4};
    long identity;
    round_robin_map(12, cnt, 3, pe_of); /* PE of rank r: r % 3 */
    long cut = map_cut("2x4 of 12 on 3 PEs", 2, dims, periods, 12, pe_of, &identity, newrank);
    CHECK(cut == 2, "2x4 of 12 ranks on 3 PEs: %ld cross-PE edges, expected 2", cut);
    for (int r = 0; r < 12; r++)
        CHECK((newrank[r] == MPI_UNDEFINED) == (r % 3 == 2), "2x4 of 12: rank %d (PE %d) got %d", r, r % 3, newrank[r]);
    /* PE numbers are names, not positions: PE 7 holds rank 0, so it comes first */
    int pe2[8] = {7, 3, 7, 3, 7, 3, 7, 3};
    map_cut("named PEs", 2, dims, periods, 8, pe2, &identity, newrank);
    CHECK(newrank[0] == 0, "named PEs: rank 0 (first PE) got position %d, expected 0", newrank[0]);
}

/* Graphs in MPI_Graph_create form. */
static long graph_case(const char *what, int nnodes, const int *index, const int *edges, int n, const int *pe_of,
                       long *identity)
{
    int newrank[MAXN], pe_at[MAXN];
    CHECK(vmpi_topo_map_graph(nnodes, index, edges, n, pe_of, newrank) == MPI_SUCCESS, "%s: map failed", what);
    if (!valid(what, n, nnodes, pe_of, newrank, pe_at))
        return LONG_MAX;
    long cut = vmpi_topo_graph_cut(nnodes, index, edges, pe_at);
    *identity = vmpi_topo_graph_cut(nnodes, index, edges, pe_of);
    CHECK(cut <= *identity, "%s: %ld cross-PE edges, more than the identity's %ld", what, cut, *identity);
    return cut;
}

static void graphs(void)
{
    int index[MAXN], edges[4 * MAXN], pe_of[MAXN], cnt[4] = {4, 4, 4, 4};
    long identity;
    /* a ring of 8, both directions listed, round-robin on 2 PEs: two arcs, 2 edges each way */
    for (int v = 0; v < 8; v++) {
        edges[2 * v] = (v + 7) % 8;
        edges[2 * v + 1] = (v + 1) % 8;
        index[v] = 2 * v + 2;
    }
    round_robin_map(8, cnt, 2, pe_of);
    CHECK(graph_case("ring of 8", 8, index, edges, 8, pe_of, &identity) == 4, "ring of 8: not two arcs");
    CHECK(identity == 16, "ring of 8: identity %ld, expected 16", identity);
    /* the same ring listed one way only */
    for (int v = 0; v < 8; v++) {
        edges[v] = (v + 1) % 8;
        index[v] = v + 1;
    }
    CHECK(graph_case("one-way ring", 8, index, edges, 8, pe_of, &identity) == 2, "one-way ring: not two arcs");
    /* two rings of 4 (0-3, 4-7) with PEs interleaved: no cross-PE edge at all */
    for (int v = 0; v < 8; v++) {
        int base = v / 4 * 4;
        edges[2 * v] = base + (v + 3) % 4;
        edges[2 * v + 1] = base + (v + 1) % 4;
        index[v] = 2 * v + 2;
    }
    CHECK(graph_case("two rings", 8, index, edges, 8, pe_of, &identity) == 0, "two rings: cross-PE edges left");
    /* a 4x4 grid as a graph on 4 PEs, round-robin: better than the identity (every edge crosses) */
    int ne = 0;
    for (int v = 0; v < 16; v++) {
        int r = v / 4, c = v % 4;
        if (r > 0)
            edges[ne++] = v - 4;
        if (r < 3)
            edges[ne++] = v + 4;
        if (c > 0)
            edges[ne++] = v - 1;
        if (c < 3)
            edges[ne++] = v + 1;
        index[v] = ne;
    }
    round_robin_map(16, cnt, 4, pe_of);
    long cut = graph_case("4x4 graph", 16, index, edges, 16, pe_of, &identity);
    CHECK(cut == 16, "4x4 graph: %ld cross-PE edges, expected four 2x2 blocks (16)", cut);
    printf("4x4 grid graph on 4 PEs: %ld cross-PE edges (optimum 16, identity %ld)\n", cut, identity);
    /* a chain of 6 nodes on 16 ranks, round-robin on 4 PEs: PE 0 whole and PE 1's lowest ranks host it */
    for (int v = 0, k = 0; v < 6; v++) {
        if (v > 0)
            edges[k++] = v - 1;
        if (v < 5)
            edges[k++] = v + 1;
        index[v] = k;
    }
    CHECK(graph_case("chain of 6", 6, index, edges, 16, pe_of, &identity) == 2, "chain of 6: not one cut");
    int newrank[MAXN];
    vmpi_topo_map_graph(6, index, edges, 16, pe_of, newrank);
    for (int r = 0; r < 16; r++)
        CHECK((newrank[r] != MPI_UNDEFINED) == (pe_of[r] == 0 || r == 1 || r == 5), "chain of 6: rank %d (PE %d) got %d",
              r, pe_of[r], newrank[r]);
}

static void large(void)
{
    int dims[3] = {64, 64, 64}, periods[3] = {1, 0, 1}, n = 64 * 64 * 64 + 5, N = 64 * 64 * 64;
    int *pe_of = malloc(sizeof(int) * (size_t)n), *newrank = malloc(sizeof(int) * (size_t)n);
    int *pe_at = malloc(sizeof(int) * (size_t)N), *held = calloc((size_t)N, sizeof(int));
    for (int r = 0; r < n; r++)
        pe_of[r] = (int)((long)r * r % 6); /* uneven and scattered */
    CHECK(vmpi_topo_map_cart(3, dims, periods, n, pe_of, newrank) == MPI_SUCCESS, "large: map failed");
    int undef = 0;
    for (int r = 0; r < n; r++) {
        if (newrank[r] == MPI_UNDEFINED) {
            undef++;
        } else if (newrank[r] < 0 || newrank[r] >= N || held[newrank[r]]++) {
            CHECK(0, "large: rank %d got position %d (invalid or taken)", r, newrank[r]);
            break;
        } else {
            pe_at[newrank[r]] = pe_of[r];
        }
    }
    CHECK(undef == n - N, "large: %d ranks left out, expected %d", undef, n - N);
    long cut = vmpi_topo_cart_cut(3, dims, periods, pe_at);
    long identity = vmpi_topo_cart_cut(3, dims, periods, pe_of);
    CHECK(cut < identity, "large: %ld cross-PE edges, identity %ld", cut, identity);
    printf("64x64x64 on 6 scattered PEs: %ld cross-PE edges (identity %ld)\n", cut, identity);
    free(pe_of);
    free(newrank);
    free(pe_at);
    free(held);
}

int main(void)
{
    eight_on_two();
    two_pes_exhaustive();
    tiling_optima();
    three_pes();
    left_out();
    graphs();
    large();
    if (errs)
        printf(" Found %d errors\n", errs);
    else
        printf(" No Errors\n");
    return errs != 0;
}
