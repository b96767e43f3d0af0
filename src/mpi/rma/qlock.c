/* SPDX-License-Identifier: BSD-3-Clause */
/* The queued reader-writer lock (qlock.h).  Once a rank waits (QUEUED), the word changes only under the guard,
 * where the FIFO is, and every lock and unlock goes there; a shared request waits behind a queued exclusive
 * one, so writers are not starved. */
#include <mpi.h>
#include <string.h>
#include "base/spin.h"
#include "mpi/core/handle.h"
#include "mpi/rma/qlock.h"
#include "sched/sched.h"
#include "xport/chan.h"

#define EXCL VMPI_QLOCK_EXCL
#define QUEUED VMPI_QLOCK_QUEUED

static bool compatible(uint64_t s, int type)
{
    return type == MPI_LOCK_EXCLUSIVE ? (s & ~QUEUED) == 0 : !(s & EXCL);
}

static uint64_t with(uint64_t s, int type) { return type == MPI_LOCK_EXCLUSIVE ? s | EXCL : s + 1; }

/* Under the guard, with QUEUED set: hands the lock to the waiters at the head that it admits now (one
 * exclusive, or every shared one in a row), and clears QUEUED when none is left.  Returns them as a list;
 * `self` is set instead when the caller's own node is granted. */
static vmpi_qlock_waiter *grant_waiters(vmpi_qlock *q, const vmpi_qlock_waiter *mine, bool *self)
{
    vmpi_qlock_waiter *granted = NULL, **last = &granted;
    while (q->head) {
        vmpi_qlock_waiter *h = q->head;
        uint64_t s = atomic_load_explicit(&q->word, memory_order_relaxed);
        if (!compatible(s, h->type))
            break;
        atomic_store_explicit(&q->word, with(s, h->type), memory_order_relaxed);
        q->head = h->next;
        if (q->head == NULL)
            q->tail = NULL;
        h->next = NULL;
        if (h == mine) {
            *self = true;
            continue;
        }
        *last = h;
        last = &h->next;
    }
    if (q->head == NULL)
        atomic_fetch_and_explicit(&q->word, ~QUEUED, memory_order_relaxed);
    return granted;
}

static uint32_t wake_id;

static void on_wake(vmpi_pe *pe, int src_pe, void *rec, size_t len) { vmpi_vp_wake(*(vmpi_vp **)rec); }

static void pack_ptr(void *dst, size_t len, void *arg) { memcpy(dst, &arg, sizeof arg); }

/* Wakes rank `vp`, on its PE (the scheduler's queues are its PE's). */
static void wake(vmpi_vp *vp)
{
    int pe = vp->pe->id;
    if (pe == vmpi_pe_self()->id)
        vmpi_vp_wake(vp);
    else
        vmpi_chan_am_send(pe, wake_id, sizeof vp, pack_ptr, vp);
}

/* Tells the granted waiters; a node is its waiter's, so it is read before the waiter can run. */
static int notify_granted(vmpi_qlock_waiter *granted)
{
    while (granted) {
        vmpi_qlock_waiter *next = granted->next;
        if (granted->grant) {
            granted->grant(granted);
        } else {
            vmpi_vp *vp = granted->vp;
            atomic_store_explicit(&granted->granted, true, memory_order_release);
            wake(vp);
        }
        granted = next;
    }
    return MPI_SUCCESS;
}

void vmpi_qlock_init(void) { wake_id = vmpi_xport_am_register(on_wake); }

bool vmpi_qlock_try(vmpi_qlock *q, int type)
{
    uint64_t s = atomic_load_explicit(&q->word, memory_order_relaxed);
    while (!(s & QUEUED) && compatible(s, type))
        if (atomic_compare_exchange_weak_explicit(&q->word, &s, with(s, type), memory_order_acquire,
                                                  memory_order_relaxed))
            return true;
    return false;
}

/* Queues `me` and grants what the holders that went meanwhile left (else nobody would); true when `me` got it. */
static bool enqueue(vmpi_qlock *q, int type, vmpi_qlock_waiter *me)
{
    me->next = NULL;
    me->type = type;
    vmpi_spin_lock(&q->guard);
    if (q->tail)
        q->tail->next = me;
    else
        q->head = me;
    q->tail = me;
    atomic_fetch_or_explicit(&q->word, QUEUED, memory_order_acq_rel); /* from now on the word is the guard's */
    bool self = false;
    vmpi_qlock_waiter *granted = grant_waiters(q, me, &self);
    vmpi_spin_unlock(&q->guard);
    notify_granted(granted);
    return self;
}

bool vmpi_qlock_enqueue(vmpi_qlock *q, int type, vmpi_qlock_waiter *me)
{
    return vmpi_qlock_try(q, type) || enqueue(q, type, me);
}

int vmpi_qlock_acquire(vmpi_qlock *q, int type, vmpi_qlock_waiter *me, vmpi_comm *c, int tag)
{
    if (vmpi_qlock_try(q, type))
        return MPI_SUCCESS;
    me->grant = NULL;
    me->vp = vmpi_vp_self();
    atomic_store_explicit(&me->granted, false, memory_order_relaxed);
    if (enqueue(q, type, me))
        return MPI_SUCCESS;
    while (!atomic_load_explicit(&me->granted, memory_order_acquire)) /* the releaser grants it */
        vmpi_vp_block("MPI_Win_lock (queued)");
    return MPI_SUCCESS;
}

int vmpi_qlock_release(vmpi_qlock *q, int type, vmpi_comm *c, int tag)
{
    uint64_t s = atomic_load_explicit(&q->word, memory_order_relaxed);
    while (!(s & QUEUED))
        if (atomic_compare_exchange_weak_explicit(&q->word, &s, type == MPI_LOCK_EXCLUSIVE ? s & ~EXCL : s - 1,
                                                  memory_order_release, memory_order_relaxed))
            return MPI_SUCCESS;
    vmpi_spin_lock(&q->guard);
    if (type == MPI_LOCK_EXCLUSIVE)
        atomic_fetch_and_explicit(&q->word, ~EXCL, memory_order_release);
    else
        atomic_fetch_sub_explicit(&q->word, 1, memory_order_release);
    bool self = false;
    vmpi_qlock_waiter *granted = grant_waiters(q, NULL, &self);
    vmpi_spin_unlock(&q->guard);
    return notify_granted(granted);
}
