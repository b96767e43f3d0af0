/* SPDX-License-Identifier: BSD-3-Clause */
/* One-sided communication (MPI-3.1 chapter 11) between ranks of one process.
 *
 * Operations run at the origin, directly in the target's memory: a put or a get is a datatype copy between
 * two addresses of the one address space, an accumulate applies its operation in place, element by element,
 * atomically (atomic.c).  Every operation is complete, at the origin and at the target, when its call
 * returns, so flushes are memory fences and passive-target epochs need nothing from the target rank, which
 * may compute outside MPI meanwhile.  Synchronization waits block the rank (a message on the window's own
 * context wakes it), so a rank waiting for a lock lets the holder, maybe on the same PE, run; and a lock
 * never released is reported by the deadlock detector like a lost message.
 *
 * A window is one shared object per process in that process's job heap (vmpi_win_shared, made by the
 * window's lowest rank there: its local ranks' base, size and displacement unit, lock words and waiter
 * queues, attached regions; the ranks of other processes are known by the creation-time exchange, remote.h)
 * and, per rank, a vmpi_win in the rank's slot (its handle, epoch state and attributes).  Window memory is the owner's: Win_allocate takes it from the rank's
 * slot, so it moves with the rank; a contiguous Win_allocate_shared window is one block of the job heap.
 * Nothing here depends on the PE a rank runs on, so migration needs nothing, and checkpoints save both. */
#ifndef VMPI_MPI_RMA_WIN_H
#define VMPI_MPI_RMA_WIN_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"
#include "dtype/dtype.h"
#include "mpi/core/comm.h"
#include "mpi/core/group.h"
#include "mpi/rma/qlock.h"

typedef struct vmpi_win_region { /* memory attached to a dynamic window */
    char *base;
    MPI_Aint size;
} vmpi_win_region;

/* One target rank's part of the shared window state. */
typedef struct vmpi_win_target {
    VMPI_ALIGNED_CL char *base; /* one line of its own at least: origins on other PEs touch the guard */
    MPI_Aint size;
    MPI_Aint disp_unit;       /* MPI_Win_create_c's may exceed an int */
    vmpi_qlock lock;          /* MPI_Win_lock (sync.c) */
    _Atomic bool exposed;     /* in an exposure epoch (post .. wait): locking it is a conflict */
    atomic_flag guard;        /* protects the regions and user buffers; held for a few lines */
    atomic_flag acc;          /* held by accumulates that are not one lock-free element (atomic.c) */
    _Atomic bool bulk;        /* such an accumulate is running plain kernels: one-element ones take acc */
    uint64_t win;             /* its rank's vmpi_win, for origins of other processes (remote.h) */
    vmpi_win_region *regions; /* dynamic windows: sorted by base, in the job heap */
    int nregions, cap_regions;
    /* active messages (am.c) */
    atomic_flag am_run;       /* handlers on this target run one at a time */
    struct vmpi_am_ubuf *ubufs; /* attached user buffers (job heap), under guard */
    int nubufs, cap_ubufs;
} vmpi_win_target;

typedef struct vmpi_win_shared {
    int size;                 /* ranks in the window's group */
    int flavor;
    void *shared_block;       /* contiguous Win_allocate_shared: the block in the job heap */
    vmpi_win_target t[];
} vmpi_win_shared;

enum { VMPI_EPOCH_NONE, VMPI_EPOCH_FENCE, VMPI_EPOCH_PSCW, VMPI_EPOCH_LOCK, VMPI_EPOCH_LOCK_ALL };

typedef struct vmpi_win_held { /* a lock this rank holds */
    int rank, type;
    bool acquired;            /* false with MPI_MODE_NOCHECK: nothing to release */
} vmpi_win_held;

typedef struct vmpi_win {
    MPI_Win handle;
    vmpi_comm *comm;          /* internal, over the window's group, with a context of its own */
    vmpi_win_shared *sh;      /* this process's (each process has its own: remote ranks' parts are empty) */
    bool sh_owner;            /* this rank made it (the window's lowest rank in the process) and frees it */
    int rank, size, flavor;
    MPI_Errhandler errh;
    MPI_Info info;            /* hints set at creation or with Win_set_info (private copy), or MPI_INFO_NULL */
    bool no_locks;
    char name[MPI_MAX_OBJECT_NAME];
    /* access epoch */
    int epoch;
    unsigned calls;           /* RMA calls on it: every 16th lets the rank's PE run others (sync.c) */
    unsigned fence_ops;       /* operations since the last fence (a fence epoch that issued none may end) */
    vmpi_group *start_group;  /* PSCW: the targets, as world ranks */
    int *start_rank;          /* their ranks in the window */
    bool *start_posted;       /* their post has been seen */
    vmpi_win_held *locks;
    int nlocks, cap_locks;
    bool lock_all_acquired;
    /* exposure epoch */
    vmpi_group *post_group;
    int *post_rank;
    bool *post_done;          /* their complete has been received */
    int post_left;
    vmpi_qlock_waiter waiter; /* this rank in a target's lock queue */
    struct vmpi_am_win *am;   /* this rank's active-message state on the window (am.c), or NULL */
    struct vmpi_rma_remote *rm; /* the remote way's state (remote.h), NULL in a job of one process */
    /* predefined attributes: the standard hands out pointers to them */
    void *attr_base;
    MPI_Aint attr_size;
    int attr_disp_unit, attr_flavor, attr_model;
} vmpi_win;

