/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate atomicity under contention (MPI-3.1 11.7.1): every rank updates shared counters ITER times and
 * the totals must be exact.  Counters at rank 0 (every rank on one location) and at every rank (each rank on
 * all of them), in three kinds of epochs:
 *   - lock_all: Fetch_and_op MPI_SUM on an int64 (each fetch into its own result slot, all completed by one
 *     Win_flush_all: the values fetched at rank 0 by all ranks together are exactly 0 .. size*ITER-1, each
 *     once), Accumulate MPI_SUM on an int and on a double (exact halves), Fetch_and_op MPI_SUM on an
 *     unsigned int at each rank;
 *   - shared locks, one target at a time (Win_lock / Win_unlock around each burst);
 *   - fence epochs: Accumulate and Fetch_and_op MPI_SUM, completed by the closing fence. */
#include "mtest.h"

enum {
    C_FOP = 0,   /* int64 at rank 0: Fetch_and_op, lock_all */
    C_ACC = 1,   /* int (in an int64 slot) at rank 0: Accumulate, lock_all */
    C_DBL = 2,   /* double at rank 0 */
    C_EACH = 3,  /* unsigned at every rank: Fetch_and_op, lock_all */
    C_SH0 = 4,   /* int64 at rank 0: Fetch_and_op, shared locks */
    C_SHE = 5,   /* int64 at every rank: Accumulate, shared locks */
    C_FN0 = 6,   /* int64 at rank 0: Accumulate, fence */
    C_FNF = 7,   /* int64 at every rank: Fetch_and_op, fence */
    NCOUNT = 8
};

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ITER = size <= 8 ? 1000 : 16000 / size > 20 ? 16000 / size : 20;
    int64_t *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(NCOUNT * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                                       &base, &win));
    memset(base, 0, NCOUNT * sizeof(int64_t));
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t one = 1, *fetched = mt_malloc(sizeof(int64_t) * (size_t)ITER);
    unsigned uone = 1, *ufetched = mt_malloc(sizeof(unsigned) * (size_t)ITER * (size_t)size);
    int inc = rank + 1;
    double half = 0.5;

    /* lock_all */
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    for (int k = 0; k < ITER; k++) {
        fetched[k] = -1;
        MT_CHECK_RC(errs, MPI_Fetch_and_op(&one, &fetched[k], MPI_INT64_T, 0, C_FOP, MPI_SUM, win));
        MT_CHECK_RC(errs, MPI_Accumulate(&inc, 1, MPI_INT, 0, C_ACC, 1, MPI_INT, MPI_SUM, win));
        MT_CHECK_RC(errs, MPI_Accumulate(&half, 1, MPI_DOUBLE, 0, C_DBL, 1, MPI_DOUBLE, MPI_SUM, win));
        for (int n = 0; n < size; n++) {
            int t = (rank + n) % size;
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&uone, &ufetched[(size_t)k * size + n], MPI_UNSIGNED, t, C_EACH,
                                               MPI_SUM, win));
        }
        if (k % 50 == 49)
            MT_CHECK_RC(errs, MPI_Win_flush_local_all(win));
    }
    MT_CHECK_RC(errs, MPI_Win_flush_all(win));
    /* each origin's fetches from one target strictly increase */
    for (int k = 1; k < ITER; k++)
        if (fetched[k] <= fetched[k - 1]) {
            MT_ERR(errs, "Fetch_and_op at rank 0: fetch %d gave %lld after %lld", k, (long long)fetched[k],
                   (long long)fetched[k - 1]);
            break;
        }
    for (int n = 0; n < size; n++)
        for (int k = 1; k < ITER; k++)
            if (ufetched[(size_t)k * size + n] <= ufetched[(size_t)(k - 1) * size + n]) {
                MT_ERR(errs, "Fetch_and_op on unsigned at rank %d: fetch %d gave %u after %u", (rank + n) % size, k,
                       ufetched[(size_t)k * size + n], ufetched[(size_t)(k - 1) * size + n]);
                break;
            }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    /* all the values fetched at rank 0: a permutation of 0 .. size*ITER-1 */
    int64_t *all = rank == 0 ? mt_malloc(sizeof(int64_t) * (size_t)ITER * (size_t)size) : NULL;
    MPI_Gather(fetched, ITER, MPI_INT64_T, all, ITER, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        qsort(all, (size_t)ITER * size, sizeof(int64_t), cmp_i64);
        for (long i = 0; i < (long)ITER * size; i++)
            if (all[i] != i) {
                MT_ERR(errs, "values fetched from rank 0's counter, sorted: [%ld] = %lld (lost or duplicated updates)",
                       i, (long long)all[i]);
                break;
            }
        free(all);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* shared locks, one target at a time */
    for (int k = 0; k < ITER; k += 10) {
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        for (int j = k; j < k + 10 && j < ITER; j++)
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&one, &fetched[j], MPI_INT64_T, 0, C_SH0, MPI_SUM, win));
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
        for (int n = 0; n < size; n++) {
            int t = (rank + n) % size;
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            for (int j = k; j < k + 10 && j < ITER; j++)
                MT_CHECK_RC(errs, MPI_Accumulate(&one, 1, MPI_INT64_T, t, C_SHE, 1, MPI_INT64_T, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Win_unlock(t, win));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* fence epochs */
    for (int k = 0; k < ITER; k += 25) {
        MT_CHECK_RC(errs, MPI_Win_fence(0, win));
        for (int j = k; j < k + 25 && j < ITER; j++) {
            MT_CHECK_RC(errs, MPI_Accumulate(&one, 1, MPI_INT64_T, 0, C_FN0, 1, MPI_INT64_T, MPI_SUM, win));
            fetched[j] = -1;
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&one, &fetched[j], MPI_INT64_T, (rank + j) % size, C_FNF, MPI_SUM, win));
        }
        MT_CHECK_RC(errs, MPI_Win_fence(0, win));
        for (int j = k; j < k + 25 && j < ITER; j++)
            MT_CHECK(errs, fetched[j] >= 0 && fetched[j] < (int64_t)ITER * size,
                     "Fetch_and_op in a fence epoch fetched %lld", (long long)fetched[j]);
    }
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));

    /* the totals */
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    int64_t n_all = (int64_t)ITER * size;
    if (rank == 0) {
        int acc;
        double dbl;
        memcpy(&acc, &base[C_ACC], sizeof acc);
        memcpy(&dbl, &base[C_DBL], sizeof dbl);
        MT_CHECK_INT(errs, "Fetch_and_op(MPI_SUM) total at rank 0 (lock_all)", n_all, base[C_FOP]);
        MT_CHECK_INT(errs, "Accumulate(MPI_SUM) int total at rank 0 (lock_all)", (int64_t)ITER * size * (size + 1) / 2,
                     acc);
        MT_CHECK(errs, dbl == 0.5 * (double)n_all, "Accumulate(MPI_SUM) double total at rank 0: expected %g, got %g",
                 0.5 * (double)n_all, dbl);
        MT_CHECK_INT(errs, "Fetch_and_op(MPI_SUM) total at rank 0 (shared locks)", n_all, base[C_SH0]);
        MT_CHECK_INT(errs, "Accumulate(MPI_SUM) total at rank 0 (fence)", n_all, base[C_FN0]);
    }
    unsigned each;
    memcpy(&each, &base[C_EACH], sizeof each);
    MT_CHECK_INT(errs, "Fetch_and_op(MPI_SUM) unsigned total at each rank (lock_all)", n_all, each);
    MT_CHECK_INT(errs, "Accumulate(MPI_SUM) total at each rank (shared locks)", n_all, base[C_SHE]);
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
    /* the fence Fetch_and_op targets: rank + j mod size, so the totals over all ranks add up */
    int64_t fnf = base[C_FNF], fnf_sum = 0;
    MPI_Allreduce(&fnf, &fnf_sum, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "Fetch_and_op(MPI_SUM) totals over all ranks (fence)", n_all, fnf_sum);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    free(fetched);
    free(ufetched);
    return mt_finish(errs);
}
