/* SPDX-License-Identifier: BSD-3-Clause */
/* Ready send: MPI_Rsend / MPI_Irsend issued only after the receiver has told us (with a zero-byte message)
 * that its receive is posted.  Pairs (0,1), (2,3)...; plus Rsend to oneself after posting the Irecv. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    const int sizes[5] = {0, 1, 1000, 70000, 1 << 20};
    int partner = rank ^ 1;
    unsigned char *buf = mt_malloc(1 << 20);

    for (int s = 0; s < 5; s++) {
        int n = sizes[s];
        for (int nb = 0; nb < 2; nb++) { /* nb: use Irsend */
            int tag = 100 + s * 2 + nb;
            MPI_Status st;
            if (partner < size && rank % 2 == 0) {
                mt_fill(buf, n, rank, tag);
                MPI_Recv(NULL, 0, MPI_BYTE, partner, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* "ready" */
                if (nb) {
                    MPI_Request r;
                    MPI_Irsend(buf, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &r);
                    MPI_Wait(&r, &st);
                } else {
                    MPI_Rsend(buf, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD);
                }
            } else if (partner < size) {
                MPI_Request r;
                memset(buf, 0, n);
                MPI_Irecv(buf, n, MPI_BYTE, partner, tag, MPI_COMM_WORLD, &r);
                MPI_Send(NULL, 0, MPI_BYTE, partner, 1, MPI_COMM_WORLD);
                MPI_Wait(&r, &st);
                int cnt = -1;
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                MT_CHECK(errs, cnt == n && st.MPI_SOURCE == partner && st.MPI_TAG == tag,
                         "status: expected %d bytes from %d tag %d, got %d from %d tag %d", n, partner, tag, cnt,
                         st.MPI_SOURCE, st.MPI_TAG);
                long bad = mt_verify(buf, n, partner, tag);
                MT_CHECK(errs, bad < 0, "Rsend data (%d bytes) differs at byte %ld", n, bad);
            }
        }
    }

    /* to oneself */
    {
        int x[4] = {1, 2, 3, 4}, y[4] = {0};
        MPI_Request r;
        MPI_Irecv(y, 4, MPI_INT, 0, 7, MPI_COMM_SELF, &r);
        MPI_Rsend(x, 4, MPI_INT, 0, 7, MPI_COMM_SELF);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MT_CHECK(errs, memcmp(x, y, sizeof x) == 0, "Rsend to self: wrong data");
    }
    free(buf);
    return mt_finish(errs);
}
