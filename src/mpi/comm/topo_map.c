/* SPDX-License-Identifier: BSD-3-Clause */
/* Locality-aware placement of topology positions on ranks (contract in topo_map.h).  Everything here is
 * plain data in, plain data out: no MPI state, so the unit test runs it alone. */
#include <limits.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/topo_map.h"

typedef struct keyed {
    long long key;
    int v;
} keyed;

static int by_key(const void *a, const void *b)
{
    long long x = ((const keyed *)a)->key, y = ((const keyed *)b)->key;
    return (x > y) - (x < y);
}

/* ---- ranks grouped by PE ---- */

/* The ranks that take part, grouped by PE: groups in order of their lowest rank, members ascending; whole
 * groups are taken in that order until `need` ranks are in (the last one taken may be cut short), so the
 * ranks a smaller topology leaves out are whole PEs where possible. */
typedef struct pe_groups {
    int k;        /* groups */
    int *count;   /* members of each group */
    int *first;   /* index in `members` of each group's first member */
    int *members; /* `need` ranks */
} pe_groups;

static void groups_free(pe_groups *G)
{
    free(G->count);
    free(G->first);
    free(G->members);
}

static int groups_make(int n, const int *pe_of, int need, pe_groups *G)
{
    keyed *s = malloc(sizeof *s * (size_t)n), *runs = malloc(sizeof *runs * (size_t)n);
    int *start = malloc(sizeof(int) * (size_t)n);
    *G = (pe_groups){0, malloc(sizeof(int) * (size_t)n), malloc(sizeof(int) * (size_t)n),
                     malloc(sizeof(int) * (size_t)(need > 0 ? need : 1))};
    if (!s || !runs || !start || !G->count || !G->first || !G->members) {
        free(s);
        free(runs);
        free(start);
        groups_free(G);
        *G = (pe_groups){0};
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < n; r++)
        s[r] = (keyed){(long long)pe_of[r] << 32 | r, r};
    qsort(s, (size_t)n, sizeof *s, by_key); /* by PE, then rank */
    int nruns = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || pe_of[s[i].v] != pe_of[s[i - 1].v]) {
            start[nruns] = i;
            runs[nruns] = (keyed){s[i].v, nruns}; /* a run's key: its lowest rank */
            nruns++;
        }
    qsort(runs, (size_t)nruns, sizeof *runs, by_key);
    int taken = 0;
    for (int j = 0; j < nruns && taken < need; j++) {
        int run = runs[j].v, end = run + 1 < nruns ? start[run + 1] : n;
        G->first[G->k] = taken;
        for (int i = start[run]; i < end && taken < need; i++)
            G->members[taken++] = s[i].v;
        G->count[G->k] = taken - G->first[G->k];
        G->k++;
    }
    free(s);
    free(runs);
    free(start);
    return MPI_SUCCESS;
}

/* Position -> rank: the positions owned by group g (ascending) get g's ranks (ascending). */
static int place(const pe_groups *G, const int *owner, int npos, int *rank_at)
{
    int *next = malloc(sizeof(int) * (size_t)G->k);
    if (next == NULL)
        return MPI_ERR_NO_MEM;
    memcpy(next, G->first, sizeof(int) * (size_t)G->k);
    for (int p = 0; p < npos; p++)
        rank_at[p] = G->members[next[owner[p]]++];
    free(next);
    return MPI_SUCCESS;
}

/* ---- Cartesian grids ---- */

typedef struct grid {
    int ndims, npos;
    const int *dims, *periods;
    int *stride; /* row-major: the last dimension varies fastest */
} grid;

static int coord(const grid *g, int p, int d) { return p / g->stride[d] % g->dims[d]; }

/* The neighbour one step up along d (across the wrap when periodic), or -1. */
static int up(const grid *g, int p, int d)
{
    int c = coord(g, p, d);
    if (c + 1 < g->dims[d])
        return p + g->stride[d];
    if (g->periods[d] && g->dims[d] > 1)
        return p - c * g->stride[d];
    return -1;
}

static int grid_init(grid *g, int ndims, const int *dims, const int *periods)
{
    *g = (grid){ndims, 1, dims, periods, malloc(sizeof(int) * (size_t)(ndims > 0 ? ndims : 1))};
    if (g->stride == NULL)
        return MPI_ERR_NO_MEM;
    for (int d = ndims - 1; d >= 0; d--) {
        g->stride[d] = g->npos;
        g->npos *= dims[d];
    }
    return MPI_SUCCESS;
}

long vmpi_topo_cart_cut(int ndims, const int *dims, const int *periods, const int *pe_at)
{
    grid g;
    if (grid_init(&g, ndims, dims, periods))
        return LONG_MAX;
    long cut = 0;
    for (int p = 0; p < g.npos; p++)
        for (int d = 0; d < ndims; d++) {
            int q = up(&g, p, d);
            cut += q >= 0 && pe_at[q] != pe_at[p];
        }
    free(g.stride);
    return cut;
}

