/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's request and status queries: MPI_Request_get_status_any/all/some look at requests without
 * completing or freeing them (the requests stay usable: MPI_Waitall afterwards gives the same statuses), give
 * nothing before a message came, the one that came and not the others, and, with no active request (null or
 * persistent and not started), flag true with MPI_UNDEFINED index or count; MPI_Status_get/set_source, tag
 * and error round trips and their errors.  Ranks pair up (even with odd): the even one receives 4 messages
 * that the odd one sends one at a time, between barriers, so what can have arrived at each query is known. */
#include "mtest.h"

#define N 4

static int check_status(int errs, const MPI_Status *st, int src, int tag, const char *what)
{
    MT_CHECK(errs, st->MPI_SOURCE == src && st->MPI_TAG == tag, "%s: source %d tag %d, expected %d %d", what,
             st->MPI_SOURCE, st->MPI_TAG, src, tag);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* status accessors */
    MPI_Status st;
    int v = -1;
    MT_CHECK_RC(errs, MPI_Status_set_source(&st, 5));
    MT_CHECK_RC(errs, MPI_Status_set_tag(&st, 77));
    MT_CHECK_RC(errs, MPI_Status_set_error(&st, MPI_ERR_TAG));
    MT_CHECK_RC(errs, MPI_Status_get_source(&st, &v));
    MT_CHECK_INT(errs, "source", 5, v);
    MT_CHECK_RC(errs, MPI_Status_get_tag(&st, &v));
    MT_CHECK_INT(errs, "tag", 77, v);
    MT_CHECK_RC(errs, MPI_Status_get_error(&st, &v));
    MT_CHECK_INT(errs, "error", MPI_ERR_TAG, v);
    MT_CHECK_CLASS(errs, MPI_Status_get_tag(MPI_STATUS_IGNORE, &v), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Status_get_tag(&st, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Status_set_source(NULL, 1), MPI_ERR_ARG);

    /* no active request: null ones, and a persistent one not started */
    MPI_Request r[N], p;
    int buf[N], idx = -2, flag = -1, out = -2, ind[N];
    MPI_Status sts[N];
    MT_CHECK_RC(errs, MPI_Recv_init(buf, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &p));
    MPI_Request none[3] = {MPI_REQUEST_NULL, p, MPI_REQUEST_NULL};
    MT_CHECK_RC(errs, MPI_Request_get_status_any(3, none, &idx, &flag, &st));
    MT_CHECK(errs, flag == 1 && idx == MPI_UNDEFINED, "any of none: flag %d index %d", flag, idx);
    MT_CHECK_RC(errs, MPI_Request_get_status_some(3, none, &out, ind, sts));
    MT_CHECK_INT(errs, "some of none: outcount", MPI_UNDEFINED, out);
    MT_CHECK_RC(errs, MPI_Request_get_status_all(3, none, &flag, sts));
    MT_CHECK_INT(errs, "all of none: flag", 1, flag);
    MT_CHECK_RC(errs, MPI_Request_free(&p));
    MT_CHECK_CLASS(errs, MPI_Request_get_status_any(-1, r, &idx, &flag, &st), MPI_ERR_COUNT);

    int peer = rank ^ 1;
    if (peer < size) {
        if (rank % 2 == 0) {
            for (int i = 0; i < N; i++)
                MT_CHECK_RC(errs, MPI_Irecv(&buf[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &r[i]));
            MT_CHECK_RC(errs, MPI_Request_get_status_any(N, r, &idx, &flag, &st));
            MT_CHECK(errs, flag == 0 && idx == MPI_UNDEFINED, "before any send: flag %d index %d", flag, idx);
            MT_CHECK_RC(errs, MPI_Request_get_status_some(N, r, &out, ind, sts));
            MT_CHECK_INT(errs, "before any send: outcount", 0, out);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank % 2 == 1) {
            int x = 100 + 2;
            MT_CHECK_RC(errs, MPI_Send(&x, 1, MPI_INT, peer, 2, MPI_COMM_WORLD)); /* tag 2 only */
        } else {
            do
                MT_CHECK_RC(errs, MPI_Request_get_status_any(N, r, &idx, &flag, &st));
            while (!flag && errs == 0);
            MT_CHECK(errs, idx == 2, "the message that came: index %d, expected 2", idx);
            errs = check_status(errs, &st, peer, 2, "get_status_any");
            MT_CHECK_RC(errs, MPI_Request_get_status_some(N, r, &out, ind, sts));
            MT_CHECK(errs, out == 1 && ind[0] == 2, "get_status_some: %d, index %d", out, ind[0]);
            errs = check_status(errs, &sts[0], peer, 2, "get_status_some");
            MT_CHECK_RC(errs, MPI_Request_get_status_all(N, r, &flag, sts));
            MT_CHECK_INT(errs, "get_status_all with 3 pending: flag", 0, flag);
            MT_CHECK(errs, r[2] != MPI_REQUEST_NULL, "get_status_any freed the request");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank % 2 == 1) {
            for (int i = 0; i < N; i++) {
                int x = 100 + i;
                if (i != 2)
                    MT_CHECK_RC(errs, MPI_Send(&x, 1, MPI_INT, peer, i, MPI_COMM_WORLD));
            }
        } else {
            do
                MT_CHECK_RC(errs, MPI_Request_get_status_all(N, r, &flag, sts));
            while (!flag && errs == 0);
            for (int i = 0; i < N; i++)
                errs = check_status(errs, &sts[i], peer, i, "get_status_all");
            MT_CHECK_RC(errs, MPI_Waitall(N, r, sts)); /* still there to complete */
            for (int i = 0; i < N; i++) {
                errs = check_status(errs, &sts[i], peer, i, "Waitall after the queries");
                MT_CHECK(errs, buf[i] == 100 + i && r[i] == MPI_REQUEST_NULL, "request %d: %d", i, buf[i]);
            }
        }
    } else { /* the odd one out takes part in the barriers */
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return mt_finish(errs);
}
