/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI groups: an index into the process's table (0 = every process), each a communicator over the members
 * with their world ids.  Transfers keep taking world ids; a group's allocations index ptr_arr by group rank. */
#include <stdlib.h>
#include "armci/armci_impl.h"

enum { TAG_CREATE = 0x41524d }; /* MPI_Comm_create_group's tag on the parent */

int armci_groups_init(vmpi_armci *a)
{
    a->groups = calloc(4, sizeof *a->groups);
    if (a->groups == NULL)
        return MPI_ERR_NO_MEM;
    a->cap_groups = 4;
    a->ngroups = 1;
    a->dflt = 0;
    armci_group *w = &a->groups[0];
    w->used = true;
    w->size = a->nprocs;
    w->rank = a->me;
    return PMPI_Comm_dup(MPI_COMM_WORLD, &w->comm);
}

void armci_groups_free(vmpi_armci *a)
{
    for (int i = 0; i < a->ngroups; i++)
        if (a->groups[i].used) {
            if (a->groups[i].comm != MPI_COMM_NULL)
                PMPI_Comm_free(&a->groups[i].comm);
            free(a->groups[i].abs);
        }
    free(a->groups);
    a->groups = NULL;
    a->ngroups = a->cap_groups = 0;
}

armci_group *armci_group_get(vmpi_armci *a, const char *fn, const ARMCI_Group *g)
{
    if (g == NULL) {
        armci_fail(fn, MPI_ERR_GROUP, "the group pointer is NULL");
        return NULL;
    }
    if (*g < 0 || *g >= a->ngroups || !a->groups[*g].used) {
        armci_fail(fn, MPI_ERR_GROUP, "%d is not an ARMCI group of this process", *g);
        return NULL;
    }
    return &a->groups[*g];
}

armci_group *armci_group_member(vmpi_armci *a, const char *fn, const ARMCI_Group *g)
{
    armci_group *gr = armci_group_get(a, fn, g);
    if (gr && gr->comm == MPI_COMM_NULL) {
        armci_fail(fn, MPI_ERR_GROUP, "this process is not a member of group %d", *g);
        return NULL;
    }
    return gr;
}

static int world_id(const armci_group *g, int r) { return g->abs ? g->abs[r] : r; }

static int slot(vmpi_armci *a)
{
    for (int i = 1; i < a->ngroups; i++)
        if (!a->groups[i].used)
            return i;
    if (a->ngroups == a->cap_groups) {
        armci_group *n = realloc(a->groups, sizeof *n * (size_t)(2 * a->cap_groups));
        if (n == NULL)
            return -1;
        a->groups = n;
        a->cap_groups *= 2;
    }
    return a->ngroups++;
}