/* Recursive bisection: the groups [g0, g1) share the positions `pos`; the first half of the groups takes
 * as many positions as it has ranks, the first ones in an order that runs slowest along one dimension d and
 * fastest along another e (so a partial slab fills lines along e).  Of all (d, e) the one whose cut crosses
 * fewest neighbour edges wins; ties go to the cut that leaves both parts whole boxes (or nearest to), then
 * to the longest d.  Parts stay compact, and a cut that falls on a whole slab costs only its cross-section. */
typedef struct bisection {
    grid g;
    const int *count; /* positions each group takes */
    int *owner;       /* position -> group */
    char *side;       /* position -> 0 outside the set being cut, else 1 or 2 */
    keyed *sorted;
    int *lo, *hi;     /* bounding boxes, 2 x ndims */
} bisection;

/* Sorts `pos` by coordinate d, then row-major with dimension e (or none, -1) varying fastest. */
static void sort_along(const bisection *B, const int *pos, int npos, int d, int e)
{
    const grid *g = &B->g;
    for (int i = 0; i < npos; i++) {
        int p = pos[i], ce = e >= 0 ? coord(g, p, e) : 0;
        long long rest = p - (long long)ce * (e >= 0 ? g->stride[e] : 0); /* key < npos^2 <= 2^48 */
        long long key = ((long long)coord(g, p, d) * g->npos + rest) * (e >= 0 ? g->dims[e] : 1) + ce;
        B->sorted[i] = (keyed){key, p};
    }
    qsort(B->sorted, (size_t)npos, sizeof *B->sorted, by_key);
}

/* Edges inside the set that cross from its first `first` sorted positions to the rest, and in *waste the
 * positions of the two parts' bounding boxes that are not in the part (0: both parts are boxes). */
static long cut_of_sorted(bisection *B, int npos, int first, long long *waste)
{
    int nd = B->g.ndims;
    for (int d = 0; d < nd; d++) {
        B->lo[d] = B->lo[nd + d] = INT_MAX;
        B->hi[d] = B->hi[nd + d] = -1;
    }
    for (int i = 0; i < npos; i++) {
        int p = B->sorted[i].v, part = i < first ? 0 : nd;
        B->side[p] = i < first ? 1 : 2;
        for (int d = 0; d < nd; d++) {
            int c = coord(&B->g, p, d);
            B->lo[part + d] = c < B->lo[part + d] ? c : B->lo[part + d];
            B->hi[part + d] = c > B->hi[part + d] ? c : B->hi[part + d];
        }
    }
    long long vol[2] = {1, 1};
    for (int d = 0; d < nd; d++)
        for (int k = 0; k < 2; k++)
            vol[k] *= B->hi[k * nd + d] - B->lo[k * nd + d] + 1;
    *waste = vol[0] + vol[1] - npos;
    long cut = 0;
    for (int i = 0; i < npos; i++) {
        int p = B->sorted[i].v;
        for (int d = 0; d < nd; d++) {
            int q = up(&B->g, p, d);
            cut += q >= 0 && B->side[q] && B->side[q] != B->side[p];
        }
    }
    for (int i = 0; i < npos; i++)
        B->side[B->sorted[i].v] = 0;
    return cut;
}

/* Extent of `pos` along d (coordinates spanned). */
static int extent(const bisection *B, const int *pos, int npos, int d)
{
    int lo = INT_MAX, hi = -1;
    for (int i = 0; i < npos; i++) {
        int c = coord(&B->g, pos[i], d);
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
    }
    return hi - lo + 1;
}

static void bisect(bisection *B, int *pos, int npos, int g0, int g1)
{
    if (g1 - g0 == 1) {
        for (int i = 0; i < npos; i++)
            B->owner[pos[i]] = g0;
        return;
    }
    int gm = g0 + (g1 - g0) / 2, first = 0, nd = B->g.ndims;
    for (int g = g0; g < gm; g++)
        first += B->count[g];
    int best_d = -1, best_e = -1, best_ext = 0;
    long best_cut = 0;
    long long best_waste = 0;
    for (int d = 0; d < nd; d++) {
        int ext = extent(B, pos, npos, d);
        if (ext < 2)
            continue;
        bool any_e = false;
        for (int e = 0; e <= nd; e++) { /* e == nd: no fastest dimension (plain row-major), when none spans */
            if (e == d || (e < nd && extent(B, pos, npos, e) < 2) || (e == nd && any_e))
                continue;
            any_e = true;
            int ee = e < nd ? e : -1;
            long long waste;
            sort_along(B, pos, npos, d, ee);
            long cut = cut_of_sorted(B, npos, first, &waste);
            if (best_d < 0 || cut < best_cut || (cut == best_cut && waste < best_waste) ||
                (cut == best_cut && waste == best_waste && ext > best_ext)) {
                best_d = d;
                best_e = ee;
                best_cut = cut;
                best_waste = waste;
                best_ext = ext;
            }
        }
    }
    /* two groups or more hold at least two positions, so some dimension spans two coordinates */
    sort_along(B, pos, npos, best_d, best_e);
    for (int i = 0; i < npos; i++)
        pos[i] = B->sorted[i].v;
    bisect(B, pos, first, g0, gm);
    bisect(B, pos + first, npos - first, gm, g1);
}

