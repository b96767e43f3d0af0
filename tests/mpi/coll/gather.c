/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Gather, Gatherv, Scatter, Scatterv from every root (three roots for large blocks on many ranks), with
 * blocks of 0, 1, 7, 1000, 1025 (just above the 4 KiB eager limit) and 262147 ints (1 MiB + 12 B; only
 * up to 16 ranks), plain and with MPI_IN_PLACE at the root; the v-forms use per-rank counts (rank i gets
 * (i % 3) * k + 1 elements) and reversed displacements with gaps.  Every element is checked, gaps and
 * other ranks' buffers must stay untouched. */
#include <stdbool.h>
#include "mtest.h"

static int val(int src, int root, long i) { return src * 1000003 + root * 7919 + (int)i; }

#define NSIZES 6
static const int sizes[NSIZES] = {0, 1, 7, 1000, 1025, 262147};

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *counts = mt_malloc(sizeof(int) * (size_t)n), *displs = mt_malloc(sizeof(int) * (size_t)n);
    for (int si = 0; si < NSIZES; si++) {
        int k = sizes[si];
        if ((long)k * n > 4L * 1024 * 1024 || (k > 1000 && n > 16 && si == NSIZES - 1))
            continue;
        int *mine = mt_malloc(sizeof(int) * (size_t)(k * 3 + 2));
        size_t all = (size_t)k * n, vall = 0;
        for (int i = n - 1; i >= 0; i--) { /* reversed order, one-element gaps */
            counts[i] = (i % 3) * k + 1;
            displs[i] = (int)vall;
            vall += (size_t)counts[i] + 1;
        }
        int *big = mt_malloc(sizeof(int) * (vall > all ? vall : all));
        for (int root = 0; root < n; root++) {
            if (n > 8 && k > 7 && root != 0 && root != n / 2 && root != n - 1)
                continue;
            for (int inplace = 0; inplace < 2; inplace++) {
                /* Gather */
                for (int i = 0; i < k; i++)
                    mine[i] = val(rank, root, i);
                for (size_t i = 0; i < all; i++)
                    big[i] = -1;
                if (inplace && rank == root)
                    for (int i = 0; i < k; i++)
                        big[(size_t)root * k + i] = val(root, root, i);
                MT_CHECK_RC(errs, MPI_Gather(inplace && rank == root ? MPI_IN_PLACE : mine, k, MPI_INT, big, k,
                                             MPI_INT, root, MPI_COMM_WORLD));
                for (size_t i = 0; rank == root && i < all; i++)
                    if (big[i] != val((int)(i / (size_t)(k ? k : 1)), root, (long)(i % (size_t)(k ? k : 1)))) {
                        MT_ERR(errs, "Gather k=%d root=%d inplace=%d: element %zu: expected %d, got %d", k, root,
                               inplace, i, val((int)(i / k), root, (long)(i % k)), big[i]);
                        break;
                    }
                /* Scatter */
                for (size_t i = 0; rank == root && i < all; i++)
                    big[i] = val((int)(i / (size_t)(k ? k : 1)), root + 1, (long)(i % (size_t)(k ? k : 1)));
                for (int i = 0; i < k; i++)
                    mine[i] = -1;
                bool ip = inplace && rank == root;
                MT_CHECK_RC(errs, MPI_Scatter(big, k, MPI_INT, ip ? MPI_IN_PLACE : mine, k, MPI_INT, root,
                                              MPI_COMM_WORLD));
                for (int i = 0; i < k && !ip; i++)
                    if (mine[i] != val(rank, root + 1, i)) {
                        MT_ERR(errs, "Scatter k=%d root=%d: element %d: expected %d, got %d", k, root, i,
                               val(rank, root + 1, i), mine[i]);
                        break;
                    }
                /* Gatherv */
                int c = counts[rank];
                for (int i = 0; i < c; i++)
                    mine[i] = val(rank, root + 2, i);
                for (size_t i = 0; i < vall; i++)
                    big[i] = -1;
                if (ip)
                    for (int i = 0; i < c; i++)
                        big[displs[rank] + i] = val(rank, root + 2, i);
                MT_CHECK_RC(errs, MPI_Gatherv(ip ? MPI_IN_PLACE : mine, c, MPI_INT, big, counts, displs, MPI_INT,
                                              root, MPI_COMM_WORLD));
                for (int s = 0; rank == root && s < n; s++) {
                    for (int i = 0; i < counts[s]; i++)
                        if (big[displs[s] + i] != val(s, root + 2, i)) {
                            MT_ERR(errs, "Gatherv k=%d root=%d from %d: element %d: expected %d, got %d", k, root,
                                   s, i, val(s, root + 2, i), big[displs[s] + i]);
                            break;
                        }
                    MT_CHECK(errs, big[displs[s] + counts[s]] == -1, "Gatherv wrote into a gap after rank %d", s);
                }
                /* Scatterv */
                for (int s = 0; rank == root && s < n; s++)
                    for (int i = 0; i < counts[s]; i++)
                        big[displs[s] + i] = val(s, root + 3, i);
                for (int i = 0; i <= c; i++)
                    mine[i] = -1;
                MT_CHECK_RC(errs, MPI_Scatterv(big, counts, displs, MPI_INT, ip ? MPI_IN_PLACE : mine, c, MPI_INT,
                                               root, MPI_COMM_WORLD));
                for (int i = 0; i < c && !ip; i++)
                    if (mine[i] != val(rank, root + 3, i)) {
                        MT_ERR(errs, "Scatterv k=%d root=%d: element %d: expected %d, got %d", k, root, i,
                               val(rank, root + 3, i), mine[i]);
                        break;
                    }
                MT_CHECK(errs, ip || mine[c] == -1, "Scatterv wrote past the count");
            }
        }
        free(big);
        free(mine);
    }
    free(counts);
    free(displs);
    return mt_finish(errs);
}
