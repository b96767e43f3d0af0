/* SPDX-License-Identifier: BSD-3-Clause */
/* Every group constructor whose result has no members returns MPI_GROUP_EMPTY itself (as MPICH and Open
 * MPI do, and MPICH's group/grouptest expects): Group_excl of every rank, Group_incl of none,
 * Group_range_excl of every rank (forward and backward strides), Group_range_incl of no range, the
 * difference of a group with itself, the intersection of disjoint groups, the union of two empty groups.
 * Each result may be freed (MPI_GROUP_NULL after) and used as an empty group; a non-empty result is not
 * MPI_GROUP_EMPTY. */
#include "mtest.h"

static int check_empty(MPI_Group *g, const char *what)
{
    int errs = 0, size = -1, res = -1;
    if (*g != MPI_GROUP_EMPTY)
        MT_ERR(errs, "%s: handle 0x%x is not MPI_GROUP_EMPTY", what, (unsigned)*g);
    MPI_Group_size(*g, &size);
    MT_CHECK_INT(errs, what, 0, size);
    MPI_Group_compare(*g, MPI_GROUP_EMPTY, &res);
    MT_CHECK_INT(errs, what, MPI_IDENT, res);
    if (MPI_Group_free(g) != MPI_SUCCESS || *g != MPI_GROUP_NULL)
        MT_ERR(errs, "%s: freeing the result failed or left 0x%x", what, (unsigned)*g);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Group world, g, evens, odds;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *all = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++)
        all[i] = size - 1 - i;
    MT_CHECK_RC(errs, MPI_Group_excl(world, size, all, &g));
    errs += check_empty(&g, "excl of every rank");
    MT_CHECK_RC(errs, MPI_Group_incl(world, 0, all, &g));
    errs += check_empty(&g, "incl of no rank");
    int fwd[1][3] = {{0, size - 1, 1}}, bwd[1][3] = {{size - 1, 0, -1}};
    MT_CHECK_RC(errs, MPI_Group_range_excl(world, 1, fwd, &g));
    errs += check_empty(&g, "range_excl 0..size-1");
    MT_CHECK_RC(errs, MPI_Group_range_excl(world, 1, bwd, &g));
    errs += check_empty(&g, "range_excl size-1..0");
    MT_CHECK_RC(errs, MPI_Group_range_incl(world, 0, fwd, &g));
    errs += check_empty(&g, "range_incl of no range");
    MT_CHECK_RC(errs, MPI_Group_difference(world, world, &g));
    errs += check_empty(&g, "difference(world, world)");
    MT_CHECK_RC(errs, MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &g));
    errs += check_empty(&g, "union(empty, empty)");
    MT_CHECK_RC(errs, MPI_Group_intersection(world, MPI_GROUP_EMPTY, &g));
    errs += check_empty(&g, "intersection(world, empty)");

    int ev[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(world, 1, ev, &evens);
    MPI_Group_difference(world, evens, &odds);
    MT_CHECK_RC(errs, MPI_Group_intersection(evens, odds, &g));
    errs += check_empty(&g, "intersection(evens, odds)");
    if (size == 1)
        errs += check_empty(&odds, "difference(world, evens) of one rank");
    else if (odds == MPI_GROUP_EMPTY)
        MT_ERR(errs, "difference(world, evens) of %d ranks is MPI_GROUP_EMPTY", size);
    else
        MPI_Group_free(&odds);
    /* a non-empty result is a group of its own */
    MT_CHECK_RC(errs, MPI_Group_excl(world, size - 1, all, &g));
    if (g == MPI_GROUP_EMPTY || g == MPI_GROUP_NULL)
        MT_ERR(errs, "excl of all but one rank gave 0x%x", (unsigned)g);
    int gs = -1;
    MPI_Group_size(g, &gs);
    MT_CHECK_INT(errs, "excl of all but one rank: size", 1, gs);
    MPI_Group_free(&g);
    /* MPI_GROUP_EMPTY as an argument to Comm_create: MPI_COMM_NULL everywhere */
    MPI_Comm c = MPI_COMM_WORLD;
    MT_CHECK_RC(errs, MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c));
    if (c != MPI_COMM_NULL)
        MT_ERR(errs, "Comm_create(MPI_GROUP_EMPTY) did not give MPI_COMM_NULL");
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    free(all);
    return mt_finish(errs);
}
