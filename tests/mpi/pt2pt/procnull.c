/* SPDX-License-Identifier: BSD-3-Clause */
/* Communication with MPI_PROC_NULL completes at once: receives return source MPI_PROC_NULL, tag MPI_ANY_TAG,
 * count 0 and leave the buffer alone; every send mode, nonblocking, persistent, probe and sendrecv form. */
#include "mtest.h"

#define CHECK_NULL_STATUS(errs, st, what)                                                                     \
    do {                                                                                                      \
        int c_ = -1;                                                                                          \
        MPI_Get_count(&(st), MPI_INT, &c_);                                                                   \
        MT_CHECK(errs, (st).MPI_SOURCE == MPI_PROC_NULL && (st).MPI_TAG == MPI_ANY_TAG && c_ == 0,            \
                 "%s: status source %d tag %d count %d, expected %d %d 0", what, (st).MPI_SOURCE, (st).MPI_TAG, \
                 c_, MPI_PROC_NULL, MPI_ANY_TAG);                                                             \
    } while (0)

int main(int argc, char **argv)
{
    int errs = 0, flag;
    MPI_Init(&argc, &argv);
    int buf[4] = {7, 7, 7, 7}, sbuf[4] = {1, 2, 3, 4};
    MPI_Status st;
    MPI_Request r, rs[4];

    MT_CHECK_RC(errs, MPI_Send(sbuf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Ssend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Rsend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Bsend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD));

    MT_CHECK_RC(errs, MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st));
    CHECK_NULL_STATUS(errs, st, "Recv");
    MT_CHECK_RC(errs, MPI_Recv(buf, 4, MPI_INT, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
    CHECK_NULL_STATUS(errs, st, "Recv ANY_TAG");

    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &r);
    flag = 0;
    MPI_Test(&r, &flag, &st);
    MT_CHECK_INT(errs, "Test of Irecv(PROC_NULL): flag on first call", 1, flag);
    if (!MT_MPICH_BUGS) /* MPICH 4.0 gives source 0 tag 0 here: pmodels/mpich#6805 */
        CHECK_NULL_STATUS(errs, st, "Irecv/Test");
    MT_CHECK(errs, r == MPI_REQUEST_NULL, "Test did not free the request");

    MPI_Isend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rs[0]);
    MPI_Issend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rs[1]);
    MPI_Irsend(sbuf, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rs[2]);
    MPI_Irecv(buf, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &rs[3]);
    MPI_Status sts[4];
    flag = 0;
    MPI_Testall(4, rs, &flag, sts);
    MT_CHECK_INT(errs, "Testall of PROC_NULL requests: flag on first call", 1, flag);
    if (!MT_MPICH_BUGS) /* pmodels/mpich#6805 */
        CHECK_NULL_STATUS(errs, sts[3], "Irecv/Testall");

    MPI_Iprobe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    MT_CHECK_INT(errs, "Iprobe(PROC_NULL): flag", 1, flag);
    CHECK_NULL_STATUS(errs, st, "Iprobe");
    MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    CHECK_NULL_STATUS(errs, st, "Probe");

    MPI_Sendrecv(sbuf, 4, MPI_INT, MPI_PROC_NULL, 3, buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
    CHECK_NULL_STATUS(errs, st, "Sendrecv");
    MPI_Sendrecv_replace(buf, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &st);
    CHECK_NULL_STATUS(errs, st, "Sendrecv_replace");

    MPI_Send_init(sbuf, 4, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &rs[0]);
    MPI_Recv_init(buf, 4, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &rs[1]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, rs);
        MPI_Waitall(2, rs, sts);
        if (!MT_MPICH_BUGS) /* MPICH 4.0 returns an empty status (source MPI_ANY_SOURCE) here */
            CHECK_NULL_STATUS(errs, sts[1], "persistent Recv_init");
    }
    MPI_Request_free(&rs[0]);
    MPI_Request_free(&rs[1]);

    for (int i = 0; i < 4; i++)
        MT_CHECK_INT(errs, "receive buffer after PROC_NULL receives", 7, buf[i]);
    return mt_finish(errs);
}
