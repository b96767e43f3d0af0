/* SPDX-License-Identifier: BSD-3-Clause */
/* The last rank recurses without end while the others wait for it: its stack (in its isomalloc slot) runs
 * into the guard page below, and the job dies of SIGSEGV with "rank R overflowed its stack" and the option
 * to raise the stack size. */
#include "mtest.h"

static int deep(int n, volatile char *up)
{
    volatile char frame[512];
    frame[0] = (char)n;
    frame[511] = up ? up[0] : 0;
    return deep(n + 1, frame) + frame[511]; /* not a tail call: every level keeps its frame */
}

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        x = deep(0, NULL);
    MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
    fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    MPI_Finalize();
    return 0;
}
