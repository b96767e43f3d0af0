/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Request_get_status: flag 0 while the message cannot have arrived, then flag 1 with the right status,
 * without freeing the request (a later MPI_Wait still returns the same status and frees it); on
 * MPI_REQUEST_NULL: flag 1 and an empty status.  Also on an Issend to oneself. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    const int n = 50000;
    int *buf = mt_malloc(n * sizeof(int));

    if (partner < size && rank % 2 == 1) { /* receiver */
        MPI_Request r;
        MPI_Status st, st2;
        for (int i = 0; i < n; i++)
            buf[i] = -1;
        MPI_Irecv(buf, n, MPI_INT, partner, 5, MPI_COMM_WORLD, &r);
        for (int i = 0; i < 100; i++) {
            MPI_Request_get_status(r, &flag, &st);
            MT_CHECK_INT(errs, "get_status before the send: flag", 0, flag);
            if (flag)
                break;
        }
        MPI_Send(NULL, 0, MPI_BYTE, partner, 1, MPI_COMM_WORLD); /* go */
        do
            MPI_Request_get_status(r, &flag, &st);
        while (!flag);
        int cnt = -1;
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(errs, st.MPI_SOURCE == partner && st.MPI_TAG == 5 && cnt == n, "get_status: status %d/%d/%d",
                 st.MPI_SOURCE, st.MPI_TAG, cnt);
        MT_CHECK(errs, r != MPI_REQUEST_NULL, "Request_get_status freed the request");
        MPI_Request_get_status(r, &flag, &st); /* again: still there */
        MT_CHECK_INT(errs, "get_status second time: flag", 1, flag);
        MPI_Wait(&r, &st2);
        MPI_Get_count(&st2, MPI_INT, &cnt);
        MT_CHECK(errs, st2.MPI_SOURCE == partner && st2.MPI_TAG == 5 && cnt == n, "Wait after get_status: %d/%d/%d",
                 st2.MPI_SOURCE, st2.MPI_TAG, cnt);
        MT_CHECK(errs, r == MPI_REQUEST_NULL, "Wait did not free the request");
        for (int i = 0; i < n; i++)
            if (buf[i] != i * 3 + partner) {
                MT_ERR(errs, "element %d: expected %d got %d", i, i * 3 + partner, buf[i]);
                break;
            }
    } else if (partner < size) { /* sender */
        MPI_Request r;
        for (int i = 0; i < n; i++)
            buf[i] = i * 3 + rank;
        MPI_Recv(NULL, 0, MPI_BYTE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Isend(buf, n, MPI_INT, partner, 5, MPI_COMM_WORLD, &r);
        do
            MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        MT_CHECK(errs, r != MPI_REQUEST_NULL, "Request_get_status freed the send request");
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }

    /* null request */
    {
        MPI_Status st;
        st.MPI_SOURCE = 77;
        flag = 0;
        MT_CHECK_RC(errs, MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st));
        MT_CHECK_INT(errs, "get_status(REQUEST_NULL): flag", 1, flag);
        MT_CHECK_EMPTY_STATUS(errs, st);
    }

    /* Issend to self: incomplete until the receive is posted */
    {
        MPI_Request r;
        int x = 9, y = 0;
        MPI_Issend(&x, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r);
        for (int i = 0; i < 50; i++) {
            MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "get_status of an unmatched Issend: flag", 0, flag);
            if (flag)
                break;
        }
        MPI_Recv(&y, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        do
            MPI_Request_get_status(r, &flag, MPI_STATUS_IGNORE);
        while (!flag);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MT_CHECK_INT(errs, "self Issend value", 9, y);
    }
    free(buf);
    return mt_finish(errs);
}
