/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Group_*: group queries and constructors (local operations). */
#include "binding/check.h"
#include "mpi/comm/group_ops.h"
#include "mpi/core/session.h"

/* Group errors go to MPI_COMM_WORLD's handler: groups belong to no communicator. */
#define FAIL(err, fn) vmpi_fail(MPI_COMM_WORLD, err, fn, &ck)

/* A constructor's result: MPI_GROUP_EMPTY when it has no members (as MPICH and Open MPI give). */
static int new_handle(int err, vmpi_group *g, MPI_Group *out)
{
    if (err)
        return err;
    *out = g->size == 0 ? MPI_GROUP_EMPTY : vmpi_group_handle(g);
    vmpi_group_unref(g);
    return *out == MPI_GROUP_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

VMPI_WEAK(Group_size)
int PMPI_Group_size(MPI_Group group, int *size)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Group_size");
    vmpi_group *g;
    int err = vmpi_chk_group(&ck, group, &g);
    if (!err)
        err = vmpi_chk_ptr(&ck, size, "size");
    if (!err)
        *size = g->size;
    return err ? FAIL(err, "MPI_Group_size") : MPI_SUCCESS;
}

VMPI_WEAK(Group_rank)
int PMPI_Group_rank(MPI_Group group, int *rank)
{
    VMPI_CHK(ck);
    vmpi_group *g;
    int err = vmpi_chk_ranked(&ck);
    if (!err)
        err = vmpi_chk_group(&ck, group, &g);
    if (!err)
        err = vmpi_chk_ptr(&ck, rank, "rank");
    if (!err)
        *rank = vmpi_group_rank_of(g, vmpi_rank_self()->world_rank);
    return err ? FAIL(err, "MPI_Group_rank") : MPI_SUCCESS;
}

VMPI_WEAK(Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int *ranks1, MPI_Group group2, int *ranks2)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Group_translate_ranks");
    vmpi_group *a, *b;
    int err = vmpi_chk_group(&ck, group1, &a);
    if (!err)
        err = vmpi_chk_group(&ck, group2, &b);
    if (!err)
        err = vmpi_chk_nonneg_cls(&ck, n, "count", MPI_ERR_ARG);
    if (!err && n > 0 && (!ranks1 || !ranks2))
        err = vmpi_chk_ptr(&ck, NULL, "rank array");
    if (!err && (err = vmpi_group_translate(a, n, ranks1, b, ranks2)))
        snprintf(ck.why, sizeof ck.why, "a rank is not in the first group (size %d)", a->size);
    return err ? FAIL(err, "MPI_Group_translate_ranks") : MPI_SUCCESS;
}

VMPI_WEAK(Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Group_compare");
    vmpi_group *a, *b;
    int err = vmpi_chk_group(&ck, group1, &a);
    if (!err)
        err = vmpi_chk_group(&ck, group2, &b);
    if (!err)
        err = vmpi_chk_ptr(&ck, result, "result");
    if (!err)
        *result = vmpi_group_compare(a, b);
    return err ? FAIL(err, "MPI_Group_compare") : MPI_SUCCESS;
}

typedef int (*setop)(const vmpi_group *, const vmpi_group *, vmpi_group **);

static int two_groups(const char *fn, setop op, MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    VMPI_CHK(ck);
    vmpi_group *a, *b, *g = NULL;
    int err = vmpi_chk_ranked(&ck);
    if (!err)
        err = vmpi_chk_group(&ck, group1, &a);
    if (!err)
        err = vmpi_chk_group(&ck, group2, &b);
    if (!err)
        err = vmpi_chk_ptr(&ck, newgroup, "newgroup");
    if (!err)
        err = op(a, b, &g);
    if (!err)
        err = new_handle(err, g, newgroup);
    return err ? FAIL(err, fn) : MPI_SUCCESS;
}

VMPI_WEAK(Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_union", vmpi_group_union, group1, group2, newgroup);
}

VMPI_WEAK(Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_intersection", vmpi_group_intersection, group1, group2, newgroup);
}

VMPI_WEAK(Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    return two_groups("MPI_Group_difference", vmpi_group_difference, group1, group2, newgroup);
}

static int ranks_args(vmpi_chk *ck, MPI_Group group, int n, const void *list, MPI_Group *newgroup,
                      vmpi_group **g)
{
    int err = vmpi_chk_ranked(ck);
    if (!err)
        err = vmpi_chk_group(ck, group, g);
    if (!err)
        err = vmpi_chk_nonneg_cls(ck, n, "count", MPI_ERR_ARG);
    if (!err && n > 0)
        err = vmpi_chk_ptr(ck, list, "rank list");
    if (!err)
        err = vmpi_chk_ptr(ck, newgroup, "newgroup");
    return err;
}

#define RANKS_CTOR(Name, fn, type)                                                                        \
    VMPI_WEAK(Name)                                                                                       \
    int PMPI_##Name(MPI_Group group, int n, type list, MPI_Group *newgroup)                               \
    {                                                                                                     \
        VMPI_CHK(ck);                                                                                     \
        vmpi_group *g, *ng = NULL;                                                                        \
        int err = ranks_args(&ck, group, n, list, newgroup, &g);                                          \
        if (!err && (err = fn(g, n, list, &ng)) != MPI_SUCCESS)                                           \
            snprintf(ck.why, sizeof ck.why, "invalid or repeated rank for a group of size %d", g->size); \
        if (!err)                                                                                         \
            err = new_handle(err, ng, newgroup);                                                          \
        return err ? FAIL(err, "MPI_" #Name) : MPI_SUCCESS;                                               \
    }

RANKS_CTOR(Group_incl, vmpi_group_incl, const int *)
RANKS_CTOR(Group_excl, vmpi_group_excl, const int *)
typedef int (*range_list)[3];
RANKS_CTOR(Group_range_incl, vmpi_group_range_incl, range_list)
RANKS_CTOR(Group_range_excl, vmpi_group_range_excl, range_list)

VMPI_WEAK(Group_free)
int PMPI_Group_free(MPI_Group *group)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Group_free");
    int err = vmpi_chk_ptr(&ck, group, "group");
    if (!err && *group == MPI_GROUP_EMPTY) { /* constructors return it: freeing it is allowed, as in MPICH */
        *group = MPI_GROUP_NULL;
        return MPI_SUCCESS;
    }
    MPI_Group h = err ? MPI_GROUP_NULL : *group;
    if (!err && (err = vmpi_group_handle_free(group)) != MPI_SUCCESS)
        snprintf(ck.why, sizeof ck.why, "invalid or predefined group handle 0x%x", (unsigned)*group);
    if (!err)
        vmpi_session_forget_group(h); /* its handle may name another group next */
    return err ? FAIL(err, "MPI_Group_free") : MPI_SUCCESS;
}