/* The members are ranks `ids` of `parent`; only members take part (the others get a group they are not in). */
static void create(const char *fn, int n, const int *ids, ARMCI_Group *out, const ARMCI_Group *parent_h)
{
    ARMCI_CHECK_INIT(a, fn, );
    armci_group *parent = armci_group_member(a, fn, parent_h);
    if (parent == NULL || out == NULL)
        return;
    if (n < 0 || (n > 0 && ids == NULL)) {
        armci_fail(fn, MPI_ERR_ARG, "%d members at %p", n, (const void *)ids);
        return;
    }
    int *abs = malloc(sizeof *abs * (size_t)(n > 0 ? n : 1));
    if (abs == NULL) {
        armci_fail(fn, MPI_ERR_NO_MEM, "no memory for %d members", n);
        return;
    }
    int rank = -1;
    char *seen = calloc((size_t)parent->size, 1);
    if (seen == NULL) {
        free(abs);
        armci_fail(fn, MPI_ERR_NO_MEM, "no memory for %d members", n);
        return;
    }
    for (int i = 0; i < n; i++) {
        bool bad = ids[i] < 0 || ids[i] >= parent->size;
        if (bad || seen[ids[i]]++) { /* checked here: MPI_Group_incl would report it to MPI_COMM_WORLD's handler */
            free(abs);
            free(seen);
            armci_fail(fn, MPI_ERR_RANK, bad ? "member %d is %d, not a rank of the parent group (size %d)"
                                             : "member %d is %d again (parent group of size %d)",
                       i, ids[i], parent->size);
            return;
        }
        abs[i] = world_id(parent, ids[i]);
        if (ids[i] == parent->rank)
            rank = i;
    }
    free(seen);
    int pi = (int)(parent - a->groups), k = slot(a);
    if (k < 0) {
        free(abs);
        armci_fail(fn, MPI_ERR_NO_MEM, "no memory for a group");
        return;
    }
    parent = &a->groups[pi]; /* slot() may have moved the table */
    armci_group *g = &a->groups[k];
    *g = (armci_group){true, MPI_COMM_NULL, n, rank, abs};
    if (rank >= 0) {
        MPI_Group pg, ng;
        PMPI_Comm_group(parent->comm, &pg);
        int err = PMPI_Group_incl(pg, n, ids, &ng);
        if (err == MPI_SUCCESS) {
            err = PMPI_Comm_create_group(parent->comm, ng, TAG_CREATE, &g->comm);
            PMPI_Group_free(&ng);
        }
        PMPI_Group_free(&pg);
        if (err) {
            free(abs);
            g->used = false;
            armci_fail(fn, err, "creating the group's communicator failed (repeated members?)");
            return;
        }
    }
    *out = k;
}

void ARMCI_Group_create(int n, int *pid_list, ARMCI_Group *group_out)
{
    vmpi_rank *rk = vmpi_rank_self();
    ARMCI_Group d = rk && armci_of(rk) ? armci_of(rk)->dflt : 0;
    create("ARMCI_Group_create", n, pid_list, group_out, &d);
}

void ARMCI_Group_create_child(int n, int *pid_list, ARMCI_Group *group_out, ARMCI_Group *group_parent)
{
    create("ARMCI_Group_create_child", n, pid_list, group_out, group_parent);
}

void ARMCI_Group_free(ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_free", );
    armci_group *g = armci_group_get(a, "ARMCI_Group_free", group);
    if (g == NULL)
        return;
    if (g == a->groups) {
        armci_fail("ARMCI_Group_free", MPI_ERR_GROUP, "the world group cannot be freed");
        return;
    }
    if (g->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&g->comm);
    free(g->abs);
    *g = (armci_group){0};
    if (a->dflt == *group)
        a->dflt = 0;
}

int ARMCI_Group_rank(ARMCI_Group *group, int *rank)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_rank", MPI_ERR_OTHER);
    armci_group *g = armci_group_get(a, "ARMCI_Group_rank", group);
    if (g == NULL)
        return MPI_ERR_GROUP;
    *rank = g->rank;
    return g->rank >= 0 ? 0 : MPI_ERR_GROUP; /* not a member */
}

void ARMCI_Group_size(ARMCI_Group *group, int *size)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_size", );
    armci_group *g = armci_group_get(a, "ARMCI_Group_size", group);
    if (g)
        *size = g->size;
}

void ARMCI_Group_set_default(ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_set_default", );
    armci_group *g = armci_group_get(a, "ARMCI_Group_set_default", group);
    if (g)
        a->dflt = (int)(g - a->groups);
}

void ARMCI_Group_get_default(ARMCI_Group *group_out)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_get_default", );
    *group_out = a->dflt;
}

void ARMCI_Group_get_world(ARMCI_Group *group_out)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Group_get_world", );
    *group_out = 0;
}

int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Absolute_id", -1);
    armci_group *g = armci_group_get(a, "ARMCI_Absolute_id", group);
    if (g == NULL)
        return -1;
    if (group_rank < 0 || group_rank >= g->size) {
        armci_fail("ARMCI_Absolute_id", MPI_ERR_RANK, "rank %d is not in group %d (size %d)", group_rank, *group,
                   g->size);
        return -1;
    }
    return world_id(g, group_rank);
}
