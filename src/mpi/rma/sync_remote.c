/* SPDX-License-Identifier: BSD-3-Clause */
/* Window locks of remote targets (remote.h): a lock request goes to the target rank's PE, where a handler
 * queues it at the target's lock (qlock.h) as a node whose grant is a message back; an unlock is a message
 * whose handler releases the lock there, granting whoever waits, local ranks or other processes' origins, and
 * answers.
 * The origin blocks until its grant arrives.  Passive target needs nothing from the target rank: its PE's
 * scheduler loop runs the handlers. */
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "mpi/comm/group.h"
#include "mpi/rma/remote.h"
#include "sched/sched.h"
#include "xport/xport.h"

typedef struct lock_msg {
    uint64_t tw, rm;           /* the target's vmpi_win; the origin's remote state */
    int32_t target, origin;    /* world ranks */
    int32_t peer, type;        /* the target's rank in the window; lock type */
} lock_msg;

typedef struct grant_msg {
    uint64_t rm;
    int32_t peer, pad;
} grant_msg;

/* An origin of another process queued at a target's lock (the system's memory: freed by the granter). */
typedef struct far_waiter {
    vmpi_qlock_waiter q;       /* first */
    uint64_t rm;
    int origin, peer;
} far_waiter;

static uint32_t id_lock, id_unlock, id_grant;

static void pack_copy(void *dst, size_t len, void *arg) { memcpy(dst, arg, len); }

static void to_pe(int world, uint32_t id, void *m, size_t len)
{
    int pe = vmpi_loc_pe(world);
    vmpi_xport_am_send(vmpi_xport_remote(pe), pe, id, len, pack_copy, m);
}

static void grant(vmpi_qlock_waiter *me)
{
    far_waiter *f = (far_waiter *)me;
    grant_msg g = {f->rm, f->peer, 0};
    to_pe(f->origin, id_grant, &g, sizeof g);
    vmpi_sys_free(f);
}

static vmpi_qlock *target_lock(vmpi_pe *pe, const lock_msg *m)
{
    if (vmpi_xport_proc_of_pe(vmpi_loc_pe(m->target)) != vmpi_xport_proc_of_pe(pe->id))
        vmpi_fatal("internal error: a lock message for rank %d arrived on PE %d of another process", m->target,
                   pe->id);
    vmpi_win *tw = (vmpi_win *)(uintptr_t)m->tw;
    return &tw->sh->t[tw->rank].lock;
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
    f->rm = m.rm;
    f->origin = m.origin;
    f->peer = m.peer;
    if (vmpi_qlock_enqueue(target_lock(pe, &m), m.type, &f->q))
        grant(&f->q);
}

static void on_unlock(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    lock_msg m;
    memcpy(&m, msg, sizeof m);
    vmpi_qlock_release(target_lock(pe, &m), m.type, NULL, 0);
    vmpi_rma_remote_ack(m.origin, m.rm, m.peer);
}

static void on_grant(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    grant_msg g;
    memcpy(&g, msg, sizeof g);
    vmpi_rma_remote *rm = (vmpi_rma_remote *)(uintptr_t)g.rm;
    rm->peer[g.peer].granted = true;
    if (rm->waiter)
        vmpi_vp_wake(rm->waiter);
}

static lock_msg lock_of(vmpi_win *w, int rank, int type)
{
    const vmpi_rma_peer *p = &w->rm->peer[rank];
    return (lock_msg){p->win, (uint64_t)(uintptr_t)w->rm, p->world, w->comm->group->world[w->rank], rank, type};
}

int vmpi_rma_remote_lock(vmpi_win *w, int rank, int type)
{
    vmpi_rma_remote *rm = w->rm;
    lock_msg m = lock_of(w, rank, type);
    rm->peer[rank].granted = false;
    to_pe(m.target, id_lock, &m, sizeof m);
    while (!rm->peer[rank].granted) {
        rm->waiter = vmpi_vp_self();
        vmpi_vp_block("MPI_Win_lock (remote target)");
    }
    rm->waiter = NULL;
    return MPI_SUCCESS;
}

int vmpi_rma_remote_unlock(vmpi_win *w, int rank, int type)
{
    lock_msg m = lock_of(w, rank, type);
    w->rm->peer[rank].pending++; /* answered once released */
    w->rm->pending++;
    to_pe(m.target, id_unlock, &m, sizeof m);
    return vmpi_rma_remote_wait(w, rank);
}

void vmpi_rma_remote_lock_init(void)
{
    id_lock = vmpi_xport_am_register(on_lock);
    id_unlock = vmpi_xport_am_register(on_unlock);
    id_grant = vmpi_xport_am_register(on_grant);
}
