/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulates whose source or target is not aligned for the element type, for every accumulate type, with
 * the scale 1 (1 + 0i for complex types) and another: ARMCI_Acc, ARMCI_AccS (1 level) and ARMCI_AccV, source
 * offsets 0 and 1..3 bytes from an aligned address, target offsets 0 and 1 (the block is aligned; the
 * elements' values are small integers, so every result is exact).  Each process accumulates into its right
 * neighbour's block, which checks the result after a barrier.  With the scale 1 + 0i an infinite imaginary
 * part stays infinite (no multiplication by the scale).  The sanitizer build checks the alignment of every
 * typed load (UBSan). */
#include <math.h>
#include "armci_test.h"

enum { NEL = 40, SLOT = NEL * 16 + 64 };

static int esize(int op)
{
    switch (op) {
    case ARMCI_ACC_INT: return sizeof(int);
    case ARMCI_ACC_LNG: return sizeof(long);
    case ARMCI_ACC_FLT: return sizeof(float);
    case ARMCI_ACC_DBL: return sizeof(double);
    case ARMCI_ACC_CPL: return 2 * sizeof(float);
    default: return 2 * sizeof(double);
    }
}

/* Component j (real parts and imaginary parts are components) of an element written as a double. */
static void put_comp(int op, char *p, double v)
{
    switch (op) {
    case ARMCI_ACC_INT: { int x = (int)v; memcpy(p, &x, sizeof x); break; }
    case ARMCI_ACC_LNG: { long x = (long)v; memcpy(p, &x, sizeof x); break; }
    case ARMCI_ACC_FLT: case ARMCI_ACC_CPL: { float x = (float)v; memcpy(p, &x, sizeof x); break; }
    default: memcpy(p, &v, sizeof v);
    }
}

static double get_comp(int op, const char *p)
{
    switch (op) {
    case ARMCI_ACC_INT: { int x; memcpy(&x, p, sizeof x); return x; }
    case ARMCI_ACC_LNG: { long x; memcpy(&x, p, sizeof x); return (double)x; }
    case ARMCI_ACC_FLT: case ARMCI_ACC_CPL: { float x; memcpy(&x, p, sizeof x); return x; }
    default: { double x; memcpy(&x, p, sizeof x); return x; }
    }
}

static int ncomp(int op) { return op == ARMCI_ACC_CPL || op == ARMCI_ACC_DCP ? 2 : 1; }
static double src_val(int k, int c, int rank) { return (k % 9) - 3 + 2 * c + rank % 3; }
static double dst_val(int k, int c) { return 100 + k % 11 - c; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const int ops[6] = {ARMCI_ACC_INT, ARMCI_ACC_LNG, ARMCI_ACC_FLT, ARMCI_ACC_DBL, ARMCI_ACC_CPL,
                               ARMCI_ACC_DCP};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char **p = mt_malloc(sizeof(char *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)p, SLOT));
    double *srcmem = mt_malloc(SLOT + 16);
    for (int o = 0; o < 6; o++)
        for (int form = 0; form < 3; form++)
            for (int soff = 0; soff < 4; soff++)
                for (int toff = 0; toff < 2; toff++)
                    for (int sc = 0; sc < 2; sc++) {
                        int op = ops[o], es = esize(op), nc = ncomp(op);
                        /* the scale: 1 (1 + 0i), or 3 (2 - 1i) */
                        double sr = sc ? (nc == 2 ? 2 : 3) : 1, si = sc && nc == 2 ? -1 : 0;
                        _Alignas(16) char scale[16];
                        put_comp(op, scale, sr);
                        if (nc == 2)
                            put_comp(op, scale + es / 2, si);
                        char *t = p[rank] + toff, *s = (char *)srcmem + soff;
                        for (int k = 0; k < NEL; k++)
                            for (int c = 0; c < nc; c++)
                                put_comp(op, t + k * es + c * es / nc, dst_val(k, c));
                        for (int k = 0; k < NEL; k++)
                            for (int c = 0; c < nc; c++)
                                put_comp(op, s + k * es + c * es / nc, src_val(k, c, rank));
                        ARMCI_Barrier();
                        char *rt = p[right] + toff;
                        int rc;
                        if (form == 0)
                            rc = ARMCI_Acc(op, scale, s, rt, NEL * es, right);
                        else if (form == 1) { /* 4 segments of NEL / 4 elements, contiguous on both sides */
                            int count[2] = {NEL / 4 * es, 4}, stride[1] = {NEL / 4 * es};
                            rc = ARMCI_AccS(op, scale, s, stride, rt, stride, count, 1, right);
                        } else { /* one descriptor of NEL single elements */
                            void *sp[NEL], *dp[NEL];
                            for (int k = 0; k < NEL; k++) {
                                sp[k] = s + k * es;
                                dp[k] = rt + k * es;
                            }
                            armci_giov_t v = {sp, dp, NEL, es};
                            rc = ARMCI_AccV(op, scale, &v, 1, right);
                        }
                        char what[128];
                        snprintf(what, sizeof what, "type %d, form %d, source offset %d, target offset %d, scale %g%+gi",
                                 op, form, soff, toff, sr, si);
                        MT_CHECK_INT(errs, what, 0, rc);
                        ARMCI_Barrier();
                        for (int k = 0; k < NEL; k++)
                            for (int c = 0; c < nc; c++) {
                                double a = src_val(k, 0, left), b = nc == 2 ? src_val(k, 1, left) : 0;
                                double add = c == 0 ? sr * a - si * b : sr * b + si * a;
                                double got = get_comp(op, t + k * es + c * es / nc);
                                MT_CHECK(errs, got == dst_val(k, c) + add, "%s: element %d part %d: expected %g, got %g",
                                         what, k, c, dst_val(k, c) + add, got);
                            }
                    }
    at_migrate();
    /* scale 1 + 0i with an infinite imaginary part in a misaligned source: it stays infinite */
    {
        char *t = p[rank], *s = (char *)srcmem + 1;
        double v[2] = {5, 0}, w[2] = {1, INFINITY}, one[2] = {1, 0};
        memcpy(t, v, sizeof v);
        memcpy(s, w, sizeof w);
        ARMCI_Barrier();
        MT_CHECK_INT(errs, "ARMCI_Acc of an infinite part", 0, ARMCI_Acc(ARMCI_ACC_DCP, one, s, p[right], 16, right));
        ARMCI_Barrier();
        memcpy(v, t, sizeof v);
        MT_CHECK(errs, v[0] == 6 && isinf(v[1]), "ARMCI_Acc (1+0i) * (1+infi): expected (6, inf), got (%g, %g)", v[0],
                 v[1]);
    }
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(p[rank]));
    free(srcmem);
    free(p);
    return at_finish(errs);
}
