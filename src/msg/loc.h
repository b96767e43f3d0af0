/* SPDX-License-Identifier: BSD-3-Clause */
/* Where ranks live, and the one place that decides which path a message to a rank takes.
 *
 * The location table maps a world rank to its PE (PEs are numbered across the job; xport/procs.h says which
 * process hosts a PE).  It has one owner: a rank is placed when it is created or restored, and moves only
 * through vmpi_loc_move, which updates the scheduler and the table together and has the layers that group
 * ranks by place (the shared-memory collectives) regroup once the moves of a stop are done.  Migration,
 * restart, shrink and expand all move ranks that way.
 *
 * vmpi_loc_path says how the calling PE reaches a rank: on the same PE (direct delivery into a posted
 * receive), in this process (the in-process transport, whose records may carry pointers: single-copy
 * rendezvous, envelopes by address), or in another process (a remote transport, through the contract of
 * xport/xport.h: no pointer is ever sent there, rendezvous is a request to send and a get). */
#ifndef VMPI_MSG_LOC_H
#define VMPI_MSG_LOC_H

#include "base/compiler.h"
#include "sched/sched.h"
#include "xport/procs.h"

typedef struct vmpi_loc {
    int proc;
    int pe;
} vmpi_loc;

typedef enum { VMPI_PATH_SAME_PE, VMPI_PATH_SAME_PROC, VMPI_PATH_REMOTE } vmpi_path;

extern int *vmpi_loc_pe_;   /* world rank -> PE */

void vmpi_loc_init(int nranks);
void vmpi_loc_fini(void);

static inline int vmpi_loc_pe(int world_rank) { return vmpi_loc_pe_[world_rank]; }
static inline vmpi_loc vmpi_loc_of(int world_rank)
{
    int pe = vmpi_loc_pe_[world_rank];
    return (vmpi_loc){vmpi_xport_proc_of_pe(pe), pe};
}
/* How the calling PE reaches PE `pe`. */
static inline vmpi_path vmpi_loc_path_pe(int pe)
{
    int me = vmpi_pe_self()->id;
    if (pe == me)
        return VMPI_PATH_SAME_PE;
    if (VMPI_LIKELY(vmpi_xport_procs_.nprocs == 1) || vmpi_xport_proc_of_pe(pe) == vmpi_xport_proc_of_pe(me))
        return VMPI_PATH_SAME_PROC;
    return VMPI_PATH_REMOTE;
}
static inline vmpi_path vmpi_loc_path(int world_rank) { return vmpi_loc_path_pe(vmpi_loc_pe_[world_rank]); }
/* Whether two world ranks live in the same process. */
static inline bool vmpi_loc_same_proc(int a, int b)
{
    return vmpi_xport_proc_of_pe(vmpi_loc_pe_[a]) == vmpi_xport_proc_of_pe(vmpi_loc_pe_[b]);
}

/* Where rank r of n starts (and restarts): process k of K holds ranks [k n / K, (k + 1) n / K), placed in
 * blocks over its PEs among the first `active` PEs of the job (all of its PEs when none of them is among
 * those).  One process: PE r * active / n. */
int vmpi_loc_start_proc(int r, int n);
int vmpi_loc_start_pe(int r, int n, int active);
/* A new rank's place (its VP was added to PE `pe`). */
void vmpi_loc_set(int world_rank, int pe);
/* Inside a stop of the world: rank vp->id lives on PE `pe` from now on (the scheduler and the table). */
void vmpi_loc_move(vmpi_vp *vp, int pe);
/* Restart, before the PEs run: a restored rank is placed on PE `pe` (the scheduler adopts its VP). */
void vmpi_loc_adopt(vmpi_vp *vp, int pe);
/* After the moves of one stop, or a restart's placements: runs every hook of vmpi_loc_on_moved once, if a
 * rank moved (or was adopted) since the last call. */
void vmpi_loc_moves_done(void);
/* Registers a hook that regroups whatever a layer keeps by place (called with the world stopped). */
void vmpi_loc_on_moved(void (*fn)(void));

#endif
