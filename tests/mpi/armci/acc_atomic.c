/* SPDX-License-Identifier: BSD-3-Clause */
/* Concurrent accumulates are atomic per element: every rank accumulates into the same 16 elements of rank 0
 * (and of the last rank) ITER times, int (ARMCI_ACC_INT, scale 1), long (ARMCI_ACC_LNG, scale 2, values above
 * 2^32) and double (ARMCI_ACC_DBL, scale 1, quarters), alternating ARMCI_Acc and ARMCI_AccS (a 4 x 4 section
 * of the same elements) so that both paths meet on the same elements; the totals are exact.  vmpi: ARMCI_Rmw
 * fetch-and-add and ARMCI_ACC_INT accumulates on one int are atomic with respect to each other too. */
#include "armci_test.h"

enum { NE = 16 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ITER = size <= 8 ? 1000 : 8000 / size;
    /* per rank: NE ints, NE longs, NE doubles, one int counter */
    const long IOFF = 0, LOFF = NE * sizeof(int), DOFF = LOFF + NE * sizeof(long), COFF = DOFF + NE * sizeof(double);
    char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, COFF + 64));
    char *mine = ptr[rank];
    for (int i = 0; i < NE; i++) {
        ((int *)(mine + IOFF))[i] = i;
        ((long *)(mine + LOFF))[i] = -i;
        ((double *)(mine + DOFF))[i] = i * 0.5;
    }
    *(int *)(mine + COFF) = 0;
    int isrc[NE], one = 1;
    long lsrc[NE], ltwo = 2;
    double dsrc[NE], done = 1;
    for (int i = 0; i < NE; i++) {
        isrc[i] = rank + 1;
        lsrc[i] = ((long)(rank + 1) << 33) + i;
        dsrc[i] = (rank + 1) * 0.25;
    }
    /* the 4 x 4 section: rows of 4 elements, consecutive in both source and target */
    int ic[2] = {4 * sizeof(int), 4}, is[1] = {4 * sizeof(int)};
    int lc[2] = {4 * sizeof(long), 4}, ls[1] = {4 * sizeof(long)};
    int dc[2] = {4 * sizeof(double), 4}, ds[1] = {4 * sizeof(double)};
    ARMCI_Barrier();
    for (int k = 0; k < ITER; k++) {
        if (k == ITER / 2)
            at_migrate(); /* halfway (collective: every rank is at the same k) */
        int tg = k % 2 ? size - 1 : 0, rc = 0;
        if (k % 4 < 2) {
            rc |= ARMCI_Acc(ARMCI_ACC_INT, &one, isrc, ptr[tg] + IOFF, sizeof isrc, tg);
            rc |= ARMCI_Acc(ARMCI_ACC_LNG, &ltwo, lsrc, ptr[tg] + LOFF, sizeof lsrc, tg);
            rc |= ARMCI_Acc(ARMCI_ACC_DBL, &done, dsrc, ptr[tg] + DOFF, sizeof dsrc, tg);
        } else {
            rc |= ARMCI_AccS(ARMCI_ACC_INT, &one, isrc, is, ptr[tg] + IOFF, is, ic, 1, tg);
            rc |= ARMCI_AccS(ARMCI_ACC_LNG, &ltwo, lsrc, ls, ptr[tg] + LOFF, ls, lc, 1, tg);
            rc |= ARMCI_AccS(ARMCI_ACC_DBL, &done, dsrc, ds, ptr[tg] + DOFF, ds, dc, 1, tg);
        }
#ifdef ARMCI_VMPI
        /* the counter: one ACC_INT and one fetch-and-add of 1 each */
        int old;
        rc |= ARMCI_Acc(ARMCI_ACC_INT, &one, &one, ptr[0] + COFF, sizeof(int), 0);
        rc |= ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, ptr[0] + COFF, 1, 0);
#endif
        if (rc)
            MT_ERR(errs, "iteration %d: an accumulate returned non-zero", k);
    }
    ARMCI_Barrier();
    /* totals: each target got half of the iterations (rounded) from every rank; with one rank both targets
     * are rank 0 */
    long n0 = (ITER + 1) / 2, n1 = ITER / 2, sum = (long)size * (size + 1) / 2;
    long n = size == 1 ? ITER : rank == 0 ? n0 : n1;
    if (rank == 0 || rank == size - 1) {
        for (int i = 0; i < NE; i++) {
            MT_CHECK_INT(errs, "int element after concurrent accumulates", i + n * sum, ((int *)(mine + IOFF))[i]);
            MT_CHECK_INT(errs, "long element after concurrent accumulates", -i + n * 2 * ((sum << 33) + (long)size * i),
                         ((long *)(mine + LOFF))[i]);
            double e = i * 0.5 + n * sum * 0.25, g = ((double *)(mine + DOFF))[i];
            MT_CHECK(errs, g == e, "double element %d after concurrent accumulates: expected %.17g, got %.17g", i, e, g);
        }
    }
#ifdef ARMCI_VMPI
    if (rank == 0)
        MT_CHECK_INT(errs, "counter after ACC_INT and fetch-and-add", 2L * ITER * size, *(int *)(mine + COFF));
#endif
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    return at_finish(errs);
}
