/* SPDX-License-Identifier: BSD-3-Clause */
/* lb_stencil: an imbalanced 1-D stencil for measuring load balancing (vmpi's AMPI_Migrate).
 *
 * Each rank owns a block of cells; every step it swaps one halo cell with each neighbour and then relaxes
 * its block `sweeps` times.  The first quarter of the ranks (all on PE 0 under the default block mapping)
 * relaxes `heavy` times as often: PE 0 then carries most of the work.  Every `every` steps the ranks call
 * AMPI_Migrate, where the balancer chosen with --balancer may move them.
 *
 * Output (rank 0): the wall time per step of the first period (before any balancing) and of the last
 * period, and the ideal time per step: the total compute time of all ranks in the last period divided by
 * the PEs (AMPI_NUM_WTHS).  The result is checked: the sum of all cells after the run is compared with a
 * run of the same computation on rank 0 alone.
 *
 * With -x STEP the job expands at that step (VMPIX_Set_active_pes(all PEs) before the migration point):
 * started with `vmpirun --pes-active 1`, it shows the time per step drop when the second PE joins.
 * Every period's time per step is printed too ("period K ms_per_step T").
 *
 * With -j J each rank's work also varies from step to step, by a pseudo-random factor in [1, 1 + J/4]
 * (the same for a given rank and step in every run): more ranks per PE average it out within each PE,
 * which is the overdecomposition effect the seeds show (run with -h 1 and the same total cells).
 *
 * Options: -s STEPS (60)  -e EVERY (10)  -c CELLS per rank (4096)  -w SWEEPS (8)  -h HEAVY factor (4)
 *          -x EXPAND_STEP (none)  -j JITTER (0: none; 4: up to 2x) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct opts {
    int steps, every, cells, sweeps, heavy, expand, jitter;
} opts;

/* Sweeps of rank r at step t: its weight, times the step's pseudo-random factor. */
static int sweeps_at(int base, int r, int t, const opts *o)
{
    if (o->jitter == 0)
        return base;
    unsigned long long z = ((unsigned long long)r << 32 | (unsigned)t) * 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 29)) * 0xbf58476d1ce4e5b9ull;
    double u = (double)((z ^ (z >> 32)) & 0xffff) / 65536.0; /* in [0, 1) */
    return (int)(base * (1.0 + u * o->jitter / 4.0) + 0.5);
}

static void relax(double *u, int n, int sweeps)
{
    for (int s = 0; s < sweeps; s++)
        for (int i = 1; i <= n; i++)
            u[i] = 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
}

static int work_of(int rank, int size, const opts *o) { return rank < (size + 3) / 4 ? o->sweeps * o->heavy : o->sweeps; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    opts o = {60, 10, 4096, 8, 4, 0, 0};
    /* no getopt: its state is global, and ranks share the program's globals */
    for (int a = 1; a < argc; a++) {
        const char *f = argv[a];
        int v = a + 1 < argc ? atoi(argv[++a]) : 0;
        int *dst = !strcmp(f, "-s") ? &o.steps : !strcmp(f, "-e") ? &o.every : !strcmp(f, "-c") ? &o.cells
                 : !strcmp(f, "-w") ? &o.sweeps : !strcmp(f, "-h") ? &o.heavy : !strcmp(f, "-x") ? &o.expand
                 : !strcmp(f, "-j") ? &o.jitter : NULL;
        if (dst == NULL || v < 1) {
            fprintf(stderr, "lb_stencil: bad option '%s' (-s STEPS -e EVERY -c CELLS -w SWEEPS -h HEAVY "
                            "-x EXPAND_STEP -j JITTER, positive integers)\n", f);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        *dst = v;
    }
    int rank, size, *npes, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    double *u = malloc(sizeof(double) * (size_t)(o.cells + 2));
    for (int i = 0; i <= o.cells + 1; i++)
        u[i] = (double)((rank * o.cells + i) % 17);
    double t_first = 0, t_last = 0, compute = 0, t0 = 0, t_period = MPI_Wtime();
    int first_steps = 0, last_steps = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (int step = 0; step < o.steps; step++) {
        MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[o.cells + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Sendrecv(&u[o.cells], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double tc = MPI_Wtime();
        relax(u, o.cells, sweeps_at(work_of(rank, size, &o), rank, step, &o));
        compute += MPI_Wtime() - tc;
        MPI_Barrier(MPI_COMM_WORLD);
        double now = MPI_Wtime();
        if (step < o.every) {
            t_first = now - start;
            first_steps = step + 1;
        }
        if ((step + 1) % o.every == 0 && rank == 0)
            printf("period %d ms_per_step %.4f\n", step / o.every, 1e3 * (now - t_period) / o.every);
        if ((step + 1) % o.every == 0 && step + 1 < o.steps) {
            if (o.expand && step + 1 >= o.expand && step + 1 - o.every < o.expand)
                VMPIX_Set_active_pes(*npes);
            AMPI_Migrate(MPI_INFO_NULL);
            t_period = MPI_Wtime();
            t0 = MPI_Wtime();
            last_steps = 0;
            compute = 0;
        } else {
            last_steps++;
            t_last = MPI_Wtime() - t0;
        }
    }
    double sum = 0, total = 0, all_compute = 0;
    for (int i = 1; i <= o.cells; i++)
        sum += u[i];
    MPI_Reduce(&sum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&compute, &all_compute, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("# lb_stencil: %d ranks, %d PEs, %d steps, AMPI_Migrate every %d\n", size, *npes, o.steps, o.every);
        printf("first_period_ms_per_step %.4f\n", 1e3 * t_first / first_steps);
        printf("last_period_ms_per_step %.4f\n", 1e3 * t_last / (last_steps ? last_steps : 1));
        printf("ideal_ms_per_step %.4f\n", 1e3 * all_compute / *npes / (last_steps ? last_steps : 1));
        printf("checksum %.17g\n", total);
    }
    free(u);
    MPI_Finalize();
    return 0;
}
