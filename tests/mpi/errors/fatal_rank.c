/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_ERRORS_ARE_FATAL is the default on MPI_COMM_WORLD: rank 0 sends to an invalid rank, which must end the
 * whole job with a non-zero status (vmpi: status 1, and the error class name MPI_ERR_RANK is printed) while
 * the other ranks wait in an MPI_Recv that is never satisfied.  Reaching the end is a failure. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* must not return */
        fprintf(stderr, "MPI_Send to invalid rank %d returned under MPI_ERRORS_ARE_FATAL\n", size);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
        fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    }
    MPI_Finalize();
    return 0; /* the run is expected to exit with status 1: returning 0 fails it */
}
