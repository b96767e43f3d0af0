/* SPDX-License-Identifier: BSD-3-Clause */
/* A fatal error while another rank prints: the last rank sends to an invalid rank (MPI_ERRORS_ARE_FATAL) while
 * rank 0 prints lines in a loop on another PE (the ranks between wait in an MPI_Recv never satisfied, so
 * that the last one runs on its PE).  The job must end with status 1 and the error class, not
 * hang: the fatal end flushes every rank's lines and then keeps the ranks' buffers, which a rank printing on
 * another PE must not wait for while it holds its stream (glibc's lock, which the end's fflush(NULL) takes).
 * Reaching the end is a failure. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == size - 1) {
        while (MPI_Wtime() - t0 < 0.05)
            ; /* the others are printing by now */
        MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* must not return */
        fprintf(stderr, "MPI_Send to invalid rank %d returned under MPI_ERRORS_ARE_FATAL\n", size);
    } else if (rank == 0) {
        for (long i = 0; MPI_Wtime() - t0 < 20; i++) /* ended by the fatal error long before */
            printf("rank %d line %ld\n", rank, i);
        fprintf(stderr, "[rank %d] printed for 20 s: the job did not end\n", rank);
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
        fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    }
    MPI_Finalize();
    return 0; /* the run is expected to exit with status 1: returning 0 fails it */
}
