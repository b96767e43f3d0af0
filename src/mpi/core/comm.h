/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators as one rank sees them.  Each rank resolves a handle in its own table, so communicator state
 * belongs to the rank (and will move with it); groups and topologies are shared, immutable and
 * reference-counted. */
#ifndef VMPI_MPI_COMM_H
#define VMPI_MPI_COMM_H

#include <mpi.h>
#include <stdbool.h>

struct vmpi_group;
struct vmpi_topo;

typedef struct vmpi_comm {
    int ctx;               /* point-to-point context; collectives use ctx + 1 */
    int rank, size;        /* in the local group */
    int peer_size;         /* ranks point-to-point may name: size, or the remote group's (intercommunicator) */
    const int *world_of;   /* peer rank -> world rank; NULL when it is world_base + rank */
    int world_base;
    MPI_Errhandler errh;
    MPI_Comm handle;
    char name[MPI_MAX_OBJECT_NAME];
    struct vmpi_group *group;  /* local group (a reference); NULL for the predefined communicators */
    struct vmpi_group *remote; /* intercommunicator: the remote group; NULL for an intracommunicator */
    struct vmpi_comm *local;   /* intercommunicator: an intracommunicator over the local group (internal) */
    struct vmpi_topo *topo;    /* process topology, or NULL */
    MPI_Info info;             /* a private copy of the hints set on it, or MPI_INFO_NULL */
    unsigned coll_seq;     /* collectives this rank started on it: the tag of the next one (coll area) */
    void *coll_shm;        /* cache of its shared collective state (coll area, mpi/coll/shm.c) */
    signed char coll_span; /* whether its ranks live in several processes: 0 not known yet (mpi/coll/span.h) */
    void *coll_hier;       /* if they do: its ranks in this process, and their leaders (mpi/coll/hier.c) */
    struct vmpi_bsend_state *bsend; /* the buffer attached to it (MPI_Comm_attach_buffer), or NULL */
    MPI_Session session;   /* the session it derives from (MPI-4.1 11.3.2), else 0: no session's handle */
} vmpi_comm;

static inline int vmpi_comm_world_rank(const vmpi_comm *c, int r)
{
    return c->world_of ? c->world_of[r] : c->world_base + r;
}

static inline bool vmpi_comm_is_inter(const vmpi_comm *c) { return c->remote != NULL; }

/* Context ids of the predefined communicators (each takes two; SESSION: the internal one over every rank where
 * communicators made from groups agree, rank.h); the others come from vmpi_comm_ctx_alloc. */
enum { VMPI_CTX_WORLD = 0, VMPI_CTX_SELF = 2, VMPI_CTX_SESSION = 4, VMPI_CTX_FIRST_FREE = 6 };

/* The calling rank's communicator for `h`, or NULL if `h` is not a valid communicator. */
vmpi_comm *vmpi_comm_get(MPI_Comm h);
/* The local group of `c`, with a reference for the caller; NULL when out of memory. */
struct vmpi_group *vmpi_comm_group(const vmpi_comm *c);
/* Two fresh context ids (point-to-point and collective), unique in the process. */
int vmpi_comm_ctx_alloc(void);
/* The largest context id this process has taken (0: none), and, for a restart on another number of
 * processes, a new numbering whose every id is above `above` (the largest of every process's). */
int vmpi_comm_ctx_max(void);
void vmpi_comm_ctx_rebase(int above);

/* A new communicator of the calling rank: `c` (filled by the caller, malloc'ed) gets a handle in the rank's
 * table.  Returns the handle, or MPI_COMM_NULL when the table is full. */
MPI_Comm vmpi_comm_register(vmpi_comm *c);
/* Releases a communicator made by vmpi_comm_register: the release hooks, then its groups and info. */
void vmpi_comm_release(vmpi_comm *c);
/* The areas above core that keep state per communicator (the shared-memory collectives, topologies) each
 * register at boot a hook that frees theirs; vmpi_comm_release runs the hooks in the order registered. */
typedef void (*vmpi_comm_release_hook)(vmpi_comm *c);
void vmpi_comm_on_release(vmpi_comm_release_hook fn);
/* Frees the calling rank's remaining communicators (at rank exit). */
void vmpi_comm_release_all(void);

#endif
