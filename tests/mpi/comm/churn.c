/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators created and freed in a loop with collectives in between, so that their shared collective
 * state is made and released many times: each round duplicates (or splits) MPI_COMM_WORLD, runs a small
 * broadcast from a rotating root (the eager path: the root may free the communicator before the others
 * have read), an allreduce and a barrier, and frees it at once; every result is checked. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 300; round++) {
        MPI_Comm c;
        if (round % 3 == 2)
            MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
        else
            MPI_Comm_dup(MPI_COMM_WORLD, &c);
        int cr, cs;
        MPI_Comm_rank(c, &cr);
        MPI_Comm_size(c, &cs);
        int root = round % cs, v = cr == root ? 1000 + round : -1, sum = 0;
        MPI_Bcast(&v, 1, MPI_INT, root, c);
        if (v != 1000 + round)
            MT_ERR(errs, "round %d: bcast gave %d", round, v);
        MPI_Allreduce(&cr, &sum, 1, MPI_INT, MPI_SUM, c);
        if (sum != cs * (cs - 1) / 2)
            MT_ERR(errs, "round %d: allreduce gave %d", round, sum);
        if (round % 2)
            MPI_Barrier(c);
        MPI_Comm_free(&c);
    }
    return mt_finish(errs);
}
