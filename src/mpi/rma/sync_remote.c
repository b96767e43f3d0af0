/* SPDX-License-Identifier: BSD-3-Clause */
/* Queued locks (qlock.h) taken from another process (remote.h): window locks of remote targets and ARMCI
 * mutexes of other processes.  A lock request goes to the owner rank's PE, where a handler queues it at the
 * lock as a node whose grant is a message back; a release is a message whose handler releases the lock
 * there, granting whoever waits (the owner process's ranks or other processes' origins), and answers.  The
 * origin blocks until the grant or the answer arrives, addressed by a cookie: its wait record, on its stack.
 * Nothing is needed from the owner rank: its PE's scheduler loop runs the handlers. */
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "mpi/rma/remote.h"
#include "sched/sched.h"
#include "xport/xport.h"

typedef struct lock_msg {
    uint64_t q, cookie;        /* the lock (an address in the owner's process); the origin's wait record */
    int32_t owner, origin;     /* world ranks */
    int32_t type, pad;
} lock_msg;

/* The origin's wait (its stack: the rank blocks until it is done). */
typedef struct far_wait {
    vmpi_vp *vp;
    bool done;
} far_wait;

/* An origin of another process queued at a lock (the system's memory: freed by the granter). */
typedef struct far_waiter {
    vmpi_qlock_waiter q;       /* first */
    uint64_t cookie;
    int origin;
} far_waiter;

static uint32_t id_lock, id_unlock, id_done;

static void to_rank(int world, uint32_t id, void *m, size_t len)
{
    int pe = vmpi_loc_pe(world);
    vmpi_xport_am_send(vmpi_xport_remote(pe), pe, id, len, vmpi_xport_pack_copy, m);
}

static void grant(vmpi_qlock_waiter *me)
{
    far_waiter *f = (far_waiter *)me;
    to_rank(f->origin, id_done, &f->cookie, sizeof f->cookie);
    vmpi_sys_free(f);
}

static vmpi_qlock *owned_lock(vmpi_pe *pe, const lock_msg *m)
{
    if (vmpi_xport_proc_of_pe(vmpi_loc_pe(m->owner)) != vmpi_xport_proc_of_pe(pe->id))
        vmpi_fatal("internal error: a lock message for rank %d arrived on PE %d of another process", m->owner,
                   pe->id);
    return (vmpi_qlock *)(uintptr_t)m->q;
}

static void on_lock(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    lock_msg m;
    memcpy(&m, msg, sizeof m);
    far_waiter *f = vmpi_sys_malloc(sizeof *f);
    if (f == NULL)
        vmpi_fatal("out of memory queuing a lock request");
    memset(f, 0, sizeof *f);
    f->q.grant = grant;
    f->cookie = m.cookie;
    f->origin = m.origin;
    if (vmpi_qlock_enqueue(owned_lock(pe, &m), m.type, &f->q))
        grant(&f->q);
}

static void on_unlock(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    lock_msg m;
    memcpy(&m, msg, sizeof m);
    vmpi_qlock_release(owned_lock(pe, &m), m.type, NULL, 0);
    to_rank(m.origin, id_done, &m.cookie, sizeof m.cookie);
}

static void on_done(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    uint64_t cookie;
    memcpy(&cookie, msg, sizeof cookie);
    far_wait *fw = (far_wait *)(uintptr_t)cookie;
    fw->done = true;
    vmpi_vp_wake(fw->vp);
}

static int far(uint32_t id, uint64_t q, int owner, int type, const char *why)
{
    far_wait fw = {vmpi_vp_self(), false};
    lock_msg m = {q, (uint64_t)(uintptr_t)&fw, owner, vmpi_vp_self()->id, type, 0};
    to_rank(owner, id, &m, sizeof m);
    while (!fw.done)
        vmpi_vp_block(why);
    return MPI_SUCCESS;
}

int vmpi_qlock_far_acquire(uint64_t q, int owner, int type)
{
    return far(id_lock, q, owner, type, "a lock of another process");
}

int vmpi_qlock_far_release(uint64_t q, int owner, int type)
{
    return far(id_unlock, q, owner, type, "the release of a lock of another process");
}

int vmpi_rma_remote_lock(vmpi_win *w, int rank, int type)
{
    return vmpi_qlock_far_acquire(w->rm->peer[rank].lock, w->rm->peer[rank].world, type);
}

int vmpi_rma_remote_unlock(vmpi_win *w, int rank, int type)
{
    return vmpi_qlock_far_release(w->rm->peer[rank].lock, w->rm->peer[rank].world, type);
}

void vmpi_rma_remote_lock_init(void)
{
    id_lock = vmpi_xport_am_register(on_lock);
    id_unlock = vmpi_xport_am_register(on_unlock);
    id_done = vmpi_xport_am_register(on_done);
}
