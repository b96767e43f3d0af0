/* SPDX-License-Identifier: BSD-3-Clause */
/* Truncation under MPI_ERRORS_RETURN: a receive buffer smaller than the message gives MPI_ERR_TRUNCATE
 * (return code of MPI_Recv and MPI_Wait; MPI_Waitall returns MPI_ERR_IN_STATUS with MPI_ERR_TRUNCATE in the
 * truncated request's status.MPI_ERROR and MPI_SUCCESS in the others).  Nothing beyond the receive buffer is
 * written and the truncated message is consumed (the next receive gets the next message).
 * Small (eager) and large messages.  Pairs (0,1), (2,3)...; a rank without a partner uses itself. */
#include "mtest.h"

#define GUARD 64
#define NM 7

int main(int argc, char **argv)
{
    int errs = 0, rank, size, rc;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int partner = rank ^ 1, self = partner >= size;
    if (self)
        partner = rank;
    int is_sender = self || rank % 2 == 0, is_receiver = self || rank % 2 == 1;

    const int msgsz[2] = {100, 300000}, rsz[2] = {50, 200000};
    unsigned char *rb[3];
    for (int i = 0; i < 3; i++)
        rb[i] = mt_malloc(300000 + GUARD);

    for (int k = 0; k < 2; k++) {
        int n = msgsz[k], rn = rsz[k], tag = 20 + k;
        /* message lengths: 0 too long (Recv), 1 fits, 2 too long (Irecv+Wait), 3 fits, 4 too long, 5 fits
         * (3..5 by one Waitall), 6 fits */
        int len[NM] = {n, rn / 2, n, rn / 2, n, rn / 2, 10};
        MPI_Request sreq[NM];
        unsigned char *sb[NM];
        if (is_sender)
            for (int j = 0; j < NM; j++) {
                sb[j] = mt_malloc(len[j]);
                mt_fill(sb[j], len[j], rank, k * 10 + j);
                MPI_Isend(sb[j], len[j], MPI_BYTE, partner, tag, MPI_COMM_WORLD, &sreq[j]);
            }
        if (is_receiver) {
            MPI_Status st, sts[3];
            MPI_Request r[3];
            int cnt;
            for (int i = 0; i < 3; i++)
                memset(rb[i], 0xEE, 300000 + GUARD);
            /* 0: Recv, truncated */
            rc = MPI_Recv(rb[0], rn, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st);
            MT_CHECK_CLASS(errs, rc, MPI_ERR_TRUNCATE);
            for (int i = rn; i < rn + GUARD; i++)
                if (rb[0][i] != 0xEE) {
                    MT_ERR(errs, "k=%d: truncated Recv wrote byte %d beyond the %d-byte buffer", k, i, rn);
                    break;
                }
            /* 1: the next message */
            rc = MPI_Recv(rb[1], rn, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st);
            MT_CHECK_RC(errs, rc);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            MT_CHECK(errs, cnt == len[1] && mt_verify(rb[1], len[1], partner, k * 10 + 1) < 0,
                     "k=%d: message after the truncated one: %d bytes (expected %d) or wrong data", k, cnt, len[1]);
            /* 2: Irecv + Wait, truncated */
            memset(rb[0], 0xEE, rn + GUARD);
            MPI_Irecv(rb[0], rn, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &r[0]);
            rc = MPI_Wait(&r[0], &st);
            MT_CHECK_CLASS(errs, rc, MPI_ERR_TRUNCATE);
            for (int i = rn; i < rn + GUARD; i++)
                if (rb[0][i] != 0xEE) {
                    MT_ERR(errs, "k=%d: truncated Irecv wrote byte %d beyond the %d-byte buffer", k, i, rn);
                    break;
                }
            /* 3, 4, 5: Waitall */
            for (int i = 0; i < 3; i++)
                MPI_Irecv(rb[i], rn, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &r[i]);
            for (int i = 0; i < 3; i++)
                sts[i].MPI_ERROR = -12345;
            rc = MPI_Waitall(3, r, sts);
            MT_CHECK_CLASS(errs, rc, MPI_ERR_IN_STATUS);
            MT_CHECK_CLASS(errs, sts[1].MPI_ERROR, MPI_ERR_TRUNCATE);
            MT_CHECK(errs, r[1] == MPI_REQUEST_NULL, "Waitall did not free the truncated (failed) request");
            /* the others either completed (MPI_SUCCESS) or are still pending (MPI_ERR_PENDING, request still
             * active: complete it now) */
            for (int i = 0; i < 3; i += 2) {
                if (sts[i].MPI_ERROR == MPI_ERR_PENDING) {
                    MT_CHECK(errs, r[i] != MPI_REQUEST_NULL, "Waitall: pending request %d was freed", i);
                    if (r[i] != MPI_REQUEST_NULL)
                        MT_CHECK_RC(errs, MPI_Wait(&r[i], &sts[i]));
                } else {
                    MT_CHECK(errs, sts[i].MPI_ERROR == MPI_SUCCESS,
                             "Waitall: status[%d].MPI_ERROR is %d, expected MPI_SUCCESS or MPI_ERR_PENDING", i,
                             sts[i].MPI_ERROR);
                    MT_CHECK(errs, r[i] == MPI_REQUEST_NULL, "Waitall did not free completed request %d", i);
                }
                MPI_Get_count(&sts[i], MPI_BYTE, &cnt);
                MT_CHECK(errs, cnt == len[3 + i] && mt_verify(rb[i], len[3 + i], partner, k * 10 + 3 + i) < 0,
                         "k=%d: Waitall message %d: %d bytes (expected %d) or wrong data", k, 3 + i, cnt, len[3 + i]);
            }
            /* 6: the stream is intact */
            rc = MPI_Recv(rb[0], rn, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &st);
            MT_CHECK_RC(errs, rc);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            MT_CHECK(errs, cnt == 10 && mt_verify(rb[0], 10, partner, k * 10 + 6) < 0,
                     "k=%d: last message: %d bytes or wrong data", k, cnt);
        }
        if (is_sender) {
            /* the sender side of a truncated message may report the error or not: ignore the codes */
            MPI_Waitall(NM, sreq, MPI_STATUSES_IGNORE);
            for (int j = 0; j < NM; j++)
                free(sb[j]);
        }
    }
    for (int i = 0; i < 3; i++)
        free(rb[i]);
    return mt_finish(errs);
}
