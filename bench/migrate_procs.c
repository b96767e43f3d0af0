/* SPDX-License-Identifier: BSD-3-Clause */
/* migrate_procs: the cost of moving a rank between two processes (issue 20), against the bytes it holds.
 *
 * Run as 3 ranks in 2 processes of one PE each (vmpirun --procs 2 -n 3 -p 1): rank 0 stays in process 0 and
 * rank 1 in process 1 (a process keeps a rank), rank 2 holds SIZE bytes of heap (written: every page is in
 * use) and moves to the other process at each of `iters` migration points (AMPI_Migrate_to_pe); then as many
 * migration points where nothing moves (the synchronization, the job-wide quiescence check and the stop).
 * For each size rank 0 prints one line:
 *   size_bytes  us_per_point_with_move  us_per_point_without  us_move  slot_MB_per_s
 * where us_move is the difference (the move itself) and slot_MB_per_s is size over it.
 *
 * Options: -i ITERS (10)  -s SIZE[,SIZE...] (0,1M,16M,64M,256M; k/M/G are powers of 2) */
#include <mpi.h>
#include "bench_common.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double points(int n, int move_to)
{
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "ampi_load_balance", "false"); /* only the placement requests are applied */
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int i = 0; i < n; i++) {
        if (move_to >= 0) {
            int *pe, flag;
            MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
            AMPI_Migrate_to_pe(*pe == 0 ? 1 : 0);
        }
        AMPI_Migrate(hints);
    }
    t = MPI_Wtime() - t;
    MPI_Info_free(&hints);
    return t / n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int iters = 10, rank, size, npes, *attr, flag;
    long sizes[32];
    int nsizes = 0;
    const char *list = "0,1M,16M,64M,256M";
    for (int a = 1; a < argc; a++) { /* no getopt: ranks may share the program's globals */
        if (!strcmp(argv[a], "-i") && a + 1 < argc)
            iters = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-s") && a + 1 < argc)
            list = argv[++a];
        else {
            fprintf(stderr, "migrate_procs: usage: migrate_procs [-i ITERS] [-s SIZE,SIZE...]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    char *copy = strdup(list);
    for (char *tok = strtok(copy, ","); tok && nsizes < 32; tok = strtok(NULL, ","))
        sizes[nsizes++] = bench_parse_size(tok);
    free(copy);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &attr, &flag);
    npes = *attr;
    if (size != 3 || npes != 2) {
        if (rank == 0)
            fprintf(stderr, "migrate_procs: run as vmpirun --procs 2 -n 3 -p 1 (got %d ranks, %d PEs)\n", size, npes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        printf("# size_bytes us_per_point_with_move us_per_point_without us_move slot_MB_per_s\n");
    points(2, rank == 2 ? 1 : -1); /* warm-up: the transport's bulk worker and its connections */
    for (int k = 0; k < nsizes; k++) {
        char *mem = NULL;
        if (rank == 2 && sizes[k] > 0) {
            mem = malloc((size_t)sizes[k]);
            memset(mem, 0x5a, (size_t)sizes[k]);
        }
        double with = points(iters, rank == 2 ? 1 : -1), without = points(iters, -1);
        if (rank == 2 && sizes[k] > 0) {
            for (long j = 0; j < sizes[k]; j += 4096)
                if (mem[j] != 0x5a) {
                    fprintf(stderr, "migrate_procs: the moved rank's memory is wrong at byte %ld\n", j);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
            free(mem);
        }
        double move = with - without;
        if (rank == 0)
            printf("%ld %.1f %.1f %.1f %.1f\n", sizes[k], 1e6 * with, 1e6 * without, 1e6 * move,
                   move > 0 ? 1e-6 * (double)sizes[k] / move : 0);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
