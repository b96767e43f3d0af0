/* SPDX-License-Identifier: BSD-3-Clause */
/* Subarray and darray against hand-written index formulas.  An int array holds its own linear indices; packing
 * it with the type lists the indices the type selects, in typemap order, which must be exactly the formula's
 * (C order: last dimension fastest; Fortran: first).  Darray is checked for every process of several grids
 * (the union covers each element once); the subarray is also sent and received through the partner rank,
 * gaps untouched. */
#include "mtest.h"

#define MAXD 4

/* Linear index of multi-index `ix` in an array of `g` (order C or Fortran). */
static long linear(int nd, const int *g, const int *ix, int order)
{
    long v = 0;
    if (order == MPI_ORDER_C)
        for (int d = 0; d < nd; d++)
            v = v * g[d] + ix[d];
    else
        for (int d = nd - 1; d >= 0; d--)
            v = v * g[d] + ix[d];
    return v;
}

/* Advances `ix` over the box lo..hi (exclusive) in array order; false when done. */
static int next(int nd, int *ix, const int *lo, const int *hi, int order)
{
    for (int k = 0; k < nd; k++) {
        int d = order == MPI_ORDER_C ? nd - 1 - k : k;
        if (++ix[d] < hi[d])
            return 1;
        ix[d] = lo[d];
    }
    return 0;
}

/* Packs `n` ints of the index array with `dt`; returns how many ints came out. */
static int selected(MPI_Datatype dt, long total, int *out, int max)
{
    int *a = mt_malloc(sizeof(int) * (size_t)total);
    for (long i = 0; i < total; i++)
        a[i] = (int)i;
    int size, pos = 0;
    MPI_Type_size(dt, &size);
    if (size / (int)sizeof(int) > max)
        size = max * (int)sizeof(int);
    MPI_Pack(a, 1, dt, out, max * (int)sizeof(int), &pos, MPI_COMM_SELF);
    free(a);
    return pos / (int)sizeof(int);
}

static int check_subarray(int nd, const int *sizes, const int *sub, const int *starts, int order, int partner)
{
    int errs = 0;
    MPI_Datatype t;
    MPI_Type_create_subarray(nd, sizes, sub, starts, order, MPI_INT, &t);
    MPI_Type_commit(&t);
    long total = 1, want = 1;
    int lo[MAXD], hi[MAXD], ix[MAXD];
    for (int d = 0; d < nd; d++) {
        total *= sizes[d];
        want *= sub[d];
        lo[d] = ix[d] = starts[d];
        hi[d] = starts[d] + sub[d];
    }
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    MT_CHECK(errs, lb == 0 && ext == (MPI_Aint)(total * sizeof(int)), "subarray (%s, %d dims): lb %ld extent %ld",
             order == MPI_ORDER_C ? "C" : "Fortran", nd, (long)lb, (long)ext);
    int *got = mt_malloc(sizeof(int) * (size_t)want);
    int n = selected(t, total, got, (int)want);
    MT_CHECK_INT(errs, "subarray elements", want, n);
    long k = 0;
    do {
        long w = linear(nd, sizes, ix, order);
        if (k < n && got[k] != w) {
            MT_ERR(errs, "subarray (%s): element %ld is index %d, expected %ld", order == MPI_ORDER_C ? "C" : "F",
                   k, got[k], w);
            break;
        }
        k++;
    } while (next(nd, ix, lo, hi, order));

    /* through a message: typed receive of the partner's selected values, gaps untouched */
    int *src = mt_malloc(sizeof(int) * (size_t)total), *dst = mt_malloc(sizeof(int) * (size_t)total);
    for (long i = 0; i < total; i++)
        src[i] = (int)i, dst[i] = -1;
    MPI_Sendrecv(src, 1, t, partner, 5, dst, 1, t, partner, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long inside = 0;
    for (long i = 0; i < total; i++)
        if (dst[i] != -1) {
            inside++;
            if (dst[i] != i) {
                MT_ERR(errs, "subarray message: element %ld is %d", i, dst[i]);
                break;
            }
        }
    MT_CHECK_INT(errs, "subarray message: elements written", want, inside);
    free(src), free(dst), free(got);
    MPI_Type_free(&t);
    return errs;
}

static int owned(int g, int distrib, int darg, int p, int c, int i)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 1;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
        return i / b == c;
    }
    int k = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / k) % p == c;
}

