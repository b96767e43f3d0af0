/* SPDX-License-Identifier: BSD-3-Clause */
/* The Sessions model alongside the World model (MPI-4.1 11.3): MPI_Init with a session open, communicators
 * made from groups (MPI_Comm_create_from_group) of the session's mpi://WORLD set: the whole set, the even and the odd
 * ranks at once with different string tags and with one string tag for both (disjoint groups), a
 * subgroup compared with MPI_Comm_split's; an intercommunicator between the evens and the odds
 * (MPI_Intercomm_create_from_groups) used for point-to-point and an intercommunicator allreduce; all across
 * migration points.  Then MPI_Finalize while the session stays open: its communicators still work, and the
 * verdict is given on one of them before MPI_Session_finalize. */
#include "mtest.h"

/* The ranks of `g` with parity `odd`, in order. */
static MPI_Group parity(MPI_Group g, int size, int odd)
{
    int n = 0, *r = mt_malloc(sizeof(int) * (size_t)size);
    MPI_Group out;
    for (int i = odd; i < size; i += 2)
        r[n++] = i;
    MT_CALL(MPI_Group_incl(g, n, r, &out));
    free(r);
    return out;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, res = -1;
    MPI_Session s;
    MPI_Group wg, half, other;
    MPI_Comm all, mine, same, split;

    /* the session first: MPI_Init with a session open */
    MT_CALL(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
    MT_CALL(MPI_Init(&argc, &argv));
    MT_CALL(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MT_CALL(MPI_Comm_size(MPI_COMM_WORLD, &size));
    MT_CALL(MPI_Group_from_session_pset(s, "mpi://WORLD", &wg));
    MT_CALL(MPI_Comm_create_from_group(wg, "org.vmpi.test.all", MPI_INFO_NULL, MPI_ERRORS_RETURN, &all));
    MT_CHECK_RC(errs, MPI_Comm_compare(all, MPI_COMM_WORLD, &res));
    MT_CHECK_INT(errs, "the communicator of mpi://WORLD vs MPI_COMM_WORLD (MPI_CONGRUENT)", MPI_CONGRUENT, res);

    /* a context of its own: messages of one tag on it and on MPI_COMM_WORLD, received in the other order */
    {
        int to = (rank + 1) % size, from = (rank + size - 1) % size, a = 1000 + rank, b = 2000 + rank, ra = -1, rb = -1;
        MPI_Request rq[2];
        MT_CHECK_RC(errs, MPI_Isend(&a, 1, MPI_INT, to, 1, all, &rq[0]));
        MT_CHECK_RC(errs, MPI_Isend(&b, 1, MPI_INT, to, 1, MPI_COMM_WORLD, &rq[1]));
        MT_CHECK_RC(errs, MPI_Recv(&rb, 1, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_Recv(&ra, 1, MPI_INT, from, 1, all, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        MT_CHECK_INT(errs, "message on the session's communicator", 1000 + from, ra);
        MT_CHECK_INT(errs, "message on MPI_COMM_WORLD", 2000 + from, rb);
    }

    /* evens and odds at once, each with its own string tag, then both with one */
    half = parity(wg, size, rank % 2);
    other = parity(wg, size, 1 - rank % 2);
    MT_CALL(MPI_Comm_create_from_group(half, rank % 2 ? "org.vmpi.test.odd" : "org.vmpi.test.even", MPI_INFO_NULL,
                                       MPI_ERRORS_RETURN, &mine));
    MT_CALL(MPI_Comm_create_from_group(half, "org.vmpi.test.half", MPI_INFO_NULL, MPI_ERRORS_RETURN, &same));
    MT_CALL(MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split));
    MT_CHECK_RC(errs, MPI_Comm_compare(mine, split, &res));
    MT_CHECK_INT(errs, "a parity's communicator vs MPI_Comm_split's (MPI_CONGRUENT)", MPI_CONGRUENT, res);
    MT_CHECK_RC(errs, MPI_Comm_compare(same, split, &res));
    MT_CHECK_INT(errs, "the same with one string tag for both", MPI_CONGRUENT, res);

    MPI_Comm inter = MPI_COMM_NULL;
    int nother = 0;
    MT_CHECK_RC(errs, MPI_Group_size(other, &nother));
    if (nother > 0) /* with one rank there are no odds */
        MT_CALL(MPI_Intercomm_create_from_groups(half, 0, other, 0, "org.vmpi.test.inter", MPI_INFO_NULL,
                                                 MPI_ERRORS_RETURN, &inter));
    for (int round = 0; round < 3; round++) {
        int hr, hs, sum = -1, v = rank + round;
        MT_CHECK_RC(errs, MPI_Comm_rank(mine, &hr));
        MT_CHECK_RC(errs, MPI_Comm_size(mine, &hs));
        MT_CHECK_INT(errs, "rank among my parity", rank / 2, hr);
        MT_CHECK_RC(errs, MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, mine));
        int expect = 0;
        for (int r = rank % 2; r < size; r += 2)
            expect += r + round;
        MT_CHECK_INT(errs, "allreduce over my parity", expect, sum);
        MT_CHECK_RC(errs, MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, same));
        MT_CHECK_INT(errs, "allreduce over my parity (shared string tag)", expect, sum);
        if (inter != MPI_COMM_NULL) {
            int test = -1, rs = -1, peer = -1;
            MT_CHECK_RC(errs, MPI_Comm_test_inter(inter, &test));
            MT_CHECK_INT(errs, "MPI_Comm_test_inter", 1, test);
            MT_CHECK_RC(errs, MPI_Comm_remote_size(inter, &rs));
            MT_CHECK_INT(errs, "remote size", nother, rs);
            /* rank i of each side pairs with rank i of the other where it has one */
            if (hr < rs) {
                MT_CHECK_RC(errs, MPI_Sendrecv(&rank, 1, MPI_INT, hr, round, &peer, 1, MPI_INT, hr, round, inter,
                                               MPI_STATUS_IGNORE));
                MT_CHECK_INT(errs, "the partner's world rank", 2 * hr + 1 - rank % 2, peer);
            }
            /* an intercommunicator allreduce: the sum of the other side's values */
            int osum = 0;
            for (int r = 1 - rank % 2; r < size; r += 2)
                osum += r + round;
            MT_CHECK_RC(errs, MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, inter));
            MT_CHECK_INT(errs, "intercommunicator allreduce", osum, sum);
        }
        mt_migrate();
    }
    if (inter != MPI_COMM_NULL)
        MT_CHECK_RC(errs, MPI_Comm_free(&inter));
    MT_CHECK_RC(errs, MPI_Comm_free(&split));
    MT_CHECK_RC(errs, MPI_Comm_free(&same));
    MT_CHECK_RC(errs, MPI_Comm_free(&mine));
    MT_CHECK_RC(errs, MPI_Group_free(&half));
    MT_CHECK_RC(errs, MPI_Group_free(&other));
    MT_CHECK_RC(errs, MPI_Group_free(&wg));

    /* the World model ends; the session goes on */
    MT_CHECK_RC(errs, MPI_Finalize());
    int flag = -1, sum = -1;
    MT_CHECK_RC(errs, MPI_Finalized(&flag));
    MT_CHECK_INT(errs, "MPI_Finalized", 1, flag);
    MT_CHECK_RC(errs, MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, all));
    MT_CHECK_INT(errs, "allreduce after MPI_Finalize", size * (size - 1) / 2, sum);
    int status = mt_verdict(errs, all);
    MT_CHECK_RC(errs, MPI_Comm_free(&all));
    MT_CHECK_RC(errs, MPI_Session_finalize(&s));
    return status;
}
