/* SPDX-License-Identifier: BSD-3-Clause */
/* Exit paths, chosen by argv-free rank roles: the testlist runs it with an expected exit status.
 * VMPI_TEST_MODE selects: fatal (bad rank under ERRORS_ARE_FATAL), abort (MPI_Abort 7 while others wait),
 * ret42 (one rank returns 42 after Finalize), exit3 (one rank calls exit(3) before Finalize). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    const char *mode = getenv("VMPI_TEST_MODE");
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!mode || !strcmp(mode, "fatal")) {
        if (rank == size - 1)
            MPI_Send(&v, 1, MPI_INT, size + 1, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "abort")) {
        if (rank == size - 1)
            MPI_Abort(MPI_COMM_WORLD, 7);
        MPI_Recv(&v, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(mode, "exit3")) {
        if (rank == size - 1)
            exit(3);
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (!strcmp(mode, "deadlock")) {
        MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return rank == size - 1 && mode && !strcmp(mode, "ret42") ? 42 : 0;
}