/* Keeps `rank_at` (position -> rank) in newrank when it has fewer cross-PE edges than the identity. */
static void keep_if_better(long cut_identity, long cut_mapped, const int *rank_at, int npos, int n, int *newrank)
{
    if (cut_mapped >= cut_identity)
        return;
    for (int r = 0; r < n; r++)
        newrank[r] = MPI_UNDEFINED;
    for (int p = 0; p < npos; p++)
        newrank[rank_at[p]] = p;
}

int vmpi_topo_map_cart(int ndims, const int *dims, const int *periods, int n, const int *pe_of, int *newrank)
{
    bisection B = {0};
    pe_groups G = {0};
    int err = grid_init(&B.g, ndims, dims, periods), N = B.g.npos;
    for (int r = 0; r < n; r++)
        newrank[r] = r < N ? r : MPI_UNDEFINED; /* the identity, unless the mapping does better */
    if (!err)
        err = groups_make(n, pe_of, N, &G);
    int *pos = NULL, *rank_at = NULL, *pe_at = NULL;
    if (!err && G.k > 1) {
        B.count = G.count;
        B.owner = malloc(sizeof(int) * (size_t)N);
        B.side = calloc((size_t)N, 1);
        B.sorted = malloc(sizeof(keyed) * (size_t)N);
        B.lo = malloc(sizeof(int) * (size_t)(2 * ndims));
        B.hi = malloc(sizeof(int) * (size_t)(2 * ndims));
        pos = malloc(sizeof(int) * (size_t)N);
        rank_at = malloc(sizeof(int) * (size_t)N);
        pe_at = malloc(sizeof(int) * (size_t)N);
        if (!B.owner || !B.side || !B.sorted || !B.lo || !B.hi || !pos || !rank_at || !pe_at)
            err = MPI_ERR_NO_MEM;
    }
    if (!err && G.k > 1) {
        for (int p = 0; p < N; p++)
            pos[p] = p;
        bisect(&B, pos, N, 0, G.k);
        if (!(err = place(&G, B.owner, N, rank_at))) {
            for (int p = 0; p < N; p++)
                pe_at[p] = pe_of[p];
            long cut_identity = vmpi_topo_cart_cut(ndims, dims, periods, pe_at);
            for (int p = 0; p < N; p++)
                pe_at[p] = pe_of[rank_at[p]];
            keep_if_better(cut_identity, vmpi_topo_cart_cut(ndims, dims, periods, pe_at), rank_at, N, n, newrank);
        }
    }
    free(B.g.stride);
    free(B.owner);
    free(B.side);
    free(B.sorted);
    free(B.lo);
    free(B.hi);
    free(pos);
    free(rank_at);
    free(pe_at);
    groups_free(&G);
    return err;
}

/* ---- graphs ---- */

long vmpi_topo_graph_cut(int nnodes, const int *index, const int *edges, const int *pe_at)
{
    long cut = 0;
    for (int u = 0; u < nnodes; u++)
        for (int e = u ? index[u - 1] : 0; e < index[u]; e++)
            cut += pe_at[edges[e]] != pe_at[u];
    return cut;
}

/* Greedy growth, one group at a time: a region starts at the lowest node not taken yet and keeps taking the
 * neighbour with the most edges into it (ties: the one found first, so growth is breadth-first), following
 * edges in both directions; a region with no neighbour left restarts at the lowest free node.  A max-heap
 * of (edges into the region, discovery order) with stale entries skipped keeps it O(E log E). */
typedef struct cand {
    int gain, order, v;
} cand;

static bool before(cand a, cand b) { return a.gain != b.gain ? a.gain > b.gain : a.order < b.order; }

