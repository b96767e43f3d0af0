/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffered send: MPI_Buffer_attach / MPI_Bsend / MPI_Ibsend / MPI_Buffer_detach.
 *  - several buffered messages are outstanding at once (the receiver posts its receives only after a barrier
 *    that the sender enters after all its Bsends returned), the user buffer is overwritten right after each
 *    Bsend (the data must have been copied), detach returns the attached pointer and size;
 *  - a buffer that is too small gives MPI_ERR_BUFFER under MPI_ERRORS_RETURN, and the failed message is not
 *    sent (a later message with the same tag is the one received).
 * Pairs (0,1), (2,3)...; a rank without a partner (e.g. with 1 rank) sends to itself. */
#include "mtest.h"

#define NMSG 6

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const int sizes[NMSG] = {0, 10, 1000, 100000, 7, 65536};
    int partner = rank ^ 1;
    int self = partner >= size;
    if (self)
        partner = rank;
    int sender = self || rank % 2 == 0, receiver = self || rank % 2 == 1;

    int total = 0;
    for (int i = 0; i < NMSG; i++)
        total += sizes[i] + MPI_BSEND_OVERHEAD;
    total += 2 * MPI_BSEND_OVERHEAD + 2 * sizeof(int); /* for the Ibsend of one int below */
    unsigned char *msg = mt_malloc(100000);
    unsigned char *rbuf = mt_malloc(100000);

    for (int round = 0; round < 3; round++) {
        char *bbuf = mt_malloc(total);
        void *det = NULL;
        int detsize = -1;
        if (sender) {
            MT_CHECK_RC(errs, MPI_Buffer_attach(bbuf, total));
            for (int i = 0; i < NMSG; i++) {
                mt_fill(msg, sizes[i], rank, round * 10 + i);
                MT_CHECK_RC(errs, MPI_Bsend(msg, sizes[i], MPI_BYTE, partner, 5, MPI_COMM_WORLD));
                memset(msg, 0xA5, sizes[i]); /* Bsend must have copied it */
            }
            int v = 4242 + round;
            MPI_Request r;
            MT_CHECK_RC(errs, MPI_Ibsend(&v, 1, MPI_INT, partner, 6, MPI_COMM_WORLD, &r));
            MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE)); /* completes locally */
            v = -1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (receiver) {
            MPI_Status st;
            for (int i = 0; i < NMSG; i++) {
                int cnt = -1;
                MPI_Recv(rbuf, 100000, MPI_BYTE, partner, 5, MPI_COMM_WORLD, &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                MT_CHECK(errs, cnt == sizes[i], "round %d message %d: expected %d bytes, got %d", round, i,
                         sizes[i], cnt);
                long bad = mt_verify(rbuf, sizes[i], partner, round * 10 + i);
                MT_CHECK(errs, bad < 0, "round %d message %d: data differs at byte %ld", round, i, bad);
            }
            int v = 0;
            MPI_Recv(&v, 1, MPI_INT, partner, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "Ibsend value", 4242 + round, v);
        }
        if (sender) {
            MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &detsize));
            MT_CHECK(errs, det == (void *)bbuf, "detach returned %p, attached %p", det, (void *)bbuf);
            MT_CHECK_INT(errs, "detached size", total, detsize);
        }
        free(bbuf);
    }

    /* ---- too small buffer ---- */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        int small = 100 + MPI_BSEND_OVERHEAD;
        char *bbuf = mt_malloc(small);
        if (sender) {
            MT_CHECK_RC(errs, MPI_Buffer_attach(bbuf, small));
            mt_fill(msg, 1000, rank, 77);
            int rc = MPI_Bsend(msg, 1000, MPI_BYTE, partner, 8, MPI_COMM_WORLD);
            MT_CHECK_CLASS(errs, rc, MPI_ERR_BUFFER);
            mt_fill(msg, 50, rank, 78);
            MT_CHECK_RC(errs, MPI_Bsend(msg, 50, MPI_BYTE, partner, 8, MPI_COMM_WORLD));
        }
        if (receiver) {
            MPI_Status st;
            int cnt = -1;
            MPI_Recv(rbuf, 1000, MPI_BYTE, partner, 8, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            MT_CHECK_INT(errs, "after failed Bsend, size of the next message", 50, cnt);
            long bad = mt_verify(rbuf, 50, partner, 78);
            MT_CHECK(errs, bad < 0, "after failed Bsend: data differs at byte %ld", bad);
        }
        if (sender) {
            void *det = NULL;
            int detsize = -1;
            MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &detsize));
            MT_CHECK(errs, det == (void *)bbuf && detsize == small, "detach of the small buffer: %p/%d vs %p/%d",
                     det, detsize, (void *)bbuf, small);
        }
        free(bbuf);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    free(msg);
    free(rbuf);
    return mt_finish(errs);
}
