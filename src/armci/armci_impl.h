/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI on vmpi: a thin layer over the one-sided machinery of src/mpi/rma (docs/ARMCI.md).
 *
 * ARMCI processes are the ranks of MPI_COMM_WORLD.  An ARMCI_Malloc is a window (vmpi_win_create over the
 * group's communicator): the memory comes from each owner's isomalloc slot, so every process's pointer stays
 * valid when the owner migrates or the job restarts, and the window's shared state holds every member's base.
 * Transfers run at the origin, directly in the target's memory, without epochs: put and get are copies,
 * accumulates go through vmpi_rma_apply (the target's accumulate lock and hardware atomics, shared with MPI's
 * accumulates), Rmw through the same instructions, mutexes are the RMA layer's queued lock.  So every call is
 * complete when it returns.
 *
 * Shared state is in the job heap (one armci_job: per process, the table of its segments and its mutexes);
 * per-rank state in the rank's slot (vmpi_armci, hung off vmpi_rank).  Migration and checkpoints carry both. */
#ifndef VMPI_ARMCI_IMPL_H
#define VMPI_ARMCI_IMPL_H

#include <armci.h>
#include <message.h>
#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "base/compiler.h"
#include "mpi/core/rank.h"
#include "mpi/rma/qlock.h"
#include "mpi/rma/win.h"

/* One allocation's part owned by one process. */
typedef struct armci_seg {
    char *base;
    MPI_Aint size;
    vmpi_win_target *t;       /* the window's target: its accumulate lock */
} armci_seg;

typedef struct armci_mutex {  /* one line each: processes on other PEs take neighbours */
    VMPI_ALIGNED_CL vmpi_qlock q;
} armci_mutex;

/* What one process exposes: written by the process itself (collective calls), read by every origin. */
typedef struct armci_proc {
    VMPI_ALIGNED_CL atomic_flag guard; /* protects segs and n */
    _Atomic unsigned gen;     /* changes with every insertion and removal: origins' cached lookups check it */
    int n, cap;
    armci_seg *segs;          /* sorted by base, job heap */
    armci_mutex *mutexes;     /* ARMCI_Create_mutexes: job heap */
    int nmutexes;
} armci_proc;

typedef struct armci_job {
    int nprocs;
    armci_proc p[];
} armci_job;

/* An ARMCI group: a communicator over its members and their world ids. */
typedef struct armci_group {
    bool used;
    MPI_Comm comm;            /* MPI_COMM_NULL in a process that is not a member */
    int size, rank;
    int *abs;                 /* group rank -> world rank (NULL: the world group) */
} armci_group;

/* An allocation the calling process took part in. */
typedef struct armci_alloc {
    MPI_Win win;
    int id;                   /* the window's context: the same in every process */
    bool lists_far;           /* this rank listed the members of other processes in its process's tables */
    char *base;               /* the process's own block, NULL when it asked for 0 bytes */
    int group;
} armci_alloc;

typedef struct armci_held { /* a mutex this process holds */
    int mutex, proc;
} armci_held;

typedef struct vmpi_armci {
    int inits;                /* ARMCI_Init calls not yet finalized */
    bool own_mpi;             /* ARMCI_Init initialized MPI: ARMCI_Finalize finalizes it */
    bool errors_return;       /* VMPI_ARMCI_ERRORS=return */
    int me, nprocs;
    armci_job *job;           /* this process's (a job heap is per process: another's is not readable) */
    bool job_owner;           /* this rank made it (the lowest rank of its process) and frees it */
    uint64_t *mtx;            /* [nprocs]: every process's mutexes (addresses in its process), by message */
    int *nmtx;                /* [nprocs]: how many */
    MPI_Comm sync;            /* the ARMCI world's private context: mutex grants, notifications */
    vmpi_comm *sync_c;
    unsigned calls;           /* every 16th call lets the PE run others (armci_poll) */
    /* the last segment found, valid while its process's table generation is `gen` */
    int c_proc;
    unsigned c_gen;
    armci_seg c_seg;
    armci_alloc *allocs;
    int nallocs, cap_allocs;
    armci_group *groups;      /* index = ARMCI_Group; 0 = world */
    int ngroups, cap_groups, dflt;
    vmpi_qlock_waiter waiter; /* this process in a mutex's queue */
    armci_held *held;
    int nheld, cap_held;
    int *notes_sent, *notes_seen; /* armci_notify counts per process (allocated at first use) */
} vmpi_armci;

/* A rank's ARMCI state (in its slot of the rank's extensions, in the rank's heap), NULL before ARMCI_Init. */
extern int armci_rank_key;
static inline vmpi_armci *armci_of(vmpi_rank *rk) { return (vmpi_armci *)rk->ext[armci_rank_key]; }

/* The calling rank's ARMCI state after the "initialized" check; NULL (after reporting) when not. */
vmpi_armci *armci_self(const char *fn);

/* Reports misuse: one line "vmpi: [rank R] fn: what", then aborts the job with `cls` as exit status, or
 * returns `cls` with VMPI_ARMCI_ERRORS=return. */
int armci_fail(const char *fn, int cls, const char *fmt, ...) VMPI_PRINTF(3, 4);

/* The checks most calls make; each returns MPI_SUCCESS or the reported error. */
int armci_check_proc(vmpi_armci *a, const char *fn, int proc);
/* [addr, addr + len) must lie in one ARMCI segment of `proc`; *seg gets it. */
int armci_lookup(vmpi_armci *a, const char *fn, int proc, const void *addr, MPI_Aint len, armci_seg *seg);
/* Drops the cached lookup (after this process's allocations change). */
static inline void armci_uncache(vmpi_armci *a) { a->c_proc = -1; }

/* Every 16th data call polls the PE's channels and yields when another rank is ready: a process spinning on a
 * flag with ARMCI calls lets the writer on its PE run. */
void armci_poll(vmpi_armci *a);

/* ---- strided descriptors (strided.c) ---- */
/* Checks levels, counts and strides of both sides (`remote` is the remote pointer, for its range). */
int armci_strided_check(vmpi_armci *a, const char *fn, int proc, const void *remote, const int *rstride,
                        const int *lstride, const int *count, int levels, armci_seg *seg);
/* Calls fn(src + soff, dst + doff, count[0], arg) for every segment, in order. */
typedef void (*armci_seg_fn)(char *src, char *dst, size_t bytes, void *arg);
void armci_strided_each(char *src, const int *sstride, char *dst, const int *dstride, const int *count, int levels,
                        armci_seg_fn fn, void *arg);

/* ---- vector descriptors (copy.c) ---- */
typedef void (*armci_iov_fn)(char *src, char *dst, size_t bytes, vmpi_win_target *t, void *arg);
/* Checks `len` descriptors (and, for accumulate op `acc_op`, whole elements) and calls `each` on every segment
 * after looking up its remote side (the destination when `remote_dst`): segments may lie in different blocks. */
int armci_iov_each(vmpi_armci *a, const char *fn, armci_giov_t *darr, int len, int proc, bool remote_dst, int acc_op,
                   armci_iov_fn each, void *arg);

/* ---- accumulates (acc.c) ---- */
/* MPI_SUCCESS when `bytes` is a whole number of op's elements; else reported. */
int armci_acc_whole(const char *fn, int op, long bytes);
/* The element size of accumulate op `op`, 0 when it is not one. */
int armci_acc_elem(int op);
/* dst += scale * src for `bytes` bytes of op's type at a target segment. */
/* dst += scale * src for bytes of op's type in proc's segment `t` (in another process: through the transport) */
void armci_acc_apply(int op, const void *scale, const char *src, char *dst, size_t bytes, vmpi_win_target *t,
                     int proc);

/* ---- groups (group.c) ---- */
/* Group `*g` of the process (after reporting, NULL when there is none); _member: one the process is in. */
armci_group *armci_group_get(vmpi_armci *a, const char *fn, const ARMCI_Group *g);
armci_group *armci_group_member(vmpi_armci *a, const char *fn, const ARMCI_Group *g);
int armci_groups_init(vmpi_armci *a);
void armci_groups_free(vmpi_armci *a);

/* ---- memory (malloc.c) ---- */
void armci_free_all(vmpi_armci *a);

/* Tags on the private context */
enum { ARMCI_TAG_GRANT = 1, ARMCI_TAG_NOTE = 2 };
/* The ARMCI world: group 0's communicator (armci_msg_*, allocations over all processes). */
static inline MPI_Comm armci_world(vmpi_armci *a) { return a->groups[0].comm; }

#define ARMCI_CHECK_INIT(a, fn, ret)                                                                            \
    vmpi_armci *a = armci_self(fn);                                                                             \
    if (a == NULL)                                                                                              \
        return ret;

#endif
