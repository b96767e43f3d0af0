/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent collective requests as requests (MPI-4.1 6.13): MPI_Startall over a mix of persistent
 * collectives and persistent point-to-point requests, started ITERS times with new data; starts in a
 * different order on different ranks (allowed: MPICH's coll/p_order); a derived datatype and a
 * communicator freed while the request lives; an inactive request's status and MPI_Request_free; and the
 * errors, under MPI_ERRORS_RETURN: MPI_Start of an active request, MPI_Cancel, a bad root, info or request
 * pointer. */
#include "mtest.h"

#define ITERS 5
#define NV 4

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (rank + 1) % n, left = (rank - 1 + n) % n;

    /* Startall over an allreduce, a broadcast of a derived type on a duplicated communicator (both freed
     * at once), a persistent send to the right and a receive from the left */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Datatype vec;
    MPI_Type_vector(NV, 1, 2, MPI_INT, &vec); /* every other int */
    MPI_Type_commit(&vec);
    int sum[NV], in[NV], bc[2 * NV], snd[NV], rcv[NV];
    MPI_Request r[4];
    MT_CALL(MPI_Allreduce_init(in, sum, NV, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
    MT_CALL(MPI_Bcast_init(bc, 1, vec, 0, dup, MPI_INFO_NULL, &r[1]));
    MT_CALL(MPI_Send_init(snd, NV, MPI_INT, right, 7, MPI_COMM_WORLD, &r[2]));
    MT_CALL(MPI_Recv_init(rcv, NV, MPI_INT, left, 7, MPI_COMM_WORLD, &r[3]));
    MPI_Type_free(&vec);
    MPI_Comm_free(&dup);
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < NV; i++) {
            in[i] = rank * 10 + it + i;
            snd[i] = rank * 100 + it * 10 + i;
            rcv[i] = sum[i] = -1;
        }
        for (int i = 0; i < 2 * NV; i++)
            bc[i] = rank == 0 ? it * 1000 + i : -1;
        MT_CALL(MPI_Startall(4, r));
        MPI_Status st[4];
        MT_CALL(MPI_Waitall(4, r, st));
        for (int i = 0; i < NV; i++) {
            MT_CHECK_INT(errs, "Startall: allreduce", 10 * (n * (n - 1) / 2) + n * (it + i), sum[i]);
            MT_CHECK_INT(errs, "Startall: received", left * 100 + it * 10 + i, rcv[i]);
        }
        for (int i = 0; i < 2 * NV; i++)
            MT_CHECK_INT(errs, "Startall: broadcast of a vector", i % 2 == 0 || rank == 0 ? it * 1000 + i : -1,
                         bc[i]);
        MT_CHECK_INT(errs, "Startall: receive's source", left, st[3].MPI_SOURCE);
        MT_CHECK(errs, r[0] != MPI_REQUEST_NULL, "a completed persistent collective's handle was freed");
        mt_migrate();
    }
    /* an inactive request completes at once with an empty status */
    MPI_Status st;
    int flag = 0;
    st.MPI_SOURCE = 99;
    MT_CALL(MPI_Test(&r[0], &flag, &st));
    MT_CHECK(errs, flag && st.MPI_SOURCE == MPI_ANY_SOURCE, "Test of an inactive request: flag %d source %d", flag,
             st.MPI_SOURCE);
    for (int i = 0; i < 4; i++)
        MT_CALL(MPI_Request_free(&r[i]));

    /* starts in a different order on odd and even ranks: a barrier and a broadcast (MPICH's p_order) */
    int a = -1;
    MPI_Request q[2];
    MT_CALL(MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]));
    MT_CALL(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &q[1]));
    for (int it = 0; it < ITERS; it++) {
        a = rank == 0 ? 42 + it : -1;
        MT_CALL(MPI_Start(&q[rank % 2]));
        MT_CALL(MPI_Start(&q[1 - rank % 2]));
        MT_CALL(MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        MT_CHECK_INT(errs, "broadcast started out of order", 42 + it, a);
    }

    /* errors */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    a = rank == 0 ? 5 : -1;
    MT_CALL(MPI_Start(&q[0]));
    MT_CHECK_CLASS(errs, MPI_Start(&q[0]), MPI_ERR_REQUEST); /* active already */
    MT_CHECK_CLASS(errs, MPI_Cancel(&q[0]), MPI_ERR_REQUEST);
    MT_CALL(MPI_Wait(&q[0], MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "broadcast after the failed Start", 5, a);
    MT_CHECK_CLASS(errs, MPI_Start(NULL), MPI_ERR_ARG);
    MPI_Request bad = MPI_REQUEST_NULL;
    MT_CHECK_CLASS(errs, MPI_Start(&bad), MPI_ERR_REQUEST);
    MT_CHECK_CLASS(errs, MPI_Bcast_init(&a, 1, MPI_INT, n, MPI_COMM_WORLD, MPI_INFO_NULL, &bad), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Bcast_init(&a, 1, MPI_INT, -1, MPI_COMM_WORLD, MPI_INFO_NULL, &bad), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Allreduce_init(in, sum, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &bad),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Allreduce_init(in, sum, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, MPI_INFO_NULL, &bad),
                   MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Barrier_init(MPI_COMM_NULL, MPI_INFO_NULL, &bad), MPI_ERR_COMM);
    MPI_Info info, dead;
    MPI_Info_create(&info);
    dead = info;
    MPI_Info_free(&info); /* `dead` is now an invalid handle */
    MT_CHECK_CLASS(errs, MPI_Barrier_init(MPI_COMM_WORLD, dead, &bad), MPI_ERR_INFO);
    MT_CHECK(errs, bad == MPI_REQUEST_NULL, "a failed init set the request");
    /* after the failures, the next nonblocking collective is an ordinary one again */
    MPI_Request ib;
    MT_CALL(MPI_Ibarrier(MPI_COMM_WORLD, &ib));
    MT_CALL(MPI_Wait(&ib, MPI_STATUS_IGNORE));
    MT_CHECK(errs, ib == MPI_REQUEST_NULL, "an Ibarrier's request outlived its Wait");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MT_CALL(MPI_Request_free(&q[0]));
    MT_CALL(MPI_Request_free(&q[1]));
    return mt_finish(errs);
}
