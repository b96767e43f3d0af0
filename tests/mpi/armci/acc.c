/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate, dst += scale * src element by element, for all six types (ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL,
 * _DCP) with scale 1 and a scale that is not 1 (for the complex types a complex scale with both parts non-zero,
 * so that the result needs the complex product (a+bi)(c+di)), through ARMCI_Acc (contiguous), ARMCI_AccS
 * (a 2-level section, different source and target strides) and ARMCI_AccV (two descriptors of different
 * segment sizes).  Each rank accumulates into its right neighbour and into itself, every target checks every
 * element exactly (the values and scales are small integers and halves, and long values above 2^32, so every
 * sum is exact in its type) and that elements outside the shapes kept their initial value; the origin's
 * source buffer must not change (a scale applied in place would show). */
#include "armci_test.h"

enum { NREG = 512, NSH = 3 }; /* elements per shape region, shapes (contiguous, strided, vector) */
enum { K_INT, K_LNG, K_FLT, K_DBL };

typedef struct {
    const char *name;
    int op, kind, ncomp; /* ncomp 2: complex (re, im) */
} acctype;

static const acctype types[] = {
    {"ARMCI_ACC_INT", ARMCI_ACC_INT, K_INT, 1}, {"ARMCI_ACC_LNG", ARMCI_ACC_LNG, K_LNG, 1},
    {"ARMCI_ACC_FLT", ARMCI_ACC_FLT, K_FLT, 1}, {"ARMCI_ACC_DBL", ARMCI_ACC_DBL, K_DBL, 1},
    {"ARMCI_ACC_CPL", ARMCI_ACC_CPL, K_FLT, 2}, {"ARMCI_ACC_DCP", ARMCI_ACC_DCP, K_DBL, 2},
};
enum { NTYPES = sizeof types / sizeof types[0] };

static int rsize(int kind) { return kind == K_INT || kind == K_FLT ? 4 : 8; }

/* component c of element i of a buffer of reals of `kind` */
static void setv(void *buf, int kind, long j, double v)
{
    switch (kind) {
    case K_INT: ((int *)buf)[j] = (int)v; break;
    case K_LNG: ((long *)buf)[j] = (long)v; break;
    case K_FLT: ((float *)buf)[j] = (float)v; break;
    default: ((double *)buf)[j] = v;
    }
}
static double getv(const void *buf, int kind, long j)
{
    switch (kind) {
    case K_INT: return ((const int *)buf)[j];
    case K_LNG: return (double)((const long *)buf)[j];
    case K_FLT: return ((const float *)buf)[j];
    default: return ((const double *)buf)[j];
    }
}

/* the values: origin o's source element i component c; the target's initial value (exact in every type) */
static double srcv(int kind, int o, long i, int c)
{
    double v = (o % 7 + 1) * (i % 13 + 1) - 20 + 3 * c;
    return kind == K_LNG ? v * 8589934592.0 + v : v; /* long: above 2^32 */
}
static double initv(long i, int c) { return 1000 + i % 101 + 7 * c; }

/* the scale: variant 0 is 1 (1 + 0i), variant 1 is not */
static void make_scale(const acctype *t, int variant, void *scale, double *sr, double *si)
{
    static const double s1[] = {3, -5, 0.5, -2.5}, c1[2][2] = {{2, -3}, {-1.5, 0.5}};
    *sr = 1;
    *si = 0;
    if (variant) {
        if (t->ncomp == 1)
            *sr = s1[t->kind];
        else {
            *sr = c1[t->kind == K_DBL][0];
            *si = c1[t->kind == K_DBL][1];
        }
    }
    setv(scale, t->kind, 0, *sr);
    if (t->ncomp == 2)
        setv(scale, t->kind, 1, *si);
}

/* A shape as segments of elements: (source element, target element, elements) */
typedef struct {
    long s, d, n;
} seg;

