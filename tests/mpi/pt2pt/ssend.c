/* SPDX-License-Identifier: BSD-3-Clause */
/* Synchronous send: an MPI_Issend / MPI_Ssend must not complete before the matching receive is posted.
 * Ranks are paired (0,1), (2,3), ...; an odd last rank only takes part in the barriers.
 *
 * A. sender: Issend, then polls MPI_Test many times: the receiver is inside MPI_Barrier (which the sender has
 *    not entered yet) and posts its receive only after it, so every Test must return flag = 0.
 * B. blocking Ssend: the sender sends a "done" message right after its Ssend returns; the receiver posts an
 *    Irecv for "done" first and polls it: it cannot complete before the receiver posts the Ssend's receive.
 * C. Issend to oneself (MPI_COMM_SELF) stays incomplete until the receive is posted.
 * Sizes: 0, 4 bytes and 200000 bytes. */
#include "mtest.h"

#define NPOLL 2000

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const int sizes[3] = {0, 4, 200000};
    int partner = rank ^ 1;
    int active = partner < size;
    int sender = (rank % 2 == 0);
    unsigned char *buf = mt_malloc(200000);

    for (int s = 0; s < 3; s++) {
        int n = sizes[s];
        MPI_Status st;
        int flag;

        /* ---- A: Issend + Test while the receiver sits in a barrier ---- */
        if (active && sender) {
            MPI_Request r;
            mt_fill(buf, n, rank, s);
            MPI_Issend(buf, n, MPI_BYTE, partner, 10 + s, MPI_COMM_WORLD, &r);
            int early = 0;
            for (int i = 0; i < NPOLL; i++) {
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                if (flag) {
                    early = 1;
                    break;
                }
            }
            MT_CHECK(errs, !early, "Issend of %d bytes to %d completed before the receive was posted", n, partner);
            MPI_Barrier(MPI_COMM_WORLD);
            if (!early)
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            MT_CHECK(errs, r == MPI_REQUEST_NULL, "request not freed after completion");
        } else if (active) {
            MPI_Barrier(MPI_COMM_WORLD);
            memset(buf, 0, n);
            MPI_Recv(buf, n, MPI_BYTE, partner, 10 + s, MPI_COMM_WORLD, &st);
            long bad = mt_verify(buf, n, partner, s);
            MT_CHECK(errs, bad < 0, "A: data from %d differs at byte %ld", partner, bad);
        } else {
            MPI_Barrier(MPI_COMM_WORLD);
        }

        /* ---- B: blocking Ssend, observed through a later "done" message ---- */
        if (active && sender) {
            int one = 1;
            mt_fill(buf, n, rank, s + 50);
            MPI_Ssend(buf, n, MPI_BYTE, partner, 20 + s, MPI_COMM_WORLD);
            MPI_Send(&one, 1, MPI_INT, partner, 30 + s, MPI_COMM_WORLD);
        } else if (active) {
            int done = 0;
            MPI_Request r;
            MPI_Irecv(&done, 1, MPI_INT, partner, 30 + s, MPI_COMM_WORLD, &r);
            int early = 0;
            for (int i = 0; i < NPOLL; i++) {
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                if (flag) {
                    early = 1;
                    break;
                }
            }
            MT_CHECK(errs, !early, "B: MPI_Ssend of %d bytes returned before the receive was posted", n);
            MPI_Recv(buf, n, MPI_BYTE, partner, 20 + s, MPI_COMM_WORLD, &st);
            long bad = mt_verify(buf, n, partner, s + 50);
            MT_CHECK(errs, bad < 0, "B: data from %d differs at byte %ld", partner, bad);
            if (!early)
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "B: done flag", 1, done);
        }

        /* ---- C: Issend to self ---- */
        {
            MPI_Request r;
            int x = 1234 + s, y = 0;
            MPI_Issend(&x, 1, MPI_INT, 0, 40, MPI_COMM_SELF, &r);
            int early = 0;
            for (int i = 0; i < 100; i++) {
                MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
                if (flag)
                    early = 1;
                if (flag)
                    break;
            }
            MT_CHECK(errs, !early, "C: Issend to self completed before the receive was posted");
            MPI_Recv(&y, 1, MPI_INT, 0, 40, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            if (!early)
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "C: value", x, y);
        }
    }
    free(buf);
    return mt_finish(errs);
}
