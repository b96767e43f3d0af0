/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Dims_create is as balanced as possible (MPI-3.1 7.5.2): the smallest difference between the largest
 * and the smallest free dimension, non-increasing.  Among equally balanced answers vmpi gives MPICH's (the
 * largest smallest dimension, then the largest second smallest...): known answers (336 in 2-D is 21 x 16,
 * not 24 x 14), every n up to 3000 in 2-D, 800 in 3-D and 200 in 4-D against a brute force (each rank its
 * share), fixed entries, more dimensions than prime factors, and the errors. */
#include "mtest.h"

#define MAXD 48

/* The best non-increasing decomposition of n into k factors by exhaustive search (k <= 4). */
static void brute(int n, int k, int *best)
{
    int bal = -1, f[4];
    for (f[0] = 1; f[0] <= n; f[0]++) { /* f ascending: f[0] <= f[1] <= ... */
        if (n % f[0])
            continue;
        for (f[1] = k > 1 ? f[0] : 1; k > 1 ? f[1] <= n : f[1] == 1; f[1]++) {
            if (k > 1 && n % (f[0] * f[1]))
                continue;
            for (f[2] = k > 2 ? f[1] : 1; k > 2 ? f[2] <= n : f[2] == 1; f[2]++) {
                if (k > 2 && n % (f[0] * f[1] * f[2]))
                    continue;
                for (f[3] = k > 3 ? f[2] : 1; k > 3 ? f[3] <= n : f[3] == 1; f[3]++) {
                    long p = (long)f[0] * f[1] * f[2] * f[3];
                    if (p != n)
                        continue;
                    int b = f[k - 1] - f[0];
                    if (bal < 0 || b <= bal) { /* later ones are lexicographically larger */
                        bal = b;
                        for (int i = 0; i < k; i++)
                            best[i] = f[k - 1 - i];
                    }
                }
            }
        }
    }
}

static int dims_case(int n, int nd, const int *in, const int *want, int want_err)
{
    int errs = 0, d[MAXD];
    for (int i = 0; i < nd; i++)
        d[i] = in ? in[i] : 0;
    int e = MPI_Dims_create(n, nd, d);
    if (e != want_err)
        MT_ERR(errs, "Dims_create(%d, %d) returned %d, expected %d", n, nd, e, want_err);
    for (int i = 0; !want_err && i < nd; i++)
        if (d[i] != want[i])
            MT_ERR(errs, "Dims_create(%d, %d): dims[%d] = %d, expected %d", n, nd, i, d[i], want[i]);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    errs += dims_case(336, 2, NULL, (int[]){21, 16}, 0);
    errs += dims_case(1323, 2, NULL, (int[]){49, 27}, 0);
    errs += dims_case(5040, 3, NULL, (int[]){21, 16, 15}, 0); /* 20 x 18 x 14 is as balanced: ties */
    errs += dims_case(10800, 3, NULL, (int[]){27, 20, 20}, 0);
    errs += dims_case(1000000000, 3, NULL, (int[]){1000, 1000, 1000}, 0);
    errs += dims_case(2147483647, 2, NULL, (int[]){2147483647, 1}, 0); /* prime */
    errs += dims_case(1, 3, NULL, (int[]){1, 1, 1}, 0);
    errs += dims_case(64, 3, NULL, (int[]){4, 4, 4}, 0);
    errs += dims_case(12, 2, NULL, (int[]){4, 3}, 0);
    errs += dims_case(7, 2, NULL, (int[]){7, 1}, 0);
    errs += dims_case(30, 3, (int[]){0, 3, 0}, (int[]){5, 3, 2}, 0);
    errs += dims_case(336, 3, (int[]){0, 0, 2}, (int[]){14, 12, 2}, 0);
    errs += dims_case(12, 3, (int[]){2, 3, 2}, (int[]){2, 3, 2}, 0);
    int want40[40] = {3, 2, 2}; /* more dimensions than prime factors */
    for (int i = 3; i < 40; i++)
        want40[i] = 1;
    errs += dims_case(12, 40, NULL, want40, 0);
    int want32[32]; /* 2^30: the 2 dimensions beyond its 30 factors get 1 */
    for (int i = 0; i < 32; i++)
        want32[i] = i < 30 ? 2 : 1;
    errs += dims_case(1 << 30, 32, NULL, want32, 0);
    errs += dims_case(10, 2, (int[]){3, 0}, NULL, MPI_ERR_DIMS);
    errs += dims_case(10, 2, (int[]){-1, 0}, NULL, MPI_ERR_DIMS);
    errs += dims_case(6, 2, (int[]){2, 2}, NULL, MPI_ERR_DIMS);

    for (int k = 2; k <= 4; k++) {
        int top = k == 2 ? 3000 : k == 3 ? 800 : 200;
        for (int n = 1 + rank; n <= top; n += size) {
            int want[4];
            brute(n, k, want);
            errs += dims_case(n, k, NULL, want, 0);
        }
    }
    return mt_finish(errs);
}
