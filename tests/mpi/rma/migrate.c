/* SPDX-License-Identifier: BSD-3-Clause */
/* Windows across migrations (the testlist runs it with VMPI_BALANCER=Rotate, which moves every rank to another
 * PE at every AMPI_Migrate; elsewhere mt_migrate does nothing): the same windows are used before and after
 * each migration point, and epochs stay open across them.  Each step:
 *   - a fence epoch on a Win_allocate window, then a migration between epochs: the window's memory (under vmpi
 *     in the rank's own slot: it moves with the rank) keeps its address (MPI_WIN_BASE) and contents;
 *   - an exclusive lock on the right neighbour (each target locked by one origin only) held across a
 *     migration: a Put before it, a Put and an Accumulate after it, then the unlock;
 *   - a lock_all epoch across a migration with Fetch_and_op on a counter at rank 0 before and after;
 *   - an exposure epoch (Win_post to the left neighbour) open across a migration, the access epoch
 *     (Win_start/Put/Win_complete) after it, Win_wait;
 *   - a Win_create window on malloc'ed memory and a dynamic window with a region attached before the first
 *     migration: Puts after every migration land in them;
 * and every window's contents are checked after every migration. */
#include "mtest.h"

enum { STEPS = 6, N = 64 };

static int val(int owner, int writer, int step, int i) { return owner * 1000000 + writer * 1000 + step * 64 + i % 64; }

/* the PE the rank runs on (vmpi), -1 elsewhere */
static int my_pe(void)
{
#ifdef AMPI
    return mt_world_attr(AMPI_MY_WTH);
#else
    return -1;
#endif
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, moves = 0, points = 0;
    int *a, *src = mt_malloc(sizeof(int) * 4 * N);
    MPI_Win wa, wc, wd, wn;
    /* a: 4 blocks of N ints (fence, lock, PSCW, accumulate); c: Win_create; d: dynamic; n: a counter */
    MT_CHECK_RC(errs, MPI_Win_allocate(4 * N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &a, &wa));
    int *c = mt_malloc(sizeof(int) * N), *d = mt_malloc(sizeof(int) * N);
    MT_CHECK_RC(errs, MPI_Win_create(c, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &wc));
    MT_CHECK_RC(errs, MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &wd));
    MT_CHECK_RC(errs, MPI_Win_attach(wd, d, N * sizeof(int)));
    MPI_Aint dmine, dright;
    MPI_Get_address(d, &dmine);
    MPI_Sendrecv(&dmine, 1, MPI_AINT, left, 0, &dright, 1, MPI_AINT, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int64_t *cnt;
    MT_CHECK_RC(errs, MPI_Win_allocate(sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &cnt, &wn));
    *cnt = 0;
    for (int i = 0; i < 4 * N; i++)
        a[i] = -1;
    for (int i = 0; i < N; i++)
        c[i] = d[i] = -1;
    MPI_Group lg, rg, world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &left, &lg);
    MPI_Group_incl(world, 1, &right, &rg);
    MPI_Group_free(&world);
    void *abase = a;
#define MIGRATE()                                                                                             \
    do {                                                                                                      \
        int pe0_ = my_pe();                                                                     \
        mt_migrate();                                                                                         \
        points++;                                                                                             \
        moves += my_pe() != pe0_;                                                               \
    } while (0)
