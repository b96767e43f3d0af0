/* SPDX-License-Identifier: BSD-3-Clause */
/* The last rank calls exit(3) without finalizing while the other ranks wait in an MPI_Recv from it: the job
 * ends with exit status 3. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        fflush(stdout);
        exit(3);
    }
    MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
    fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    MPI_Finalize();
    return 0;
}
