/* SPDX-License-Identifier: BSD-3-Clause */
/* Window synchronization (MPI-3.1 11.5) and the epoch checks of every operation.
 *
 * Operations complete in their call (win.h), so what is left is who may access what, when:
 * - fence: a barrier over the window's ranks (none when it both ends and starts no epoch);
 * - post/start/complete/wait: zero-byte messages on the window's context, as the standard describes the
 *   matching (post -> start, complete -> wait); start does not wait, an origin waits for a target's post at
 *   its first access to it (or at complete);
 * - locks: per target, a queued reader-writer lock in the shared state (qlock.h): an uncontended lock or
 *   unlock is one compare-and-swap; a rank that must wait blocks on a grant message on the window's context. */
#include <stdlib.h>
#include "mpi/core/handle.h"
#include "sched/sched.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/coll/coll.h"
#include "mpi/rma/am.h"
#include "mpi/rma/remote.h"
#include "mpi/rma/win.h"

enum { TAG_POST = 1, TAG_COMPLETE = 2, TAG_GRANT = 3 };

static const vmpi_dtype *BYTE(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

/* Every RMA call completes at once, so a rank that polls a window (a flag set by another rank's put, with
 * flush, Win_sync, Get or lock/unlock) would never let the other ranks of its PE run, and the writer may be
 * one of them.  Every 16th call on a window polls the PE's channels and yields if another rank is ready. */
static inline void poll_point(vmpi_win *w)
{
    if ((++w->calls & 15) != 0)
        return;
    vmpi_pe *pe = vmpi_pe_self();
    vmpi_pe_poll(pe);
    if (!vmpi_list_empty(&pe->runq))
        vmpi_vp_yield();
}

static int notify(vmpi_win *w, int rank, int tag)
{
    return vmpi_send(NULL, 0, BYTE(), rank, tag, w->comm, 0, VMPI_SENDK_STD);
}

static int await(vmpi_win *w, int rank, int tag)
{
    return vmpi_recv(NULL, 0, BYTE(), rank, tag, w->comm, 0, MPI_STATUS_IGNORE);
}

/* A fence epoch that issued no operation may give way to another kind of epoch (a program's last fence
 * often asserts nothing). */
static bool idle(vmpi_win *w)
{
    if (w->epoch == VMPI_EPOCH_FENCE && w->fence_ops == 0)
        w->epoch = VMPI_EPOCH_NONE;
    return w->epoch == VMPI_EPOCH_NONE;
}

int vmpi_win_fence(vmpi_win *w, int assert)
{
    if (w->epoch != VMPI_EPOCH_NONE && w->epoch != VMPI_EPOCH_FENCE)
        return MPI_ERR_RMA_SYNC;
    if (w->post_group)
        return MPI_ERR_RMA_SYNC;
    atomic_thread_fence(memory_order_seq_cst);
    int err = vmpi_rma_remote_wait(w, -1);
    if (err)
        return err;
    /* Operations before the fence must be done before any target leaves it, and those after it may touch a
     * target only once it has entered it: both need the barrier, unless there are none on either side. */
    if ((assert & (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED)) != (MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED))
        err = vmpi_coll_barrier(w->comm, NULL);
    w->epoch = assert & MPI_MODE_NOSUCCEED ? VMPI_EPOCH_NONE : VMPI_EPOCH_FENCE;
    w->fence_ops = 0;
    return err;
}

/* The window ranks of a group's members; MPI_ERR_GROUP when one is not in the window. */
static int group_ranks(vmpi_win *w, vmpi_group *g, int **out)
{
    int *r = malloc(sizeof *r * (size_t)(g->size ? g->size : 1));
    if (r == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < g->size; i++)
        if ((r[i] = vmpi_group_rank_of(w->comm->group, g->world[i])) == MPI_UNDEFINED) {
            free(r);
            return MPI_ERR_GROUP;
        }
    *out = r;
    return MPI_SUCCESS;
}

int vmpi_win_start(vmpi_win *w, vmpi_group *g, int assert)
{
    if (!idle(w))
        return MPI_ERR_RMA_SYNC;
    int err = group_ranks(w, g, &w->start_rank);
    if (err)
        return err;
    w->start_posted = calloc((size_t)(g->size ? g->size : 1), sizeof(bool));
    if (w->start_posted == NULL) {
        free(w->start_rank);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < g->size; i++)
        w->start_posted[i] = (assert & MPI_MODE_NOCHECK) != 0;
    w->start_group = vmpi_group_ref(g);
    w->epoch = VMPI_EPOCH_PSCW;
    return MPI_SUCCESS;
}

int vmpi_win_complete(vmpi_win *w)
{
    if (w->epoch != VMPI_EPOCH_PSCW)
        return MPI_ERR_RMA_SYNC;
    atomic_thread_fence(memory_order_seq_cst);
    int err = vmpi_rma_remote_wait(w, -1); /* applied at the targets before they hear of the completion */
    for (int i = 0; i < w->start_group->size && !err; i++) {
        if (!w->start_posted[i])
            err = await(w, w->start_rank[i], TAG_POST);
        if (!err)
            err = notify(w, w->start_rank[i], TAG_COMPLETE);
    }
    vmpi_group_unref(w->start_group);
    free(w->start_rank);
    free(w->start_posted);
    w->start_group = NULL;
    w->start_rank = NULL;
    w->start_posted = NULL;
    w->epoch = VMPI_EPOCH_NONE;
    return err;
}

int vmpi_win_post(vmpi_win *w, vmpi_group *g, int assert)
{
    if (w->post_group)
        return MPI_ERR_RMA_SYNC;
    int err = group_ranks(w, g, &w->post_rank);
    if (err)
        return err;
    w->post_done = calloc((size_t)(g->size ? g->size : 1), sizeof(bool));
    if (w->post_done == NULL) {
        free(w->post_rank);
        return MPI_ERR_NO_MEM;
    }
    if (vmpi_qlock_held(&w->sh->t[w->rank].lock)) {
        free(w->post_rank);
        free(w->post_done);
        return MPI_ERR_RMA_CONFLICT; /* locked by someone: it cannot be exposed too */
    }
    atomic_store_explicit(&w->sh->t[w->rank].exposed, true, memory_order_relaxed);
    w->post_group = vmpi_group_ref(g);
    w->post_left = g->size;
    atomic_thread_fence(memory_order_seq_cst); /* local stores before the post are visible to the origins */
    if (!(assert & MPI_MODE_NOCHECK))
        for (int i = 0; i < g->size && !err; i++)
            err = notify(w, w->post_rank[i], TAG_POST);
    return err;
}

static void end_exposure(vmpi_win *w)
{
    atomic_thread_fence(memory_order_seq_cst);
    atomic_store_explicit(&w->sh->t[w->rank].exposed, false, memory_order_relaxed);
    vmpi_group_unref(w->post_group);
    free(w->post_rank);
    free(w->post_done);
    w->post_group = NULL;
    w->post_rank = NULL;
    w->post_done = NULL;
}

int vmpi_win_wait(vmpi_win *w)
{
    if (w->post_group == NULL)
        return MPI_ERR_RMA_SYNC;
    int err = MPI_SUCCESS;
    for (int i = 0; i < w->post_group->size && !err; i++)
        if (!w->post_done[i])
            err = await(w, w->post_rank[i], TAG_COMPLETE);
    end_exposure(w);
    return err;
}

int vmpi_win_test(vmpi_win *w, int *flag)
{
    if (w->post_group == NULL)
        return MPI_ERR_RMA_SYNC;
    for (int i = 0; i < w->post_group->size; i++) {
        int there = 0, err;
        if (w->post_done[i])
            continue;
        if ((err = vmpi_probe(w->post_rank[i], TAG_COMPLETE, w->comm, false, false, &there, NULL, MPI_STATUS_IGNORE)))
            return err;
        if (there) {
            if ((err = await(w, w->post_rank[i], TAG_COMPLETE)))
                return err;
            w->post_done[i] = true;
            w->post_left--;
        }
    }
    *flag = w->post_left == 0;
    if (*flag)
        end_exposure(w);
    return MPI_SUCCESS;
}

/* ---- passive target: one queued lock per target (qlock.h), grants on the window's context ---- */

static int acquire(vmpi_win *w, int rank, int type)
{
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        return vmpi_rma_remote_lock(w, rank, type);
    w->waiter = (vmpi_qlock_waiter){NULL, w->rank, type};
    return vmpi_qlock_acquire(&w->sh->t[rank].lock, type, &w->waiter, w->comm, TAG_GRANT);
}

static int release(vmpi_win *w, int rank, int type)
{
    if (VMPI_UNLIKELY(w->rm != NULL) && vmpi_rma_is_remote(w, rank))
        return vmpi_rma_remote_unlock(w, rank, type);
    return vmpi_qlock_release(&w->sh->t[rank].lock, type, w->comm, TAG_GRANT);
}

static vmpi_win_held *find_lock(vmpi_win *w, int rank)
{
    for (int i = 0; i < w->nlocks; i++)
        if (w->locks[i].rank == rank)
            return &w->locks[i];
    return NULL;
}

int vmpi_win_lock(vmpi_win *w, int type, int rank, int assert)
{
    poll_point(w);
    if (w->epoch != VMPI_EPOCH_LOCK && !idle(w))
        return MPI_ERR_RMA_SYNC;
    if (find_lock(w, rank))
        return MPI_ERR_RMA_SYNC; /* one lock epoch per target at a time */
    if (w->nlocks == w->cap_locks) {
        int cap = w->cap_locks ? 2 * w->cap_locks : 4;
        vmpi_win_held *n = realloc(w->locks, sizeof *n * (size_t)cap);
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        w->locks = n;
        w->cap_locks = cap;
    }
    if (rank != MPI_PROC_NULL && !vmpi_rma_is_remote(w, rank) &&
        atomic_load_explicit(&w->sh->t[rank].exposed, memory_order_relaxed))
        return MPI_ERR_RMA_CONFLICT; /* a window locked and exposed at once is erroneous (MPI-3.1 11.5.3) */
    bool take = rank != MPI_PROC_NULL && !(assert & MPI_MODE_NOCHECK);
    int err = take ? acquire(w, rank, type) : MPI_SUCCESS;
    if (err)
        return err;
    w->locks[w->nlocks++] = (vmpi_win_held){rank, type, take};
    w->epoch = VMPI_EPOCH_LOCK;
    return MPI_SUCCESS;
}

int vmpi_win_unlock(vmpi_win *w, int rank)
{
    poll_point(w);
    vmpi_win_held *l = w->epoch == VMPI_EPOCH_LOCK ? find_lock(w, rank) : NULL;
    if (l == NULL)
        return MPI_ERR_RMA_SYNC;
    vmpi_win_held mine = *l;
    *l = w->locks[--w->nlocks];
    vmpi_am_sync_point(w, rank, true);
    if (w->nlocks == 0)
        w->epoch = VMPI_EPOCH_NONE;
    atomic_thread_fence(memory_order_seq_cst);
    int err = vmpi_rma_remote_wait(w, rank), e = mine.acquired ? release(w, rank, mine.type) : MPI_SUCCESS;
    return err ? err : e;
}

int vmpi_win_lock_all(vmpi_win *w, int assert)
{
    if (!idle(w))
        return MPI_ERR_RMA_SYNC;
    w->lock_all_acquired = !(assert & MPI_MODE_NOCHECK);
    for (int r = 0; r < w->size && w->lock_all_acquired; r++) {
        int err = acquire(w, r, MPI_LOCK_SHARED);
        if (err) {
            while (r-- > 0)
                release(w, r, MPI_LOCK_SHARED);
            return err;
        }
    }
    w->epoch = VMPI_EPOCH_LOCK_ALL;
    return MPI_SUCCESS;
}

int vmpi_win_unlock_all(vmpi_win *w)
{
    if (w->epoch != VMPI_EPOCH_LOCK_ALL)
        return MPI_ERR_RMA_SYNC;
    w->epoch = VMPI_EPOCH_NONE;
    atomic_thread_fence(memory_order_seq_cst);
    int err = vmpi_rma_remote_wait(w, -1);
    for (int r = 0; r < w->size && w->lock_all_acquired; r++) {
        int e = release(w, r, MPI_LOCK_SHARED);
        if (!err)
            err = e;
    }
    return err;
}

int vmpi_win_flush(vmpi_win *w, int rank)
{
    poll_point(w);
    if (w->epoch == VMPI_EPOCH_LOCK_ALL || (w->epoch == VMPI_EPOCH_LOCK && (rank < 0 || find_lock(w, rank)))) {
        atomic_thread_fence(memory_order_seq_cst); /* every local operation is complete already */
        vmpi_am_sync_point(w, rank, false);
        return vmpi_rma_remote_wait(w, rank);
    }
    return MPI_ERR_RMA_SYNC; /* only in passive-target epochs (MPI-3.1 11.5.4) */
}

int vmpi_win_sync(vmpi_win *w)
{
    poll_point(w);
    atomic_thread_fence(memory_order_seq_cst);
    return MPI_SUCCESS;
}

int vmpi_win_lock_held(const vmpi_win *w, int rank)
{
    if (w->epoch != VMPI_EPOCH_LOCK)
        return 0;
    for (int i = 0; i < w->nlocks; i++)
        if (w->locks[i].rank == rank)
            return w->locks[i].type;
    return 0;
}

int vmpi_win_access(vmpi_win *w, int rank, bool passive, const char **why)
{
    poll_point(w);
    switch (w->epoch) {
    case VMPI_EPOCH_FENCE:
        if (passive)
            break;
        w->fence_ops++;
        return MPI_SUCCESS;
    case VMPI_EPOCH_PSCW:
        if (passive)
            break;
        for (int i = 0; i < w->start_group->size; i++)
            if (w->start_rank[i] == rank) {
                if (!w->start_posted[i]) { /* its exposure epoch must have begun */
                    int err = await(w, rank, TAG_POST);
                    if (err)
                        return err;
                    w->start_posted[i] = true;
                }
                return MPI_SUCCESS;
            }
        *why = "the target is not in the group of MPI_Win_start";
        return MPI_ERR_RMA_SYNC;
    case VMPI_EPOCH_LOCK:
        if (find_lock(w, rank))
            return MPI_SUCCESS;
        *why = "the target is not locked by this rank";
        return MPI_ERR_RMA_SYNC;
    case VMPI_EPOCH_LOCK_ALL:
        return MPI_SUCCESS;
    default:
        *why = "outside any access epoch (fence, start, lock or lock_all)";
        return MPI_ERR_RMA_SYNC;
    }
    *why = "request-based operations need a passive-target epoch (lock or lock_all)";
    return MPI_ERR_RMA_SYNC;
}
