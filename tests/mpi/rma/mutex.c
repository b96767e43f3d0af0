/* SPDX-License-Identifier: BSD-3-Clause */
/* A spin mutex made of Compare_and_swap in rank 0's window protects a read-modify-write of a plain counter
 * (MPI_Get, add locally, MPI_Put, each completed by Win_flush) that is not atomic by itself: with the mutex,
 * no increment is lost, so the counter ends at exactly size * ROUNDS.  Inside its critical section a rank
 * also checks that the mutex word holds its own mark, and a second plain counter at rank 0 is updated with
 * two Puts per round (high and low halves) that must always read back consistent.  Everything happens in
 * one lock_all epoch; the acquiring loop retries Compare_and_swap + Win_flush until it wins (a correct MPI
 * must let the holder finish meanwhile, whatever shares its processor).  Released with Accumulate
 * MPI_REPLACE (and every other time with Compare_and_swap back to 0).
 * Then the same read-modify-write under MPI_Win_lock(MPI_LOCK_EXCLUSIVE) on rank 0 (rank 0 itself with loads
 * and stores on its own window, which its own lock protects as well), with some rounds reading the pair
 * under a shared lock instead: exclusive locks exclude each other and shared ones. */
#include "mtest.h"

enum { LOCKW = 0, COUNTER = 1, HI = 2, LO = 3 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int ROUNDS = size <= 8 ? 200 : 3200 / size > 5 ? 3200 / size : 5;
    int64_t *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(4 * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                       &win));
    memset(base, 0, 4 * sizeof(int64_t));
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t me = rank + 1, zero = 0, old, cnt, hi, lo;
    long spins = 0;
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    for (int k = 0; k < ROUNDS; k++) {
        /* acquire */
        for (;;) {
            old = -1;
            MT_CHECK_RC(errs, MPI_Compare_and_swap(&me, &zero, &old, MPI_INT64_T, 0, LOCKW, win));
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            if (old == 0)
                break;
            if (old < 0 || old > size || old == me) {
                MT_ERR(errs, "round %d: the mutex word holds %lld", k, (long long)old);
                break;
            }
            spins++;
        }
        /* the critical section */
        int64_t check = -1;
        MT_CHECK_RC(errs, MPI_Fetch_and_op(NULL, &check, MPI_INT64_T, 0, LOCKW, MPI_NO_OP, win));
        MT_CHECK_RC(errs, MPI_Get(&cnt, 1, MPI_INT64_T, 0, COUNTER, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Get(&hi, 1, MPI_INT64_T, 0, HI, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Get(&lo, 1, MPI_INT64_T, 0, LO, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Win_flush(0, win));
        MT_CHECK(errs, check == me, "round %d: inside the critical section the mutex word is %lld, expected %lld", k,
                 (long long)check, (long long)me);
        MT_CHECK(errs, hi == lo * 3, "round %d: the pair written under the mutex is (%lld, %lld)", k, (long long)hi,
                 (long long)lo);
        cnt++;
        lo++;
        hi = 3 * lo;
        MT_CHECK_RC(errs, MPI_Put(&cnt, 1, MPI_INT64_T, 0, COUNTER, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Put(&hi, 1, MPI_INT64_T, 0, HI, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Win_flush(0, win));
        MT_CHECK_RC(errs, MPI_Put(&lo, 1, MPI_INT64_T, 0, LO, 1, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Win_flush(0, win));
        /* release */
        if (k % 2) {
            MT_CHECK_RC(errs, MPI_Accumulate(&zero, 1, MPI_INT64_T, 0, LOCKW, 1, MPI_INT64_T, MPI_REPLACE, win));
        } else {
            old = -1;
            MT_CHECK_RC(errs, MPI_Compare_and_swap(&zero, &me, &old, MPI_INT64_T, 0, LOCKW, win));
        }
        MT_CHECK_RC(errs, MPI_Win_flush(0, win));
        if (k % 2 == 0)
            MT_CHECK(errs, old == me, "round %d: releasing, the mutex word was %lld", k, (long long)old);
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MT_CHECK_INT(errs, "the counter incremented under the mutex", (int64_t)size * ROUNDS, base[COUNTER]);
        MT_CHECK_INT(errs, "the mutex word at the end", 0, base[LOCKW]);
        MT_CHECK(errs, base[LO] == (int64_t)size * ROUNDS && base[HI] == 3 * base[LO],
                 "the pair at the end: (%lld, %lld)",
                 (long long)base[HI], (long long)base[LO]);
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
    }
    (void)spins;

    /* the same with window locks: exclusive ones around the read-modify-write (rank 0 with loads and stores
     * on its own window, which its lock protects too), shared ones around reads of the pair */
    if (rank == 0) {
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        base[COUNTER] = base[HI] = base[LO] = 0;
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int64_t writes = 0, all_writes = 0;
    for (int k = 0; k < ROUNDS; k++) {
        if ((rank + k) % 3 == 0) { /* a reader */
            hi = lo = -1;
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            MT_CHECK_RC(errs, MPI_Get(&hi, 1, MPI_INT64_T, 0, HI, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            MT_CHECK_RC(errs, MPI_Get(&lo, 1, MPI_INT64_T, 0, LO, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
            MT_CHECK(errs, hi == 3 * lo, "round %d: under a shared lock, the pair is (%lld, %lld)", k, (long long)hi,
                     (long long)lo);
            continue;
        }
        writes++;
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
        if (rank == 0) {
            volatile int64_t *v = base;
            cnt = v[COUNTER] + 1;
            lo = v[LO] + 1;
            v[HI] = 3 * lo;
            v[LO] = lo;
            v[COUNTER] = cnt;
        } else {
            MT_CHECK_RC(errs, MPI_Get(&cnt, 1, MPI_INT64_T, 0, COUNTER, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Get(&lo, 1, MPI_INT64_T, 0, LO, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            cnt++;
            lo++;
            hi = 3 * lo;
            MT_CHECK_RC(errs, MPI_Put(&hi, 1, MPI_INT64_T, 0, HI, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            MT_CHECK_RC(errs, MPI_Put(&lo, 1, MPI_INT64_T, 0, LO, 1, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Put(&cnt, 1, MPI_INT64_T, 0, COUNTER, 1, MPI_INT64_T, win));
        }
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
    }
    MPI_Allreduce(&writes, &all_writes, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
        MT_CHECK_INT(errs, "the counter incremented under exclusive locks", all_writes, base[COUNTER]);
        MT_CHECK(errs, base[LO] == all_writes && base[HI] == 3 * base[LO], "the pair at the end: (%lld, %lld)",
                 (long long)base[HI], (long long)base[LO]);
        MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return mt_finish(errs);
}
