/* SPDX-License-Identifier: BSD-3-Clause */
/* Every Group function against hand-computed answers: size/rank, incl/excl (order kept, as given),
 * range_incl/range_excl with negative strides, union/intersection/difference order, translate_ranks
 * (MPI_UNDEFINED, MPI_PROC_NULL), compare (IDENT/SIMILAR/UNEQUAL), MPI_GROUP_EMPTY, free; and the error
 * classes for bad ranks, repeated ranks, a zero stride and freeing a predefined group. */
#include "mtest.h"

static int check_members(MPI_Group g, int n, const int *world_expected, const char *what)
{
    int errs = 0, size = -1;
    MPI_Group wg;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(g, &size);
    if (size != n) {
        MT_ERR(errs, "%s: size %d, expected %d", what, size, n);
    } else if (n > 0) {
        int *r = malloc(sizeof(int) * (size_t)n), *w = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            r[i] = i;
        MPI_Group_translate_ranks(g, n, r, wg, w);
        for (int i = 0; i < n; i++)
            if (w[i] != world_expected[i])
                MT_ERR(errs, "%s: member %d is world rank %d, expected %d", what, i, w[i], world_expected[i]);
        free(r);
        free(w);
    }
    MPI_Group_free(&wg);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, res;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group world, g1, g2, g3;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int gs, gr;
    MPI_Group_size(world, &gs);
    MPI_Group_rank(world, &gr);
    if (gs != size || gr != rank)
        MT_ERR(errs, "world group size/rank %d/%d, expected %d/%d", gs, gr, size, rank);

    /* incl in reverse order, then excl of the even ranks */
    int *rev = malloc(sizeof(int) * (size_t)size), *exp = malloc(sizeof(int) * (size_t)size), n = 0;
    for (int i = 0; i < size; i++)
        rev[i] = size - 1 - i;
    MPI_Group_incl(world, size, rev, &g1);
    errs += check_members(g1, size, rev, "incl reversed");
    MPI_Group_rank(g1, &gr);
    if (gr != size - 1 - rank)
        MT_ERR(errs, "rank in reversed group %d, expected %d", gr, size - 1 - rank);
    MPI_Group_compare(world, g1, &res);
    if (res != (size == 1 ? MPI_IDENT : MPI_SIMILAR))
        MT_ERR(errs, "compare(world, reversed) = %d", res);
    int nev = 0;
    for (int i = 0; i < size; i += 2)
        rev[nev++] = i;
    MPI_Group_excl(world, nev, rev, &g2);
    for (int i = 1; i < size; i += 2)
        exp[n++] = i;
    errs += check_members(g2, n, exp, "excl evens");
    MPI_Group_rank(g2, &gr);
    if (gr != (rank % 2 ? rank / 2 : MPI_UNDEFINED))
        MT_ERR(errs, "rank in odd group %d", gr);

    /* range_incl: (size-1 down to 0 step -3) then (1, 1, 1) when not already in */
    int ranges[2][3] = {{size - 1, 0, -3}, {0, 0, 1}};
    n = 0;
    for (int i = size - 1; i >= 0; i -= 3)
        exp[n++] = i;
    int nr = (size - 1) % 3 == 0 ? 1 : 2; /* 0 is already in when (size-1) is a multiple of 3 */
    if (nr == 2)
        exp[n++] = 0;
    MPI_Group_range_incl(world, nr, ranges, &g3);
    errs += check_members(g3, n, exp, "range_incl");
    MPI_Group_free(&g3);
    MPI_Group_range_excl(world, 1, ranges, &g3);
    n = 0;
    for (int i = 0; i < size; i++)
        if ((size - 1 - i) % 3 != 0)
            exp[n++] = i;
    errs += check_members(g3, n, exp, "range_excl");
    MPI_Group_free(&g3);

    /* set operations: union keeps the first group's order, then the second's new members */
    MPI_Group_union(g2, world, &g3);
    n = 0;
    for (int i = 1; i < size; i += 2)
        exp[n++] = i;
    for (int i = 0; i < size; i += 2)
        exp[n++] = i;
    errs += check_members(g3, n, exp, "union(odds, world)");
    MPI_Group_free(&g3);
    MPI_Group_intersection(g1, g2, &g3); /* reversed order filtered to odds */
    n = 0;
    for (int i = size - 1; i >= 0; i--)
        if (i % 2)
            exp[n++] = i;
    errs += check_members(g3, n, exp, "intersection(reversed, odds)");
    MPI_Group_free(&g3);
    MPI_Group_difference(world, g2, &g3);
    n = 0;
    for (int i = 0; i < size; i += 2)
        exp[n++] = i;
    errs += check_members(g3, n, exp, "difference(world, odds)");
    MPI_Group_compare(g3, g2, &res);
    if (res != MPI_UNEQUAL)
        MT_ERR(errs, "compare(evens, odds) = %d", res);
    MPI_Group_free(&g3);
    MPI_Group_difference(g2, g2, &g3);
    MPI_Group_compare(g3, MPI_GROUP_EMPTY, &res);
    if (res != MPI_IDENT)
        MT_ERR(errs, "difference of a group with itself is not MPI_GROUP_EMPTY-like (%d)", res);
    MPI_Group_free(&g3);

    /* translate: MPI_PROC_NULL stays, absent ranks are MPI_UNDEFINED */
    int in[2] = {MPI_PROC_NULL, 0}, out[2];
    MPI_Group_translate_ranks(world, 2, in, g2, out);
    if (out[0] != MPI_PROC_NULL || out[1] != MPI_UNDEFINED)
        MT_ERR(errs, "translate gave %d %d", out[0], out[1]);

    /* errors */
    int bad[2] = {0, 0};
    if (MPI_Group_incl(world, 2, bad, &g3) != MPI_ERR_RANK && size >= 1)
        MT_ERR(errs, "incl with a repeated rank did not give MPI_ERR_RANK");
    bad[0] = size;
    if (MPI_Group_incl(world, 1, bad, &g3) != MPI_ERR_RANK)
        MT_ERR(errs, "incl of rank %d did not give MPI_ERR_RANK", size);
    int zr[1][3] = {{0, 0, 0}};
    if (MPI_Group_range_incl(world, 1, zr, &g3) != MPI_ERR_ARG)
        MT_ERR(errs, "a zero stride did not give MPI_ERR_ARG");
    MPI_Group e = MPI_GROUP_EMPTY; /* constructors return it: freeing it is allowed (as in MPICH) */
    if (MPI_Group_free(&e) != MPI_SUCCESS || e != MPI_GROUP_NULL)
        MT_ERR(errs, "freeing MPI_GROUP_EMPTY did not succeed with MPI_GROUP_NULL");
    MPI_Group w2;
    MPI_Comm_group(MPI_COMM_WORLD, &w2);
    if (MPI_Group_free(&w2) != MPI_SUCCESS)
        MT_ERR(errs, "freeing a group did not succeed");
    if (MPI_Group_free(&w2) != MPI_ERR_GROUP)
        MT_ERR(errs, "freeing MPI_GROUP_NULL did not give MPI_ERR_GROUP");
    if (MPI_Group_size(MPI_GROUP_NULL, &gs) != MPI_ERR_GROUP)
        MT_ERR(errs, "MPI_GROUP_NULL did not give MPI_ERR_GROUP");

    MPI_Group_free(&g1);
    MPI_Group_free(&g2);
    MPI_Group_free(&world);
    if (world != MPI_GROUP_NULL)
        MT_ERR(errs, "Group_free did not set MPI_GROUP_NULL");
    free(rev);
    free(exp);
    return mt_finish(errs);
}
