/* SPDX-License-Identifier: BSD-3-Clause */
/* Comm_dup, Comm_split, Comm_split_type, Comm_create, Comm_create_group, Comm_compare, names and Comm_free:
 *   - a duplicate is congruent and isolates traffic: a message sent on the duplicate is not received on the
 *     original even with MPI_ANY_SOURCE/MPI_ANY_TAG posted first;
 *   - split by rank % 3 with keys that reverse the order; MPI_UNDEFINED gives MPI_COMM_NULL; point-to-point
 *     around a ring and Bcast/Allreduce inside each part give the expected values;
 *   - nested splits down to single ranks; split_type SHARED keeps the ranks of the caller's process;
 *   - create from the even ranks' group (odd ranks get MPI_COMM_NULL) and create_group by the odd ranks
 *     only, twice with different tags;
 *   - names: default empty for user communicators, set/get round trip, predefined names;
 *   - errors: freeing MPI_COMM_WORLD, a negative color, MPI_COMM_NULL. */
#include "mtest.h"

static int ring_and_sum(MPI_Comm c, int expect_size, const char *what)
{
    int errs = 0, r, n, tok = -1, sum = 0, one = 1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    if (n != expect_size)
        MT_ERR(errs, "%s: size %d, expected %d", what, n, expect_size);
    MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 5, &tok, 1, MPI_INT, (r + n - 1) % n, 5, c, MPI_STATUS_IGNORE);
    if (tok != (r + n - 1) % n)
        MT_ERR(errs, "%s: ring token %d, expected %d", what, tok, (r + n - 1) % n);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    if (sum != n)
        MT_ERR(errs, "%s: allreduce %d, expected %d", what, sum, n);
    int b = r == 0 ? 4242 : 0;
    MPI_Bcast(&b, 1, MPI_INT, 0, c);
    if (b != 4242)
        MT_ERR(errs, "%s: bcast %d", what, b);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, res, len;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* dup: congruent, isolated */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    if (res != MPI_CONGRUENT)
        MT_ERR(errs, "compare(world, dup) = %d", res);
    MPI_Comm_compare(dup, dup, &res);
    if (res != MPI_IDENT)
        MT_ERR(errs, "compare(dup, dup) = %d", res);
    MPI_Comm_get_name(dup, name, &len);
    if (len != 0)
        MT_ERR(errs, "a new communicator is named '%s'", name);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    if (strcmp(name, "MPI_COMM_WORLD") != 0)
        MT_ERR(errs, "MPI_COMM_WORLD is named '%s'", name);
    MPI_Comm_set_name(dup, "my dup");
    MPI_Comm_get_name(dup, name, &len);
    if (strcmp(name, "my dup") != 0 || len != 6)
        MT_ERR(errs, "name round trip gave '%s' (%d)", name, len);
    {
        int right = (rank + 1) % size, left = (rank + size - 1) % size, a = -1, b = -1, flag = 0;
        MPI_Request rq;
        MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &rq);
        MPI_Send(&rank, 1, MPI_INT, right, 7, dup);
        MPI_Recv(&b, 1, MPI_INT, left, 7, dup, MPI_STATUS_IGNORE);
        if (b != left)
            MT_ERR(errs, "dup: got %d from the left, expected %d", b, left);
        MPI_Barrier(dup);
        MPI_Test(&rq, &flag, MPI_STATUS_IGNORE);
        if (flag)
            MT_ERR(errs, "a message sent on the duplicate matched a receive on MPI_COMM_WORLD");
        MPI_Barrier(dup); /* everyone has tested before anything is sent on MPI_COMM_WORLD */
        MPI_Send(&rank, 1, MPI_INT, right, 8, MPI_COMM_WORLD);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        if (a != left)
            MT_ERR(errs, "world receive got %d, expected %d", a, left);
    }
    errs += ring_and_sum(dup, size, "dup");

    /* split by rank % 3, reversed by key */
    MPI_Comm part;
    int color = rank % 3, expect = 0;
    for (int i = 0; i < size; i++)
        expect += i % 3 == color;
    MPI_Comm_split(dup, color, size - rank, &part);
    int prank;
    MPI_Comm_rank(part, &prank);
    int before = 0; /* members with my color and a larger world rank come first */
    for (int i = rank + 1; i < size; i++)
        before += i % 3 == color;
    if (prank != before)
        MT_ERR(errs, "split: rank %d in my part, expected %d", prank, before);
    errs += ring_and_sum(part, expect, "split");
    MPI_Comm_compare(part, dup, &res);
    if (res != (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL))
        MT_ERR(errs, "compare(part, dup) = %d", res);

    /* MPI_UNDEFINED for odd ranks */
    MPI_Comm evens;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 1, rank, &evens);
    if ((rank % 2) != (evens == MPI_COMM_NULL))
        MT_ERR(errs, "split with MPI_UNDEFINED gave the wrong communicator");
    if (evens != MPI_COMM_NULL) {
        errs += ring_and_sum(evens, (size + 1) / 2, "evens");
        MPI_Comm_free(&evens);
    }

    /* nested halving down to one rank each */
    MPI_Comm cur;
    MPI_Comm_dup(MPI_COMM_WORLD, &cur);
    for (int level = 0;; level++) {
        int cr, cn;
        MPI_Comm_rank(cur, &cr);
        MPI_Comm_size(cur, &cn);
        if (cn == 1)
            break;
        MPI_Comm next;
        MPI_Comm_split(cur, cr < cn / 2, cr, &next);
        errs += ring_and_sum(next, cr < cn / 2 ? cn / 2 : cn - cn / 2, "nested");
        MPI_Comm_free(&cur);
        cur = next;
    }
    MPI_Comm_free(&cur);

    /* split_type: the ranks of this process share its memory (every rank in a one-process job) */
    MPI_Comm shm;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
    errs += ring_and_sum(shm, mt_proc_ranks(rank, size, NULL), "split_type shared");
    MPI_Comm_free(&shm);

    /* create from the evens' group; create_group by the odds only, with two tags */
    MPI_Group wg, eg, og;
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int r3[1][3] = {{0, size - 1, 2}};
    MPI_Group_range_incl(wg, 1, r3, &eg);
    MPI_Group_difference(wg, eg, &og);
    MPI_Comm ce;
    MPI_Comm_create(MPI_COMM_WORLD, eg, &ce);
    if ((rank % 2 == 0) != (ce != MPI_COMM_NULL))
        MT_ERR(errs, "Comm_create: wrong membership");
    if (ce != MPI_COMM_NULL) {
        errs += ring_and_sum(ce, (size + 1) / 2, "create");
        MPI_Comm_free(&ce);
    }
    if (rank % 2) {
        MPI_Comm c1, c2;
        MPI_Comm_create_group(MPI_COMM_WORLD, og, 11, &c1);
        MPI_Comm_create_group(MPI_COMM_WORLD, og, 12, &c2);
        errs += ring_and_sum(c1, size / 2, "create_group 11");
        errs += ring_and_sum(c2, size / 2, "create_group 12");
        MPI_Comm_free(&c1);
        MPI_Comm_free(&c2);
    }
    MPI_Group_free(&wg);
    MPI_Group_free(&eg);
    MPI_Group_free(&og);

    /* errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD, x;
    if (MPI_Comm_free(&w) != MPI_ERR_COMM)
        MT_ERR(errs, "freeing MPI_COMM_WORLD did not give MPI_ERR_COMM");
    if (MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &x) != MPI_ERR_ARG)
        MT_ERR(errs, "a negative color did not give MPI_ERR_ARG");
    if (MPI_Comm_dup(MPI_COMM_NULL, &x) != MPI_ERR_COMM)
        MT_ERR(errs, "dup of MPI_COMM_NULL did not give MPI_ERR_COMM");

    MPI_Comm_free(&part);
    MPI_Comm_free(&dup);
    if (dup != MPI_COMM_NULL)
        MT_ERR(errs, "Comm_free did not set MPI_COMM_NULL");
    return mt_finish(errs);
}
