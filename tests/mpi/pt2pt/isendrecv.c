/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 3.10): ring exchanges checked value by value and by
 * status, ITERS times with new data; replace with a non-contiguous type (the gaps stay untouched) and with
 * MPI_ANY_SOURCE/MPI_ANY_TAG; MPI_PROC_NULL on either side and both; large messages (rendezvous) whose both
 * parts are still pending across a migration point; a receive part cancelled; a request freed while
 * pending; the errors, under MPI_ERRORS_RETURN. */
#include "mtest.h"

#define ITERS 5
#define NV 8
#define BIG (64 * 1024) /* ints: above the eager limit */

static int val(int r, int it, int i) { return r * 100000 + it * 1000 + i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (rank + 1) % n, left = (rank - 1 + n) % n;
    MPI_Status st;

    /* Isendrecv around the ring, completed by Wait and by Test */
    for (int it = 0; it < ITERS; it++) {
        int s[NV], r[NV];
        for (int i = 0; i < NV; i++) {
            s[i] = val(rank, it, i);
            r[i] = -1;
        }
        MPI_Request q;
        MT_CALL(MPI_Isendrecv(s, NV, MPI_INT, right, it, r, NV, MPI_INT, left, it, MPI_COMM_WORLD, &q));
        if (it % 2) {
            MT_CALL(MPI_Wait(&q, &st));
        } else {
            int flag = 0;
            while (!flag)
                MT_CALL(MPI_Test(&q, &flag, &st));
        }
        MT_CHECK(errs, q == MPI_REQUEST_NULL, "Isendrecv's request not freed by its completion");
        for (int i = 0; i < NV; i++)
            MT_CHECK_INT(errs, "Isendrecv data", val(left, it, i), r[i]);
        MT_CHECK_INT(errs, "Isendrecv source", left, st.MPI_SOURCE);
        MT_CHECK_INT(errs, "Isendrecv tag", it, st.MPI_TAG);
        int count;
        MPI_Get_count(&st, MPI_INT, &count);
        MT_CHECK_INT(errs, "Isendrecv count", NV, count);
        mt_migrate();
    }

    /* Isendrecv_replace of every other int (a vector type), from any source with any tag */
    MPI_Datatype vec;
    MPI_Type_vector(NV, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    for (int it = 0; it < ITERS; it++) {
        int b[2 * NV];
        for (int i = 0; i < 2 * NV; i++)
            b[i] = i % 2 ? -5 : val(rank, it, i);
        MPI_Request q;
        MT_CALL(MPI_Isendrecv_replace(b, 1, vec, right, 10 + it, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &q));
        if (it == ITERS - 1)
            MPI_Type_free(&vec); /* the pending request holds the type */
        MT_CALL(MPI_Wait(&q, &st));
        for (int i = 0; i < 2 * NV; i++)
            MT_CHECK_INT(errs, "Isendrecv_replace data", i % 2 ? -5 : val(left, it, i), b[i]);
        MT_CHECK_INT(errs, "Isendrecv_replace source", left, st.MPI_SOURCE);
        MT_CHECK_INT(errs, "Isendrecv_replace tag", 10 + it, st.MPI_TAG);
    }

    /* MPI_PROC_NULL: no send, no receive, or neither */
    {
        int s = rank, r = -1;
        MPI_Request q;
        MT_CALL(MPI_Isendrecv(&s, 1, MPI_INT, MPI_PROC_NULL, 0, &r, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
                              &q));
        MT_CALL(MPI_Wait(&q, &st));
        MT_CHECK_INT(errs, "PROC_NULL source", MPI_PROC_NULL, st.MPI_SOURCE);
        MT_CHECK_INT(errs, "PROC_NULL tag", MPI_ANY_TAG, st.MPI_TAG);
        MT_CHECK_INT(errs, "PROC_NULL buffer untouched", -1, r);
        MT_CALL(MPI_Isendrecv_replace(&s, 1, MPI_INT, right, 3, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &q));
        MT_CALL(MPI_Wait(&q, &st));
        MT_CHECK_INT(errs, "replace from PROC_NULL keeps the buffer", rank, s);
        MT_CALL(MPI_Recv(&r, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &st));
        MT_CHECK_INT(errs, "send part of a replace from PROC_NULL", left, r);
        MT_CALL(MPI_Isendrecv_replace(&s, 1, MPI_INT, MPI_PROC_NULL, 4, left, 4, MPI_COMM_WORLD, &q));
        MT_CALL(MPI_Send(&rank, 1, MPI_INT, right, 4, MPI_COMM_WORLD));
        MT_CALL(MPI_Wait(&q, &st));
        MT_CHECK_INT(errs, "replace to PROC_NULL", left, s);
    }

    /* large messages: both parts pending across a migration point (tag 2 is sent after it; tag 1's
     * rendezvous waits for its receive, posted after it) */
    int *big_s = mt_malloc(sizeof(int) * BIG), *big_r = mt_malloc(sizeof(int) * BIG);
    int *late = mt_malloc(sizeof(int) * BIG), *early = mt_malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++) {
        big_s[i] = val(rank, 1, i);
        late[i] = val(rank, 2, i);
        big_r[i] = early[i] = -1;
    }
    MPI_Request q;
    MT_CALL(MPI_Isendrecv(big_s, BIG, MPI_INT, right, 1, big_r, BIG, MPI_INT, left, 2, MPI_COMM_WORLD, &q));
    mt_migrate();
    MPI_Request sq;
    MT_CALL(MPI_Isend(late, BIG, MPI_INT, right, 2, MPI_COMM_WORLD, &sq));
    MT_CALL(MPI_Recv(early, BIG, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CALL(MPI_Wait(&q, &st));
    MT_CALL(MPI_Wait(&sq, MPI_STATUS_IGNORE));
    long bad = 0;
    for (int i = 0; i < BIG; i++)
        bad += big_r[i] != val(left, 2, i) || early[i] != val(left, 1, i);
    MT_CHECK(errs, bad == 0, "large Isendrecv across a migration: %ld wrong ints", bad);
    MT_CHECK_INT(errs, "large Isendrecv's tag", 2, st.MPI_TAG);

    /* a receive nobody sends to, cancelled (the send part goes nowhere) */
    int x = 0;
    MT_CALL(MPI_Isendrecv_replace(&x, 1, MPI_INT, MPI_PROC_NULL, 0, left, 999, MPI_COMM_WORLD, &q));
    MT_CALL(MPI_Cancel(&q));
    MT_CALL(MPI_Wait(&q, &st));
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    MT_CHECK(errs, cancelled, "a pending Isendrecv_replace receive was not cancelled");

    /* freed while pending: the exchange still happens, its temporary freed at completion */
    int f = rank;
    MT_CALL(MPI_Isendrecv_replace(&f, 1, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, &q));
    MT_CALL(MPI_Request_free(&q));
    MT_CHECK(errs, q == MPI_REQUEST_NULL, "Request_free left the handle");
    int g = rank; /* a later message of the same pair and tag matches after it (non-overtaking) */
    MT_CALL(MPI_Sendrecv_replace(&g, 1, MPI_INT, right, 5, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "exchange of a freed Isendrecv_replace", left, f);

    /* errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int e = 0;
    MT_CHECK_CLASS(errs, MPI_Isendrecv(&e, 1, MPI_INT, n, 0, &e, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &q),
                   MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Isendrecv(&e, 1, MPI_INT, right, 0, &e, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL),
                   MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Isendrecv_replace(&e, -1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &q),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Isendrecv_replace(&e, 1, MPI_DATATYPE_NULL, right, 0, left, 0, MPI_COMM_WORLD, &q),
                   MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Isendrecv_replace(&e, 1, MPI_INT, right, -2, left, 0, MPI_COMM_WORLD, &q), MPI_ERR_TAG);
    MT_CHECK_CLASS(errs, MPI_Isendrecv_replace(&e, 1, MPI_INT, right, 0, left, 0, MPI_COMM_NULL, &q), MPI_ERR_COMM);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    free(big_s);
    free(big_r);
    free(late);
    free(early);
    return mt_finish(errs);
}
