/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Scan, Exscan, Reduce_scatter and Reduce_scatter_block with MPI_SUM on ints and MPI_MAX on doubles,
 * plain and MPI_IN_PLACE, counts 0, 1, 7, 1025 and (up to 16 ranks) 131073; every element checked. */
#include "mtest.h"

static int ival(int r, long i) { return (r + 1) * 3 + (int)(i % 1000) * (r % 5 - 2); }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static const int sizes[] = {0, 1, 7, 1025, 131073};
    int *rcounts = mt_malloc(sizeof(int) * (size_t)n);
    for (int si = 0; si < 5; si++) {
        int k = sizes[si];
        if (k > 1025 && n > 16)
            continue;
        size_t big = (size_t)k * n + (size_t)n * 3;
        int *in = mt_malloc(sizeof(int) * big), *out = mt_malloc(sizeof(int) * big);
        for (int inplace = 0; inplace < 2; inplace++) {
            /* Scan / Exscan */
            for (int ex = 0; ex < 2; ex++) {
                for (int i = 0; i < k; i++) {
                    in[i] = ival(rank, i);
                    out[i] = inplace ? in[i] : -7;
                }
                MT_CHECK_RC(errs, (ex ? MPI_Exscan : MPI_Scan)(inplace ? MPI_IN_PLACE : in, out, k, MPI_INT, MPI_SUM,
                                                             MPI_COMM_WORLD));
                for (int i = 0; i < k && (rank > 0 || !ex); i++) {
                    long e = 0;
                    for (int r = 0; r < rank + !ex; r++)
                        e += ival(r, i);
                    if (out[i] != (int)e) {
                        MT_ERR(errs, "%s k=%d inplace=%d element %d: expected %ld, got %d", ex ? "Exscan" : "Scan",
                               k, inplace, i, e, out[i]);
                        break;
                    }
                }
            }
            /* Reduce_scatter_block: block b of the result goes to rank b */
            size_t all = (size_t)k * n;
            for (size_t i = 0; i < all; i++)
                (inplace ? out : in)[i] = ival(rank, (long)i);
            MT_CHECK_RC(errs, MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : in, out, k, MPI_INT, MPI_SUM,
                                                       MPI_COMM_WORLD));
            for (int i = 0; i < k; i++) {
                long e = 0;
                for (int r = 0; r < n; r++)
                    e += ival(r, (long)rank * k + i);
                if (out[i] != (int)e) {
                    MT_ERR(errs, "Reduce_scatter_block k=%d inplace=%d element %d: expected %ld, got %d", k, inplace,
                           i, e, out[i]);
                    break;
                }
            }
            /* MPICH 4.0 moves a rank's block to the front of the buffer with an overlapping memcpy (and
             * aborts: "memcpy argument memory ranges overlap") in place when the block is big */
            if (inplace && MT_MPICH_BUGS && k > 1025)
                continue;
            /* Reduce_scatter with counts k + (r % 3) - 1 (at least 0) */
            size_t tot = 0;
            for (int r = 0; r < n; r++) {
                rcounts[r] = k + r % 3 - 1 < 0 ? 0 : k + r % 3 - 1;
                tot += (size_t)rcounts[r];
            }
            double *dbl = mt_malloc(sizeof(double) * (tot + 1)), *dout = mt_malloc(sizeof(double) * (tot + 1));
            for (size_t i = 0; i < tot; i++)
                (inplace ? dout : dbl)[i] = (double)((rank * 37 + (long)i * 11) % 101) + 0.5;
            MT_CHECK_RC(errs, MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : dbl, dout, rcounts, MPI_DOUBLE, MPI_MAX,
                                                 MPI_COMM_WORLD));
            size_t off = 0;
            for (int r = 0; r < rank; r++)
                off += (size_t)rcounts[r];
            for (int i = 0; i < rcounts[rank]; i++) {
                double e = 0;
                for (int r = 0; r < n; r++) {
                    double v = (double)((r * 37 + (long)(off + i) * 11) % 101) + 0.5;
                    e = v > e ? v : e;
                }
                if (dout[i] != e) {
                    MT_ERR(errs, "Reduce_scatter k=%d inplace=%d element %d: expected %g, got %g", k, inplace, i, e,
                           dout[i]);
                    break;
                }
            }
            free(dbl);
            free(dout);
        }
        free(in);
        free(out);
    }
    free(rcounts);
    return mt_finish(errs);
}
