/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the one-sided (RMA) benchmark programs: the window they use, the three ways of
 * synchronizing an origin with its target (-s lock|fence|pscw), and a rank's access to its own window memory.
 *
 * Every program uses one window made by MPI_Win_allocate (the flavor for which Open MPI's osc/sm and MPICH's
 * shared-memory path exist), rank 0 as the origin and rank 1 as the target; other ranks, if any, take part
 * only in the collective calls.  Synchronization per timed iteration:
 *   lock   the origin opens MPI_Win_lock_all at the start of each timed batch; every iteration ends with
 *          MPI_Win_flush(target); the batch ends with MPI_Win_unlock_all and a barrier (so that the target
 *          can check what arrived).  The target does nothing meanwhile: it waits in the barrier, inside MPI.
 *   fence  every iteration ends with MPI_Win_fence on every rank (the batch's first fence asserts
 *          MPI_MODE_NOPRECEDE, its last MPI_MODE_NOSUCCEED).
 *   pscw   per iteration the origin does MPI_Win_start(target) ... MPI_Win_complete, the target
 *          MPI_Win_post(origin) and MPI_Win_wait.
 * In pscw mode the target can check every iteration's data right after its MPI_Win_wait (the origin cannot
 * start the next epoch before the next post).  In fence mode it cannot: a fence closes one epoch and opens
 * the next, whose puts may land while the target reads (a conflicting access, and Open MPI's osc/sm does
 * let the next iteration's put through); in lock mode the target is passive.  In those two modes it checks
 * at the end of each batch (lock: between two barriers, which the timed batch includes: they are a small
 * part of a batch of hundreds or thousands of iterations). */
#ifndef VMPI_BENCH_RMA_COMMON_H
#define VMPI_BENCH_RMA_COMMON_H

#include "bench_common.h"

typedef enum rma_sync { RMA_LOCK, RMA_FENCE, RMA_PSCW } rma_sync;

typedef struct rma_epochs {
    const char *prog;
    rma_sync sync;
    MPI_Win win;
    int rank, origin, target;
    MPI_Group origin_group, target_group; /* one-rank groups, for PSCW */
} rma_epochs;

static inline rma_sync rma_parse_sync(const char *prog, const char *s)
{
    if (!strcmp(s, "lock"))
        return RMA_LOCK;
    if (!strcmp(s, "fence"))
        return RMA_FENCE;
    if (!strcmp(s, "pscw"))
        return RMA_PSCW;
    bench_die(prog, "-s takes lock, fence or pscw");
    return RMA_LOCK;
}

static inline const char *rma_sync_name(rma_sync s)
{
    return s == RMA_LOCK ? "lock" : s == RMA_FENCE ? "fence" : "pscw";
}

static inline void rma_chk(const rma_epochs *e, int rc, const char *what)
{
    bench_check_mpi(e->prog, rc, what);
}

/* The window: `bytes` on the target (allocated by MPI, zeroed), none elsewhere; returns the target's base. */
static inline unsigned char *rma_setup(rma_epochs *e, const char *prog, rma_sync sync, size_t bytes)
{
    MPI_Group world;
    void *base = NULL;
    e->prog = prog;
    e->sync = sync;
    e->origin = 0;
    e->target = 1;
    rma_chk(e, MPI_Comm_rank(MPI_COMM_WORLD, &e->rank), "MPI_Comm_rank");
    MPI_Aint size = e->rank == e->target ? (MPI_Aint)bytes : 0;
    rma_chk(e, MPI_Win_allocate(size, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &e->win), "MPI_Win_allocate");
    rma_chk(e, MPI_Comm_group(MPI_COMM_WORLD, &world), "MPI_Comm_group");
    rma_chk(e, MPI_Group_incl(world, 1, &e->origin, &e->origin_group), "MPI_Group_incl");
    rma_chk(e, MPI_Group_incl(world, 1, &e->target, &e->target_group), "MPI_Group_incl");
    rma_chk(e, MPI_Group_free(&world), "MPI_Group_free");
    if (e->rank == e->target)
        memset(base, 0, bytes);
    rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    return base;
}

static inline void rma_teardown(rma_epochs *e)
{
    rma_chk(e, MPI_Group_free(&e->origin_group), "MPI_Group_free");
    rma_chk(e, MPI_Group_free(&e->target_group), "MPI_Group_free");
    rma_chk(e, MPI_Win_free(&e->win), "MPI_Win_free");
}

/* Start of a timed batch (every rank). */
static inline void rma_batch_begin(const rma_epochs *e)
{
    if (e->sync == RMA_LOCK && e->rank == e->origin)
        rma_chk(e, MPI_Win_lock_all(0, e->win), "MPI_Win_lock_all");
    else if (e->sync == RMA_FENCE)
        rma_chk(e, MPI_Win_fence(MPI_MODE_NOPRECEDE, e->win), "MPI_Win_fence");
}

/* Before the operations of one iteration (every rank). */
static inline void rma_iter_begin(const rma_epochs *e)
{
    if (e->sync != RMA_PSCW)
        return;
    if (e->rank == e->origin)
        rma_chk(e, MPI_Win_start(e->target_group, 0, e->win), "MPI_Win_start");
    else if (e->rank == e->target)
        rma_chk(e, MPI_Win_post(e->origin_group, 0, e->win), "MPI_Win_post");
}

/* After the operations of one iteration (every rank): the iteration's operations are complete at the
 * origin and, except in lock mode, at the target too (which may read its window then in pscw mode only:
 * rma_target_checks_each). */
static inline void rma_iter_end(const rma_epochs *e, int last)
{
    if (e->sync == RMA_LOCK) {
        if (e->rank == e->origin)
            rma_chk(e, MPI_Win_flush(e->target, e->win), "MPI_Win_flush");
    } else if (e->sync == RMA_FENCE) {
        rma_chk(e, MPI_Win_fence(last ? MPI_MODE_NOSUCCEED : 0, e->win), "MPI_Win_fence");
    } else if (e->rank == e->origin) {
        rma_chk(e, MPI_Win_complete(e->win), "MPI_Win_complete");
    } else if (e->rank == e->target) {
        rma_chk(e, MPI_Win_wait(e->win), "MPI_Win_wait");
    }
}

/* Whether the target may read its window after every iteration (see the top of this file). */
static inline int rma_target_checks_each(const rma_epochs *e)
{
    return e->sync == RMA_PSCW && e->rank == e->target;
}

/* End of a timed batch (every rank): afterwards no epoch is open, and the target calls check(arg), which
 * may read the window (in lock mode between two barriers, bracketed by a lock of its own window, so that
 * the origin's next batch cannot change the window meanwhile). */
static inline void rma_batch_end(const rma_epochs *e, void (*check)(void *), void *arg)
{
    if (e->sync == RMA_LOCK) {
        if (e->rank == e->origin)
            rma_chk(e, MPI_Win_unlock_all(e->win), "MPI_Win_unlock_all");
        rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
        if (e->rank == e->target && check) {
            rma_chk(e, MPI_Win_lock(MPI_LOCK_SHARED, e->rank, 0, e->win), "MPI_Win_lock");
            check(arg);
            rma_chk(e, MPI_Win_unlock(e->rank, e->win), "MPI_Win_unlock");
        }
        rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    } else if (e->rank == e->target && check) {
        check(arg); /* after the last fence (NOSUCCEED) or MPI_Win_wait: the window is the target's */
    }
}

/* A rank's loads and stores of its own window memory outside the timed epochs, bracketed as the standard
 * asks (a lock of the own window synchronizes the private and public copies). */
static inline void rma_local_begin(const rma_epochs *e, int exclusive)
{
    rma_chk(e, MPI_Win_lock(exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, e->rank, 0, e->win), "MPI_Win_lock");
}

static inline void rma_local_end(const rma_epochs *e)
{
    rma_chk(e, MPI_Win_unlock(e->rank, e->win), "MPI_Win_unlock");
}

/* Parses -s (default lock) out of argv. */
static inline rma_sync rma_take_sync(const char *prog, int *argc, char **argv)
{
    return rma_parse_sync(prog, bench_take_opt(prog, argc, argv, "-s", "lock"));
}

#endif
