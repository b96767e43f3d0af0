/* SPDX-License-Identifier: BSD-3-Clause */
/* Partitioned communication (MPI-4.1 4): MPI_Psend_init / MPI_Precv_init with different partition counts on
 * the two sides (the same total), started many times with changing data through MPI_Startall mixed with an
 * ordinary persistent send and receive of the same tag; partitions marked ready in varying orders (ascending,
 * from the end, ranges, permuted lists); two partitioned pairs with the same peer and tag, whose sends go out
 * in the other order than they were initialized (matching is by init order); MPI_Parrived polling; ranks
 * migrating between a start and its completion; MPI_Request_free of inactive requests; and the error classes
 * (under MPI_ERRORS_RETURN).  Pairs (0,1), (2,3)...; a rank without a partner talks to itself. */
#include "mtest.h"

#define ITERS 40
#define NA 8     /* A: sender's partitions of CA ints; the receiver's are 2 of 4 x CA */
#define CA 100
#define NB 4     /* B: sender's partitions of CB ints; the receiver's are 3 of 4 x CB / 3 */
#define CB 3000
#define NC 50    /* C: ordinary persistent ints, tag as A and B */

static int val(int rank, int it, int k, int i)
{
    return rank * 1000003 + it * 7919 + k * 104729 + i;
}

