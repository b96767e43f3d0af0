/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups: ordered sets of world ranks, immutable once made and shared by reference (communicators hold
 * them), so one group object can serve every rank of a communicator.  Handles index a process-wide table
 * that ranks on different PEs may use at once (a mutex guards it; lookups of live handles take no lock). */
#ifndef VMPI_MPI_CORE_GROUP_H
#define VMPI_MPI_CORE_GROUP_H

#include <mpi.h>
#include <stdatomic.h>

typedef struct vmpi_group {
    _Atomic int refs;
    int size;
    int *world;              /* world rank of each member, in group order */
    int *by_world;           /* indices 0..size-1 sorted by world rank: rank lookup by binary search */
} vmpi_group;

/* A new group of `n` members (world ranks, copied), one reference; NULL when out of memory. */
vmpi_group *vmpi_group_new(const int *world, int n);
vmpi_group *vmpi_group_ref(vmpi_group *g);
void vmpi_group_unref(vmpi_group *g);
/* Rank of world rank `w` in `g`, or MPI_UNDEFINED. */
int vmpi_group_rank_of(const vmpi_group *g, int w);
/* The empty group and the group of all ranks (shared, never freed). */
vmpi_group *vmpi_group_empty(void);
vmpi_group *vmpi_group_world(void);
void vmpi_group_init(int nranks);
void vmpi_group_fini(void);

/* Handles: a new handle holds its own reference to `g` (taken here). */
MPI_Group vmpi_group_handle(vmpi_group *g);
/* The group of a handle, or NULL if the handle is not a live group. */
vmpi_group *vmpi_group_get(MPI_Group h);
/* Drops the handle's reference; predefined handles are not freed (returns MPI_ERR_GROUP for them). */
int vmpi_group_handle_free(MPI_Group *h);

#endif