static void heap_push(cand *h, int *n, cand c)
{
    int i = (*n)++;
    for (; i > 0 && before(c, h[(i - 1) / 2]); i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = c;
}

static cand heap_pop(cand *h, int *n)
{
    cand top = h[0], last = h[--*n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(h[c + 1], h[c]))
            c++;
        if (!before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
    return top;
}

typedef struct growth {
    int *off, *adj;   /* undirected adjacency (CSR), self-loops dropped */
    int *gain, *order; /* per node, relative to the region being grown; order -1: not found yet */
    int *touched;     /* nodes whose gain/order the current region set */
    cand *heap;
} growth;

static void grow(const growth *W, int nnodes, const pe_groups *G, int *owner)
{
    for (int v = 0; v < nnodes; v++) {
        owner[v] = -1;
        W->gain[v] = 0;
        W->order[v] = -1;
    }
    int seed = 0;
    for (int g = 0; g < G->k; g++) {
        int need = G->count[g], nheap = 0, ntouched = 0, clock = 0;
        while (need > 0) {
            if (nheap == 0) {
                while (owner[seed] >= 0)
                    seed++;
                heap_push(W->heap, &nheap, (cand){0, clock++, seed});
            }
            cand c = heap_pop(W->heap, &nheap);
            if (owner[c.v] >= 0 || c.gain != W->gain[c.v])
                continue; /* taken, or superseded by an entry with more edges */
            owner[c.v] = g;
            need--;
            for (int i = W->off[c.v]; i < W->off[c.v + 1]; i++) {
                int u = W->adj[i];
                if (owner[u] >= 0)
                    continue;
                if (W->order[u] < 0) {
                    W->order[u] = clock++;
                    W->touched[ntouched++] = u;
                }
                heap_push(W->heap, &nheap, (cand){++W->gain[u], W->order[u], u});
            }
        }
        for (int i = 0; i < ntouched; i++) {
            W->gain[W->touched[i]] = 0;
            W->order[W->touched[i]] = -1;
        }
    }
}

/* Fills the undirected adjacency of W from the graph; NULL members when out of memory. */
static int growth_init(growth *W, int nnodes, const int *index, const int *edges)
{
    int nedges = nnodes ? index[nnodes - 1] : 0;
    size_t nn = (size_t)nnodes + 1, ne = 2 * (size_t)nedges + 1;
    *W = (growth){calloc(nn, sizeof(int)), malloc(sizeof(int) * ne), malloc(sizeof(int) * nn),
                  malloc(sizeof(int) * nn), malloc(sizeof(int) * nn), malloc(sizeof(cand) * (ne + nn))};
    if (!W->off || !W->adj || !W->gain || !W->order || !W->touched || !W->heap)
        return MPI_ERR_NO_MEM;
    for (int u = 0; u < nnodes; u++)
        for (int e = u ? index[u - 1] : 0; e < index[u]; e++)
            if (edges[e] != u) {
                W->off[u + 1]++;
                W->off[edges[e] + 1]++;
            }
    for (int u = 0; u < nnodes; u++)
        W->off[u + 1] += W->off[u];
    int *fill = W->gain; /* borrowed as the fill cursors; grow() resets it */
    memcpy(fill, W->off, sizeof(int) * (size_t)nnodes);
    for (int u = 0; u < nnodes; u++)
        for (int e = u ? index[u - 1] : 0; e < index[u]; e++)
            if (edges[e] != u) {
                W->adj[fill[u]++] = edges[e];
                W->adj[fill[edges[e]]++] = u;
            }
    return MPI_SUCCESS;
}

static void growth_free(growth *W)
{
    free(W->off);
    free(W->adj);
    free(W->gain);
    free(W->order);
    free(W->touched);
    free(W->heap);
}

int vmpi_topo_map_graph(int nnodes, const int *index, const int *edges, int n, const int *pe_of, int *newrank)
{
    for (int r = 0; r < n; r++)
        newrank[r] = r < nnodes ? r : MPI_UNDEFINED;
    pe_groups G;
    int err = groups_make(n, pe_of, nnodes, &G);
    if (err)
        return err;
    int *owner = NULL, *rank_at = NULL, *pe_at = NULL;
    if (G.k > 1) {
        owner = malloc(sizeof(int) * (size_t)nnodes);
        rank_at = malloc(sizeof(int) * (size_t)nnodes);
        pe_at = malloc(sizeof(int) * (size_t)nnodes);
        growth W;
        err = growth_init(&W, nnodes, index, edges);
        if (!err && (!owner || !rank_at || !pe_at))
            err = MPI_ERR_NO_MEM;
        if (!err)
            grow(&W, nnodes, &G, owner);
        growth_free(&W);
        if (!err)
            err = place(&G, owner, nnodes, rank_at);
        if (!err) {
            for (int v = 0; v < nnodes; v++)
                pe_at[v] = pe_of[v];
            long cut_identity = vmpi_topo_graph_cut(nnodes, index, edges, pe_at);
            for (int v = 0; v < nnodes; v++)
                pe_at[v] = pe_of[rank_at[v]];
            keep_if_better(cut_identity, vmpi_topo_graph_cut(nnodes, index, edges, pe_at), rank_at, nnodes, n,
                           newrank);
        }
    }
    free(owner);
    free(rank_at);
    free(pe_at);
    groups_free(&G);
    return err;
}
