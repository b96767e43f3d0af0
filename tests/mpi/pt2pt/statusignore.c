/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE accepted by every call that returns a status (an implementation
 * that writes through them crashes); the data still arrives.  Messages go to the right neighbour. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, idx, outc, indices[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int s[4], r[4];
    MPI_Request rq[4];
    MPI_Message m;

#define RESET()                                                                                               \
    do {                                                                                                      \
        for (int i_ = 0; i_ < 4; i_++) {                                                                      \
            s[i_] = rank * 10 + i_;                                                                           \
            r[i_] = -1;                                                                                       \
        }                                                                                                     \
    } while (0)
#define CHECKR(what, n)                                                                                       \
    do {                                                                                                      \
        for (int i_ = 0; i_ < (n); i_++)                                                                      \
            MT_CHECK(errs, r[i_] == left * 10 + i_, "%s: element %d: expected %d got %d", what, i_,           \
                     left * 10 + i_, r[i_]);                                                                  \
    } while (0)

    RESET();
    MPI_Sendrecv(s, 4, MPI_INT, right, 1, r, 4, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECKR("Sendrecv", 4);

    RESET();
    memcpy(r, s, sizeof s);
    MPI_Sendrecv_replace(r, 4, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECKR("Sendrecv_replace", 4);

    RESET();
    MPI_Isend(s, 4, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Probe(left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    do
        MPI_Iprobe(left, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    while (!flag);
    MPI_Recv(r, 4, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    CHECKR("Probe/Iprobe/Recv/Wait", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 4, MPI_COMM_WORLD, &rq[1]);
    do
        MPI_Request_get_status(rq[0], &flag, MPI_STATUS_IGNORE);
    while (!flag);
    do
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    while (!flag);
    MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "Waitany index", 1, idx);
    CHECKR("Request_get_status/Test/Waitany", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 5, MPI_COMM_WORLD, &rq[1]);
    int done = 0;
    while (done < 2) {
        MPI_Testany(2, rq, &idx, &flag, MPI_STATUS_IGNORE);
        if (flag)
            done++;
    }
    CHECKR("Testany", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 6, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECKR("Waitall", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 7, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 7, MPI_COMM_WORLD, &rq[1]);
    do
        MPI_Testall(2, rq, &flag, MPI_STATUSES_IGNORE);
    while (!flag);
    CHECKR("Testall", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 8, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 8, MPI_COMM_WORLD, &rq[1]);
    done = 0;
    while (done < 2) {
        MPI_Waitsome(2, rq, &outc, indices, MPI_STATUSES_IGNORE);
        done += outc;
    }
    CHECKR("Waitsome", 4);

    RESET();
    MPI_Irecv(r, 4, MPI_INT, left, 9, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(s, 4, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[1]);
    done = 0;
    while (done < 2) {
        MPI_Testsome(2, rq, &outc, indices, MPI_STATUSES_IGNORE);
        done += outc;
    }
    CHECKR("Testsome", 4);

    RESET();
    MPI_Isend(s, 4, MPI_INT, right, 10, MPI_COMM_WORLD, &rq[0]);
    MPI_Mprobe(left, 10, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
    MPI_Mrecv(r, 4, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    CHECKR("Mprobe/Mrecv", 4);

    RESET();
    MPI_Isend(s, 4, MPI_INT, right, 11, MPI_COMM_WORLD, &rq[0]);
    do
        MPI_Improbe(left, 11, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
    while (!flag);
    MPI_Imrecv(r, 4, MPI_INT, &m, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    CHECKR("Improbe/Imrecv", 4);

    return mt_finish(errs);
}
