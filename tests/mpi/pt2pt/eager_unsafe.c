/* SPDX-License-Identifier: BSD-3-Clause */
/* The "unsafe but common" pattern: every rank does a blocking MPI_Send of a small (1 KiB) message to its
 * right neighbour BEFORE its MPI_Recv from the left.  Not guaranteed by MPI, but it works with eager
 * buffering of small messages, and real codes rely on it.  With one rank: send to oneself, then receive. */
#include "mtest.h"

#define NB 1024
#define ITERS 100

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *sb = mt_malloc(NB), *rb = mt_malloc(NB);
    if (size == 1 && MT_MPICH_BUGS) { /* MPICH 4.0 (ch4) does not buffer blocking sends to oneself */
        free(sb);
        free(rb);
        return mt_finish(errs);
    }

    for (int it = 0; it < ITERS; it++) {
        MPI_Status st;
        int cnt = -1;
        mt_fill(sb, NB, rank, it);
        MPI_Send(sb, NB, MPI_BYTE, right, it % 7, MPI_COMM_WORLD);
        memset(sb, 0, NB); /* the send has returned: the buffer is ours again */
        MPI_Recv(rb, NB, MPI_BYTE, left, it % 7, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        MT_CHECK(errs, cnt == NB && st.MPI_SOURCE == left, "iteration %d: %d bytes from %d", it, cnt, st.MPI_SOURCE);
        long bad = mt_verify(rb, NB, left, it);
        MT_CHECK(errs, bad < 0, "iteration %d: data differs at byte %ld", it, bad);
    }
    /* also both neighbours at once: send right, send left, then receive both */
    for (int it = 0; it < ITERS; it++) {
        unsigned char *rb2 = rb;
        mt_fill(sb, NB, rank, 1000 + it);
        MPI_Send(sb, NB, MPI_BYTE, right, 100, MPI_COMM_WORLD);
        MPI_Send(sb, NB, MPI_BYTE, left, 101, MPI_COMM_WORLD);
        MPI_Recv(rb2, NB, MPI_BYTE, left, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        long bad = mt_verify(rb2, NB, left, 1000 + it);
        MT_CHECK(errs, bad < 0, "two-sided iteration %d: data from the left differs at byte %ld", it, bad);
        MPI_Recv(rb2, NB, MPI_BYTE, right, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        bad = mt_verify(rb2, NB, right, 1000 + it);
        MT_CHECK(errs, bad < 0, "two-sided iteration %d: data from the right differs at byte %ld", it, bad);
    }
    free(sb);
    free(rb);
    return mt_finish(errs);
}
