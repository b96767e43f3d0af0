/* SPDX-License-Identifier: BSD-3-Clause */
/* The remote way of one-sided communication: targets that live in another process (msg/loc.h's
 * VMPI_PATH_REMOTE).  Nothing there is read or written by pointer: the origin sends (target world rank,
 * target address, the target layout flattened into address/length runs, operation, data) through the
 * transport contract (xport/xport.h) for a PE of the target's process to apply, without the target rank;
 * contiguous puts and gets use the contract's put and get.  Every message is answered (an acknowledgement,
 * or the data of a get or fetch), so the origin counts what is outstanding per target and completion
 * (flush, unlock, fence, complete) blocks the rank until those counts are zero.  Locks become messages too
 * (sync_remote.c): a request queued at the target's lock, granted by a message back.
 *
 * The origin computes target addresses from a copy of every rank's window base, size and displacement unit
 * taken when the window is created (the exchange a real multi-process job makes then); at operation time it
 * reads nothing of another process.  A one-process job has no remote state (w->rm is NULL): the local way
 * pays one test. */
#ifndef VMPI_MPI_RMA_REMOTE_H
#define VMPI_MPI_RMA_REMOTE_H

#include <stdbool.h>
#include <stdint.h>
#include "msg/loc.h"
#include "mpi/rma/win.h"

typedef struct vmpi_rma_peer {
    uint64_t win;             /* the target rank's vmpi_win: an address in its process */
    char *base;
    MPI_Aint size;
    MPI_Aint disp_unit;
    int world;
    uint64_t lock;            /* its window lock: an address in its process */
    uint64_t target;          /* its vmpi_win_target: an address in its process (ARMCI's accumulates) */
    unsigned pending;         /* messages to it not answered yet */
} vmpi_rma_peer;

typedef struct vmpi_rma_remote {
    vmpi_rma_peer *peer;      /* [window size] */
    unsigned pending;         /* over all targets */
    struct vmpi_vp *waiter;   /* the rank, while it waits for answers or a grant */
    int err;                  /* an error a target reported, returned at the next completion */
    /* exposed memory (expose.c): this rank's, and whether the others' keys were given to the transport */
    uint64_t exp_addr, exp_len;
    bool exposed;
    bool *known;              /* [window size] */
} vmpi_rma_remote;

/* Whether window rank `rank` is reached the remote way. */
static inline bool vmpi_rma_is_remote(const vmpi_win *w, int rank)
{
    return w->rm != NULL && rank >= 0 && vmpi_loc_path(w->rm->peer[rank].world) == VMPI_PATH_REMOTE;
}

/* At window creation, after every rank has published its part: the per-rank copy (a job of one process:
 * nothing).  Closing waits for nothing: the epochs are over. */
typedef struct vmpi_rma_pub { /* what each rank tells every other at creation (MPI_Aint each) */
    uint64_t win, base, lock; /* its vmpi_win, window base and window lock: addresses in its process */
    uint64_t target;          /* its vmpi_win_target (accumulate lock, bulk flag): an address in its process */
    MPI_Aint size, disp_unit;
    MPI_Aint klen;            /* the bytes of its memory's remote key (expose.c), 0: none */
} vmpi_rma_pub;
int vmpi_rma_remote_open(vmpi_win *w, const vmpi_rma_pub *all);
void vmpi_rma_remote_close(vmpi_win *w);

/* Exposed memory (expose.c): a window's memory is registered with the transport between processes (when
 * it has one-sided operations of its own: xport.h's expose) and every rank's key goes to every other
 * process of the window, so that contiguous puts and gets there are the network's one-sided operations (the
 * target takes no part).  expose_key, before the creation's exchange: the calling rank's memory and its key
 * (*key malloc'd, NULL when none); expose_open, after it (collective over the window when any rank has a
 * key): the keys of the others.  At Win_free, forget (before its barrier: the origins drop the others' keys)
 * and unexpose (after it: nobody uses this rank's key any more). */
void vmpi_rma_expose_key(void *base, MPI_Aint size, void **key, size_t *klen);
int vmpi_rma_expose_open(vmpi_win *w, const vmpi_rma_pub *all, void *base, MPI_Aint size, const void *key);
void vmpi_rma_expose_forget(vmpi_win *w);
void vmpi_rma_expose_unexpose(vmpi_win *w);

/* The target address of (disp, t) at remote `rank`, range-checked against the creation-time copy. */
int vmpi_rma_remote_addr(vmpi_win *w, int rank, MPI_Aint disp, const vmpi_rma_side *t, char **addr, char *why);

/* The operations, checked already by ops.c; `req`: complete before returning (request-based forms). */
int vmpi_rma_remote_xfer(vmpi_win *w, bool put, const vmpi_rma_side *o, int rank, MPI_Aint disp,
                         const vmpi_rma_side *t, bool req, char *why);
int vmpi_rma_remote_acc(vmpi_win *w, const vmpi_rma_side *o, const vmpi_rma_side *res, int rank, MPI_Aint disp,
                        const vmpi_rma_side *t, MPI_Op op, int basic, bool req, char *why);
int vmpi_rma_remote_cas(vmpi_win *w, const void *origin, const void *compare, void *result, const vmpi_dtype *dt,
                        int rank, MPI_Aint disp, char *why);
/* Blocks until every message to `rank` (< 0: to every target) is answered; returns an error a target
 * reported meanwhile. */
int vmpi_rma_remote_wait(vmpi_win *w, int rank);

/* Queued lock `q` (an address in the process of world rank `owner`) taken or released from another process
 * (sync_remote.c): blocks until granted, or until released (the owner may free the lock as soon as the
 * caller is out and through a barrier). */
int vmpi_qlock_far_acquire(uint64_t q, int owner, int type);
int vmpi_qlock_far_release(uint64_t q, int owner, int type);
/* The window lock of a remote target. */
int vmpi_rma_remote_lock(vmpi_win *w, int rank, int type);
int vmpi_rma_remote_unlock(vmpi_win *w, int rank, int type);

/* Copies `bytes` between `local` and address `remote` in the process of world rank `owner` through the
 * transport's put or get, blocking until done (ARMCI's transfers, complete in their call). */
void vmpi_rma_far_copy(bool put, void *local, void *remote, size_t bytes, int owner);

/* Start-up: the handlers. */
void vmpi_rma_remote_init(void);
void vmpi_rma_remote_lock_init(void);

/* Shared by remote.c and sync_remote.c: the answer to the origin (on the origin rank's PE). */
typedef struct rma_ans {
    uint64_t rm, rec, off, len; /* the origin's vmpi_rma_remote and answer record; data bytes */
    int32_t peer, err;
} rma_ans;

#endif
