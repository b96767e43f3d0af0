/* SPDX-License-Identifier: BSD-3-Clause */
/* Subarray and darray: the elements a process owns in each dimension, as runs of consecutive indices; the
 * type walks them in array order (C: last dimension fastest; Fortran: first), one block per run of the
 * fastest dimension, and is resized to the whole array (lb 0, extent = product of sizes x old extent). */
#include <stdlib.h>
#include "dtype/build.h"
#include "mpi/datatype/construct.h"

typedef struct run {
    MPI_Aint start, len;
} run;

typedef struct dim {
    MPI_Aint size;          /* global extent in elements */
    run *runs;
    int nruns;
} dim;

/* Appends the runs of dims[0..n-1] (dims[n-1] fastest) at byte offset `base`. */
static void walk(vmpi_dtype_builder *b, const dim *dims, int n, MPI_Aint base, const MPI_Aint *stride,
                 vmpi_dtype *old)
{
    const dim *d = &dims[0];
    for (int r = 0; r < d->nruns && !b->oom; r++) {
        if (n == 1) {
            vmpi_dtb_add(b, old, base + d->runs[r].start * stride[0], (MPI_Count)d->runs[r].len);
            continue;
        }
        for (MPI_Aint i = 0; i < d->runs[r].len; i++)
            walk(b, dims + 1, n - 1, base + (d->runs[r].start + i) * stride[0], stride + 1, old);
    }
}

/* Builds the type from per-dimension runs given in array order `order`; frees the runs. */
static vmpi_dtype *build(dim *dims, int ndims, int order, vmpi_dtype *old)
{
    dim *cd = malloc(sizeof *cd * (size_t)ndims);
    MPI_Aint *stride = malloc(sizeof *stride * (size_t)ndims);
    vmpi_dtype *t = NULL;
    if (cd && stride) {
        /* C order: dims as given; Fortran: reversed, so the fastest dimension is always last */
        for (int d = 0; d < ndims; d++)
            cd[d] = dims[order == MPI_ORDER_C ? d : ndims - 1 - d];
        MPI_Aint s = old->extent;
        for (int d = ndims - 1; d >= 0; d--) {
            stride[d] = s;
            s *= cd[d].size;
        }
        vmpi_dtype_builder b;
        vmpi_dtb_init(&b);
        walk(&b, cd, ndims, 0, stride, old);
        t = vmpi_dtb_finish(&b, false);
        if (t)
            vmpi_dtype_set_bounds(t, 0, s);
    }
    free(cd);
    free(stride);
    for (int d = 0; d < ndims; d++)
        free(dims[d].runs);
    return t;
}

/* The envelope: `ints`, and the large-count form's `counts` (the sizes; none for the int form). */
static vmpi_dtype *with_contents(vmpi_dtype *t, int combiner, int ni, const int *ints, int nl,
                                 const MPI_Count *counts, vmpi_dtype *old)
{
    if (t && !vmpi_dt_set_contents(t, combiner, ni, ints, 0, NULL, nl, counts, 1, &old)) {
        vmpi_dtype_release(t);
        return NULL;
    }
    return t;
}

vmpi_dtype *vmpi_dt_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes, const MPI_Count *starts,
                             int order, vmpi_dtype *old, bool large)
{
    dim *dims = calloc((size_t)ndims, sizeof *dims);
    int *ints = malloc(sizeof *ints * (size_t)(3 * ndims + 2));
    MPI_Count *counts = large ? malloc(sizeof *counts * (size_t)(3 * ndims)) : NULL;
    if (dims == NULL || ints == NULL || (large && counts == NULL)) {
        free(dims);
        free(ints);
        free(counts);
        return NULL;
    }
    bool ok = true;
    for (int d = 0; d < ndims; d++) {
        dims[d].size = sizes[d];
        dims[d].runs = malloc(sizeof *dims[d].runs);
        ok = ok && dims[d].runs;
        if (dims[d].runs) {
            dims[d].runs[0] = (run){starts[d], subsizes[d]};
            dims[d].nruns = 1;
        }
    }
    vmpi_dtype *t = NULL;
    if (ok) {
        t = build(dims, ndims, order, old);
    } else {
        for (int d = 0; d < ndims; d++)
            free(dims[d].runs);
    }
    if (large) { /* ndims, order; the sizes, subsizes and starts as large counts */
        ints[0] = ndims, ints[1] = order;
        for (int d = 0; d < ndims; d++) {
            counts[d] = sizes[d];
            counts[ndims + d] = subsizes[d];
            counts[2 * ndims + d] = starts[d];
        }
        t = with_contents(t, MPI_COMBINER_SUBARRAY, 2, ints, 3 * ndims, counts, old);
    } else {
        ints[0] = ndims;
        for (int d = 0; d < ndims; d++) {
            ints[1 + d] = (int)sizes[d];
            ints[1 + ndims + d] = (int)subsizes[d];
            ints[1 + 2 * ndims + d] = (int)starts[d];
        }
        ints[1 + 3 * ndims] = order;
        t = with_contents(t, MPI_COMBINER_SUBARRAY, 3 * ndims + 2, ints, 0, NULL, old);
    }
    free(dims);
    free(ints);
    free(counts);
    return t;
}

