/* SPDX-License-Identifier: BSD-3-Clause */
/* The C reference of the Fortran ping-pongs (pingpong_f08.f90, pingpong_mpi.f90): ranks 0 and 1 bounce a
 * message of N bytes ITERS times (after ITERS/10 warm-up round trips); rank 0 prints the one-way latency
 * in µs, "latency N us".  Usage: pingpong N ITERS. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 0, iters = argc > 2 ? atoi(argv[2]) : 100000, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc((size_t)n + 1, 1);
    double t0 = 0;
    for (int it = -iters / 10; it < iters; it++) {
        if (it == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            t0 = MPI_Wtime();
        }
        if (rank == 0) {
            MPI_Send(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
            MPI_Recv(buf, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("latency %d %.4f us\n", n, (MPI_Wtime() - t0) / iters / 2 * 1e6);
    free(buf);
    MPI_Finalize();
    return 0;
}
