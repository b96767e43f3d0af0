/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Dims_create: the most balanced decomposition, by a bounded search over the divisors of nnodes. */
#include <stdlib.h>
#include <string.h>
#include "mpi/comm/topo.h"

/* At most 31 factors of an int exceed 1: a search needs no more slots than that. */
#define DIMS_MAXF 31

typedef struct dims_search {
    const int *divs; /* the divisors of n, ascending */
    int ndivs, k;    /* k: slots searched (the ones before them are 1) */
    int lead_one;    /* slots before the searched ones, all 1 */
    int cur[DIMS_MAXF], best[DIMS_MAXF], bestbal;
} dims_search;

/* Fills cur[pos..k-1] non-decreasingly from divs[start..] with product r.  The best: the smallest
 * max - min; among equals the one whose ascending list is lexicographically largest (the largest smallest
 * dimension, then second smallest...): the last one found, since the search runs in that order.  This is
 * MPICH's choice (its test topo/dims5 lists 75000 cases). */
static void dims_dfs(dims_search *s, int start, long r, int pos)
{
    int j = s->k - pos; /* slots left */
    if (j == 1) {
        if (pos > 0 && r < s->cur[pos - 1])
            return;
        s->cur[pos] = (int)r;
        int bal = (int)r - (s->lead_one ? 1 : s->cur[0]);
        if (bal <= s->bestbal) {
            s->bestbal = bal;
            memcpy(s->best, s->cur, sizeof(int) * (size_t)s->k);
        }
        return;
    }
    for (int i = start; i < s->ndivs; i++) {
        long f = s->divs[i], p = 1;
        for (int t = 0; t < j && p <= r; t++)
            p *= f;
        if (p > r) /* the j factors left are all at least f */
            break;
        if (r % f)
            continue;
        int mn = s->lead_one ? 1 : pos ? s->cur[0] : (int)f;
        if (f - mn > s->bestbal) /* the largest factor is at least f */
            break;
        s->cur[pos] = (int)f;
        dims_dfs(s, i, r / f, pos + 1);
    }
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
        if (fixed > nnodes)
            return MPI_ERR_DIMS;
    }
    if (fixed == 0 || nnodes % fixed != 0)
        return MPI_ERR_DIMS;
    int rest = (int)(nnodes / fixed);
    if (free_n == 0)
        return rest == 1 ? MPI_SUCCESS : MPI_ERR_DIMS;
    if (rest == 0)
        return MPI_ERR_DIMS;
    int ndivs = 0, *divs = malloc(sizeof(int) * 1600); /* an int has at most 1536 divisors */
    if (divs == NULL)
        return MPI_ERR_NO_MEM;
    for (int d = 1; (long)d * d <= rest; d++)
        if (rest % d == 0)
            divs[ndivs++] = d;
    for (int i = ndivs - 1; i >= 0; i--)
        if (divs[i] != rest / divs[i])
            divs[ndivs++] = rest / divs[i];
    dims_search s = {.divs = divs, .ndivs = ndivs, .bestbal = rest};
    s.k = free_n < DIMS_MAXF ? free_n : DIMS_MAXF;
    s.lead_one = free_n - s.k; /* more slots than factors > 1: the extra ones are 1 */
    dims_dfs(&s, 0, rest, 0);
    free(divs);
    /* the free entries in non-increasing order, as the standard requires */
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0) {
            dims[i] = k < s.k ? s.best[s.k - 1 - k] : 1;
            k++;
        }
    return MPI_SUCCESS;
}
