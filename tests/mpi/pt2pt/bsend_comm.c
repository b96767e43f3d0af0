/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1 buffers (3.6): a buffer attached to a communicator, MPI_BUFFER_AUTOMATIC, flush and iflush.
 *  - buffered sends on a communicator with its own buffer use it, not the rank's: the rank's buffer is too
 *    small for them, and a communicator without one (a duplicate of it) falls back to the rank's and fails
 *    with MPI_ERR_BUFFER; a second attach to the same communicator gives MPI_ERR_BUFFER;
 *  - messages sent into a buffer stay pending until the receiver (after a barrier) receives them: a flush,
 *    blocking or not, returns only then (the receiver acknowledges each round, after its receives, with a
 *    message the sender checks has not arrived before the flush completes);
 *  - MPI_BUFFER_AUTOMATIC takes messages of any size, detach returns MPI_BUFFER_AUTOMATIC;
 *  - a communicator freed with messages in its buffer still delivers them;
 *  - a migration point between the sends and the flush (ranks move with their buffers' state).
 * Pairs (0,1), (2,3)...; a rank without a partner sends to itself. */
#include "mtest.h"

#define NMSG 5
#define BIG 200000

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    int self = partner >= size;
    if (self)
        partner = rank;
    int sender = self || rank % 2 == 0, receiver = self || rank % 2 == 1;
    const int sizes[NMSG] = {0, 16, 4000, BIG, 3};
    unsigned char *msg = mt_malloc(BIG), *rbuf = mt_malloc(BIG);

    MPI_Comm comm, plain;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_dup(MPI_COMM_WORLD, &plain);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);

    int total = 0;
    for (int i = 0; i < NMSG; i++)
        total += sizes[i] + MPI_BSEND_OVERHEAD;
    char *cbuf = mt_malloc(total);
    int small = 64 + MPI_BSEND_OVERHEAD;
    char *rkbuf = mt_malloc(small);
    MT_CHECK_RC(errs, MPI_Buffer_attach(rkbuf, small));
    MT_CHECK_RC(errs, MPI_Comm_attach_buffer(comm, cbuf, total));
    MT_CHECK_CLASS(errs, MPI_Comm_attach_buffer(comm, cbuf, total), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Comm_attach_buffer(comm, NULL, 10), MPI_ERR_BUFFER);

    for (int round = 0; round < 4; round++) {
        int blocking = round % 2 == 0;
        if (sender) {
            for (int i = 0; i < NMSG; i++) {
                mt_fill(msg, sizes[i], rank, round * 10 + i);
                MT_CHECK_RC(errs, MPI_Bsend(msg, sizes[i], MPI_BYTE, partner, 5, comm));
                memset(msg, 0x5A, sizes[i]);
            }
            /* the rank's buffer (64 bytes) is what a communicator without its own uses */
            MT_CHECK_CLASS(errs, MPI_Bsend(msg, 4000, MPI_BYTE, partner, 9, plain), MPI_ERR_BUFFER);
        }
        if (round == 1)
            mt_migrate();
        MPI_Barrier(MPI_COMM_WORLD);
        if (sender && !self) {
            /* the receiver acknowledges after all its receives: no acknowledgement may be there before the
             * flush returns, and it must come after */
            if (blocking) {
                MT_CHECK_RC(errs, MPI_Comm_flush_buffer(comm));
            } else {
                MPI_Request fr;
                MT_CHECK_RC(errs, MPI_Comm_iflush_buffer(comm, &fr));
                MT_CHECK_RC(errs, MPI_Wait(&fr, MPI_STATUS_IGNORE));
            }
            int ack = -1;
            MPI_Recv(&ack, 1, MPI_INT, partner, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "acknowledgement", round, ack);
        }
        if (receiver) {
            for (int i = 0; i < NMSG; i++) {
                MPI_Status st;
                int cnt = -1;
                MPI_Recv(rbuf, BIG, MPI_BYTE, partner, 5, comm, &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                MT_CHECK(errs, cnt == sizes[i], "round %d message %d: %d bytes, expected %d", round, i, cnt,
                         sizes[i]);
                long bad = mt_verify(rbuf, sizes[i], partner, round * 10 + i);
                MT_CHECK(errs, bad < 0, "round %d message %d: data differs at byte %ld", round, i, bad);
            }
            if (!self)
                MPI_Send(&round, 1, MPI_INT, partner, 7, MPI_COMM_WORLD);
        }
        if (self) /* nothing is pending once received */
            MT_CHECK_RC(errs, MPI_Comm_flush_buffer(comm));
    }
    void *det = NULL;
    int detsize = -1;
    MT_CHECK_RC(errs, MPI_Comm_detach_buffer(comm, &det, &detsize));
    MT_CHECK(errs, det == (void *)cbuf && detsize == total, "detach: %p/%d, attached %p/%d", det, detsize,
             (void *)cbuf, total);
    MT_CHECK_RC(errs, MPI_Comm_detach_buffer(comm, &det, &detsize)); /* none: NULL, 0 */
    MT_CHECK(errs, det == NULL && detsize == 0, "second detach: %p/%d", det, detsize);
    MT_CHECK_CLASS(errs, MPI_Bsend(msg, 4000, MPI_BYTE, partner, 5, comm), MPI_ERR_BUFFER); /* the rank's now */

    /* automatic: any size, no buffer to give */
    MT_CHECK_RC(errs, MPI_Comm_attach_buffer(comm, MPI_BUFFER_AUTOMATIC, 0));
    if (sender)
        for (int i = 0; i < 3; i++) {
            mt_fill(msg, BIG, rank, 100 + i);
            MT_CHECK_RC(errs, MPI_Bsend(msg, BIG, MPI_BYTE, partner, 11, comm));
        }
    for (int pass = 0; pass < 2; pass++) {
        if (pass == self) { /* a sender's detach waits for the delivery: before its partner's receives */
            MT_CHECK_RC(errs, MPI_Comm_detach_buffer(comm, &det, &detsize));
            MT_CHECK(errs, det == MPI_BUFFER_AUTOMATIC, "automatic detach returned %p", det);
        } else if (receiver) {
            for (int i = 0; i < 3; i++) {
                MPI_Recv(rbuf, BIG, MPI_BYTE, partner, 11, comm, MPI_STATUS_IGNORE);
                long bad = mt_verify(rbuf, BIG, partner, 100 + i);
                MT_CHECK(errs, bad < 0, "automatic message %d: data differs at byte %ld", i, bad);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* the rank's buffer: flush and iflush with nothing pending, then automatic too */
    MT_CHECK_RC(errs, MPI_Buffer_flush());
    MPI_Request fr;
    MT_CHECK_RC(errs, MPI_Buffer_iflush(&fr));
    MT_CHECK_RC(errs, MPI_Wait(&fr, MPI_STATUS_IGNORE));
    MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &detsize));
    MT_CHECK(errs, det == (void *)rkbuf && detsize == small, "rank's detach: %p/%d", det, detsize);
    MT_CHECK_RC(errs, MPI_Buffer_attach(MPI_BUFFER_AUTOMATIC, 0));
    if (sender) {
        mt_fill(msg, BIG, rank, 200);
        MT_CHECK_RC(errs, MPI_Bsend(msg, BIG, MPI_BYTE, partner, 12, plain));
    }

    /* a communicator the sender frees with a message in its buffer still delivers it (to the receiver's
     * communicator, freed after the receive) */
    MPI_Comm gone;
    MPI_Comm_dup(MPI_COMM_WORLD, &gone);
    char *gbuf = mt_malloc(BIG + MPI_BSEND_OVERHEAD);
    MT_CHECK_RC(errs, MPI_Comm_attach_buffer(gone, gbuf, BIG + MPI_BSEND_OVERHEAD));
    if (sender) {
        mt_fill(msg, BIG, rank, 300);
        MT_CHECK_RC(errs, MPI_Bsend(msg, BIG, MPI_BYTE, partner, 13, gone));
        if (!self)
            MPI_Comm_free(&gone);
    }
    if (receiver) {
        MPI_Recv(rbuf, BIG, MPI_BYTE, partner, 12, plain, MPI_STATUS_IGNORE);
        long bad = mt_verify(rbuf, BIG, partner, 200);
        MT_CHECK(errs, bad < 0, "rank's automatic buffer: data differs at byte %ld", bad);
        MPI_Recv(rbuf, BIG, MPI_BYTE, partner, 13, gone, MPI_STATUS_IGNORE);
        bad = mt_verify(rbuf, BIG, partner, 300);
        MT_CHECK(errs, bad < 0, "freed communicator's message: data differs at byte %ld", bad);
        MPI_Comm_free(&gone);
    }
    MT_CHECK_RC(errs, MPI_Buffer_detach(&det, &detsize));
    MT_CHECK(errs, det == MPI_BUFFER_AUTOMATIC, "rank's automatic detach returned %p", det);

    MPI_Comm_free(&comm);
    MPI_Comm_free(&plain);
    free(cbuf);
    free(rkbuf);
    free(msg);
    free(rbuf);
    int r = mt_finish(errs);
    free(gbuf);
    return r;
}
