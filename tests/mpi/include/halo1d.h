/* SPDX-License-Identifier: BSD-3-Clause */
/* halo1d.h: a Jacobi-style 1-D 3-point stencil with halo exchange, checked exactly.
 * The global domain has size*local cells with fixed boundary values; every rank checks its cells after
 * `iters` steps against a serial computation of its dependency window [lo-iters, hi+iters), which uses the same
 * floating-point operations and so gives bit-identical results.  Halo exchange methods:
 *   0: MPI_Sendrecv (twice), 1: MPI_Irecv/MPI_Isend/MPI_Waitall, 2: persistent requests + MPI_Startall.
 * The end ranks talk to MPI_PROC_NULL, whose receives must leave the boundary ghost cells untouched.
 * Every 7th step has a migration point (mt_migrate), with the step's requests in flight for methods 1, 2. */
#ifndef HALO1D_H
#define HALO1D_H

#include "mtest.h"

#define HALO_LEFT_BC 1.0
#define HALO_RIGHT_BC (-0.5)

static inline double halo_stencil(double a, double b, double c) { return 0.25 * a + 0.5 * b + 0.25 * c; }
static inline double halo_init(long g) { return (double)((g * 37) % 101) / 8.0; }

/* serial reference for cells [lo, hi) of an n-cell domain after iters steps, into out[0..hi-lo) */
static inline void halo_reference(long n, long lo, long hi, int iters, double *out)
{
    long wlo = lo - iters < 0 ? 0 : lo - iters, whi = hi + iters > n ? n : hi + iters, w = whi - wlo;
    double *a = mt_malloc((w + 2) * sizeof(double)), *b = mt_malloc((w + 2) * sizeof(double));
    for (long i = 0; i < w; i++)
        a[i + 1] = halo_init(wlo + i);
    a[0] = b[0] = wlo == 0 ? HALO_LEFT_BC : 0.0; /* 0.0: garbage that cannot reach [lo, hi) in time */
    a[w + 1] = b[w + 1] = whi == n ? HALO_RIGHT_BC : 0.0;
    for (int t = 0; t < iters; t++) {
        for (long i = 1; i <= w; i++)
            b[i] = halo_stencil(a[i - 1], a[i], a[i + 1]);
        double *tmp = a;
        a = b;
        b = tmp;
    }
    for (long i = lo; i < hi; i++)
        out[i - lo] = a[i - wlo + 1];
    free(a);
    free(b);
}

/* returns the number of errors found by this rank */
static inline int halo_run(int local, int iters, int method)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long n = (long)size * local, lo = (long)rank * local;
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    double *u = mt_malloc((local + 2) * sizeof(double)), *v = mt_malloc((local + 2) * sizeof(double));
    for (int i = 0; i < local; i++)
        u[i + 1] = halo_init(lo + i);
    u[0] = v[0] = HALO_LEFT_BC; /* stays for rank 0: receives from PROC_NULL don't touch it */
    u[local + 1] = v[local + 1] = HALO_RIGHT_BC;

    MPI_Request preq[2][4]; /* persistent requests for u and v */
    if (method == 2)
        for (int k = 0; k < 2; k++) {
            double *x = k ? v : u;
            MPI_Recv_init(&x[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &preq[k][0]);
            MPI_Recv_init(&x[local + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &preq[k][1]);
            MPI_Send_init(&x[local], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &preq[k][2]);
            MPI_Send_init(&x[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &preq[k][3]);
        }

    for (int t = 0; t < iters; t++) {
        double *cur = (t % 2) ? v : u, *nxt = (t % 2) ? u : v;
        if (method == 0) {
            MPI_Sendrecv(&cur[local], 1, MPI_DOUBLE, right, 1, &cur[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            MPI_Sendrecv(&cur[1], 1, MPI_DOUBLE, left, 2, &cur[local + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
            if (t % 7 == 3)
                mt_migrate();
        } else if (method == 1) {
            MPI_Request r[4];
            MPI_Irecv(&cur[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &r[0]);
            MPI_Irecv(&cur[local + 1], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &r[1]);
            MPI_Isend(&cur[local], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &r[2]);
            MPI_Isend(&cur[1], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &r[3]);
            if (t % 7 == 3)
                mt_migrate(); /* with the exchange in flight */
            MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
        } else {
            MPI_Startall(4, preq[t % 2]);
            if (t % 7 == 3)
                mt_migrate(); /* persistent requests active */
            MPI_Waitall(4, preq[t % 2], MPI_STATUSES_IGNORE);
        }
        for (int i = 1; i <= local; i++)
            nxt[i] = halo_stencil(cur[i - 1], cur[i], cur[i + 1]);
    }
    double *res = (iters % 2) ? v : u;
    MT_CHECK(errs, res[0] == (rank == 0 ? HALO_LEFT_BC : res[0]) &&
                       res[local + 1] == (rank == size - 1 ? HALO_RIGHT_BC : res[local + 1]),
             "boundary ghost cells changed: %g %g", res[0], res[local + 1]);

    double *ref = mt_malloc(local * sizeof(double));
    halo_reference(n, lo, lo + local, iters, ref);
    double mysum = 0, refsum = 0, gsum = 0, grefsum = 0, maxdiff = 0, gmaxdiff = 0;
    for (int i = 0; i < local; i++) {
        double d = res[i + 1] - ref[i];
        if (d < 0)
            d = -d;
        if (d > maxdiff)
            maxdiff = d;
        if (res[i + 1] != ref[i] && errs < MT_MAX_REPORT)
            MT_ERR(errs, "method %d: cell %ld after %d steps: expected %.17g got %.17g", method, lo + i, iters, ref[i],
                   res[i + 1]);
        mysum += res[i + 1];
        refsum += ref[i];
    }
    /* the global result: same reduction over the same layout, so bit-identical when all cells are */
    MPI_Allreduce(&mysum, &gsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&refsum, &grefsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&maxdiff, &gmaxdiff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        MT_CHECK(errs, gsum == grefsum, "method %d: global sum %.17g, expected %.17g", method, gsum, grefsum);
        MT_CHECK(errs, gmaxdiff == 0.0, "method %d: global max difference %g", method, gmaxdiff);
    }
    if (method == 2)
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 4; j++)
                MPI_Request_free(&preq[k][j]);
    free(ref);
    free(u);
    free(v);
    return errs;
}

#endif /* HALO1D_H */
