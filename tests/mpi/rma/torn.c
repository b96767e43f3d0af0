/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate-family operations on 16-byte elements are atomic per element (MPI-3.1 11.7.1): readers never see
 * half of one value and half of another.  Three locations in rank 0's window, each holding a self-consistent
 * value at all times: an MPI_C_DOUBLE_COMPLEX with re == im, an MPI_DOUBLE_INT with v == i / 2, and a long
 * double 2^k * (1 + k/1024) (its exponent and its mantissa both say k).  Odd ranks write new consistent
 * values with Accumulate MPI_REPLACE, Fetch_and_op MPI_REPLACE and Get_accumulate MPI_REPLACE (whose fetched
 * old values must be consistent too); even ranks (rank 0 too) read with Get_accumulate MPI_NO_OP and
 * Fetch_and_op MPI_NO_OP.  Readers and writers run a fixed number of rounds, in one lock_all epoch, without
 * waiting for each other; with one rank, rank 0 alternates writing and reading. */
#include <complex.h>
#include <math.h>
#include "mtest.h"

enum { L_DC = 0, L_DI = 16, L_LD = 32, WINSZ = 48 };

typedef struct {
    double v;
    int i;
} dbl_int;

static double complex dc_val(int w, int k) { return (w * 100000.0 + k) * (1 + I); }
static dbl_int di_val(int w, int k)
{
    dbl_int d = {(w * 100000 + k) * 0.5, w * 100000 + k};
    return d;
}
static long double ld_val(int k) { return ldexpl(1.0L + k / 1024.0L, k); } /* k in 0 .. 1000 */

static int dc_ok(double complex z) { return creal(z) == cimag(z); }
static int di_ok(dbl_int d) { return d.v == d.i * 0.5; }
static int ld_ok(long double x)
{
    int e = ilogbl(x);
    return e >= 0 && e <= 1000 && x == ld_val(e);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ROUNDS = size <= 8 ? 2000 : 32000 / size > 40 ? 32000 / size : 40;
    unsigned char *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(WINSZ, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    {
        double complex z = dc_val(0, 0);
        dbl_int d = di_val(0, 0);
        long double x = ld_val(0);
        memset(base, 0, WINSZ);
        memcpy(base + L_DC, &z, sizeof z);
        memcpy(base + L_DI, &d, sizeof d);
        memcpy(base + L_LD, &x, sizeof x);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int writer = size == 1 || rank % 2 == 1, reader = rank % 2 == 0;
    long bad = 0, reads = 0;
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    for (int k = 1; k <= ROUNDS; k++) {
        if (writer) {
            double complex z = dc_val(rank, k), zold = 0;
            dbl_int d = di_val(rank, k), dold = {0, 1};
            long double x = ld_val((rank * 37 + k) % 1001), xold = 0;
            switch (k % 3) {
            case 0:
                MT_CHECK_RC(errs, MPI_Accumulate(&z, 1, MPI_C_DOUBLE_COMPLEX, 0, L_DC, 1, MPI_C_DOUBLE_COMPLEX,
                                                 MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Accumulate(&d, 1, MPI_DOUBLE_INT, 0, L_DI, 1, MPI_DOUBLE_INT, MPI_REPLACE, win));
                MT_CHECK_RC(errs,
                            MPI_Accumulate(&x, 1, MPI_LONG_DOUBLE, 0, L_LD, 1, MPI_LONG_DOUBLE, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Win_flush_local(0, win));
                break;
            case 1:
                MT_CHECK_RC(errs, MPI_Fetch_and_op(&z, &zold, MPI_C_DOUBLE_COMPLEX, 0, L_DC, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Fetch_and_op(&d, &dold, MPI_DOUBLE_INT, 0, L_DI, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Fetch_and_op(&x, &xold, MPI_LONG_DOUBLE, 0, L_LD, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Win_flush(0, win));
                break;
            case 2:
                MT_CHECK_RC(errs, MPI_Get_accumulate(&z, 1, MPI_C_DOUBLE_COMPLEX, &zold, 1, MPI_C_DOUBLE_COMPLEX, 0,
                                                     L_DC, 1, MPI_C_DOUBLE_COMPLEX, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Get_accumulate(&d, 1, MPI_DOUBLE_INT, &dold, 1, MPI_DOUBLE_INT, 0, L_DI, 1,
                                                     MPI_DOUBLE_INT, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Get_accumulate(&x, 1, MPI_LONG_DOUBLE, &xold, 1, MPI_LONG_DOUBLE, 0, L_LD, 1,
                                                     MPI_LONG_DOUBLE, MPI_REPLACE, win));
                MT_CHECK_RC(errs, MPI_Win_flush(0, win));
                break;
            }
            if (k % 3 && (!dc_ok(zold) || !di_ok(dold) || !ld_ok(xold)))
                if (++bad <= 5)
                    MT_ERR(errs, "round %d: a REPLACE fetched a torn old value: complex (%g,%g), double_int (%g,%d), "
                           "long double %La", k, creal(zold), cimag(zold), dold.v, dold.i, xold);
        }
        if (reader) {
            double complex z = 0;
            dbl_int d = {0, 1};
            long double x = 0;
            if (k % 2) {
                MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_C_DOUBLE_COMPLEX, &z, 1, MPI_C_DOUBLE_COMPLEX, 0,
                                                     L_DC, 1, MPI_C_DOUBLE_COMPLEX, MPI_NO_OP, win));
                MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_DOUBLE_INT, &d, 1, MPI_DOUBLE_INT, 0, L_DI, 1,
                                                     MPI_DOUBLE_INT, MPI_NO_OP, win));
                MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_LONG_DOUBLE, &x, 1, MPI_LONG_DOUBLE, 0, L_LD, 1,
                                                     MPI_LONG_DOUBLE, MPI_NO_OP, win));
            } else {
                MT_CHECK_RC(errs, MPI_Fetch_and_op(NULL, &z, MPI_C_DOUBLE_COMPLEX, 0, L_DC, MPI_NO_OP, win));
                MT_CHECK_RC(errs, MPI_Fetch_and_op(NULL, &d, MPI_DOUBLE_INT, 0, L_DI, MPI_NO_OP, win));
                MT_CHECK_RC(errs, MPI_Fetch_and_op(NULL, &x, MPI_LONG_DOUBLE, 0, L_LD, MPI_NO_OP, win));
            }
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            reads++;
            if (!dc_ok(z) || !di_ok(d) || !ld_ok(x))
                if (++bad <= 5)
                    MT_ERR(errs, "round %d: a MPI_NO_OP read saw a torn value: complex (%g,%g), double_int (%g,%d), "
                           "long double %La", k, creal(z), cimag(z), d.v, d.i, x);
        }
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        double complex z;
        dbl_int d;
        long double x;
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        memcpy(&z, base + L_DC, sizeof z);
        memcpy(&d, base + L_DI, sizeof d);
        memcpy(&x, base + L_LD, sizeof x);
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
        /* the last values written: round ROUNDS of some writer */
        MT_CHECK(errs, dc_ok(z) && ((long)creal(z)) % 100000 == ROUNDS, "final complex (%g,%g)", creal(z), cimag(z));
        MT_CHECK(errs, di_ok(d) && d.i % 100000 == ROUNDS, "final double_int (%g,%d)", d.v, d.i);
        MT_CHECK(errs, ld_ok(x), "final long double %La", x);
    }
    MT_CHECK(errs, bad == 0, "%ld torn values", bad);
    MT_CHECK(errs, !reader || reads == ROUNDS, "%ld reads", reads);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return mt_finish(errs);
}
