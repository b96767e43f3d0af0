/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/topo.h"

vmpi_topo *vmpi_topo_ref(vmpi_topo *t)
{
    if (t)
        atomic_fetch_add_explicit(&t->refs, 1, memory_order_relaxed);
    return t;
}

void vmpi_topo_unref(vmpi_topo *t)
{
    if (t == NULL || atomic_fetch_sub_explicit(&t->refs, 1, memory_order_acq_rel) != 1)
        return;
    free(t->dims);
    free(t->periods);
    free(t->index);
    free(t->edges);
    free(t->sources);
    free(t->sweights);
    free(t->dests);
    free(t->dweights);
    free(t);
}

/* A copy of n ints (an empty array is a valid, freeable pointer); *ok turns false when out of memory. */
static int *dupints(const int *a, int n, bool *ok)
{
    int *d = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    if (d == NULL) {
        *ok = false;
        return NULL;
    }
    if (n > 0 && a)
        memcpy(d, a, sizeof(int) * (size_t)n);
    return d;
}

static vmpi_topo *topo_new(int kind)
{
    vmpi_topo *t = calloc(1, sizeof *t);
    if (t) {
        atomic_init(&t->refs, 1);
        t->kind = kind;
    }
    return t;
}

static vmpi_topo *checked(vmpi_topo *t, bool ok)
{
    if (!ok) {
        vmpi_topo_unref(t);
        return NULL;
    }
    return t;
}

vmpi_topo *vmpi_topo_cart(int ndims, const int *dims, const int *periods)
{
    vmpi_topo *t = topo_new(MPI_CART);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->ndims = ndims;
    t->dims = dupints(dims, ndims, &ok);
    t->periods = dupints(NULL, ndims, &ok);
    for (int i = 0; ok && i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    return checked(t, ok);
}

vmpi_topo *vmpi_topo_graph(int nnodes, const int *index, const int *edges)
{
    vmpi_topo *t = topo_new(MPI_GRAPH);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->nnodes = nnodes;
    t->index = dupints(index, nnodes, &ok);
    t->edges = dupints(edges, nnodes ? index[nnodes - 1] : 0, &ok);
    return checked(t, ok);
}

vmpi_topo *vmpi_topo_dist(int indeg, const int *src, const int *sw, int outdeg, const int *dst, const int *dw,
                          bool weighted)
{
    vmpi_topo *t = topo_new(MPI_DIST_GRAPH);
    bool ok = t != NULL;
    if (!ok)
        return NULL;
    t->indegree = indeg;
    t->outdegree = outdeg;
    t->weighted = weighted;
    t->sources = dupints(src, indeg, &ok);
    t->dests = dupints(dst, outdeg, &ok);
    t->sweights = dupints(weighted ? sw : NULL, indeg, &ok);
    t->dweights = dupints(weighted ? dw : NULL, outdeg, &ok);
    for (int i = 0; ok && !weighted && i < indeg; i++)
        t->sweights[i] = 1;
    for (int i = 0; ok && !weighted && i < outdeg; i++)
        t->dweights[i] = 1;
    return checked(t, ok);
}

int vmpi_cart_rank(const vmpi_topo *t, const int *coords)
{
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i], d = t->dims[i];
        if (c < 0 || c >= d) {
            if (!t->periods[i])
                return MPI_PROC_NULL;
            c = ((c % d) + d) % d;
        }
        r = r * d + c;
    }
    return r;
}

void vmpi_cart_coords(const vmpi_topo *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int vmpi_graph_nneighbors(const vmpi_topo *t, int rank)
{
    return t->index[rank] - (rank ? t->index[rank - 1] : 0);
}

const int *vmpi_graph_neighbors(const vmpi_topo *t, int rank) { return t->edges + (rank ? t->index[rank - 1] : 0); }

/* Prime factors of n, largest first. */
static int factors(int n, int *f)
{
    int k = 0;
    for (int p = 2; (long)p * p <= n; p++)
        while (n % p == 0) {
            f[k++] = p;
            n /= p;
        }
    if (n > 1)
        f[k++] = n;
    for (int i = 0, j = k - 1; i < j; i++, j--) {
        int x = f[i];
        f[i] = f[j];
        f[j] = x;
    }
    return k;
}

int vmpi_dims_create(int nnodes, int ndims, int *dims)
{
    long fixed = 1;
    int free_n = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return MPI_ERR_DIMS;
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            free_n++;
    }
    if (fixed == 0 || nnodes % fixed != 0)
        return MPI_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (free_n == 0)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    /* give each prime factor, largest first, to the currently smallest free dimension: balanced sizes */
    int *d = malloc(sizeof(int) * (size_t)free_n), f[32];
    if (d == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < free_n; i++)
        d[i] = 1;
    int nf = factors(rest, f);
    for (int i = 0; i < nf; i++) {
        int m = 0;
        for (int j = 1; j < free_n; j++)
            if (d[j] < d[m])
                m = j;
        d[m] *= f[i];
    }
    /* non-increasing order, as the standard requires */
    for (int i = 0; i < free_n; i++)
        for (int j = i + 1; j < free_n; j++)
            if (d[j] > d[i]) {
                int x = d[i];
                d[i] = d[j];
                d[j] = x;
            }
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = d[k++];
    free(d);
    return MPI_SUCCESS;
}