/* The calling rank's window for handle `h`, or NULL. */
vmpi_win *vmpi_win_get(MPI_Win h);

/* ---- creation and queries (win.c); collective ones over intracommunicator `c` ---- */
int vmpi_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, MPI_Win *out);
int vmpi_win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, void **baseptr, MPI_Win *out);
int vmpi_win_allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, void **baseptr,
                             MPI_Win *out);
int vmpi_win_create_dynamic(MPI_Info info, vmpi_comm *c, MPI_Win *out);
int vmpi_win_free(vmpi_win *w);
int vmpi_win_shared_query(vmpi_win *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void **baseptr);
int vmpi_win_attach(vmpi_win *w, void *base, MPI_Aint size);
int vmpi_win_detach(vmpi_win *w, const void *base);
/* Whether [lo, hi) lies in memory attached to target `t` of a dynamic window: one region, or regions
 * attached back to back (an access may span them). */
bool vmpi_win_dynamic_covers(vmpi_win_target *t, const char *lo, const char *hi);
int vmpi_win_set_info(vmpi_win *w, MPI_Info info);
int vmpi_win_get_info(vmpi_win *w, MPI_Info *out);
/* Frees the calling rank's windows still open when it ends (their shared state stays: others may use it). */
void vmpi_win_release_all(void);

/* ---- synchronization (sync.c) ---- */
int vmpi_win_fence(vmpi_win *w, int assert);
int vmpi_win_start(vmpi_win *w, vmpi_group *g, int assert);
int vmpi_win_complete(vmpi_win *w);
int vmpi_win_post(vmpi_win *w, vmpi_group *g, int assert);
int vmpi_win_wait(vmpi_win *w);
int vmpi_win_test(vmpi_win *w, int *flag);
int vmpi_win_lock(vmpi_win *w, int type, int rank, int assert);
int vmpi_win_unlock(vmpi_win *w, int rank);
int vmpi_win_lock_all(vmpi_win *w, int assert);
int vmpi_win_unlock_all(vmpi_win *w);
/* Flushes (local or not: both complete operations at once here); rank -1: all targets. */
int vmpi_win_flush(vmpi_win *w, int rank);
int vmpi_win_sync(vmpi_win *w);
/* The lock type the calling rank holds on `rank` (0 when none); operations under an exclusive lock need no
 * atomics. */
int vmpi_win_lock_held(const vmpi_win *w, int rank);
/* The access check every operation makes: MPI_SUCCESS when the calling rank may access `rank` now (waiting
 * for its post first under PSCW); `passive` requires a passive-target epoch (request-based operations). */
int vmpi_win_access(vmpi_win *w, int rank, bool passive, const char **why);

/* ---- operations (ops.c); arguments checked by the binding, target_rank may be MPI_PROC_NULL ---- */
typedef struct vmpi_rma_side { /* a buffer description */
    void *buf;
    MPI_Count count;
    const vmpi_dtype *dt;
} vmpi_rma_side;

/* `why` gets a description of a failure (at least 160 bytes). */
/* Put (`put`) or Get. */
int vmpi_rma_xfer(vmpi_win *w, bool put, const vmpi_rma_side *o, int rank, MPI_Aint disp, const vmpi_rma_side *t,
                  bool req, char *why);
/* Accumulate (res NULL) and Get_accumulate; op MPI_NO_OP only with res. */
int vmpi_rma_acc(vmpi_win *w, const vmpi_rma_side *o, const vmpi_rma_side *res, int rank, MPI_Aint disp,
                 const vmpi_rma_side *t, MPI_Op op, bool req, char *why);
/* The address of (disp, count, dt) at `rank` after the range check of every byte (ops.c). */
int vmpi_rma_target_addr(vmpi_win *w, int rank, MPI_Aint disp, const vmpi_rma_side *t, char **addr, char *why);
int vmpi_rma_cas(vmpi_win *w, const void *origin, const void *compare, void *result, const vmpi_dtype *dt,
                 int rank, MPI_Aint disp, char *why);

#endif
