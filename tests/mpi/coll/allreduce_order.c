/* SPDX-License-Identifier: BSD-3-Clause */
/* Floating-point sums are folded in rank order, whatever the placement of the ranks on PEs: the result of
 * MPI_Allreduce / MPI_Reduce (MPI_SUM and MPI_PROD of doubles) equals, bit for bit, the fold
 * x[0] + (x[1] + (... + x[n-1])) that every rank computes itself from the values it knows all ranks
 * contribute.  The values are chosen so that any other grouping changes the bits (large and small
 * magnitudes mixed).  Counts cover the per-PE path (below 1 KiB), the fold shared between PE leaders (1 to
 * 32 KiB) and the sliced algorithm (32 KiB and more); run under Rotate, the ranks change PEs between
 * rounds. */
#include <math.h>
#include "mtest.h"

static double value(int rank, int i, int round)
{
    /* magnitudes from 1e-8 to 1e16, signs mixed: sums of these depend on their grouping */
    int k = (rank * 7919 + i * 104729 + round * 31) % 25;
    double v = ldexp(1.0 + 0.001 * ((rank * 31 + i) % 997), 3 * k - 27);
    return ((rank + i) & 1) ? -v : v;
}

static double factor(int rank, int i)
{
    return 1.0 + ldexp((double)((rank * 13 + i * 7) % 101), -20); /* products: 1 + tiny, order-dependent */
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    static const int counts[] = {1, 100, 200, 2000, 5000};
    for (int round = 0; round < 3; round++) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            int n = counts[c];
            double *s = malloc(sizeof(double) * (size_t)n), *r = malloc(sizeof(double) * (size_t)n);
            double *p = malloc(sizeof(double) * (size_t)n), *q = malloc(sizeof(double) * (size_t)n);
            for (int i = 0; i < n; i++) {
                s[i] = value(rank, i, round);
                p[i] = factor(rank, i);
            }
            MT_CHECK_RC(errs, MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
            MT_CHECK_RC(errs, MPI_Reduce(p, q, n, MPI_DOUBLE, MPI_PROD, size - 1, MPI_COMM_WORLD));
            int bad = 0, badp = 0;
            for (int i = 0; i < n; i++) {
                double acc = value(size - 1, i, round), accp = factor(size - 1, i);
                for (int k = size - 2; k >= 0; k--) {
                    acc = value(k, i, round) + acc;
                    accp = factor(k, i) * accp;
                }
                bad += memcmp(&acc, &r[i], sizeof acc) != 0;
                badp += rank == size - 1 && memcmp(&accp, &q[i], sizeof accp) != 0;
            }
            MT_CHECK(errs, bad == 0, "round %d, %d doubles: %d sums differ from the rank-order fold", round, n, bad);
            MT_CHECK(errs, badp == 0, "round %d, %d doubles: %d products differ from the rank-order fold", round, n,
                     badp);
            free(s);
            free(r);
            free(p);
            free(q);
        }
        mt_migrate();
    }
    return mt_finish(errs);
}
