/* SPDX-License-Identifier: BSD-3-Clause */
/* Completion and synchronization: fences, barrier, nonblocking handles, mutexes, notifications.
 *
 * Every transfer is complete when its call returns, so a fence is a memory fence (and a point where the PE
 * may run others) and handles are complete at once.  A mutex is the RMA layer's queued lock (qlock.h) in the
 * owner's armci_proc: a free one is taken with one compare-and-swap; a process that must wait queues itself
 * and blocks until the holder's unlock sends it the grant, in arrival order (FIFO), so the holder, maybe on
 * the same PE, runs meanwhile and a mutex never released shows in the deadlock detector. */
#include <stdlib.h>
#include "armci/armci_impl.h"
#include "iso/iso.h"
#include "mpi/rma/qlock.h"
#include "mpi/rma/remote.h"

void ARMCI_Fence(int proc)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Fence", );
    if (armci_check_proc(a, "ARMCI_Fence", proc))
        return;
    atomic_thread_fence(memory_order_seq_cst);
    armci_poll(a);
}

void ARMCI_AllFence(void)
{
    ARMCI_CHECK_INIT(a, "ARMCI_AllFence", );
    atomic_thread_fence(memory_order_seq_cst);
    armci_poll(a);
}

void ARMCI_GroupFence(ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "ARMCI_GroupFence", );
    if (armci_group_member(a, "ARMCI_GroupFence", group) == NULL)
        return;
    atomic_thread_fence(memory_order_seq_cst);
    armci_poll(a);
}

void ARMCI_Barrier(void)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Barrier", );
    atomic_thread_fence(memory_order_seq_cst);
    PMPI_Barrier(armci_world(a));
}

/* ---- nonblocking handles: the operations completed in their calls ---- */

int ARMCI_Wait(armci_hdl_t *h)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Wait", MPI_ERR_OTHER);
    armci_poll(a);
    return 0;
}

int ARMCI_Test(armci_hdl_t *h)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Test", MPI_ERR_OTHER);
    armci_poll(a);
    return 0; /* complete (every ARMCI returns 0 for a completed handle) */
}

int ARMCI_WaitAll(void)
{
    ARMCI_CHECK_INIT(a, "ARMCI_WaitAll", MPI_ERR_OTHER);
    armci_poll(a);
    return 0;
}

int ARMCI_WaitProc(int proc)
{
    ARMCI_CHECK_INIT(a, "ARMCI_WaitProc", MPI_ERR_OTHER);
    armci_poll(a);
    return armci_check_proc(a, "ARMCI_WaitProc", proc);
}

void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *h)
{
    if (h)
        h->data[2] = 1;
}

void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *h)
{
    if (h)
        h->data[2] = 0;
}

/* ---- mutexes ---- */

int ARMCI_Create_mutexes(int num)
{
    static const char fn[] = "ARMCI_Create_mutexes";
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_proc *p = &a->job->p[a->me];
    int err = MPI_SUCCESS;
    if (num < 0)
        err = armci_fail(fn, MPI_ERR_ARG, "negative number of mutexes %d", num);
    else if (p->mutexes || p->nmutexes)
        err = armci_fail(fn, MPI_ERR_RMA_SYNC, "the mutexes exist already (ARMCI_Destroy_mutexes first)");
    else if (num > 0 && (p->mutexes = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof *p->mutexes * (size_t)num)) == NULL)
        err = armci_fail(fn, MPI_ERR_NO_MEM, "no memory for %d mutexes", num);
    if (err == MPI_SUCCESS) {
        for (int i = 0; i < num; i++)
            p->mutexes[i] = (armci_mutex){0};
        p->nmutexes = num;
    }
    /* every process's mutexes exist before anyone locks one, and every process learns where they are (an
     * address in their owner's process) by message */
    if (a->mtx == NULL)
        a->mtx = malloc(sizeof *a->mtx * (size_t)a->nprocs);
    if (a->nmtx == NULL)
        a->nmtx = malloc(sizeof *a->nmtx * (size_t)a->nprocs);
    MPI_Aint mine[2] = {(MPI_Aint)(uintptr_t)p->mutexes, p->nmutexes}, *all = malloc(sizeof mine * (size_t)a->nprocs);
    int e = all ? PMPI_Allgather(mine, 2, MPI_AINT, all, 2, MPI_AINT, armci_world(a)) : MPI_ERR_NO_MEM;
    if (e == MPI_SUCCESS && a->mtx && a->nmtx)
        for (int r = 0; r < a->nprocs; r++) {
            a->mtx[r] = (uint64_t)all[2 * r];
            a->nmtx[r] = (int)all[2 * r + 1];
        }
    else if (err == MPI_SUCCESS)
        err = armci_fail(fn, e ? e : MPI_ERR_NO_MEM, "could not learn where the mutexes are");
    free(all);
    return err;
}

int ARMCI_Destroy_mutexes(void)
{
    static const char fn[] = "ARMCI_Destroy_mutexes";
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_proc *p = &a->job->p[a->me];
    PMPI_Barrier(armci_world(a)); /* nobody locks a mutex any more */
    int err = MPI_SUCCESS;
    for (int i = 0; i < p->nmutexes && !err; i++)
        if (vmpi_qlock_held(&p->mutexes[i].q))
            err = armci_fail(fn, MPI_ERR_RMA_SYNC, "mutex %d of process %d is still held", i, a->me);
    if (err)
        return err;
    free(p->mutexes);
    p->mutexes = NULL;
    p->nmutexes = 0;
    for (int r = 0; a->nmtx && r < a->nprocs; r++) { /* every process destroys its own at once */
        a->mtx[r] = 0;
        a->nmtx[r] = 0;
    }
    return 0;
}

