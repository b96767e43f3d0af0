/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI_ERROR field of a status is the program's: calls that complete one operation (Recv, Probe,
 * Iprobe, Mprobe, Improbe, Mrecv, Imrecv, Wait, Test, Waitany, Testany, Request_get_status, Sendrecv,
 * Sendrecv_replace), also with MPI_PROC_NULL, leave it as it was, and so do the calls on arrays (Waitall,
 * Testall, Waitsome, Testsome) when they succeed (MPI-3.1 3.2.5, 3.7.5; MPICH's pt2pt/mprobe checks it).
 * An empty status (MPI_REQUEST_NULL, no live request) has MPI_SUCCESS (MPI-3.1 3.7.3; MPICH's
 * pt2pt/rqstatus).  When an array call returns MPI_ERR_IN_STATUS, every status gets its error:
 * MPI_ERR_TRUNCATE for a receive too small, MPI_SUCCESS for the others.  Ranks pair up (0,1), (2,3)...;
 * an odd last rank talks to itself. */
#include "mtest.h"

#define KEEP MPI_ERR_DIMS /* what the program left in MPI_ERROR */

static void fresh(MPI_Status *st, int n)
{
    for (int i = 0; i < n; i++) {
        memset(&st[i], 0xab, sizeof st[i]);
        st[i].MPI_ERROR = KEEP;
    }
}

#define CHECK_KEPT(errs, st, what)                                                                          \
    MT_CHECK(errs, (st).MPI_ERROR == KEEP, "%s: MPI_ERROR changed to %d", what, (st).MPI_ERROR)

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, idx, n, in = -1, out, buf[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = (rank ^ 1) < size ? rank ^ 1 : rank;
    MPI_Status st[3];
    MPI_Request rq[3], sreq;
    MPI_Message msg;

    /* blocking receive and probes */
    out = rank;
    MPI_Isend(&out, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &sreq);
    fresh(st, 1);
    MPI_Probe(peer, 1, MPI_COMM_WORLD, st);
    CHECK_KEPT(errs, st[0], "Probe");
    MT_CHECK_INT(errs, "Probe source", peer, st[0].MPI_SOURCE);
    fresh(st, 1);
    do
        MPI_Iprobe(peer, 1, MPI_COMM_WORLD, &flag, st);
    while (!flag);
    CHECK_KEPT(errs, st[0], "Iprobe");
    fresh(st, 1);
    MPI_Recv(&in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, st);
    CHECK_KEPT(errs, st[0], "Recv");
    MT_CHECK_INT(errs, "Recv data", peer, in);
    MT_CHECK_INT(errs, "Recv tag", 1, st[0].MPI_TAG);
    fresh(st, 1);
    MPI_Wait(&sreq, st);
    CHECK_KEPT(errs, st[0], "Wait(send)");

    /* matched probes and receives */
    MPI_Isend(&out, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &sreq);
    fresh(st, 2);
    MPI_Mprobe(peer, 2, MPI_COMM_WORLD, &msg, &st[0]);
    CHECK_KEPT(errs, st[0], "Mprobe");
    MPI_Mrecv(&in, 1, MPI_INT, &msg, &st[1]);
    CHECK_KEPT(errs, st[1], "Mrecv");
    MT_CHECK_INT(errs, "Mrecv source", peer, st[1].MPI_SOURCE);
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    MPI_Isend(&out, 1, MPI_INT, peer, 3, MPI_COMM_WORLD, &sreq);
    fresh(st, 2);
    do
        MPI_Improbe(peer, 3, MPI_COMM_WORLD, &flag, &msg, &st[0]);
    while (!flag);
    CHECK_KEPT(errs, st[0], "Improbe");
    MPI_Imrecv(&in, 1, MPI_INT, &msg, &rq[0]);
    MPI_Wait(&rq[0], &st[1]);
    CHECK_KEPT(errs, st[1], "Wait(Imrecv)");
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);

    /* MPI_PROC_NULL: MPI_ERROR kept; null requests: empty statuses, MPI_SUCCESS */
    fresh(st, 3);
    MPI_Mprobe(MPI_PROC_NULL, 2, MPI_COMM_WORLD, &msg, &st[0]);
    CHECK_KEPT(errs, st[0], "Mprobe(MPI_PROC_NULL)");
    MT_CHECK_INT(errs, "Mprobe(MPI_PROC_NULL) source", MPI_PROC_NULL, st[0].MPI_SOURCE);
    MPI_Mrecv(&in, 1, MPI_INT, &msg, &st[1]);
    CHECK_KEPT(errs, st[1], "Mrecv(MPI_MESSAGE_NO_PROC)");
    MPI_Recv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st[2]);
    CHECK_KEPT(errs, st[2], "Recv(MPI_PROC_NULL)");
    fresh(st, 3);
    rq[0] = MPI_REQUEST_NULL;
    MPI_Wait(&rq[0], &st[0]);
    MT_CHECK_INT(errs, "Wait(MPI_REQUEST_NULL) MPI_ERROR", MPI_SUCCESS, st[0].MPI_ERROR);
    MT_CHECK_INT(errs, "Wait(MPI_REQUEST_NULL) tag", MPI_ANY_TAG, st[0].MPI_TAG);
    MPI_Test(&rq[0], &flag, &st[1]);
    MT_CHECK_INT(errs, "Test(MPI_REQUEST_NULL) MPI_ERROR", MPI_SUCCESS, st[1].MPI_ERROR);
    MPI_Waitany(1, rq, &idx, &st[2]);
    MT_CHECK_INT(errs, "Waitany(no live request) MPI_ERROR", MPI_SUCCESS, st[2].MPI_ERROR);
    fresh(st, 1);
    MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st[0]);
    MT_CHECK_INT(errs, "Request_get_status(MPI_REQUEST_NULL) MPI_ERROR", MPI_SUCCESS, st[0].MPI_ERROR);
    MT_CHECK_INT(errs, "Request_get_status(MPI_REQUEST_NULL) source", MPI_ANY_SOURCE, st[0].MPI_SOURCE);

    /* Test, Testany, Waitany, Request_get_status */
    MPI_Irecv(&in, 1, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(&out, 1, MPI_INT, peer, 4, MPI_COMM_WORLD);
    fresh(st, 2);
    do
        MPI_Request_get_status(rq[0], &flag, &st[0]);
    while (!flag);
    CHECK_KEPT(errs, st[0], "Request_get_status");
    MPI_Test(&rq[0], &flag, &st[1]);
    MT_CHECK(errs, flag, "Test after Request_get_status: not complete");
    CHECK_KEPT(errs, st[1], "Test");
    MPI_Irecv(&in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(buf, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Send(&out, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
    MPI_Send(&out, 1, MPI_INT, peer, 6, MPI_COMM_WORLD);
    fresh(st, 2);
    MPI_Waitany(2, rq, &idx, &st[0]);
    CHECK_KEPT(errs, st[0], "Waitany");
    do
        MPI_Testany(2, rq, &idx, &flag, &st[1]);
    while (!flag);
    CHECK_KEPT(errs, st[1], "Testany");

    /* Sendrecv, Sendrecv_replace */
    fresh(st, 2);
    MPI_Sendrecv(&out, 1, MPI_INT, peer, 7, &in, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &st[0]);
    CHECK_KEPT(errs, st[0], "Sendrecv");
    buf[0] = rank;
    MPI_Sendrecv_replace(buf, 1, MPI_INT, peer, 8, peer, 8, MPI_COMM_WORLD, &st[1]);
    CHECK_KEPT(errs, st[1], "Sendrecv_replace");
    MT_CHECK_INT(errs, "Sendrecv_replace data", peer, buf[0]);

    /* array calls that succeed: untouched */
    for (int pass = 0; pass < 4; pass++) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(&buf[i % 2], 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD, &rq[i]);
        for (int i = 0; i < 3; i++)
            MPI_Send(&out, 1, MPI_INT, peer, 10 + i, MPI_COMM_WORLD);
        fresh(st, 3);
        int done = 0, ids[3];
        const char *what[] = {"Waitall", "Testall", "Waitsome", "Testsome"};
        if (pass == 0) {
            MT_CHECK_RC(errs, MPI_Waitall(3, rq, st));
        } else if (pass == 1) {
            do
                MT_CHECK_RC(errs, MPI_Testall(3, rq, &flag, st));
            while (!flag);
        } else {
            while (done < 3) {
                if (pass == 2)
                    MT_CHECK_RC(errs, MPI_Waitsome(3, rq, &n, ids, &st[done]));
                else
                    MT_CHECK_RC(errs, MPI_Testsome(3, rq, &n, ids, &st[done]));
                done += n;
            }
        }
        for (int i = 0; i < 3; i++)
            CHECK_KEPT(errs, st[i], what[pass]);
    }

    /* an array call with one truncated receive: MPI_ERR_IN_STATUS, each status its error */
    MPI_Irecv(&buf[0], 1, MPI_INT, peer, 20, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&buf[1], 1, MPI_INT, peer, 21, MPI_COMM_WORLD, &rq[1]); /* gets 2 ints */
    MPI_Irecv(&in, 1, MPI_INT, peer, 22, MPI_COMM_WORLD, &rq[2]);
    int two[2] = {rank, rank};
    MPI_Send(&out, 1, MPI_INT, peer, 20, MPI_COMM_WORLD);
    MPI_Send(two, 2, MPI_INT, peer, 21, MPI_COMM_WORLD);
    MPI_Send(&out, 1, MPI_INT, peer, 22, MPI_COMM_WORLD);
    fresh(st, 3);
    int rc = MPI_Waitall(3, rq, st);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_IN_STATUS);
    MT_CHECK_INT(errs, "Waitall: MPI_ERROR of the first receive", MPI_SUCCESS, st[0].MPI_ERROR);
    MT_CHECK_CLASS(errs, st[1].MPI_ERROR, MPI_ERR_TRUNCATE);
    MT_CHECK_INT(errs, "Waitall: MPI_ERROR of the third receive", MPI_SUCCESS, st[2].MPI_ERROR);
    return mt_finish(errs);
}
