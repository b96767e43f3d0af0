/* SPDX-License-Identifier: BSD-3-Clause */
/* Sessions (MPI-4.1 11.3): each rank's own table, in its heap, so they move and are checkpointed with it.  A
 * rank may call MPI between MPI_Init and MPI_Finalize or while it has a session open (rk->live).  Process
 * sets are fixed for the job: "mpi://WORLD" (every rank) and "mpi://SELF" (the caller). */
#ifndef VMPI_MPI_CORE_SESSION_H
#define VMPI_MPI_CORE_SESSION_H

#include <mpi.h>
#include <stdbool.h>
#include "mpi/core/group.h"
#include "mpi/core/rank.h"

typedef struct vmpi_session {
    bool live;
    int thread_level;    /* provided: what the "thread_level" hint asked for, at most MPI_THREAD_FUNNELED */
    MPI_Errhandler errh;
    MPI_Info info;       /* the hints given to MPI_Session_init (a copy), or MPI_INFO_NULL */
    struct vmpi_bsend_state *bsend; /* the buffer attached to it (MPI_Session_attach_buffer), or NULL */
    MPI_Group *groups;   /* the groups MPI_Group_from_session_pset made of it and the program still holds */
    int ngroups, cap_groups;
} vmpi_session;

/* The calling rank's live session of handle `h`, or NULL. */
vmpi_session *vmpi_session_get(MPI_Session h);
/* At the end of the job: frees rank rk's sessions, those it left open too. */
void vmpi_session_rank_fini(vmpi_rank *rk);
/* The handle of a session of the calling rank. */
MPI_Session vmpi_session_handle(const vmpi_session *s);
/* A new session of the calling rank (hints `info`, handler `errh`, both checked). */
int vmpi_session_open(MPI_Info info, MPI_Errhandler errh, MPI_Session *out);
/* Ends session `h` (live) of the calling rank: *h becomes MPI_SESSION_NULL. */
void vmpi_session_close(MPI_Session *h);
/* Whether the rank may call MPI: between MPI_Init and MPI_Finalize, or with a session open. */
void vmpi_session_update_live(vmpi_rank *rk);
/* Which session a group came from (MPI_Group_from_session_pset), so that the communicators made of it derive
 * from that session (MPI-4.1 11.3.2: they use its buffer): noted when made, forgotten when freed; a group
 * derived from such a group (MPI_Group_incl...) is not tracked. */
int vmpi_session_note_group(vmpi_session *s, MPI_Group g);
MPI_Session vmpi_session_of_group(MPI_Group g);
void vmpi_session_forget_group(MPI_Group g);

/* The process sets: their number, the n-th's name (NULL beyond), the index of a name (compared without
 * regard to case, as MPICH does; -1 when no set has it), its size, and its group for the caller (a new
 * reference; NULL when out of memory). */
int vmpi_pset_count(void);
const char *vmpi_pset_name(int n);
int vmpi_pset_find(const char *name);
int vmpi_pset_size(int n);
vmpi_group *vmpi_pset_group(int n);

#endif
