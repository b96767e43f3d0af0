/* SPDX-License-Identifier: BSD-3-Clause */
/* privatize_switch: what each privatization method adds to a switch between ranks and to a thread_local
 * access.  Built three times, one per method (-privatize=auto, tls, none: PRIV_METHOD); run it with all
 * ranks on one PE (vmpirun -n N -p 1).  Rank 0 reports, each the median of 5 timed batches:
 *
 *   yield_ns   ns per switch: every rank calls AMPI_Yield in a loop, so each call is one switch from a rank
 *              to the next (through the scheduler); the batch's time is the slowest rank's loop, divided by
 *              the yields of all ranks.  With auto, every rank runs this loop in its own copy of the code.
 *   tls_ns     ns per call of a function the compiler cannot inline that increments a __thread variable
 *              (auto and tls: the image is position-independent, so the access calls __tls_get_addr, which
 *              vmpi binds to its own; none: the executable's %fs-relative access);
 *   global_ns  the same function incrementing a plain global: the cost of the call alone, to subtract.
 * The loops run on rank 0 while the other ranks wait in a barrier.  Each rank then checks that its
 * thread_local holds its own count: with auto and tls a rank that sees another's fails the run (with none
 * the ranks of a PE share it, as documented, and the count is only reported).
 *
 * Options: -y YIELDS  switches per batch, all ranks together (default 2000000)
 *          -a CALLS   calls per batch of the access loops (default 20000000)
 * Output (rank 0): "# key: value" header lines, then "name value" lines, then "# done". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PRIV_METHOD
#define PRIV_METHOD "unknown"
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define OPAQUE __attribute__((noipa))
#else
#define OPAQUE __attribute__((noinline))
#endif

#define BATCHES 5

__thread long tl_counter; /* global, not static: general-dynamic model in a position-independent image */
long plain_counter;

OPAQUE long tl_bump(void) { return ++tl_counter; }
OPAQUE long plain_bump(void) { return ++plain_counter; }

static double median(double *t, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return t[n / 2];
}

static double access_ns(long (*bump)(void), long calls)
{
    double t[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = MPI_Wtime();
        for (long i = 0; i < calls; i++)
            bump();
        t[b] = (MPI_Wtime() - t0) / (double)calls * 1e9;
    }
    return median(t, BATCHES);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, *pes, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &pes, &flag);
    long yields = 2000000, calls = 20000000;
    for (int a = 1; a < argc; a++) { /* no getopt: its state is a global of libc, shared by the ranks */
        long *v = !strcmp(argv[a], "-y") ? &yields : !strcmp(argv[a], "-a") ? &calls : NULL;
        if (!v || a + 1 == argc || (*v = atol(argv[++a])) < 1) {
            if (rank == 0)
                fprintf(stderr, "privatize_switch: usage: privatize_switch [-y YIELDS] [-a CALLS]\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
    }
    if (rank == 0)
        printf("# vmpi-bench privatize_switch\n# method: %s\n# ranks: %d\n# pes: %d\n", PRIV_METHOD, size,
               flag ? *pes : -1);

    long per_rank = yields / size > 0 ? yields / size : 1;
    double t[BATCHES];
    for (int i = 0; i < 1000; i++) /* warm-up: every rank's code and stack touched */
        AMPI_Yield();
    for (int b = 0; b < BATCHES; b++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < per_rank; i++)
            AMPI_Yield();
        double mine = MPI_Wtime() - t0, slowest = 0;
        MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        t[b] = slowest / ((double)per_rank * size) * 1e9;
    }
    if (rank == 0)
        printf("yield_ns %.2f\n", median(t, BATCHES));

    if (rank == 0) {
        printf("tls_ns %.2f\n", access_ns(tl_bump, calls));
        printf("global_ns %.2f\n", access_ns(plain_bump, calls));
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* every rank bumps its thread_local rank+1 times more; each must then see its own count */
    long expect = (rank == 0 ? (long)BATCHES * calls : 0) + rank + 1;
    for (int i = 0; i <= rank; i++) {
        tl_bump();
        AMPI_Yield(); /* the others run in between */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    int ok = tl_counter == expect, all = 0;
    MPI_Reduce(&ok, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* none: the ranks of a PE share its thread's thread_locals (by design) */
        printf("# thread_local private in %d of %d ranks\n", all, size);
        if (all != size && strcmp(PRIV_METHOD, "none") != 0) {
            fprintf(stderr, "privatize_switch: ERROR: a rank's thread_local was changed by another rank\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        printf("# done\n");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
