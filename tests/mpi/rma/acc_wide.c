/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate-family atomicity on elements wider than 8 bytes and on misaligned elements (MPI-3.1 11.7.1:
 * concurrent accumulates with the same basic type act as if done in some serial order, element by element).
 * Every rank, in one lock_all epoch, hits every rank's window ITER times with:
 *   - Accumulate MPI_SUM on a long double and on an MPI_C_DOUBLE_COMPLEX (exact sums of multiples of 1/4);
 *   - Accumulate MPI_MAXLOC on an MPI_DOUBLE_INT and MPI_MINLOC on an MPI_LONG_INT, values with many ties
 *     (the lowest index wins): a torn update leaves a value with an index that never came with it;
 *   - Get_accumulate MPI_SUM on the long double: the values one origin fetches strictly increase;
 * and, at odd byte displacements of a disp_unit-1 window (misaligned for their type):
 *   - Accumulate MPI_SUM of three int64 at once and of a double;
 *   - Fetch_and_op MPI_SUM on an int (what one origin fetches strictly increases);
 *   - a Compare_and_swap increment loop on an int64 (Fetch_and_op MPI_NO_OP to read, retry when another
 *     rank got in between: lock-free, so it ends without yielding);
 * with a Win_flush every few rounds.  At the end every total is exact, Get_accumulate MPI_NO_OP reads the
 * misaligned int64 atomically, and the owner's own loads agree. */
#include <complex.h>
#include <limits.h>
#include "mtest.h"

enum {
    O_LD = 0,     /* long double */
    O_DC = 16,    /* double complex */
    O_DI = 32,    /* double_int */
    O_LI = 48,    /* long_int */
    O_I64X3 = 67, /* 3 x int64, misaligned */
    O_DBL = 101,  /* double, misaligned */
    O_INT = 113,  /* int, misaligned */
    O_CAS = 135,  /* int64, misaligned */
    WINSZ = 160
};

typedef struct {
    double v;
    int i;
} dbl_int;
typedef struct {
    long v;
    int i;
} long_int;

