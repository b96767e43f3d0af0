/* SPDX-License-Identifier: BSD-3-Clause */
/* migrate_cost: the cost of a migration point.  Every rank calls AMPI_Migrate `iters` times (-i, 20) with
 * nothing else to do; rank 0 prints the wall time per call.  Run it with --balancer Null (the
 * synchronization and a stop of the world that moves nothing) and Rotate (every rank moves at every call):
 * the difference divided by the ranks is the cost of moving one rank within the process. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iters = 20; /* no getopt: its state is global, and ranks share the program's globals */
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "-i") || a + 1 == argc || (iters = atoi(argv[++a])) < 1) {
            fprintf(stderr, "migrate_cost: usage: migrate_cost [-i ITERATIONS]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    int rank, size, *pe, flag, moved = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    AMPI_Migrate(MPI_INFO_NULL); /* warm-up */
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
        int before = *pe;
        AMPI_Migrate(MPI_INFO_NULL);
        MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
        moved += *pe != before;
    }
    t = MPI_Wtime() - t;
    int all = 0;
    MPI_Reduce(&moved, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("ranks %d  us_per_migrate %.1f  ranks_moved_per_migrate %.1f\n", size, 1e6 * t / iters,
               (double)all / iters);
    MPI_Finalize();
    return 0;
}