static int check_darray(int nd, const int *g, const int *dist, const int *darg, const int *ps, int order)
{
    int errs = 0, procs = 1;
    long total = 1;
    for (int d = 0; d < nd; d++)
        procs *= ps[d], total *= g[d];
    int *cover = calloc((size_t)total, sizeof(int));
    int *got = mt_malloc(sizeof(int) * (size_t)total);
    for (int r = 0; r < procs; r++) {
        MPI_Datatype t;
        MT_CHECK_RC(errs, MPI_Type_create_darray(procs, r, nd, g, dist, darg, ps, order, MPI_INT, &t));
        MPI_Type_commit(&t);
        int c[MAXD], rem = r;
        for (int d = nd - 1; d >= 0; d--) { /* the process grid is row-major whatever the array order */
            c[d] = rem % ps[d];
            rem /= ps[d];
        }
        MPI_Aint lb, ext;
        MPI_Type_get_extent(t, &lb, &ext);
        MT_CHECK(errs, lb == 0 && ext == (MPI_Aint)(total * sizeof(int)), "darray rank %d: lb %ld extent %ld", r,
                 (long)lb, (long)ext);
        int n = selected(t, total, got, (int)total);
        int lo[MAXD] = {0}, hi[MAXD], ix[MAXD] = {0};
        for (int d = 0; d < nd; d++)
            hi[d] = g[d];
        long k = 0;
        int bad = 0;
        do {
            int mine = 1;
            for (int d = 0; d < nd; d++)
                mine = mine && owned(g[d], dist[d], darg[d], ps[d], c[d], ix[d]);
            if (!mine)
                continue;
            long w = linear(nd, g, ix, order);
            if (k >= n || got[k] != w) {
                if (!bad)
                    MT_ERR(errs, "darray (%d dims, %s) rank %d: element %ld is %d, expected index %ld", nd,
                           order == MPI_ORDER_C ? "C" : "F", r, k, k < n ? got[k] : -1, w);
                bad = 1;
            }
            k++;
        } while (next(nd, ix, lo, hi, order));
        MT_CHECK(errs, k == n, "darray rank %d: %d elements, expected %ld", r, n, k);
        for (int i = 0; i < n; i++)
            if (got[i] >= 0 && got[i] < total)
                cover[got[i]]++;
        MPI_Type_free(&t);
    }
    for (long i = 0; i < total; i++)
        if (cover[i] != 1) {
            MT_ERR(errs, "darray: element %ld is owned by %d processes", i, cover[i]);
            break;
        }
    free(cover), free(got);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = (rank ^ 1) < size ? rank ^ 1 : rank;

    {
        int s[3] = {4, 5, 6}, sub[3] = {2, 3, 4}, st[3] = {1, 2, 1};
        errs += check_subarray(3, s, sub, st, MPI_ORDER_C, partner);
        errs += check_subarray(3, s, sub, st, MPI_ORDER_FORTRAN, partner);
        int s1[1] = {9}, sub1[1] = {4}, st1[1] = {5};
        errs += check_subarray(1, s1, sub1, st1, MPI_ORDER_C, partner);
        int s2[2] = {7, 3}, sub2[2] = {7, 1}, st2[2] = {0, 2};
        errs += check_subarray(2, s2, sub2, st2, MPI_ORDER_C, partner);
        errs += check_subarray(2, s2, sub2, st2, MPI_ORDER_FORTRAN, partner);
    }
    {
        int g[2] = {10, 7}, dist[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        int da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {3, 2};
        errs += check_darray(2, g, dist, da, ps, MPI_ORDER_C);
        errs += check_darray(2, g, dist, da, ps, MPI_ORDER_FORTRAN);
    }
    {
        int g[2] = {9, 8}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int da[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, ps[2] = {2, 3};
        errs += check_darray(2, g, dist, da, ps, MPI_ORDER_FORTRAN);
    }
    {
        int g[3] = {5, 4, 6}, dist[3] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        int da[3] = {MPI_DISTRIBUTE_DFLT_DARG, 2, 3}, ps[3] = {1, 2, 2};
        errs += check_darray(3, g, dist, da, ps, MPI_ORDER_C);
        errs += check_darray(3, g, dist, da, ps, MPI_ORDER_FORTRAN);
    }
    {
        int g[1] = {17}, dist[1] = {MPI_DISTRIBUTE_CYCLIC}, da[1] = {MPI_DISTRIBUTE_DFLT_DARG}, ps[1] = {4};
        errs += check_darray(1, g, dist, da, ps, MPI_ORDER_C);
        int db[1] = {5};
        int bl[1] = {MPI_DISTRIBUTE_BLOCK};
        errs += check_darray(1, g, bl, db, ps, MPI_ORDER_C); /* blocks of 5: the last process gets none */
    }
    return mt_finish(errs);
}
