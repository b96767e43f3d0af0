/* SPDX-License-Identifier: BSD-3-Clause */
/* Every rank receives from its right neighbour and nobody sends: vmpi must stop the job with a report of
 * where each rank waits (exit 1, "deadlock") instead of hanging. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
