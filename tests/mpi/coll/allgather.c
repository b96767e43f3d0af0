/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Allgather and Allgatherv (plain and MPI_IN_PLACE) with blocks of 0, 1, 7, 1000 and 1025 ints and, up
 * to 16 ranks, 65537 ints; the v-form with per-rank counts and reversed, gapped displacements. */
#include "mtest.h"

static int val(int src, int id, long i) { return src * 1000003 + id * 7919 + (int)i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static const int sizes[] = {0, 1, 7, 1000, 1025, 65537};
    int *counts = mt_malloc(sizeof(int) * (size_t)n), *displs = mt_malloc(sizeof(int) * (size_t)n);
    for (int si = 0; si < 6; si++) {
        int k = sizes[si];
        if (k > 1025 && n > 16)
            continue;
        size_t vall = 0;
        for (int i = n - 1; i >= 0; i--) {
            counts[i] = (i % 3) * k + 1;
            displs[i] = (int)vall;
            vall += (size_t)counts[i] + 1;
        }
        size_t all = (size_t)k * n;
        int *mine = mt_malloc(sizeof(int) * (size_t)(3 * k + 1)), *big = mt_malloc(sizeof(int) * (vall + all));
        for (int inplace = 0; inplace < 2; inplace++) {
            int id = si * 2 + inplace;
            for (int i = 0; i < k; i++)
                mine[i] = val(rank, id, i);
            for (size_t i = 0; i < all; i++)
                big[i] = inplace && i / (size_t)k == (size_t)rank ? val(rank, id, (long)(i % (size_t)k)) : -1;
            MT_CHECK_RC(errs, MPI_Allgather(inplace ? MPI_IN_PLACE : mine, k, MPI_INT, big, k, MPI_INT,
                                            MPI_COMM_WORLD));
            for (size_t i = 0; i < all; i++)
                if (big[i] != val((int)(i / (size_t)k), id, (long)(i % (size_t)k))) {
                    MT_ERR(errs, "Allgather k=%d inplace=%d element %zu: expected %d, got %d", k, inplace, i,
                           val((int)(i / (size_t)k), id, (long)(i % (size_t)k)), big[i]);
                    break;
                }
            int c = counts[rank];
            for (int i = 0; i < c; i++)
                mine[i] = val(rank, id + 100, i);
            for (size_t i = 0; i < vall; i++)
                big[i] = -1;
            for (int i = 0; inplace && i < c; i++)
                big[displs[rank] + i] = mine[i];
            MT_CHECK_RC(errs, MPI_Allgatherv(inplace ? MPI_IN_PLACE : mine, c, MPI_INT, big, counts, displs,
                                             MPI_INT, MPI_COMM_WORLD));
            for (int s = 0; s < n; s++) {
                for (int i = 0; i < counts[s]; i++)
                    if (big[displs[s] + i] != val(s, id + 100, i)) {
                        MT_ERR(errs, "Allgatherv k=%d inplace=%d from %d element %d: expected %d, got %d", k,
                               inplace, s, i, val(s, id + 100, i), big[displs[s] + i]);
                        break;
                    }
                MT_CHECK(errs, big[displs[s] + counts[s]] == -1, "Allgatherv wrote into a gap after rank %d", s);
            }
        }
        free(mine);
        free(big);
    }
    free(counts);
    free(displs);
    return mt_finish(errs);
}
