/* SPDX-License-Identifier: BSD-3-Clause */
/* Generalized requests: Test before MPI_Grequest_complete says not done; after it, Request_get_status
 * reports the query callback's status without freeing; Wait runs query then free exactly once and returns
 * the query's status (source, tag, element count); Request_free before completion defers the free callback
 * to MPI_Grequest_complete; Cancel calls the cancel callback with the completion flag; an error returned by
 * the query callback comes out of Wait (MPI_ERRORS_RETURN); Waitall mixes a generalized request with an
 * Irecv. */
#include "mtest.h"

typedef struct state {
    int queries, frees, cancels, last_complete, fail;
} state;

static int query(void *extra, MPI_Status *st)
{
    state *s = extra;
    s->queries++;
    st->MPI_SOURCE = 5;
    st->MPI_TAG = 6;
    st->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(st, MPI_INT, 7);
    MPI_Status_set_cancelled(st, 0);
    return s->fail ? MPI_ERR_IO : MPI_SUCCESS;
}

static int freefn(void *extra)
{
    ((state *)extra)->frees++;
    return MPI_SUCCESS;
}

static int cancelfn(void *extra, int complete)
{
    state *s = extra;
    s->cancels++;
    s->last_complete = complete;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, count;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    state s = {0};
    MPI_Request r;
    MPI_Status st;
    MPI_Grequest_start(query, freefn, cancelfn, &s, &r);
    MPI_Test(&r, &flag, &st);
    if (flag)
        MT_ERR(errs, "Test says an incomplete generalized request is done");
    MPI_Cancel(&r);
    if (s.cancels != 1 || s.last_complete != 0)
        MT_ERR(errs, "cancel callback: %d calls, complete %d", s.cancels, s.last_complete);
    MPI_Grequest_complete(r);
    MPI_Request_get_status(r, &flag, &st);
    if (!flag || s.queries != 1 || s.frees != 0 || st.MPI_SOURCE != 5)
        MT_ERR(errs, "Request_get_status: flag %d queries %d frees %d source %d", flag, s.queries, s.frees,
               st.MPI_SOURCE);
    MPI_Wait(&r, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    if (r != MPI_REQUEST_NULL || s.queries != 2 || s.frees != 1 || st.MPI_TAG != 6 || count != 7)
        MT_ERR(errs, "Wait: null %d queries %d frees %d tag %d count %d", r == MPI_REQUEST_NULL, s.queries, s.frees,
               st.MPI_TAG, count);

    /* Request_free first: the free callback waits for completion */
    state s2 = {0};
    MPI_Grequest_start(query, freefn, cancelfn, &s2, &r);
    MPI_Request keep = r;
    MPI_Request_free(&r);
    if (s2.frees != 0)
        MT_ERR(errs, "free callback ran before completion");
    MPI_Grequest_complete(keep);
    if (s2.frees != 1)
        MT_ERR(errs, "free callback did not run at completion (%d)", s2.frees);

    /* a failing query comes out of Wait */
    state s3 = {.fail = 1};
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Grequest_start(query, freefn, cancelfn, &s3, &r);
    MPI_Grequest_complete(r);
    if (MPI_Wait(&r, MPI_STATUS_IGNORE) != MPI_ERR_IO || s3.frees != 1)
        MT_ERR(errs, "query error not returned by Wait (frees %d)", s3.frees);
    s3.fail = 0;

    /* Waitall with an Irecv */
    MPI_Request two[2];
    int v = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Irecv(&v, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &two[0]);
    MPI_Grequest_start(query, freefn, cancelfn, &s3, &two[1]);
    MPI_Send(&rank, 1, MPI_INT, right, 9, MPI_COMM_WORLD);
    MPI_Grequest_complete(two[1]);
    MPI_Waitall(2, two, MPI_STATUSES_IGNORE);
    if (v != left || s3.frees != 2)
        MT_ERR(errs, "Waitall: got %d from %d, frees %d", v, left, s3.frees);
    return mt_finish(errs);
}
