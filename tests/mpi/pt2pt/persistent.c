/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent requests: MPI_Send_init / Ssend_init / Rsend_init / Bsend_init / Recv_init, started many times
 * with MPI_Start and MPI_Startall and completed with Wait / Waitall / Testall; the handles stay valid (and
 * unchanged) after completion; Wait / Test / Request_get_status on an inactive persistent request return at
 * once with an empty status; MPI_Request_free of inactive persistent requests sets them to MPI_REQUEST_NULL.
 * Pairs (0,1), (2,3)...; a rank without a partner talks to itself. */
#include "mtest.h"

#define ITERS 120
#define NK 4

static const int ksize[NK] = {40000, 8, 70000, 500}; /* Send, Ssend, Rsend, Bsend */

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

    unsigned char *sb[NK], *rb[NK];
    for (int k = 0; k < NK; k++) {
        sb[k] = mt_malloc(ksize[k]);
        rb[k] = mt_malloc(ksize[k]);
    }
    int bsize = 2 * (ksize[3] + MPI_BSEND_OVERHEAD);
    char *bbuf = mt_malloc(bsize);
    MPI_Buffer_attach(bbuf, bsize);

    MPI_Request sreq[NK], rreq[NK], sorig[NK], rorig[NK];
    if (is_sender) {
        MPI_Send_init(sb[0], ksize[0], MPI_BYTE, partner, 1, MPI_COMM_WORLD, &sreq[0]);
        MPI_Ssend_init(sb[1], ksize[1], MPI_BYTE, partner, 2, MPI_COMM_WORLD, &sreq[1]);
        MPI_Rsend_init(sb[2], ksize[2], MPI_BYTE, partner, 3, MPI_COMM_WORLD, &sreq[2]);
        MPI_Bsend_init(sb[3], ksize[3], MPI_BYTE, partner, 4, MPI_COMM_WORLD, &sreq[3]);
        memcpy(sorig, sreq, sizeof sreq);
    }
    if (is_receiver) {
        for (int k = 0; k < NK; k++)
            MPI_Recv_init(rb[k], ksize[k], MPI_BYTE, partner, k + 1, MPI_COMM_WORLD, &rreq[k]);
        memcpy(rorig, rreq, sizeof rreq);
    }

    for (int it = 0; it < ITERS; it++) {
        int mode = it % 3; /* 0: Startall/Waitall, 1: Start each/Wait each, 2: Startall/Testall */
        if (is_receiver) {
            for (int k = 0; k < NK; k++)
                memset(rb[k], 0, ksize[k]);
            if (mode == 1)
                for (int k = 0; k < NK; k++)
                    MPI_Start(&rreq[k]);
            else
                MPI_Startall(NK, rreq);
            if (!self) /* the Rsend may go now */
                MPI_Send(NULL, 0, MPI_BYTE, partner, 99, MPI_COMM_WORLD);
        }
        if (is_sender) {
            if (!self)
                MPI_Recv(NULL, 0, MPI_BYTE, partner, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int k = 0; k < NK; k++)
                mt_fill(sb[k], ksize[k], rank, it * NK + k);
            if (mode == 1) {
                for (int k = 0; k < NK; k++)
                    MPI_Start(&sreq[k]);
                for (int k = 0; k < NK; k++)
                    MPI_Wait(&sreq[k], MPI_STATUS_IGNORE);
            } else if (mode == 0 || self) {
                MPI_Startall(NK, sreq);
                if (!self)
                    MPI_Waitall(NK, sreq, MPI_STATUSES_IGNORE);
            } else {
                int flag = 0;
                MPI_Startall(NK, sreq);
                do
                    MPI_Testall(NK, sreq, &flag, MPI_STATUSES_IGNORE);
                while (!flag);
            }
        }
        if (is_receiver) {
            MPI_Status st[NK];
            if (mode == 2) {
                int flag = 0;
                do
                    MPI_Testall(NK, rreq, &flag, st);
                while (!flag);
            } else if (mode == 1) {
                for (int k = 0; k < NK; k++)
                    MPI_Wait(&rreq[k], &st[k]);
            } else {
                MPI_Waitall(NK, rreq, st);
            }
            for (int k = 0; k < NK; k++) {
                int cnt = -1;
                MPI_Get_count(&st[k], MPI_BYTE, &cnt);
                MT_CHECK(errs, st[k].MPI_SOURCE == partner && st[k].MPI_TAG == k + 1 && cnt == ksize[k],
                         "iteration %d kind %d: status %d/%d/%d, expected %d/%d/%d", it, k, st[k].MPI_SOURCE,
                         st[k].MPI_TAG, cnt, partner, k + 1, ksize[k]);
                long bad = mt_verify(rb[k], ksize[k], partner, it * NK + k);
                MT_CHECK(errs, bad < 0, "iteration %d kind %d: data differs at byte %ld", it, k, bad);
            }
        }
        if (self && mode != 1)
            MPI_Waitall(NK, sreq, MPI_STATUSES_IGNORE);
        if (is_sender)
            for (int k = 0; k < NK; k++)
                MT_CHECK(errs, sreq[k] == sorig[k], "send request %d changed after completion (iteration %d)", k, it);
        if (is_receiver)
            for (int k = 0; k < NK; k++)
                MT_CHECK(errs, rreq[k] == rorig[k], "recv request %d changed after completion (iteration %d)", k, it);
    }

    /* inactive persistent requests */
    MPI_Request *mine = is_receiver ? rreq : sreq;
    for (int k = 0; k < NK; k++) {
        MPI_Status st;
        int flag = 0;
        st.MPI_SOURCE = 1234;
        MT_CHECK_RC(errs, MPI_Wait(&mine[k], &st));
        MT_CHECK_EMPTY_STATUS(errs, st);
        MT_CHECK(errs, mine[k] != MPI_REQUEST_NULL, "Wait on an inactive persistent request freed it");
        st.MPI_SOURCE = 1234;
        MT_CHECK_RC(errs, MPI_Test(&mine[k], &flag, &st));
        MT_CHECK_INT(errs, "Test on an inactive persistent request: flag", 1, flag);
        MT_CHECK_EMPTY_STATUS(errs, st);
        flag = 0;
        MT_CHECK_RC(errs, MPI_Request_get_status(mine[k], &flag, &st));
        MT_CHECK_INT(errs, "Request_get_status on an inactive persistent request: flag", 1, flag);
        MT_CHECK_EMPTY_STATUS(errs, st);
    }
    for (int k = 0; k < NK; k++) {
        if (is_sender) {
            MT_CHECK_RC(errs, MPI_Request_free(&sreq[k]));
            MT_CHECK(errs, sreq[k] == MPI_REQUEST_NULL, "Request_free did not set the handle to MPI_REQUEST_NULL");
        }
        if (is_receiver) {
            MT_CHECK_RC(errs, MPI_Request_free(&rreq[k]));
            MT_CHECK(errs, rreq[k] == MPI_REQUEST_NULL, "Request_free did not set the handle to MPI_REQUEST_NULL");
        }
    }

    void *det;
    int detsize;
    MPI_Buffer_detach(&det, &detsize);
    free(bbuf);
    for (int k = 0; k < NK; k++) {
        free(sb[k]);
        free(rb[k]);
    }
    return mt_finish(errs);
}
