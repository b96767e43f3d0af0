/* SPDX-License-Identifier: BSD-3-Clause */
/* Scale: a token around the ring of all ranks and an allreduce, checked; prints " No Errors". */

#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, token, sum;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        token = 0;
        if (size > 1) {
            MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else {
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank;
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    double t1 = MPI_Wtime();
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        long expect = (long)size * (size - 1) / 2;
        printf("ring of %d ranks: token %d, allreduce %d (expected %ld), %.1f us per hop\n", size, token, sum,
               expect, size > 1 ? 1e6 * (t1 - t0) / size : 0.0);
        if (token != expect || sum != expect)
            return 1;
        printf(" No Errors\n");
    }
    MPI_Finalize();
    return 0;
}
