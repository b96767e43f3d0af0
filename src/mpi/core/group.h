/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups: ordered sets of world ranks, immutable once made and shared by reference (communicators hold
 * them), so one group object can serve every rank of a communicator.  Handles index a process-wide table
 * that ranks on different PEs may use at once (a mutex guards it; lookups of live handles take no lock). */
#ifndef VMPI_MPI_CORE_GROUP_H
#define VMPI_MPI_CORE_GROUP_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>

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

/* Handles are unique in the job and each has its owner (handle.h): a checkpoint writes each rank's (index,
 * group), and a restart that brings the rank into another process's table re-registers them, each with a
 * reference of the caller's (false when the index is taken or out of range).  The largest index given, and a
 * restart's new numbering above the job's largest. */
typedef void (*vmpi_group_entry_fn)(void *arg, int idx, vmpi_group *g);
int vmpi_group_each_owned(int owner, vmpi_group_entry_fn fn, void *arg);
bool vmpi_group_install(int idx, vmpi_group *g, int owner);
int vmpi_group_top(void);
void vmpi_group_forget_owned(int owner);
void vmpi_group_keep_only(bool (*here)(int owner));
void vmpi_group_rebase(int above);

#endif