static double di_val(int r, int k, int t) { return (double)((r * 7 + k * 3 + t) % 11); }
static long li_val(int r, int k, int t) { return 1000000000000L + (long)((r * 5 + k * 7 + t) % 13); }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ITER = size <= 8 ? 200 : 3200 / size > 4 ? 3200 / size : 4;
    unsigned char *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(WINSZ, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    memset(base, 0, WINSZ);
    {
        long double z = 0;
        double complex zc = 0;
        dbl_int di = {-1.0, INT_MAX};
        long_int li = {LONG_MAX, INT_MAX};
        memcpy(base + O_LD, &z, sizeof z);
        memcpy(base + O_DC, &zc, sizeof zc);
        memcpy(base + O_DI, &di, sizeof di);
        memcpy(base + O_LI, &li, sizeof li);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    long double *last_ld = mt_malloc(sizeof(long double) * (size_t)size);
    int *last_int = mt_malloc(sizeof(int) * (size_t)size);
    for (int t = 0; t < size; t++) {
        last_ld[t] = -1;
        last_int[t] = -1;
    }
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITER; k++) {
        for (int n = 0; n < size; n++) {
            int t = (rank + n) % size;
            long double ld = 0.25L * (rank + 1), ldres = -1;
            double complex dc = 0.25 * (rank + 1) + I * 0.5 * (rank + 1);
            dbl_int di = {di_val(rank, k, t), rank * 1000 + k};
            long_int li = {li_val(rank, k, t), rank * 1000 + k};
            int64_t i3[3] = {rank + 1, 2 * (rank + 1), 3 * (rank + 1)};
            double d = 0.5 * (rank + 1);
            int one = 1, ires = -1;
            MT_CHECK_RC(errs, MPI_Accumulate(&ld, 1, MPI_LONG_DOUBLE, t, O_LD, 1, MPI_LONG_DOUBLE, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Accumulate(&dc, 1, MPI_C_DOUBLE_COMPLEX, t, O_DC, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM,
                                             win));
            MT_CHECK_RC(errs, MPI_Accumulate(&di, 1, MPI_DOUBLE_INT, t, O_DI, 1, MPI_DOUBLE_INT, MPI_MAXLOC, win));
            MT_CHECK_RC(errs, MPI_Accumulate(&li, 1, MPI_LONG_INT, t, O_LI, 1, MPI_LONG_INT, MPI_MINLOC, win));
            MT_CHECK_RC(errs, MPI_Accumulate(i3, 3, MPI_INT64_T, t, O_I64X3, 3, MPI_INT64_T, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Accumulate(&d, 1, MPI_DOUBLE, t, O_DBL, 1, MPI_DOUBLE, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Get_accumulate(&ld, 1, MPI_LONG_DOUBLE, &ldres, 1, MPI_LONG_DOUBLE, t, O_LD, 1,
                                                 MPI_LONG_DOUBLE, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&one, &ires, MPI_INT, t, O_INT, MPI_SUM, win));
            /* CAS increment */
            int64_t cur = 0, next, old = -1, none = 0;
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&none, &cur, MPI_INT64_T, t, O_CAS, MPI_NO_OP, win));
            MT_CHECK_RC(errs, MPI_Win_flush(t, win));
            for (long tries = 0;; tries++) {
                next = cur + 1;
                MT_CHECK_RC(errs, MPI_Compare_and_swap(&next, &cur, &old, MPI_INT64_T, t, O_CAS, win));
                MT_CHECK_RC(errs, MPI_Win_flush(t, win));
                if (old == cur)
                    break;
                if (old < cur) {
                    MT_ERR(errs, "Compare_and_swap on rank %d: the counter went down from %lld to %lld", t,
                           (long long)cur, (long long)old);
                    break;
                }
                cur = old;
            }
            MT_CHECK(errs, ldres > last_ld[t], "Get_accumulate(MPI_SUM) on rank %d's long double: %Lg after %Lg", t,
                     ldres, last_ld[t]);
            MT_CHECK(errs, ires > last_int[t], "Fetch_and_op(MPI_SUM) on rank %d's misaligned int: %d after %d", t,
                     ires,
                     last_int[t]);
            last_ld[t] = ldres;
            last_int[t] = ires;
        }
        if (k % 7 == 6)
            MT_CHECK_RC(errs, MPI_Win_flush_all(win));
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);

    /* expected totals at this rank */
    long long sr = (long long)size * (size + 1) / 2; /* sum of rank + 1 */
    long double want_ld = 0.25L * sr * ITER * 2;       /* Accumulate and Get_accumulate */
    double complex want_dc = (0.25 * sr + I * 0.5 * sr) * ITER;
    dbl_int want_di = {-1.0, INT_MAX};
    long_int want_li = {LONG_MAX, INT_MAX};
    for (int r = 0; r < size; r++)
        for (int k = 0; k < ITER; k++) {
            double v = di_val(r, k, rank);
            long w = li_val(r, k, rank);
            int idx = r * 1000 + k;
            if (v > want_di.v || (v == want_di.v && idx < want_di.i)) {
                want_di.v = v;
                want_di.i = idx;
            }
            if (w < want_li.v || (w == want_li.v && idx < want_li.i)) {
                want_li.v = w;
                want_li.i = idx;
            }
        }
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    {
        long double ld;
        double complex dc;
        dbl_int di;
        long_int li;
        int64_t i3[3], c64;
        double d;
        int in;
        memcpy(&ld, base + O_LD, sizeof ld);
        memcpy(&dc, base + O_DC, sizeof dc);
        memcpy(&di, base + O_DI, sizeof di);
        memcpy(&li, base + O_LI, sizeof li);
        memcpy(i3, base + O_I64X3, sizeof i3);
        memcpy(&d, base + O_DBL, sizeof d);
        memcpy(&in, base + O_INT, sizeof in);
        memcpy(&c64, base + O_CAS, sizeof c64);
        MT_CHECK(errs, ld == want_ld, "long double MPI_SUM total: expected %Lg, got %Lg", want_ld, ld);
        MT_CHECK(errs, dc == want_dc, "MPI_C_DOUBLE_COMPLEX MPI_SUM total: expected (%g,%g), got (%g,%g)",
                 creal(want_dc), cimag(want_dc), creal(dc), cimag(dc));
        MT_CHECK(errs, di.v == want_di.v && di.i == want_di.i,
                 "MPI_DOUBLE_INT MPI_MAXLOC: expected (%g,%d), got (%g,%d)",
                 want_di.v, want_di.i, di.v, di.i);
        MT_CHECK(errs, li.v == want_li.v && li.i == want_li.i,
                 "MPI_LONG_INT MPI_MINLOC: expected (%ld,%d), got (%ld,%d)",
                 want_li.v, want_li.i, li.v, li.i);
        for (int j = 0; j < 3; j++)
            MT_CHECK(errs, i3[j] == (j + 1) * sr * ITER, "misaligned int64 [%d] MPI_SUM total: expected %lld, got %lld",
                     j, (j + 1) * sr * ITER, (long long)i3[j]);
        MT_CHECK(errs, d == 0.5 * sr * ITER, "misaligned double MPI_SUM total: expected %g, got %g", 0.5 * sr * ITER,
                 d);
        MT_CHECK(errs, in == size * ITER, "misaligned int Fetch_and_op total: expected %d, got %d", size * ITER, in);
        MT_CHECK(errs, c64 == (int64_t)size * ITER,
                 "misaligned int64 Compare_and_swap increments: expected %lld, got %lld",
                 (long long)size * ITER, (long long)c64);
    }
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
    /* an atomic read of the left neighbour's misaligned int64 */
    {
        int left = (rank + size - 1) % size;
        int64_t got[3] = {-1, -1, -1};
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win));
        MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_INT64_T, got, 3, MPI_INT64_T, left, O_I64X3, 3, MPI_INT64_T,
                                             MPI_NO_OP, win));
        MT_CHECK_RC(errs, MPI_Win_unlock(left, win));
        for (int j = 0; j < 3; j++)
            MT_CHECK(errs, got[j] == (j + 1) * sr * ITER,
                     "Get_accumulate(MPI_NO_OP) of a misaligned int64 [%d]: expected %lld, got %lld", j,
                     (j + 1) * sr * ITER, (long long)got[j]);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    free(last_ld);
    free(last_int);
    return mt_finish(errs);
}
