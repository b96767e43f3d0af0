/* SPDX-License-Identifier: BSD-3-Clause */
/* A queued reader-writer lock that ranks of one process take: window locks (sync.c) and ARMCI mutexes.
 *
 * One word holds the exclusive bit, a waiters bit and the shared count, so an uncontended lock or unlock is one
 * compare-and-swap.  A rank that must wait queues a node (its own memory) in a FIFO under a spin guard held for a
 * few instructions, and blocks until granted; whoever releases the lock (a rank, or the handler of a release
 * message from another process, sync_remote.c) hands it to the waiters at the head: a rank's node is flagged and
 * its rank woken (on its PE, through the channels from another PE), a node queued for an origin in another
 * process has its `grant` called (a message back).  Blocking, not spinning: the holder may be on the waiter's
 * own PE, and a lock never released shows in the deadlock detector. */
#ifndef VMPI_MPI_RMA_QLOCK_H
#define VMPI_MPI_RMA_QLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "mpi/core/comm.h"

struct vmpi_vp;

typedef struct vmpi_qlock_waiter {
    struct vmpi_qlock_waiter *next;
    int rank;                 /* unused (kept for the callers' initializers) */
    int type;                 /* MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED */
    void (*grant)(struct vmpi_qlock_waiter *me); /* not NULL: how a waiter of another process is told */
    struct vmpi_vp *vp;       /* a rank's node: the rank to wake */
    _Atomic bool granted;
} vmpi_qlock_waiter;

typedef struct vmpi_qlock {
    _Atomic uint64_t word;    /* exclusive bit, waiters bit, shared count */
    atomic_flag guard;        /* protects the queue */
    vmpi_qlock_waiter *head, *tail;
} vmpi_qlock;

/* Takes `q` as `type` for the calling rank, blocked until granted when it is held; `me` stays queued until
 * then.  (`c` and `tag` are unused: grants are wake-ups now.) */
int vmpi_qlock_acquire(vmpi_qlock *q, int type, vmpi_qlock_waiter *me, vmpi_comm *c, int tag);
/* Without blocking (a handler, for an origin of another process): true when granted at once, else `me`
 * (with its `grant` set) is queued and granted later through me->grant. */
bool vmpi_qlock_enqueue(vmpi_qlock *q, int type, vmpi_qlock_waiter *me);
/* Registers the wake-up message (start-up). */
void vmpi_qlock_init(void);
/* One compare-and-swap: false when `q` is held in a way `type` excludes, or has waiters. */
bool vmpi_qlock_try(vmpi_qlock *q, int type);
/* Releases a `type` hold and grants the lock to the waiters it admits now. */
int vmpi_qlock_release(vmpi_qlock *q, int type, vmpi_comm *c, int tag);
#define VMPI_QLOCK_EXCL (1ull << 63)
#define VMPI_QLOCK_QUEUED (1ull << 62)

/* Whether anyone holds `q`. */
static inline bool vmpi_qlock_held(vmpi_qlock *q)
{
    return (atomic_load_explicit(&q->word, memory_order_acquire) & ~VMPI_QLOCK_QUEUED) != 0;
}

#endif