#define CHECK_BLOCK(blk, writer, step, what)                                                                  \
    do {                                                                                                      \
        for (int i_ = 0; i_ < N; i_++)                                                                        \
            if ((blk)[i_] != val(rank, writer, step, i_)) {                                                   \
                MT_ERR(errs, "step %d: %s, int %d: expected %d, got %d", step, what, i_,                      \
                       val(rank, writer, step, i_), (blk)[i_]);                                               \
                break;                                                                                        \
            }                                                                                                 \
    } while (0)
    MPI_Barrier(MPI_COMM_WORLD);
    for (int step = 0; step < STEPS; step++) {
        /* fence epoch, then a migration between epochs */
        for (int i = 0; i < N; i++)
            src[i] = val(right, rank, step, i);
        MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, wa));
        MT_CHECK_RC(errs, MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, wa));
        MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, wa));
        MIGRATE();
        {
            void *b = NULL;
            int flag = 0;
            MPI_Win_get_attr(wa, MPI_WIN_BASE, &b, &flag);
            MT_CHECK(errs, flag && b == abase, "step %d: MPI_WIN_BASE after migration is %p, was %p", step, b, abase);
#if defined(VMPI) && !MT_SANITIZE
            MT_CHECK_INT(errs, "slot of the Win_allocate memory after migration (MPIX_Iso_rank)", rank,
                         MPIX_Iso_rank(a));
#endif
        }
        CHECK_BLOCK(a, left, step, "fence block after the migration");

        /* an exclusive lock on the right neighbour across a migration */
        for (int i = 0; i < N; i++)
            src[N + i] = val(right, rank, step, i);
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, wa));
        MT_CHECK_RC(errs, MPI_Put(src + N, N / 2, MPI_INT, right, N, N / 2, MPI_INT, wa));
        MIGRATE();
        MT_CHECK_RC(errs, MPI_Put(src + N + N / 2, N / 2, MPI_INT, right, N + N / 2, N / 2, MPI_INT, wa));
        int one = 1;
        MT_CHECK_RC(errs, MPI_Accumulate(&one, 1, MPI_INT, right, 3 * N, 1, MPI_INT, MPI_SUM, wa));
        MT_CHECK_RC(errs, MPI_Win_unlock(right, wa));
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wa));
        CHECK_BLOCK(a + N, left, step, "block put under a lock held across a migration");
        MT_CHECK_INT(errs, "ints accumulated (from -1) under locks held across migrations", step, a[3 * N]);
        MT_CHECK_RC(errs, MPI_Win_unlock(rank, wa));

        /* lock_all across a migration */
        int64_t inc = 1, got1 = -1, got2 = -1;
        MT_CHECK_RC(errs, MPI_Win_lock_all(0, wn));
        MT_CHECK_RC(errs, MPI_Fetch_and_op(&inc, &got1, MPI_INT64_T, 0, 0, MPI_SUM, wn));
        MT_CHECK_RC(errs, MPI_Win_flush(0, wn));
        MIGRATE();
        MT_CHECK_RC(errs, MPI_Fetch_and_op(&inc, &got2, MPI_INT64_T, 0, 0, MPI_SUM, wn));
        MT_CHECK_RC(errs, MPI_Win_unlock_all(wn));
        MT_CHECK(errs, got1 >= 0 && got2 > got1 && got2 < (int64_t)2 * size * (step + 1),
                 "step %d: Fetch_and_op around a migration gave %lld then %lld", step, (long long)got1,
                 (long long)got2);
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, wn));
            MT_CHECK_INT(errs, "counter after lock_all epochs across migrations", (int64_t)2 * size * (step + 1), *cnt);
            MT_CHECK_RC(errs, MPI_Win_unlock(0, wn));
        }

        /* exposure epoch open across a migration */
        for (int i = 0; i < N; i++)
            src[2 * N + i] = val(right, rank, step, i);
        MT_CHECK_RC(errs, MPI_Win_post(lg, 0, wa));
        MIGRATE();
        MT_CHECK_RC(errs, MPI_Win_start(rg, 0, wa));
        MT_CHECK_RC(errs, MPI_Put(src + 2 * N, N, MPI_INT, right, 2 * N, N, MPI_INT, wa));
        MT_CHECK_RC(errs, MPI_Win_complete(wa));
        MT_CHECK_RC(errs, MPI_Win_wait(wa));
        CHECK_BLOCK(a + 2 * N, left, step, "block put in an exposure epoch posted before a migration");

        /* the Win_create and dynamic windows made before the first migration */
        for (int i = 0; i < N; i++)
            src[3 * N + i] = val(right, rank, step, i);
        MT_CHECK_RC(errs, MPI_Win_fence(0, wc));
        MT_CHECK_RC(errs, MPI_Put(src + 3 * N, N, MPI_INT, right, 0, N, MPI_INT, wc));
        MT_CHECK_RC(errs, MPI_Win_fence(0, wc));
        CHECK_BLOCK(c, left, step, "Win_create window");
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, wd));
        MT_CHECK_RC(errs, MPI_Put(src + 3 * N, N, MPI_INT, right, dright, N, MPI_INT, wd));
        MT_CHECK_RC(errs, MPI_Win_unlock(right, wd));
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, wd));
        CHECK_BLOCK(d, left, step, "dynamic window's attached region");
        MT_CHECK_RC(errs, MPI_Win_unlock(rank, wd));
        MPI_Barrier(MPI_COMM_WORLD);
    }
#ifdef AMPI
    const char *lb = getenv("VMPI_BALANCER");
    if (lb && !strcmp(lb, "Rotate") && mt_proc_npes_own(mt_world_attr(AMPI_NUM_WTHS)) > 1) /* (windows: its own process's PEs) */
        MT_CHECK_INT(errs, "moves under Rotate (one per migration point)", points, moves);
#endif
    (void)moves;
    (void)points;
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, wc));
    MT_CHECK_RC(errs, MPI_Win_detach(wd, d));
    MT_CHECK_RC(errs, MPI_Win_free(&wd));
    MT_CHECK_RC(errs, MPI_Win_free(&wc));
    MT_CHECK_RC(errs, MPI_Win_free(&wa));
    MT_CHECK_RC(errs, MPI_Win_free(&wn));
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    free(c);
    free(d);
    free(src);
    return mt_finish(errs);
}
