/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Cancel of sends.  MPI-3.1 3.8.4: once a send is marked for cancellation, MPI_Wait on it returns
 * whatever its receiver does, either cancelled or completed; a cancelled message is never received.  vmpi
 * takes back a rendezvous send (above the eager limit, or synchronous) that no receive has matched: it must
 * then be cancelled, while the receiver waits elsewhere.  A send a posted receive has matched completes
 * normally with its data; a cancelled persistent send can be started again; an eager send may be cancelled or
 * not, and is received when it is not.  Last, a send cancelled after a migration point (the testlist's Rotate
 * runs move every rank there, its pending message with its receiver).
 * Pairs (0,1), (2,3)...: the even rank sends, the odd one receives; a rank without a partner sends to itself.
 * MPICH 4.0.2 and Open MPI 4.1 never return from the Wait on a cancelled unmatched rendezvous send: built
 * against them, the test leaves those cases out. */
#include "mtest.h"

#define UNMATCHED_CANCEL (!MT_MPICH_BUGS && !MT_OMPI_BUGS)

#define BIG (64 * 1024) /* ints: far above the eager limit */

enum { T_BIG = 10, T_SYNC, T_PERS, T_MATCHED, T_EAGER, T_DONE, T_GO, T_MIG };

static int cancelled(const MPI_Status *st)
{
    int f = -1;
    MPI_Test_cancelled(st, &f);
    return f;
}

/* The receiver's view after the sender's T_DONE: no message with tag t may be there. */
static void check_gone(int *errs, int src, int t)
{
    int flag = -1;
    MPI_Iprobe(src, t, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MT_CHECK(*errs, flag == 0, "a cancelled send with tag %d arrived", t);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1, alone = partner >= size;
    if (alone)
        partner = rank;
    int sender = alone || rank % 2 == 0, receiver = alone || rank % 2 == 1;
    int *big = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++)
        big[i] = rank * 7 + i;
    MPI_Request r, rr;
    MPI_Status st;
    int flag, small = 42, x = -1;

    if (sender && UNMATCHED_CANCEL) {
        /* an unmatched rendezvous send, a synchronous one and a persistent one: cancelled */
        MPI_Isend(big, BIG, MPI_INT, partner, T_BIG, MPI_COMM_WORLD, &r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of an unmatched rendezvous send", 1, cancelled(&st));
        MPI_Issend(&small, 1, MPI_INT, partner, T_SYNC, MPI_COMM_WORLD, &r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of an unmatched synchronous send", 1, cancelled(&st));
        MPI_Send_init(big, BIG, MPI_INT, partner, T_PERS, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of an unmatched persistent send", 1, cancelled(&st));
    }
    if (sender) {
        if (!UNMATCHED_CANCEL)
            MPI_Send_init(big, BIG, MPI_INT, partner, T_PERS, MPI_COMM_WORLD, &r);
        MPI_Start(&r); /* again, and received this time (below; waited for after that, for a rank alone) */
        MPI_Send(&small, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD);
    }
    if (receiver) {
        MPI_Recv(&x, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (UNMATCHED_CANCEL) {
            check_gone(&errs, partner, T_BIG);
            check_gone(&errs, partner, T_SYNC);
        }
        for (int i = 0; i < BIG; i++)
            in[i] = -1;
        MPI_Recv(in, BIG, MPI_INT, partner, T_PERS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += in[i] != partner * 7 + i;
        MT_CHECK_INT(errs, "wrong ints in the restarted persistent send", 0, bad);
    }
    if (sender) {
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of the restarted persistent send", 0, cancelled(&st));
        MPI_Request_free(&r);
    }

    /* a rendezvous send matched by a receive posted before it: not cancelled, data delivered */
    if (receiver) {
        for (int i = 0; i < BIG; i++)
            in[i] = -1;
        MPI_Irecv(in, BIG, MPI_INT, partner, T_MATCHED, MPI_COMM_WORLD, &rr);
        MPI_Send(&small, 1, MPI_INT, partner, T_GO, MPI_COMM_WORLD);
    }
    if (sender) {
        MPI_Recv(&x, 1, MPI_INT, partner, T_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend(big, BIG, MPI_INT, partner, T_MATCHED, MPI_COMM_WORLD, &r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of a send a posted receive matched", 0, cancelled(&st));
    }
    if (receiver) {
        MPI_Wait(&rr, &st);
        MT_CHECK_INT(errs, "Test_cancelled of the receive of a matched send", 0, cancelled(&st));
        int bad = 0;
        for (int i = 0; i < BIG; i++)
            bad += in[i] != partner * 7 + i;
        MT_CHECK_INT(errs, "wrong ints received from a matched send", 0, bad);
    }

    /* an eager send: cancelled or not, Wait returns; the sender says which, and the receiver agrees */
    if (sender) {
        MPI_Isend(&small, 1, MPI_INT, partner, T_EAGER, MPI_COMM_WORLD, &r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        flag = cancelled(&st);
        MT_CHECK(errs, flag == 0 || flag == 1, "Test_cancelled gave %d", flag);
        MPI_Send(&flag, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD);
    }
    if (receiver) {
        MPI_Recv(&flag, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (flag == 1) {
            check_gone(&errs, partner, T_EAGER);
        } else {
            x = -1;
            MPI_Recv(&x, 1, MPI_INT, partner, T_EAGER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "the eager send that was not cancelled", 42, x);
        }
    }
    /* an unmatched rendezvous send cancelled after a migration point */
    if (sender && UNMATCHED_CANCEL)
        MPI_Isend(big, BIG, MPI_INT, partner, T_MIG, MPI_COMM_WORLD, &r);
    mt_migrate();
    if (sender && UNMATCHED_CANCEL) {
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MPI_Wait(&r, &st);
        MT_CHECK_INT(errs, "Test_cancelled of a send cancelled after a migration", 1, cancelled(&st));
    }
    if (sender)
        MPI_Send(&small, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD);
    if (receiver) {
        MPI_Recv(&x, 1, MPI_INT, partner, T_DONE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (UNMATCHED_CANCEL)
            check_gone(&errs, partner, T_MIG);
    }
    free(big);
    free(in);
    return mt_finish(errs);
}
