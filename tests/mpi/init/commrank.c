/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_rank / MPI_Comm_size for MPI_COMM_WORLD and MPI_COMM_SELF; world ranks are 0..size-1, each once. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank = -1, size = -1, srank = -1, ssize = -1;

    MPI_Init(&argc, &argv);
    MT_CHECK_RC(errs, MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    MT_CHECK_RC(errs, MPI_Comm_size(MPI_COMM_WORLD, &size));
    MT_CHECK(errs, size >= 1 && rank >= 0 && rank < size, "world rank %d size %d", rank, size);
    MT_CHECK_RC(errs, MPI_Comm_rank(MPI_COMM_SELF, &srank));
    MT_CHECK_RC(errs, MPI_Comm_size(MPI_COMM_SELF, &ssize));
    MT_CHECK_INT(errs, "COMM_SELF rank", 0, srank);
    MT_CHECK_INT(errs, "COMM_SELF size", 1, ssize);

    /* sizes agree, ranks are a permutation of 0..size-1 */
    int minsz, maxsz;
    long long sum = 0, mine = rank, sumsq = 0, minesq = (long long)rank * rank;
    MPI_Allreduce(&size, &minsz, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&size, &maxsz, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK(errs, minsz == size && maxsz == size, "sizes differ: min %d max %d", minsz, maxsz);
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&minesq, &sumsq, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    long long n = size;
    MT_CHECK_INT(errs, "sum of ranks", n * (n - 1) / 2, sum);
    MT_CHECK_INT(errs, "sum of squared ranks", (n - 1) * n * (2 * n - 1) / 6, sumsq);

    /* the rank is what the others see: receive it from the left neighbour */
    int left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1;
    MPI_Status st;
    MPI_Sendrecv(&rank, 1, MPI_INT, right, 5, &got, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &st);
    MT_CHECK_INT(errs, "left neighbour's rank", left, got);
    MT_CHECK_INT(errs, "status.MPI_SOURCE", left, st.MPI_SOURCE);

    /* COMM_SELF carries messages to oneself only */
    int x = 1000 + rank, y = -1;
    MPI_Sendrecv(&x, 1, MPI_INT, 0, 9, &y, 1, MPI_INT, 0, 9, MPI_COMM_SELF, &st);
    MT_CHECK_INT(errs, "COMM_SELF sendrecv", x, y);
    MT_CHECK_INT(errs, "COMM_SELF status source", 0, st.MPI_SOURCE);

    return mt_finish(errs);
}
