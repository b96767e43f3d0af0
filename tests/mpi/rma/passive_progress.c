/* SPDX-License-Identifier: BSD-3-Clause */
/* Passive-target communication completes while the target is outside MPI (MPI-3.1 11.7: the public copy is
 * updated "even if the window owner does not execute any related synchronization call").
 *
 * Rank 0 publishes READY = round in its own window with an atomic store and from then on calls no MPI
 * function: it spins, reading FLAG with atomic loads (the unified memory model makes RMA updates visible to
 * loads without synchronization calls; MPI_WIN_MODEL must say UNIFIED, and under vmpi it must), until FLAG
 * = round.  Every other rank first waits until it reads READY = round (Fetch_and_op MPI_NO_OP + Win_flush),
 * which proves that rank 0 is already in its loop, then takes a lock on rank 0 (exclusive on even ranks,
 * shared on odd ones), puts a block into its own slot, adds to a counter with Accumulate, unlocks, and
 * counts itself in with Fetch_and_op; the last one sets FLAG with Accumulate MPI_REPLACE (round 1) or with a
 * Put followed by Win_flush (round 2).  So all the locking, putting, accumulating and unlocking happens while
 * rank 0 is in no MPI call; an implementation that needs the target to make progress hangs (the test's
 * timeout).  Afterwards rank 0 checks every slot and the counter.
 *
 * What rank 0 does in its loop: vmpi runs many ranks on one OS thread (a PE) and switches only when a rank
 * enters the runtime, so a rank that never does would keep every other rank of its PE from running at
 * all; under vmpi the loop calls AMPI_Yield(), which lets the other ranks of the PE run but executes no RMA
 * on anyone's behalf (vmpi's origins execute their operations themselves).  Under another MPI the loop
 * calls sched_yield() only (each rank is a process), except under MPICH (MT_MPICH_BUGS), whose ch4 device
 * acquires passive-target locks through messages that the target must receive: there the loop calls
 * MPI_Iprobe, and the test only checks the protocol. */
#include <sched.h>
#include "mtest.h"

enum { READY = 0, FLAG = 1, COUNT = 2, ARRIVED = 3, SLOTS = 4, BLK = 8 };

static void target_loop_hint(void)
{
#ifdef VMPI
    AMPI_Yield();
#elif MT_MPICH_BUGS
    int flag;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
#else
    sched_yield();
#endif
}

static int64_t val(int r, int round, int i) { return (int64_t)r * 1000 + round * 100 + i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Aint n = SLOTS + (MPI_Aint)BLK * size;
    int64_t *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(n * (MPI_Aint)sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                                       &base, &win));
    int *model = NULL, flag = 0;
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
    int unified = flag && model && *model == MPI_WIN_UNIFIED;
#ifdef VMPI
    MT_CHECK(errs, unified, "MPI_WIN_MODEL is not MPI_WIN_UNIFIED");
#endif
    memset(base, 0, (size_t)n * sizeof(int64_t));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int round = 1; round <= 2 && size > 1; round++) {
        if (rank == 0) {
            __atomic_store_n(&base[READY], (int64_t)round, __ATOMIC_SEQ_CST);
            /* no MPI from here until FLAG = round (see the top comment) */
            long spins = 0;
            if (unified) {
                while (__atomic_load_n(&base[FLAG], __ATOMIC_ACQUIRE) != round) {
                    spins++;
                    target_loop_hint();
                }
            } else { /* separate model: Win_sync is needed to see the public copy (not vmpi) */
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
                while (__atomic_load_n(&base[FLAG], __ATOMIC_ACQUIRE) != round) {
                    spins++;
                    MPI_Win_sync(win);
                    target_loop_hint();
                }
                MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
            }
            (void)spins;
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win));
            for (int r = 1; r < size; r++)
                for (int i = 0; i < BLK; i++)
                    if (base[SLOTS + r * BLK + i] != val(r, round, i)) {
                        MT_ERR(errs, "round %d: rank %d's block, int %d: expected %lld, got %lld", round, r, i,
                               (long long)val(r, round, i), (long long)base[SLOTS + r * BLK + i]);
                        break;
                    }
            MT_CHECK_INT(errs, "counter accumulated while rank 0 was outside MPI",
                         (int64_t)round * size * (size - 1) / 2, base[COUNT]);
            MT_CHECK_INT(errs, "ranks counted in", (int64_t)round * (size - 1), base[ARRIVED]);
            MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
        } else {
            int64_t ready = 0, none = 0, one = 1, old = -1, inc = rank, r64 = round;
            int64_t *blk = mt_malloc(sizeof(int64_t) * BLK);
            MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
            while (ready != round) {
                MT_CHECK_RC(errs, MPI_Fetch_and_op(&none, &ready, MPI_INT64_T, 0, READY, MPI_NO_OP, win));
                MT_CHECK_RC(errs, MPI_Win_flush(0, win));
                /* let rank 0 run if it shares this PE and has not stored READY yet: whether polling RMA calls
                 * do that themselves is rma/poll's question, not this test's */
                int f;
                MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &f, MPI_STATUS_IGNORE);
            }
            MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
            /* rank 0 is in its loop now */
            for (int i = 0; i < BLK; i++)
                blk[i] = val(rank, round, i);
            MT_CHECK_RC(errs, MPI_Win_lock(rank % 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, 0, 0, win));
            MT_CHECK_RC(errs, MPI_Put(blk, BLK, MPI_INT64_T, 0, SLOTS + rank * BLK, BLK, MPI_INT64_T, win));
            MT_CHECK_RC(errs, MPI_Accumulate(&inc, 1, MPI_INT64_T, 0, COUNT, 1, MPI_INT64_T, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
            MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
            MT_CHECK_RC(errs, MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, ARRIVED, MPI_SUM, win));
            MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            if (old == (int64_t)round * (size - 1) - 1) { /* the last one in */
                if (round == 1)
                    MT_CHECK_RC(errs, MPI_Accumulate(&r64, 1, MPI_INT64_T, 0, FLAG, 1, MPI_INT64_T, MPI_REPLACE, win));
                else
                    MT_CHECK_RC(errs, MPI_Put(&r64, 1, MPI_INT64_T, 0, FLAG, 1, MPI_INT64_T, win));
                MT_CHECK_RC(errs, MPI_Win_flush(0, win));
            }
            MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
            free(blk);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return mt_finish(errs);
}
