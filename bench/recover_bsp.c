/* SPDX-License-Identifier: BSD-3-Clause */
/* recover_bsp: a bulk-synchronous loop with in-memory checkpoints, for what surviving a lost process costs
 * (vmpirun --recover, issue 20; bench/recover kills one of its processes and reads what it prints).
 *
 *   recover_bsp -b BYTES_PER_RANK -s STEPS -c EVERY -w WORK_MS [-z STEP:PROCS]
 *
 * Every rank holds BYTES_PER_RANK of state (malloc'ed, every page written).  Each step, every rank computes
 * for WORK_MS (a busy loop on the clock: the time a rank's step takes on its PE, whatever else shares the
 * core), rewrites a 64-byte word in every page of its state from the step number, and the job reduces a
 * checksum of every rank's state (MPI_Allreduce).  Every EVERY steps, AMPI_Migrate with
 * ampi_checkpoint=in_memory takes a checkpoint (kept in two processes under vmpirun --recover), timed by rank
 * 0 between barriers.
 *
 * Rank 0 prints, flushed:
 *   step S T          after step S, T the wall clock (CLOCK_REALTIME, s): a lost process's last step is seen
 *   ckpt S MS         a checkpoint at step S took MS ms
 *   restarted S T     the job came back from a recovery at step S's checkpoint, at wall clock T
 *   resized S MS      with -z S:K, the job went on as K processes (VMPIX_Set_procs) at step S in MS ms
 *   checksum X        at the end: the same in every run of the same arguments, lost process or not
 * Sizes take k, M, G suffixes (powers of 2). */
#define _GNU_SOURCE
#include <mpi.h>
#include "bench_common.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long bytes = 4 << 20, steps = 60, every = 10;
    double work_ms = 20;
    long zstep = 0, zprocs = 0;
    for (int a = 1; a + 1 < argc; a += 2) { /* no getopt: ranks may share the program's globals */
        if (!strcmp(argv[a], "-b"))
            bytes = bench_parse_size(argv[a + 1]);
        else if (!strcmp(argv[a], "-s"))
            steps = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-c"))
            every = atol(argv[a + 1]);
        else if (!strcmp(argv[a], "-w"))
            work_ms = atof(argv[a + 1]);
        else if (!strcmp(argv[a], "-z"))
            sscanf(argv[a + 1], "%ld:%ld", &zstep, &zprocs);
    }
    if (bytes < 4096 || steps < 1 || every < 1 || work_ms < 0) {
        if (rank == 0)
            fprintf(stderr, "usage: recover_bsp -b BYTES_PER_RANK(>=4k) -s STEPS -c EVERY -w WORK_MS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long pages = bytes / 4096;
    uint64_t *state = malloc((size_t)pages * 4096);
    if (state == NULL)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (long i = 0; i < pages * 512; i++)
        state[i] = (uint64_t)rank * 0x9e3779b97f4a7c15ull + (uint64_t)i;
    MPI_Info ckpt;
    MPI_Info_create(&ckpt);
    MPI_Info_set(ckpt, "ampi_checkpoint", "in_memory");
    uint64_t sum = 0;

    for (long s = 1; s <= steps; s++) {
        double until = MPI_Wtime() + 1e-3 * work_ms;
        while (MPI_Wtime() < until) {
        }
        uint64_t mine = 0;
        for (long p = 0; p < pages; p++) {
            uint64_t *w = &state[p * 512 + (s % 8) * 8];
            w[0] = w[0] * 6364136223846793005ull + (uint64_t)s;
            mine ^= w[0] + (uint64_t)p;
        }
        uint64_t all = 0;
        MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_BXOR, MPI_COMM_WORLD);
        sum = sum * 31 + all;
        if (rank == 0) {
            printf("step %ld %.6f\n", s, wall());
            fflush(stdout);
        }
        if (s == zstep) { /* the job goes on as zprocs processes: timed from here to its first line after */
            MPI_Info plain;
            MPI_Info_create(&plain);
            MPI_Info_set(plain, "ampi_load_balance", "false");
            if (rank == 0 && VMPIX_Set_procs((int)zprocs) != MPI_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 5);
            double t = wall();
            if (AMPI_Migrate(plain) != MPI_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 4);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0)
                printf("resized %ld %.3f\n", s, 1e3 * (wall() - t));
            fflush(stdout);
            MPI_Info_free(&plain);
        }
        if (s % every == 0 && s < steps) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t = MPI_Wtime();
            int rc = AMPI_Migrate(ckpt);
            int restarted = 0;
            VMPIX_Restarted(&restarted);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rc != MPI_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 4);
            if (rank == 0 && restarted)
                printf("restarted %ld %.6f\n", s, wall());
            else if (rank == 0)
                printf("ckpt %ld %.3f\n", s, 1e3 * (MPI_Wtime() - t));
            fflush(stdout);
        }
    }
    if (rank == 0)
        printf("checksum %016llx\n", (unsigned long long)sum);
    MPI_Info_free(&ckpt);
    free(state);
    MPI_Finalize();
    return 0;
}
