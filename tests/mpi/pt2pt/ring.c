/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocking MPI_Send / MPI_Recv around a ring with data patterns, for MPI_BYTE, MPI_INT and MPI_DOUBLE at
 * message sizes 0, 1, 7, 1000, 64KiB+3 and 1MiB+5 bytes (for INT and DOUBLE: the element counts whose byte
 * sizes straddle the same thresholds).
 * Phase 1: a token travels the ring (rank 0 starts), each rank checks what it gets and forwards its own data.
 * Phase 2: all ranks shift to the right at once (even ranks send first, odd ranks receive first). */
#include "mtest.h"

#define NSIZES 6
static const int byte_counts[NSIZES] = {0, 1, 7, 1000, 65536 + 3, 1048576 + 5};
static const int int_counts[NSIZES] = {0, 1, 7, 1000, 16384 + 3, 262144 + 5};
static const int dbl_counts[NSIZES] = {0, 1, 7, 1000, 8192 + 3, 131072 + 5};

static void fill(void *buf, MPI_Datatype dt, int count, int src, int id)
{
    if (dt == MPI_BYTE)
        mt_fill(buf, (size_t)count, src, id);
    else if (dt == MPI_INT)
        for (int i = 0; i < count; i++)
            ((int *)buf)[i] = src * 1000003 + id * 7919 + i * 3 - 5000;
    else
        for (int i = 0; i < count; i++)
            ((double *)buf)[i] = src * 0.5 + id * 1024.0 + i * 0.25 + 1e-3;
}

/* returns index of first mismatch or -1 */
static long verify(const void *buf, MPI_Datatype dt, int count, int src, int id)
{
    if (dt == MPI_BYTE)
        return mt_verify(buf, (size_t)count, src, id);
    for (int i = 0; i < count; i++) {
        if (dt == MPI_INT && ((const int *)buf)[i] != src * 1000003 + id * 7919 + i * 3 - 5000)
            return i;
        if (dt == MPI_DOUBLE && ((const double *)buf)[i] != src * 0.5 + id * 1024.0 + i * 0.25 + 1e-3)
            return i;
    }
    return -1;
}

static int check_recv(void *rbuf, MPI_Status *st, MPI_Datatype dt, int count, int src, int tag)
{
    int errs = 0, got = -1;
    MPI_Get_count(st, dt, &got);
    MT_CHECK(errs, got == count && st->MPI_SOURCE == src && st->MPI_TAG == tag,
             "status: expected count %d source %d tag %d, got count %d source %d tag %d", count, src, tag, got,
             st->MPI_SOURCE, st->MPI_TAG);
    long bad = verify(rbuf, dt, count, src, tag);
    MT_CHECK(errs, bad < 0, "data from %d (tag %d, count %d) differs at element %ld", src, tag, count, bad);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    const size_t maxbytes = 1048576 + 64; /* the largest message: 262144 + 5 ints */
    void *sbuf = mt_malloc(maxbytes), *rbuf = mt_malloc(maxbytes);
    const MPI_Datatype types[3] = {MPI_BYTE, MPI_INT, MPI_DOUBLE};
    const int *counts[3] = {byte_counts, int_counts, dbl_counts};

    for (int t = 0; t < 3; t++) {
        for (int s = 0; s < NSIZES; s++) {
            MPI_Datatype dt = types[t];
            int count = counts[t][s], tag = t * NSIZES + s;
            MPI_Status st;

            /* phase 1: token ring */
            fill(sbuf, dt, count, rank, tag);
            if (size == 1) {
                MPI_Request r;
                MPI_Isend(sbuf, count, dt, 0, tag, MPI_COMM_WORLD, &r);
                MPI_Recv(rbuf, count, dt, 0, tag, MPI_COMM_WORLD, &st);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
                errs += check_recv(rbuf, &st, dt, count, 0, tag);
            } else if (rank == 0) {
                MPI_Send(sbuf, count, dt, right, tag, MPI_COMM_WORLD);
                MPI_Recv(rbuf, count, dt, left, tag, MPI_COMM_WORLD, &st);
                errs += check_recv(rbuf, &st, dt, count, left, tag);
            } else {
                MPI_Recv(rbuf, count, dt, left, tag, MPI_COMM_WORLD, &st);
                errs += check_recv(rbuf, &st, dt, count, left, tag);
                MPI_Send(sbuf, count, dt, right, tag, MPI_COMM_WORLD);
            }

            /* phase 2: simultaneous shift */
            int tag2 = tag + 100;
            fill(sbuf, dt, count, rank, tag2);
            if (size == 1) {
                MPI_Sendrecv(sbuf, count, dt, 0, tag2, rbuf, count, dt, 0, tag2, MPI_COMM_WORLD, &st);
            } else if (rank % 2 == 0) {
                MPI_Send(sbuf, count, dt, right, tag2, MPI_COMM_WORLD);
                MPI_Recv(rbuf, count, dt, left, tag2, MPI_COMM_WORLD, &st);
            } else {
                MPI_Recv(rbuf, count, dt, left, tag2, MPI_COMM_WORLD, &st);
                MPI_Send(sbuf, count, dt, right, tag2, MPI_COMM_WORLD);
            }
            errs += check_recv(rbuf, &st, dt, count, left, tag2);
        }
    }
    free(sbuf);
    free(rbuf);
    return mt_finish(errs);
}
