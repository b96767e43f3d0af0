/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI_Rmw is atomic: not only the totals but the old values each rank sees prove it.
 *   - ARMCI_FETCH_AND_ADD of 1 on one int at rank 0, K times by every rank: the old values seen by all ranks
 *     together are exactly {0, ..., N*K-1}, each rank's increasing;
 *   - ARMCI_FETCH_AND_ADD_LONG of 3 on a long at the last rank starting at 2^40: the old values are exactly
 *     2^40 + 3j; negative increments (-1 on an int, -7 on a long, widened with their sign): exact totals;
 *   - ARMCI_SWAP / ARMCI_SWAP_LONG chains on one location: every rank swaps in distinct values; the values
 *     swapped out by all ranks plus the final one are exactly the initial value and all the values swapped in;
 *   - ARMCI_Rmw returns 0; ARMCI_GetValueInt / ARMCI_GetValueLong read the totals. */
#include "armci_test.h"

/* int and long indices in each block: ints in bytes 0-11, longs in 16-39 */
enum { I_FAA = 0, I_NEG = 1, I_SWAP = 2, L_FAA = 2, L_NEG = 3, L_SWAP = 4 };

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int K = size <= 8 ? 200 : 3200 / size > 20 ? 3200 / size : 20;
    const int last = size - 1, mid = size / 2;
    const long BASE = 1L << 40;
    char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, 64));
    char *mine = ptr[rank];
    int *mi = (int *)mine;
    long *ml = (long *)mine;
    memset(mine, 0, 64);
    mi[I_SWAP] = -1;
    ml[L_FAA] = BASE;
    ml[L_SWAP] = -1;
    long N = (long)size * K;
    long *olds = mt_malloc(sizeof(long) * (size_t)K * 2);
    long *all = rank == 0 ? mt_malloc(sizeof(long) * (size_t)N * 2) : NULL;
    ARMCI_Barrier();

    /* ---- fetch-and-add ---- */
    int rcs = 0;
    for (int k = 0; k < K; k++) {
        int o = -5, dummy;
        long lo = -5, ldummy;
        rcs |= ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &o, (int *)ptr[0] + I_FAA, 1, 0);
        rcs |= ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lo, (long *)ptr[last] + L_FAA, 3, last);
        rcs |= ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &dummy, (int *)ptr[mid] + I_NEG, -1, mid);
        rcs |= ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &ldummy, (long *)ptr[mid] + L_NEG, -7, mid);
        olds[k] = o;
        if (k > 0)
            MT_CHECK(errs, o > olds[k - 1], "fetch-and-add: my old values are not increasing: %d after %ld", o,
                     olds[k - 1]);
        olds[K + k] = lo;
    }
    MT_CHECK_INT(errs, "ARMCI_Rmw's results (or'ed)", 0, rcs);
    /* the int olds and the long olds, gathered at rank 0 */
    MPI_Gather(olds, K, MPI_LONG, all, K, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)N, sizeof(long), cmp_long);
        for (long j = 0, bad = 0; j < N; j++)
            if (all[j] != j && bad++ < 3)
                MT_ERR(errs, "fetch-and-add (int): sorted old value %ld: expected %ld, got %ld", j, j, all[j]);
    }
    MPI_Gather(olds + K, K, MPI_LONG, all, K, MPI_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)N, sizeof(long), cmp_long);
        for (long j = 0, bad = 0; j < N; j++)
            if (all[j] != BASE + 3 * j && bad++ < 3)
                MT_ERR(errs, "fetch-and-add (long): sorted old value %ld: expected %ld, got %ld", j, BASE + 3 * j, all[j]);
    }
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "int counter (GetValueInt)", N, ARMCI_GetValueInt((int *)ptr[0] + I_FAA, 0));
    MT_CHECK_INT(errs, "long counter (GetValueLong)", BASE + 3 * N, ARMCI_GetValueLong((long *)ptr[last] + L_FAA, last));
    MT_CHECK_INT(errs, "int counter, increments of -1", -N, ARMCI_GetValueInt((int *)ptr[mid] + I_NEG, mid));
    MT_CHECK_INT(errs, "long counter, increments of -7", -7 * N, ARMCI_GetValueLong((long *)ptr[mid] + L_NEG, mid));
    ARMCI_Barrier();
    at_migrate();

    /* ---- swap chains: values rank*K + k + 1 (int) and the same + 2^35 (long) ---- */
    rcs = 0;
    for (int k = 0; k < K; k++) {
        int v = rank * K + k + 1;
        long lv = v + (1L << 35);
        rcs |= ARMCI_Rmw(ARMCI_SWAP, &v, (int *)ptr[0] + I_SWAP, 0, 0);
        rcs |= ARMCI_Rmw(ARMCI_SWAP_LONG, &lv, (long *)ptr[last] + L_SWAP, 0, last);
        olds[k] = v;
        olds[K + k] = lv;
    }
    MT_CHECK_INT(errs, "ARMCI_Rmw's results (swaps, or'ed)", 0, rcs);
    ARMCI_Barrier();
    for (int l = 0; l < 2; l++) {
        MPI_Gather(olds + l * K, K, MPI_LONG, all, K, MPI_LONG, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            all[N] = l ? ARMCI_GetValueLong((long *)ptr[last] + L_SWAP, last) : ARMCI_GetValueInt((int *)ptr[0] + I_SWAP, 0);
            qsort(all, (size_t)N + 1, sizeof(long), cmp_long);
            /* expected: -1, then 1..N (+ 2^35 for longs) */
            for (long j = 0, bad = 0; j <= N; j++) {
                long e = j == 0 ? -1 : j + (l ? 1L << 35 : 0);
                if (all[j] != e && bad++ < 3)
                    MT_ERR(errs, "swap chain (%s): sorted value %ld: expected %ld, got %ld", l ? "long" : "int", j, e,
                           all[j]);
            }
        }
    }
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(olds);
    free(all);
    return at_finish(errs);
}