static int errors(int rank)
{
    int errs = 0, buf[8], flag;
    MPI_Request e, r, p;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK_CLASS(errs, MPI_Precv_init(buf, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                   MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Precv_init(buf, 1, 1, MPI_INT, rank, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_INFO_NULL, &r),
                   MPI_ERR_TAG);
    MT_CHECK_CLASS(errs, MPI_Psend_init(buf, -1, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &e),
                   MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Psend_init(buf, 2, -1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &e),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Psend_init(buf, 2, 1, MPI_DATATYPE_NULL, rank, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &e),
                   MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Psend_init(NULL, 2, 1, MPI_INT, rank, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &e),
                   MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Pready(0, MPI_REQUEST_NULL), MPI_ERR_REQUEST);

    /* to MPI_PROC_NULL: complete once every partition is ready */
    MT_CALL(MPI_Psend_init(buf, 4, 2, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &e));
    MT_CHECK_CLASS(errs, MPI_Pready(0, e), MPI_ERR_REQUEST); /* inactive */
    MT_CHECK_CLASS(errs, MPI_Parrived(e, 0, &flag), MPI_ERR_REQUEST); /* a send */
    MT_CHECK_RC(errs, MPI_Start(&e));
    MT_CHECK_CLASS(errs, MPI_Start(&e), MPI_ERR_REQUEST); /* active */
    MT_CHECK_CLASS(errs, MPI_Pready(4, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready(-1, e), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Pready(1, e));
    MT_CHECK_CLASS(errs, MPI_Pready(1, e), MPI_ERR_ARG); /* twice */
    MT_CHECK_CLASS(errs, MPI_Pready_range(3, 2, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready_range(0, 4, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready_range(0, 1, e), MPI_ERR_ARG); /* 1 is ready */
    int dup[2] = {0, 0}, bad[2] = {0, 9}, rest[3] = {3, 0, 2};
    MT_CHECK_CLASS(errs, MPI_Pready_list(2, dup, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready_list(2, bad, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready_list(-1, rest, e), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Pready_list(1, NULL, e), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Pready_list(0, NULL, e));
    MT_CHECK_RC(errs, MPI_Pready_list(3, rest, e));
    MT_CHECK_RC(errs, MPI_Wait(&e, MPI_STATUS_IGNORE));
    MT_CHECK_CLASS(errs, MPI_Pready(0, e), MPI_ERR_REQUEST); /* inactive again */
    MT_CHECK_RC(errs, MPI_Request_free(&e));
    MT_CHECK(errs, e == MPI_REQUEST_NULL, "Request_free: request not MPI_REQUEST_NULL");

    /* from MPI_PROC_NULL: complete at its start, with the empty status of MPI_PROC_NULL */
    MT_CALL(MPI_Precv_init(buf, 2, 4, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    flag = 0;
    MT_CHECK_RC(errs, MPI_Parrived(r, 0, &flag)); /* inactive: arrived */
    MT_CHECK_INT(errs, "Parrived on an inactive request", 1, flag);
    MT_CHECK_CLASS(errs, MPI_Pready(0, r), MPI_ERR_REQUEST); /* a receive */
    MT_CHECK_RC(errs, MPI_Start(&r));
    MT_CHECK_CLASS(errs, MPI_Parrived(r, 2, &flag), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Parrived(r, 0, NULL), MPI_ERR_ARG);
    flag = 0;
    MT_CHECK_RC(errs, MPI_Parrived(r, 1, &flag));
    MT_CHECK_INT(errs, "Parrived from MPI_PROC_NULL", 1, flag);
    MPI_Status st;
    MT_CHECK_RC(errs, MPI_Wait(&r, &st));
    MT_CHECK_INT(errs, "source", MPI_PROC_NULL, st.MPI_SOURCE);
    MT_CHECK_RC(errs, MPI_Request_free(&r));

    /* freed before its start and before any sender's: its wait for a matching send is taken back */
    MT_CALL(MPI_Precv_init(buf, 2, 4, MPI_INT, rank, 77, MPI_COMM_WORLD, MPI_INFO_NULL, &r));
    MT_CHECK_RC(errs, MPI_Request_free(&r));
    MT_CHECK(errs, r == MPI_REQUEST_NULL, "Request_free: request not MPI_REQUEST_NULL");

    /* an ordinary persistent request is not a partitioned one */
    MT_CALL(MPI_Send_init(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &p));
    MT_CHECK_RC(errs, MPI_Start(&p));
    MT_CHECK_CLASS(errs, MPI_Pready(0, p), MPI_ERR_REQUEST);
    MT_CHECK_CLASS(errs, MPI_Parrived(p, 0, &flag), MPI_ERR_REQUEST);
    MT_CHECK_RC(errs, MPI_Wait(&p, MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Request_free(&p));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return errs;
}

static void shuffle(int *a, int n, unsigned seed)
{
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* Marks A's partitions ready, in an order that changes with the iteration. */
static void mark(MPI_Request a, int it)
{
    int order[NA];
    switch (it % 4) {
    case 0:
        for (int p = 0; p < NA; p++)
            MPI_Pready(p, a);
        break;
    case 1: /* from the end */
        for (int p = NA - 1; p >= 0; p--)
            MPI_Pready(p, a);
        break;
    case 2: /* the upper half, then the lower */
        MPI_Pready_range(NA / 2, NA - 1, a);
        MPI_Pready_range(0, NA / 2 - 1, a);
        break;
    default: /* permuted, in two lists */
        for (int p = 0; p < NA; p++)
            order[p] = p;
        shuffle(order, NA, (unsigned)it);
        MPI_Pready_list(3, order, a);
        MPI_Pready_list(NA - 3, order + 3, a);
    }
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
    int is_sender = self || rank % 2 == 0, is_receiver = self || rank % 2 == 1;
    errs += errors(rank);

    int *sa = mt_malloc(NA * CA * sizeof(int)), *ra = mt_malloc(NA * CA * sizeof(int));
    int *sbuf = mt_malloc(NB * CB * sizeof(int)), *rbuf = mt_malloc(NB * CB * sizeof(int));
    int *sc = mt_malloc(NC * sizeof(int)), *rc = mt_malloc(NC * sizeof(int));
    MPI_Request s[3], r[3]; /* A, B, C */
    if (is_receiver) {
        MT_CALL(MPI_Precv_init(ra, 2, NA * CA / 2, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]));
        MT_CALL(MPI_Precv_init(rbuf, 3, NB * CB / 3, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]));
        MT_CALL(MPI_Recv_init(rc, NC, MPI_INT, partner, 5, MPI_COMM_WORLD, &r[2]));
    }
    if (is_sender) {
        MT_CALL(MPI_Psend_init(sa, NA, CA, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[0]));
        MT_CALL(MPI_Psend_init(sbuf, NB, CB, MPI_INT, partner, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &s[1]));
        MT_CALL(MPI_Send_init(sc, NC, MPI_INT, partner, 5, MPI_COMM_WORLD, &s[2]));
    }
    for (int it = 0; it < ITERS; it++) {
        if (is_receiver) {
            memset(ra, 0xff, NA * CA * sizeof(int));
            memset(rbuf, 0xff, NB * CB * sizeof(int));
            memset(rc, 0xff, NC * sizeof(int));
            MPI_Request order[3] = {r[1], r[2], r[0]}; /* another order than their inits */
            MT_CHECK_RC(errs, MPI_Startall(3, order));
        }
        if (is_sender) {
            for (int i = 0; i < NA * CA; i++)
                sa[i] = val(rank, it, 0, i);
            for (int i = 0; i < NB * CB; i++)
                sbuf[i] = val(rank, it, 1, i);
            for (int i = 0; i < NC; i++)
                sc[i] = val(rank, it, 2, i);
            MT_CHECK_RC(errs, MPI_Startall(3, s));
        }
        if (it % 8 == 3) /* move between the start and the completion (the Rotate runs move every rank) */
            mt_migrate();
        if (is_sender) {
            /* B's message goes first, though A was initialized first */
            if (it % 2)
                MPI_Pready_range(0, NB - 1, s[1]);
            else
                for (int p = NB - 1; p >= 0; p--)
                    MPI_Pready(p, s[1]);
            mark(s[0], it);
        }
        if (is_receiver) {
            int flag = 0, part = it % 2;
            while (!flag)
                MT_CHECK_RC(errs, MPI_Parrived(r[0], part, &flag));
            MPI_Status st[3];
            MT_CHECK_RC(errs, MPI_Waitall(3, r, st));
            int cnt;
            MPI_Get_count(&st[0], MPI_INT, &cnt);
            MT_CHECK_INT(errs, "A's count", NA * CA, cnt);
            MT_CHECK_INT(errs, "A's source", partner, st[0].MPI_SOURCE);
            MT_CHECK_INT(errs, "A's tag", 5, st[0].MPI_TAG);
            MT_CHECK_INT(errs, "B's tag", 5, st[1].MPI_TAG);
            MPI_Get_count(&st[1], MPI_INT, &cnt);
            MT_CHECK_INT(errs, "B's count", NB * CB, cnt);
            flag = 0;
            MPI_Parrived(r[0], 1 - part, &flag); /* inactive again */
            MT_CHECK_INT(errs, "Parrived after Wait", 1, flag);
            for (int i = 0; i < NA * CA; i++)
                if (ra[i] != val(partner, it, 0, i)) {
                    MT_ERR(errs, "iteration %d: A[%d]: expected %d, got %d", it, i, val(partner, it, 0, i), ra[i]);
                    break;
                }
            for (int i = 0; i < NB * CB; i++)
                if (rbuf[i] != val(partner, it, 1, i)) {
                    MT_ERR(errs, "iteration %d: B[%d]: expected %d, got %d", it, i, val(partner, it, 1, i), rbuf[i]);
                    break;
                }
            for (int i = 0; i < NC; i++)
                if (rc[i] != val(partner, it, 2, i)) {
                    MT_ERR(errs, "iteration %d: C[%d]: expected %d, got %d", it, i, val(partner, it, 2, i), rc[i]);
                    break;
                }
        }
        if (is_sender) {
            if (it % 3 == 0) {
                int flag = 0;
                while (!flag)
                    MT_CHECK_RC(errs, MPI_Testall(3, s, &flag, MPI_STATUSES_IGNORE));
            } else {
                MT_CHECK_RC(errs, MPI_Waitall(3, s, MPI_STATUSES_IGNORE));
            }
        }
    }
    for (int k = 0; k < 3; k++) {
        if (is_sender) {
            MT_CHECK_RC(errs, MPI_Request_free(&s[k]));
            MT_CHECK(errs, s[k] == MPI_REQUEST_NULL, "Request_free: request not MPI_REQUEST_NULL");
        }
        if (is_receiver)
            MT_CHECK_RC(errs, MPI_Request_free(&r[k]));
    }
    free(sa);
    free(ra);
    free(sbuf);
    free(rbuf);
    free(sc);
    free(rc);
    return mt_finish(errs);
}