/* The indices of dimension `d` owned by grid coordinate `c` of `p`: false if the distribution is invalid. */
static bool distribute(dim *d, MPI_Count g, int distrib, int darg, int p, int c)
{
    d->size = g;
    d->nruns = 0;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        if (p != 1)
            return false;
        d->runs = malloc(sizeof *d->runs);
        if (d->runs)
            d->runs[d->nruns++] = (run){0, g};
        return d->runs != NULL;
    }
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        MPI_Aint blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? ((MPI_Aint)g + p - 1) / p : darg;
        if (blk <= 0 || blk * p < g)
            return false;
        d->runs = malloc(sizeof *d->runs);
        if (d->runs == NULL)
            return false;
        MPI_Aint lo = blk * c, hi = lo + blk < g ? lo + blk : g;
        if (lo < hi)
            d->runs[d->nruns++] = (run){lo, hi - lo};
        return true;
    }
    /* cyclic(k): blocks of k indices dealt round-robin */
    MPI_Aint k = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    if (k <= 0)
        return false;
    MPI_Aint nblk = (g + k - 1) / k;
    d->runs = malloc(sizeof *d->runs * (size_t)(nblk / p + 1));
    if (d->runs == NULL)
        return false;
    for (MPI_Aint blk = c; blk < nblk; blk += p) {
        MPI_Aint lo = blk * k, hi = lo + k < g ? lo + k : g;
        d->runs[d->nruns++] = (run){lo, hi - lo};
    }
    return true;
}

vmpi_dtype *vmpi_dt_darray(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs,
                           const int *dargs, const int *psizes, int order, vmpi_dtype *old, bool large, bool *bad)
{
    *bad = false;
    dim *dims = calloc((size_t)ndims, sizeof *dims);
    int ni = 4 * ndims + 4;
    int *ints = malloc(sizeof *ints * (size_t)ni);
    MPI_Count *counts = large ? malloc(sizeof *counts * (size_t)ndims) : NULL;
    if (dims == NULL || ints == NULL || (large && counts == NULL)) {
        free(dims);
        free(ints);
        free(counts);
        return NULL;
    }
    /* process coordinates: the grid is numbered in row-major order whatever the array order */
    int r = rank, procs = size;
    bool ok = true;
    for (int d = 0; d < ndims; d++) {
        procs /= psizes[d];
        int c = r / procs;
        r %= procs;
        if (!distribute(&dims[d], gsizes[d], distribs[d], dargs[d], psizes[d], c))
            ok = false;
    }
    vmpi_dtype *t = NULL;
    if (ok) {
        t = build(dims, ndims, order, old);
    } else {
        *bad = true;
        for (int d = 0; d < ndims; d++)
            free(dims[d].runs);
    }
    /* size, rank, ndims, [gsizes: the int form's], distribs, dargs, psizes, order; the large-count form's
     * gsizes as large counts */
    int g = large ? 0 : ndims, k = 0;
    ints[k++] = size, ints[k++] = rank, ints[k++] = ndims;
    for (int d = 0; d < g; d++)
        ints[k++] = (int)gsizes[d];
    for (int d = 0; d < ndims; d++)
        ints[k + d] = distribs[d], ints[k + ndims + d] = dargs[d], ints[k + 2 * ndims + d] = psizes[d];
    k += 3 * ndims;
    ints[k++] = order;
    for (int d = 0; large && d < ndims; d++)
        counts[d] = gsizes[d];
    t = with_contents(t, MPI_COMBINER_DARRAY, k, ints, large ? ndims : 0, counts, old);
    free(dims);
    free(ints);
    free(counts);
    return t;
}
