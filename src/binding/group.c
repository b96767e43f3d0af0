/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Group_*, group queries and constructors (local operations): the implementations behind the generated
 * entry points (<build>/gen/binding/group_entry.c, from src/binding/spec/group.toml), which check the
 * arguments, resolve the handles and report the errors these return. */
#include "binding/impl.h"
#include "mpi/comm/group_ops.h"
#include "mpi/core/session.h"

/* A constructor's result: MPI_GROUP_EMPTY when it has no members (as MPICH and Open MPI give). */
static int new_handle(int err, vmpi_group *g, MPI_Group *out)
{
    if (err)
        return err;
    *out = g->size == 0 ? MPI_GROUP_EMPTY : vmpi_group_handle(g);
    vmpi_group_unref(g);
    return *out == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int vmpi_b_Group_size(vmpi_group *group, int *size)
{
    *size = group->size;
    return MPI_SUCCESS;
}

int vmpi_b_Group_rank(vmpi_group *group, int *rank)
{
    *rank = vmpi_group_rank_of(group, vmpi_rank_self()->world_rank);
    return MPI_SUCCESS;
}

int vmpi_b_Group_translate_ranks(vmpi_group *group1, int n, const int ranks1[], vmpi_group *group2, int ranks2[],
                                 vmpi_chk *ck)
{
    int err = vmpi_group_translate(group1, n, ranks1, group2, ranks2);
    if (err)
        snprintf(ck->why, sizeof ck->why, "a rank is not in the first group (size %d)", group1->size);
    return err;
}

int vmpi_b_Group_compare(vmpi_group *group1, vmpi_group *group2, int *result)
{
    *result = vmpi_group_compare(group1, group2);
    return MPI_SUCCESS;
}

int vmpi_b_Group_union(vmpi_group *group1, vmpi_group *group2, MPI_Group *newgroup)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_union(group1, group2, &g);
    return new_handle(err, g, newgroup);
}

int vmpi_b_Group_intersection(vmpi_group *group1, vmpi_group *group2, MPI_Group *newgroup)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_intersection(group1, group2, &g);
    return new_handle(err, g, newgroup);
}

int vmpi_b_Group_difference(vmpi_group *group1, vmpi_group *group2, MPI_Group *newgroup)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_difference(group1, group2, &g);
    return new_handle(err, g, newgroup);
}

/* A constructor from ranks of `group`: their errors say which group they were checked against. */
static int from_ranks(int err, vmpi_group *group, vmpi_group *g, MPI_Group *newgroup, vmpi_chk *ck)
{
    if (err)
        snprintf(ck->why, sizeof ck->why, "invalid or repeated rank for a group of size %d", group->size);
    return new_handle(err, g, newgroup);
}

int vmpi_b_Group_incl(vmpi_group *group, int n, const int ranks[], MPI_Group *newgroup, vmpi_chk *ck)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_incl(group, n, ranks, &g);
    return from_ranks(err, group, g, newgroup, ck);
}

int vmpi_b_Group_excl(vmpi_group *group, int n, const int ranks[], MPI_Group *newgroup, vmpi_chk *ck)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_excl(group, n, ranks, &g);
    return from_ranks(err, group, g, newgroup, ck);
}

int vmpi_b_Group_range_incl(vmpi_group *group, int n, int ranges[][3], MPI_Group *newgroup, vmpi_chk *ck)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_range_incl(group, n, ranges, &g);
    return from_ranks(err, group, g, newgroup, ck);
}

int vmpi_b_Group_range_excl(vmpi_group *group, int n, int ranges[][3], MPI_Group *newgroup, vmpi_chk *ck)
{
    vmpi_group *g = NULL;
    int err = vmpi_group_range_excl(group, n, ranges, &g);
    return from_ranks(err, group, g, newgroup, ck);
}

int vmpi_b_Group_free(MPI_Group *group, vmpi_chk *ck)
{
    if (*group == MPI_GROUP_EMPTY) { /* constructors return it: freeing it is allowed, as in MPICH */
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    }
    MPI_Group h = *group;
    if (vmpi_group_handle_free(group) != MPI_SUCCESS) {
        snprintf(ck->why, sizeof ck->why, "invalid or predefined group handle 0x%x", (unsigned)h);
        return MPI_ERR_GROUP;
    }
    vmpi_session_forget_group(h); /* its handle may name another group next */
    return MPI_SUCCESS;
}
