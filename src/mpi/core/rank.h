/* SPDX-License-Identifier: BSD-3-Clause */
/* An MPI rank: a VP (its user-level thread), its messaging endpoint, and every MPI object it owns. */
#ifndef VMPI_MPI_RANK_H
#define VMPI_MPI_RANK_H

#include <stdbool.h>
#include "mpi/core/comm.h"
#include "mpi/core/request.h"
#include "mpi/core/stdio.h"
#include "msg/msg.h"
#include "sched/sched.h"

/* Per-rank state of the layers above mpi (ARMCI): each rank has VMPI_RANK_EXT_MAX slots, NULL until a layer
 * fills the one of its key.  A layer takes its key once, from a constructor, so that every process (a
 * restarted one too) numbers the keys alike; what a slot points to belongs in the rank's heap, which is
 * saved and moved with the rank (as the rank itself is). */
#define VMPI_RANK_EXT_MAX 4
/* How many layers may set each rank up when it starts (vmpi_rank_on_start: the Fortran bindings). */
#define VMPI_RANK_START_MAX 4

/* A buffer for buffered sends (mpi/pt2pt/bsend.c): the rank's (MPI_Buffer_attach) or a communicator's. */
typedef struct vmpi_bsend_state {
    char *buf;
    MPI_Count size; /* bytes (MPI_Buffer_attach_c: above INT_MAX too) */
    bool automatic; /* MPI_BUFFER_AUTOMATIC: each message gets a block of the rank's heap */
    bool orphan;    /* its communicator is freed: the last delivery frees it */
    struct vmpi_bsend_seg *segs; /* segments in use, by address */
    int pending;
    struct vmpi_mreq **flushes; /* MPI_*_iflush_buffer requests, completed when `pending` drops to 0 */
    int nflushes, cap_flushes;
} vmpi_bsend_state;

typedef struct vmpi_rank {
    vmpi_vp vp;
    vmpi_ep ep;
    int world_rank;
    bool initialized, finalized;
    bool live; /* between MPI_Init and MPI_Finalize or with a session open: the one flag the binding's first
                * check reads (vmpi_session_update_live) */
    int argc;
    char **argv;
    vmpi_comm world, self;
    vmpi_comm **comms;       /* user communicators, by handle index - 3 */
    int ncomms, cap_comms, comm_hint;
    vmpi_req_table reqs;
    struct vmpi_win **wins;  /* windows, by handle index - 1 (mpi/rma) */
    int nwins, cap_wins;
    struct vmpi_am_table *_Atomic am_ops; /* active-message handlers; origins read it (mpi/rma/am.c) */
    vmpi_bsend_state bsend;
    struct vmpi_errh_user *errh_user; /* user error handlers created by this rank */
    int nerrh_user;
    struct vmpi_attr_state *attr;    /* keyvals and attribute values (attr.c) */
    struct vmpi_errcodes *errcodes;  /* user error classes and codes (errcode.c) */
    vmpi_ckpt_line out_ckpt[2]; /* unfinished lines of stdout and stderr while a checkpoint is written */
    struct vmpi_adapt_rank *adapt; /* migration settings and load measurement (mpi/adapt), or NULL */
    struct vmpi_csched *scheds;      /* its collective schedules not yet destroyed (mpi/coll/csched.c) */
    bool cs_persist;                 /* its next nonblocking schedule is a persistent collective (csched.h) */
    struct vmpi_session *sessions;   /* its sessions, by handle index - 1 (mpi/core/session.c) */
    int nsessions, live_sessions;
    vmpi_comm sess;                  /* internal: every rank, on the sessions' context, where communicators
                                      * made from groups agree on theirs (mpi/comm/comm_from_group.c) */
    struct vmpi_part_rank *part;     /* partitioned receives not yet matched (mpi/pt2pt/part.c), or NULL */
    struct vmpi_tool_rank *tool;     /* its MPI_T state (mpi/tool/state.c), or NULL */
    void *ext[VMPI_RANK_EXT_MAX];    /* the upper layers' state, by key (vmpi_rank_ext_key) */
    const void *f_sentinels;         /* where the rank's copy of the program's Fortran sentinels is (set when
                                      * it starts: fortran/fortran.h); its copy keeps its addresses, as its
                                      * slot does, in every process it goes to */
} vmpi_rank;

/* The rank running on the calling thread, or NULL outside any rank. */
static inline vmpi_rank *vmpi_rank_self(void)
{
    vmpi_vp *vp = vmpi_vp_self();
    return vp ? vmpi_container_of(vp, vmpi_rank, vp) : (vmpi_rank *)0;
}

/* A key for vmpi_rank's ext slots; called from constructors only.  Fatal beyond VMPI_RANK_EXT_MAX. */
int vmpi_rank_ext_key(void);

/* An upper layer's setup of each rank, run on the rank (its heap current, its copy of the program made) before
 * the copy's constructors and its main; registered from constructors only (at most VMPI_RANK_START_MAX). */
typedef void (*vmpi_rank_start_fn)(vmpi_rank *rk);
void vmpi_rank_on_start(vmpi_rank_start_fn fn);
void vmpi_rank_run_start(vmpi_rank *rk);

/* The job's ranks, by world rank (set by boot). */
void vmpi_ranks_set(vmpi_rank **ranks, int n);
int vmpi_world_size(void);
/* World rank `r`'s state (for diagnostics and shutdown; a rank's state belongs to its PE). */
vmpi_rank *vmpi_rank_get(int r);
/* Rank r comes into this process (rk) or leaves it (NULL): migration between processes. */
void vmpi_rank_set(int r, vmpi_rank *rk);

/* MPI_Abort: stops the whole job with `code`. */
VMPI_NORETURN void vmpi_job_abort(int code);

#endif
