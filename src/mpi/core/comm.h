/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators as one rank sees them.  Each rank resolves a handle in its own table, so communicator state
 * belongs to the rank (and will move with it). */
#ifndef VMPI_MPI_COMM_H
#define VMPI_MPI_COMM_H

#include <mpi.h>

typedef struct vmpi_comm {
    int ctx;               /* point-to-point context; collectives use ctx + 1 */
    int rank, size;
    const int *world_of;   /* comm rank -> world rank; NULL when the identity */
    int world_base;        /* world rank of comm rank 0 when world_of is NULL */
    MPI_Errhandler errh;
    MPI_Comm handle;
    const char *name;
    unsigned coll_seq;     /* collectives this rank started on it: the tag of the next one (coll area) */
    void *coll_shm;        /* cache of its shared collective state (coll area, mpi/coll/shm.c) */
} vmpi_comm;

static inline int vmpi_comm_world_rank(const vmpi_comm *c, int r)
{
    return c->world_of ? c->world_of[r] : c->world_base + r;
}

/* Context ids of the predefined communicators (each takes two). */
enum { VMPI_CTX_WORLD = 0, VMPI_CTX_SELF = 2, VMPI_CTX_FIRST_FREE = 4 };

/* The calling rank's communicator for `h`, or NULL if `h` is not a valid communicator. */
vmpi_comm *vmpi_comm_get(MPI_Comm h);

#endif
