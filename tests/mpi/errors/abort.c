/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Abort(MPI_COMM_WORLD, 7) from the last rank while all other ranks wait in an MPI_Recv from it: the whole
 * job ends with exit status 7. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size - 1) {
        MPI_Abort(MPI_COMM_WORLD, 7);
        fprintf(stderr, "MPI_Abort returned\n");
    } else {
        MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
        fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    }
    MPI_Finalize();
    return 0;
}
