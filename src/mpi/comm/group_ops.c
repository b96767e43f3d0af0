/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/group_ops.h"

static int make(const int *world, int n, vmpi_group **out)
{
    *out = vmpi_group_new(world, n);
    return *out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

/* A scratch array of n ints (at least one). */
static int *ints(int n) { return malloc(sizeof(int) * (size_t)(n > 0 ? n : 1)); }

int vmpi_group_incl(const vmpi_group *g, int n, const int *ranks, vmpi_group **out)
{
    int *w = ints(n);
    char *seen = calloc((size_t)(g->size ? g->size : 1), 1);
    int err = w && seen ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || seen[ranks[i]]++)
            err = MPI_ERR_RANK; /* out of the group, or named twice */
        else
            w[i] = g->world[ranks[i]];
    }
    if (err == MPI_SUCCESS)
        err = make(w, n, out);
    free(w);
    free(seen);
    return err;
}

int vmpi_group_excl(const vmpi_group *g, int n, const int *ranks, vmpi_group **out)
{
    char *drop = calloc((size_t)(g->size ? g->size : 1), 1);
    int *w = ints(g->size);
    int err = drop && w ? MPI_SUCCESS : MPI_ERR_NO_MEM, k = 0;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++) {
        if (ranks[i] < 0 || ranks[i] >= g->size || drop[ranks[i]]++)
            err = MPI_ERR_RANK;
    }
    if (err == MPI_SUCCESS) {
        for (int r = 0; r < g->size; r++)
            if (!drop[r])
                w[k++] = g->world[r];
        err = make(w, k, out);
    }
    free(drop);
    free(w);
    return err;
}

/* Expands (first, last, stride) triplets into ranks, checking them as the standard says. */
static int expand(const vmpi_group *g, int n, int ranges[][3], int **ranks, int *count)
{
    long total = 0;
    for (int i = 0; i < n; i++) {
        int f = ranges[i][0], l = ranges[i][1], s = ranges[i][2];
        if (s == 0 || f < 0 || f >= g->size || l < 0 || l >= g->size || (s > 0 && f > l) || (s < 0 && f < l))
            return s == 0 ? MPI_ERR_ARG : MPI_ERR_RANK;
        total += (l - f) / s + 1;
    }
    if (total > g->size)
        return MPI_ERR_RANK; /* some rank named twice */
    int *r = ints((int)total), k = 0;
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < n; i++)
        for (int x = ranges[i][0];
             ranges[i][2] > 0 ? x <= ranges[i][1] : x >= ranges[i][1]; x += ranges[i][2])
            r[k++] = x;
    *ranks = r;
    *count = k;
    return MPI_SUCCESS;
}

int vmpi_group_range_incl(const vmpi_group *g, int n, int ranges[][3], vmpi_group **out)
{
    int *r, k, err = expand(g, n, ranges, &r, &k);
    if (err)
        return err;
    err = vmpi_group_incl(g, k, r, out);
    free(r);
    return err;
}

int vmpi_group_range_excl(const vmpi_group *g, int n, int ranges[][3], vmpi_group **out)
{
    int *r, k, err = expand(g, n, ranges, &r, &k);
    if (err)
        return err;
    err = vmpi_group_excl(g, k, r, out);
    free(r);
    return err;
}

/* Members of a (in a's order) that are (in_b = 1) or are not (in_b = 0) in b; then, with add_b, the
 * members of b (in b's order) that are not in a. */
static int merge(const vmpi_group *a, const vmpi_group *b, int in_b, int all_a, int add_b, vmpi_group **out)
{
    int *w = ints(a->size + (add_b ? b->size : 0)), k = 0;
    if (w == NULL)
        return MPI_ERR_NO_MEM;
    for (int r = 0; r < a->size; r++)
        if (all_a || (vmpi_group_rank_of(b, a->world[r]) != MPI_UNDEFINED) == in_b)
            w[k++] = a->world[r];
    if (add_b)
        for (int r = 0; r < b->size; r++)
            if (vmpi_group_rank_of(a, b->world[r]) == MPI_UNDEFINED)
                w[k++] = b->world[r];
    int err = make(w, k, out);
    free(w);
    return err;
}

int vmpi_group_union(const vmpi_group *a, const vmpi_group *b, vmpi_group **out)
{
    return merge(a, b, 0, 1, 1, out);
}

int vmpi_group_intersection(const vmpi_group *a, const vmpi_group *b, vmpi_group **out)
{
    return merge(a, b, 1, 0, 0, out);
}

int vmpi_group_difference(const vmpi_group *a, const vmpi_group *b, vmpi_group **out)
{
    return merge(a, b, 0, 0, 0, out);
}

int vmpi_group_compare(const vmpi_group *a, const vmpi_group *b)
{
    if (a->size != b->size)
        return MPI_UNEQUAL;
    int same_order = 1;
    for (int r = 0; r < a->size; r++) {
        int rb = vmpi_group_rank_of(b, a->world[r]);
        if (rb == MPI_UNDEFINED)
            return MPI_UNEQUAL;
        same_order &= rb == r;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

int vmpi_group_translate(const vmpi_group *a, int n, const int *ranks, const vmpi_group *b, int *out)
{
    for (int i = 0; i < n; i++) {
        if (ranks[i] == MPI_PROC_NULL) {
            out[i] = MPI_PROC_NULL;
            continue;
        }
        if (ranks[i] < 0 || ranks[i] >= a->size)
            return MPI_ERR_RANK;
        out[i] = vmpi_group_rank_of(b, a->world[ranks[i]]);
    }
    return MPI_SUCCESS;
}