/* builds shape `sh` for elements of esize bytes; fills the arguments of AccS / AccV; returns the segment count */
static int make_shape(int sh, int esize, seg *g, int count[3], int sst[2], int dst[2])
{
    int n = 0;
    if (sh == 0) {
        g[n++] = (seg){0, 5, 100};
    } else if (sh == 1) {
        count[0] = 3 * esize;
        count[1] = 4;
        count[2] = 3;
        sst[0] = 5 * esize;
        sst[1] = 5 * esize * 4 + esize;
        dst[0] = 4 * esize;
        dst[1] = 4 * esize * 4 + 2 * esize;
        for (long k = 0; k < 12; k++)
            g[n++] = (seg){at_seg_off(2, count, sst, k) / esize, at_seg_off(2, count, dst, k) / esize, 3};
    } else {
        for (long i = 0; i < 6; i++) /* descriptor 0: 6 segments of 2 elements */
            g[n++] = (seg){7 * i, 3 + 11 * i, 2};
        for (long i = 0; i < 3; i++) /* descriptor 1: 3 segments of 5 elements */
            g[n++] = (seg){100 + 9 * i, 200 + 40 * i, 5};
    }
    return n;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const long rbytes = NREG * 16L; /* a region's bytes, for the widest element */
    char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, NSH * rbytes));
    char *mine = ptr[rank], *src = mt_malloc((size_t)rbytes), *copy = mt_malloc((size_t)rbytes);
    double *exp = mt_malloc(sizeof(double) * NREG * 2);
    seg g[32];
    void *sp[2][6], *dp[2][6];

    for (int ti = 0; ti < NTYPES; ti++)
        for (int variant = 0; variant < 2; variant++) {
            const acctype *t = &types[ti];
            int rs = rsize(t->kind), es = rs * t->ncomp;
            double scale[2], sr, si;
            make_scale(t, variant, scale, &sr, &si);
            for (int sh = 0; sh < NSH; sh++)
                for (long i = 0; i < NREG; i++)
                    for (int c = 0; c < t->ncomp; c++)
                        setv(mine + sh * rbytes, t->kind, i * t->ncomp + c, initv(i, c));
            for (long i = 0; i < NREG; i++)
                for (int c = 0; c < t->ncomp; c++)
                    setv(src, t->kind, i * t->ncomp + c, srcv(t->kind, rank, i, c));
            memcpy(copy, src, (size_t)rbytes);
            ARMCI_Barrier();
            for (int self = 0; self < 2; self++) {
                int tg = self ? rank : right;
                for (int sh = 0; sh < NSH; sh++) {
                    int count[3], sst[2], dst[2], rc = -1;
                    int n = make_shape(sh, es, g, count, sst, dst);
                    char *base = ptr[tg] + sh * rbytes;
                    if (sh == 0)
                        rc = ARMCI_Acc(t->op, scale, src + g[0].s * es, base + g[0].d * es, (int)(g[0].n * es), tg);
                    else if (sh == 1)
                        rc = ARMCI_AccS(t->op, scale, src, sst, base, dst, count, 2, tg);
                    else {
                        armci_giov_t iov[2];
                        for (int k = 0; k < n; k++) {
                            int d = k < 6 ? 0 : 1, i = k < 6 ? k : k - 6;
                            sp[d][i] = src + g[k].s * es;
                            dp[d][i] = base + g[k].d * es;
                        }
                        for (int d = 0; d < 2; d++) {
                            iov[d].src_ptr_array = sp[d];
                            iov[d].dst_ptr_array = dp[d];
                            iov[d].ptr_array_len = d ? 3 : 6;
                            iov[d].bytes = (int)((d ? 5 : 2) * es);
                        }
                        rc = ARMCI_AccV(t->op, scale, iov, 2, tg);
                    }
                    char what[120];
                    snprintf(what, sizeof what, "%s (shape %d, scale %g%+gi) returned", t->name, sh, sr, si);
                    MT_CHECK_INT(errs, what, 0, rc);
                    snprintf(what, sizeof what, "%s (shape %d, scale %g%+gi): the source buffer", t->name, sh, sr, si);
                    AT_CMP(errs, what, copy, src, (size_t)rbytes);
                }
            }
            ARMCI_Barrier();
            /* expected: init + scale * src(left) + scale * src(me) on every element of the shapes */
            for (int sh = 0; sh < NSH; sh++) {
                int count[3], sst[2], dst[2], bad = 0;
                int n = make_shape(sh, es, g, count, sst, dst);
                for (long i = 0; i < NREG; i++)
                    for (int c = 0; c < t->ncomp; c++)
                        exp[i * 2 + c] = initv(i, c);
                for (int o = 0; o < 2; o++) {
                    int org = o ? rank : left;
                    for (int k = 0; k < n; k++)
                        for (long j = 0; j < g[k].n; j++) {
                            double a = srcv(t->kind, org, g[k].s + j, 0);
                            double b = t->ncomp == 2 ? srcv(t->kind, org, g[k].s + j, 1) : 0;
                            exp[(g[k].d + j) * 2] += sr * a - si * b;
                            if (t->ncomp == 2)
                                exp[(g[k].d + j) * 2 + 1] += sr * b + si * a;
                        }
                }
                for (long i = 0; i < NREG; i++)
                    for (int c = 0; c < t->ncomp; c++) {
                        double got = getv(mine + sh * rbytes, t->kind, i * t->ncomp + c);
                        if (got != exp[i * 2 + c] && bad++ < 3)
                            MT_ERR(errs, "%s, shape %d, scale %g%+gi: element %ld%s: expected %.17g, got %.17g", t->name,
                                   sh, sr, si, i, t->ncomp == 1 ? "" : c ? " (im)" : " (re)", exp[i * 2 + c], got);
                    }
            }
            ARMCI_Barrier();
            if (variant == 1)
                at_migrate(); /* after each type */
        }

    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(src);
    free(copy);
    free(exp);
    return at_finish(errs);
}
