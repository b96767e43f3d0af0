/* SPDX-License-Identifier: BSD-3-Clause */
/* Reproducible reductions: a sum of doubles of very different magnitudes (whose rounding depends on the
 * order of the additions) gives every rank bitwise the same Allreduce result, the same again when
 * repeated, the same as Reduce at any root, and within rounding of the exact sum.  Counts 1, 3, 1500 and
 * 5000. */
#include <math.h>
#include <string.h>
#include "mtest.h"

static double val(int r, int i) { return ((r * 7 + i) % 5 == 0 ? 1e16 : 1.0) * (1 + (r % 3) * 0.1) + i * 0.25; }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static const int counts[] = {1, 3, 1500, 5000}; /* 5000: 40 KB, the sliced algorithm */
    for (int ci = 0; ci < 4; ci++) {
        int k = counts[ci];
        double *in = mt_malloc(sizeof(double) * k), *a = mt_malloc(sizeof(double) * k),
               *b = mt_malloc(sizeof(double) * k), *root0 = mt_malloc(sizeof(double) * k);
        for (int i = 0; i < k; i++)
            in[i] = val(rank, i);
        MT_CHECK_RC(errs, MPI_Allreduce(in, a, k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        for (int rep = 0; rep < 3; rep++) {
            MT_CHECK_RC(errs, MPI_Allreduce(in, b, k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
            MT_CHECK(errs, memcmp(a, b, sizeof(double) * k) == 0, "repeated Allreduce (count %d) differs", k);
        }
        memcpy(root0, a, sizeof(double) * k);
        MT_CHECK_RC(errs, MPI_Bcast(root0, k, MPI_DOUBLE, 0, MPI_COMM_WORLD));
        MT_CHECK(errs, memcmp(a, root0, sizeof(double) * k) == 0, "Allreduce result (count %d) differs from rank 0's",
                 k);
        for (int root = 0; root < n; root += n > 8 ? 7 : 1) {
            MT_CHECK_RC(errs, MPI_Reduce(in, b, k, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD));
            if (rank == root && !MT_MPICH_BUGS) /* MPICH reduces along other trees: a vmpi guarantee only */
                MT_CHECK(errs, memcmp(a, b, sizeof(double) * k) == 0, "Reduce at %d (count %d) differs from Allreduce",
                         root, k);
        }
        for (int i = 0; i < k; i++) {
            long double e = 0;
            for (int r = 0; r < n; r++)
                e += val(r, i);
            MT_CHECK(errs, fabsl(a[i] - e) <= 1e-12L * fabsl(e) + n * 4.0L, "element %d: %.17g far from %.17Lg", i,
                     a[i], e);
        }
        free(in);
        free(a);
        free(b);
        free(root0);
    }
    return mt_finish(errs);
}
