/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Cancel of posted receives: MPI_Test_cancelled reports it, and a cancelled receive does not consume a
 * message sent later (which a new receive then gets).  With three receives posted on one tag and the middle
 * one cancelled, the two messages go to the first and the third.  Cancelling an already completed receive has
 * no effect.  A cancelled persistent receive can be started again.
 * Pairs (0,1), (2,3)...; a rank without a partner does everything with itself. */
#include "mtest.h"

/* ask the partner to send value v with tag t (or send it to oneself) */
static void request_msg(int self, int rank, int partner, int t, int v, MPI_Request *sr, int *sv)
{
    if (self) {
        *sv = v;
        MPI_Isend(sv, 1, MPI_INT, rank, t, MPI_COMM_WORLD, sr);
    } else {
        int m[2] = {t, v};
        MPI_Send(m, 2, MPI_INT, partner, 1, MPI_COMM_WORLD);
        *sr = MPI_REQUEST_NULL;
    }
}

static int cancelled(const MPI_Status *st)
{
    int f = -1;
    MPI_Test_cancelled(st, &f);
    return f;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1, self = partner >= size;
    if (self)
        partner = rank;

    if (!self && rank % 2 == 0) { /* server: send what is asked for, until tag < 0 */
        for (;;) {
            int m[2];
            MPI_Recv(m, 2, MPI_INT, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (m[0] < 0)
                break;
            MPI_Send(&m[1], 1, MPI_INT, partner, m[0], MPI_COMM_WORLD);
        }
        return mt_finish(errs);
    }

    MPI_Request r, sr, rs[3];
    MPI_Status st, sts[3];
    int x, y, z[3], sv[2], flag;

    /* 1. cancel a posted receive (specific source, then ANY_SOURCE) */
    for (int any = 0; any < 2; any++) {
        x = -1;
        MPI_Irecv(&x, 1, MPI_INT, any ? MPI_ANY_SOURCE : partner, 10, MPI_COMM_WORLD, &r);
        MT_CHECK_RC(errs, MPI_Cancel(&r));
        MT_CHECK_RC(errs, MPI_Wait(&r, &st));
        MT_CHECK_INT(errs, "Test_cancelled after cancelling a posted receive", 1, cancelled(&st));
        MT_CHECK(errs, r == MPI_REQUEST_NULL, "Wait on a cancelled receive did not free it");
        MT_CHECK_INT(errs, "cancelled receive buffer", -1, x);
        request_msg(self, rank, partner, 10, 100 + any, &sr, &sv[0]);
        MPI_Recv(&y, 1, MPI_INT, partner, 10, MPI_COMM_WORLD, &st);
        MPI_Wait(&sr, MPI_STATUS_IGNORE);
        MT_CHECK_INT(errs, "message after the cancelled receive", 100 + any, y);
        MT_CHECK_INT(errs, "Test_cancelled on a normal receive", 0, cancelled(&st));
        MT_CHECK_INT(errs, "cancelled receive buffer after later message", -1, x);
    }

    /* 2. three receives on one tag, the middle one cancelled */
    for (int i = 0; i < 3; i++) {
        z[i] = -1;
        MPI_Irecv(&z[i], 1, MPI_INT, partner, 11, MPI_COMM_WORLD, &rs[i]);
    }
    MPI_Cancel(&rs[1]);
    MPI_Wait(&rs[1], &sts[1]);
    MT_CHECK_INT(errs, "middle receive cancelled", 1, cancelled(&sts[1]));
    request_msg(self, rank, partner, 11, 201, &sr, &sv[0]);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    request_msg(self, rank, partner, 11, 202, &sr, &sv[1]);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MPI_Waitall(3, rs, sts);
    MT_CHECK(errs, z[0] == 201 && z[1] == -1 && z[2] == 202, "receives got %d %d %d, expected 201 -1 202", z[0],
             z[1], z[2]);
    MT_CHECK(errs, !cancelled(&sts[0]) && !cancelled(&sts[2]), "completed receives reported as cancelled");

    /* 3. cancel after completion has no effect */
    x = -1;
    MPI_Irecv(&x, 1, MPI_INT, partner, 12, MPI_COMM_WORLD, &r);
    request_msg(self, rank, partner, 12, 300, &sr, &sv[0]);
    do
        MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
    while (!flag);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "Test_cancelled after cancelling a completed receive", 0, cancelled(&st));
    MT_CHECK_INT(errs, "completed-then-cancelled receive value", 300, x);
    MT_CHECK(errs, st.MPI_SOURCE == partner && st.MPI_TAG == 12, "status %d/%d", st.MPI_SOURCE, st.MPI_TAG);

    /* 4. persistent receive: cancel, then start again */
    x = -1;
    MPI_Recv_init(&x, 1, MPI_INT, partner, 13, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    MPI_Cancel(&r);
    MPI_Wait(&r, &st);
    MT_CHECK_INT(errs, "persistent receive cancelled", 1, cancelled(&st));
    MPI_Start(&r);
    request_msg(self, rank, partner, 13, 400, &sr, &sv[0]);
    MPI_Wait(&r, &st);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "persistent receive restarted after cancel: not cancelled", 0, cancelled(&st));
    MT_CHECK_INT(errs, "persistent receive restarted after cancel: value", 400, x);
    MPI_Request_free(&r);

    if (!self) {
        int stop[2] = {-1, 0};
        MPI_Send(stop, 2, MPI_INT, partner, 1, MPI_COMM_WORLD);
    }
    return mt_finish(errs);
}