static armci_held *held_find(vmpi_armci *a, int mutex, int proc)
{
    for (int i = 0; i < a->nheld; i++)
        if (a->held[i].mutex == mutex && a->held[i].proc == proc)
            return &a->held[i];
    return NULL;
}

/* The mutex, after the checks; NULL when they fail. */
static armci_mutex *mutex_get(vmpi_armci *a, const char *fn, int mutex, int proc)
{
    if (armci_check_proc(a, fn, proc))
        return NULL;
    /* what ARMCI_Create_mutexes gathered: the mutexes of another process are an address there */
    uint64_t m = a->mtx ? a->mtx[proc] : 0;
    int n = a->nmtx ? a->nmtx[proc] : 0;
    if (m == 0 && n == 0) {
        armci_fail(fn, MPI_ERR_RMA_SYNC, "process %d has no mutexes (ARMCI_Create_mutexes)", proc);
        return NULL;
    }
    if (mutex < 0 || mutex >= n) {
        armci_fail(fn, MPI_ERR_ARG, "mutex %d does not exist at process %d (it has %d)", mutex, proc, n);
        return NULL;
    }
    return (armci_mutex *)(uintptr_t)m + mutex;
}

void ARMCI_Lock(int mutex, int proc)
{
    static const char fn[] = "ARMCI_Lock";
    ARMCI_CHECK_INIT(a, fn, );
    armci_mutex *m = mutex_get(a, fn, mutex, proc);
    if (m == NULL)
        return;
    if (held_find(a, mutex, proc)) {
        armci_fail(fn, MPI_ERR_RMA_SYNC, "this process holds mutex %d of process %d already", mutex, proc);
        return;
    }
    if (a->nheld == a->cap_held) {
        int cap = a->cap_held ? 2 * a->cap_held : 4;
        armci_held *n = realloc(a->held, sizeof *n * (size_t)cap);
        if (n == NULL) {
            armci_fail(fn, MPI_ERR_NO_MEM, "no memory to record a held mutex");
            return;
        }
        a->held = n;
        a->cap_held = cap;
    }
    a->waiter.rank = a->me;
    int err = vmpi_loc_path(proc) == VMPI_PATH_REMOTE /* a mutex of another process: by messages */
                  ? vmpi_qlock_far_acquire((uint64_t)(uintptr_t)&m->q, proc, MPI_LOCK_EXCLUSIVE)
                  : vmpi_qlock_acquire(&m->q, MPI_LOCK_EXCLUSIVE, &a->waiter, a->sync_c, ARMCI_TAG_GRANT);
    if (err) {
        armci_fail(fn, err, "waiting for mutex %d of process %d failed", mutex, proc);
        return;
    }
    a->held[a->nheld++] = (armci_held){mutex, proc};
}

void ARMCI_Unlock(int mutex, int proc)
{
    static const char fn[] = "ARMCI_Unlock";
    ARMCI_CHECK_INIT(a, fn, );
    armci_mutex *m = mutex_get(a, fn, mutex, proc);
    if (m == NULL)
        return;
    armci_held *h = held_find(a, mutex, proc);
    if (h == NULL) {
        armci_fail(fn, MPI_ERR_RMA_SYNC, "mutex %d of process %d is not held by this process", mutex, proc);
        return;
    }
    *h = a->held[--a->nheld];
    atomic_thread_fence(memory_order_seq_cst); /* the protected stores before the next holder's loads */
    int err = vmpi_loc_path(proc) == VMPI_PATH_REMOTE
                  ? vmpi_qlock_far_release((uint64_t)(uintptr_t)&m->q, proc, MPI_LOCK_EXCLUSIVE)
                  : vmpi_qlock_release(&m->q, MPI_LOCK_EXCLUSIVE, a->sync_c, ARMCI_TAG_GRANT);
    if (err)
        armci_fail(fn, err, "granting mutex %d of process %d to the next waiter failed", mutex, proc);
}

/* ---- notifications: a message on the private context, counted per peer ---- */

static int *notes(vmpi_armci *a, int **arr)
{
    if (*arr == NULL)
        *arr = calloc((size_t)a->nprocs, sizeof **arr);
    return *arr;
}

int armci_notify(int proc)
{
    static const char fn[] = "armci_notify";
    ARMCI_CHECK_INIT(a, fn, -1);
    if (armci_check_proc(a, fn, proc))
        return -1;
    int *sent = notes(a, &a->notes_sent);
    if (sent == NULL)
        return armci_fail(fn, MPI_ERR_NO_MEM, "no memory for notification counts"), -1;
    atomic_thread_fence(memory_order_seq_cst);
    int err = PMPI_Send(NULL, 0, MPI_BYTE, proc, ARMCI_TAG_NOTE, a->sync);
    if (err)
        return armci_fail(fn, err, "sending the notice to process %d failed", proc), -1;
    return ++sent[proc];
}

int armci_notify_wait(int proc, int *pval)
{
    static const char fn[] = "armci_notify_wait";
    ARMCI_CHECK_INIT(a, fn, -1);
    if (armci_check_proc(a, fn, proc))
        return -1;
    int *seen = notes(a, &a->notes_seen);
    if (seen == NULL)
        return armci_fail(fn, MPI_ERR_NO_MEM, "no memory for notification counts"), -1;
    int err = PMPI_Recv(NULL, 0, MPI_BYTE, proc, ARMCI_TAG_NOTE, a->sync, MPI_STATUS_IGNORE);
    if (err)
        return armci_fail(fn, err, "waiting for a notice from process %d failed", proc), -1;
    seen[proc]++;
    if (pval)
        *pval = seen[proc];
    return seen[proc];
}
