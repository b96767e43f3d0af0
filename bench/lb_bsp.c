/* SPDX-License-Identifier: BSD-3-Clause */
/* lb_bsp: an imbalanced bulk-synchronous loop, to measure how close load balancing gets to the ideal.
 *
 * Every step each rank computes `units` units of work, then all ranks meet in an 8-byte MPI_Allreduce.
 * The first `heavy` ranks (all on PE 0 under the default block mapping) do `hunits` units per step, the
 * others `lunits`: with 64 ranks on 2 PEs, 16 heavy ranks of 4 units and 48 of 1, PE 0 carries 80 units and
 * PE 1 32.  After `warm` steps the ranks call AMPI_Migrate once, where the --balancer moves them; the program
 * then times `steps` more steps.
 *
 * A unit is a fixed number of iterations of a dependent integer chain (calibrated at start to about `ums`
 * milliseconds on rank 0, then broadcast), so its cost does not depend on caches or on the rank's data.
 * Each rank measures the CPU time of its own units with the PE thread's CPU clock (a unit never switches
 * out: it makes no MPI call), so the ideal is independent of what else runs on the machine:
 *   ideal = (sum over ranks of unit CPU time per step) / PEs,
 * and the report gives the measured time per step over the ideal.  Before and after balancing:
 *   before_ms_per_step, after_ms_per_step, ideal_ms_per_step, after_over_ideal.
 * Also per PE (after balancing): the ranks' units and their CPU time per step, so a missed prediction shows.
 *
 * Options: -n STEPS (50)  -w WARM (10)  -u UNIT_MS (1)  -H HEAVY_RANKS (size/4)  -h HEAVY_UNITS (4)
 *          -l LIGHT_UNITS (1)  -m (no migration: the Null baseline)  -k SKIP (2: steps after the migration
 *          left out of the timing, while the PEs settle) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct opts {
    int steps, warm, heavy, hunits, lunits, nomigrate, skip;
    double unit_ms;
} opts;

/* A dependent chain of multiply-adds: the compiler cannot shorten it, the CPU cannot overlap it. */
static uint64_t spin(uint64_t iters, uint64_t x)
{
    for (uint64_t i = 0; i < iters; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Iterations per unit: the best of several timings of a probe, scaled to unit_ms. */
static uint64_t calibrate(double unit_ms)
{
    const uint64_t probe = 1u << 20;
    double best = 1e30;
    uint64_t sink = 1;
    for (int i = 0; i < 7; i++) {
        double t = cpu_now();
        sink = spin(probe, sink);
        t = cpu_now() - t;
        if (t < best)
            best = t;
    }
    if (sink == 42) /* keep the chain */
        puts("");
    return (uint64_t)((double)probe * unit_ms * 1e-3 / best);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of v[0..n-1] (reorders v). */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Where the time of a step goes after balancing, from every rank's compute start and end (wall clock) in
 * each step.  A step runs from the first start of any rank to the first start of the next step; the PE
 * whose last rank ends last is critical.  Per step: on the critical PE, the compute (busy), the time between
 * its ranks' computations (switches, the collective's arrival), its late start (head); then the time from
 * the last end to the next step's first start (the allreduce's completion and the wake-ups); the other
 * PEs' idle time at the end.  Rank 0 prints the medians over the timed steps. */
static void breakdown(const double *span, int steps, int skip, int pe, int npes, int rank, int size)
{
    int n = 2 * steps + 1;
    double *mine = malloc(sizeof(double) * (size_t)n), *all = NULL;
    memcpy(mine, span, sizeof(double) * 2 * (size_t)steps);
    mine[n - 1] = pe;
    if (rank == 0)
        all = malloc(sizeof(double) * (size_t)n * (size_t)size);
    MPI_Gather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(mine);
    if (rank != 0)
        return;
    int m = steps - skip - 1; /* steps with a next step */
    double *col[6];
    for (int k = 0; k < 6; k++)
        col[k] = malloc(sizeof(double) * (size_t)m);
    double *busy = malloc(sizeof(double) * (size_t)npes), *first = malloc(sizeof(double) * (size_t)npes),
           *last = malloc(sizeof(double) * (size_t)npes);
    for (int s = skip; s < steps - 1; s++) {
        double start = 1e300, next = 1e300, end = -1e300;
        for (int p = 0; p < npes; p++)
            busy[p] = 0, first[p] = 1e300, last[p] = -1e300;
        for (int r = 0; r < size; r++) {
            const double *a = all + (size_t)r * (size_t)n;
            int p = (int)a[n - 1];
            busy[p] += a[2 * s + 1] - a[2 * s];
            first[p] = a[2 * s] < first[p] ? a[2 * s] : first[p];
            last[p] = a[2 * s + 1] > last[p] ? a[2 * s + 1] : last[p];
            next = a[2 * s + 2] < next ? a[2 * s + 2] : next;
        }
        int crit = 0;
        for (int p = 0; p < npes; p++) {
            start = first[p] < start ? first[p] : start;
            if (last[p] > end)
                end = last[p], crit = p;
        }
        double idle = 0;
        for (int p = 0; p < npes; p++)
            idle += p == crit ? 0 : end - last[p];
        int i = s - skip;
        col[0][i] = next - start;
        col[1][i] = busy[crit];
        col[2][i] = last[crit] - first[crit] - busy[crit];
        col[3][i] = first[crit] - start;
        col[4][i] = next - end;
        col[5][i] = npes > 1 ? idle / (npes - 1) : 0;
    }
    static const char *name[6] = {"step", "critical_busy", "critical_between", "critical_head",
                                  "end_to_next_start", "others_idle_at_end"};
    printf("breakdown (medians over %d steps, ms):", m);
    for (int k = 0; k < 6; k++) {
        printf(" %s %.3f", name[k], 1e3 * median(col[k], m));
        free(col[k]);
    }
    printf("\n");
    free(busy);
    free(first);
    free(last);
    free(all);
}

static void usage(const char *bad)
{
    fprintf(stderr, "lb_bsp: bad option '%s' (-n STEPS -w WARM -u UNIT_MS -H HEAVY_RANKS -h HEAVY_UNITS "
                    "-l LIGHT_UNITS -k SKIP -m)\n", bad);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, *npes, *mype, flag;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    opts o = {50, 10, size / 4, 4, 1, 0, 2, 1.0};
    for (int a = 1; a < argc; a++) {
        const char *f = argv[a];
        if (!strcmp(f, "-m")) {
            o.nomigrate = 1;
            continue;
        }
        if (a + 1 >= argc)
            usage(f);
        const char *v = argv[++a];
        if (!strcmp(f, "-u"))
            o.unit_ms = atof(v);
        else {
            int *dst = !strcmp(f, "-n") ? &o.steps : !strcmp(f, "-w") ? &o.warm : !strcmp(f, "-H") ? &o.heavy
                     : !strcmp(f, "-h") ? &o.hunits : !strcmp(f, "-l") ? &o.lunits : !strcmp(f, "-k") ? &o.skip
                     : NULL;
            if (dst == NULL)
                usage(f);
            *dst = atoi(v);
        }
    }
    if (o.steps <= o.skip || o.warm < 1 || o.unit_ms <= 0 || o.heavy < 0 || o.hunits < 0 || o.lunits < 0)
        usage("(values)");

    /* rank 0's calibration is not part of its load */
    AMPI_Load_stop_measure();
    uint64_t iters = rank == 0 ? calibrate(o.unit_ms) : 0;
    AMPI_Load_start_measure();
    MPI_Bcast(&iters, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    int units = rank < o.heavy ? o.hunits : o.lunits;
    uint64_t x = (uint64_t)rank + 1;
    double sum = 0, in = 1;

    /* Phase 0: before balancing; phase 1: after the migration point (or just more steps with -m).  Every
     * rank notes the CPU time of its units per step, rank 0 also when it leaves each step's allreduce. */
    int nsteps[2] = {o.warm, o.steps};
    double *step_cpu[2], *step_end[2];
    double *span = calloc(2 * (size_t)o.steps, sizeof(double)); /* after balancing: compute start and end */
    for (int phase = 0; phase < 2; phase++) {
        step_cpu[phase] = calloc((size_t)nsteps[phase], sizeof(double));
        step_end[phase] = calloc((size_t)nsteps[phase] + 1, sizeof(double));
    }
    for (int phase = 0; phase < 2; phase++) {
        MPI_Barrier(MPI_COMM_WORLD);
        step_end[phase][0] = MPI_Wtime();
        for (int s = 0; s < nsteps[phase]; s++) {
            double c = cpu_now(), w = MPI_Wtime();
            for (int u = 0; u < units; u++)
                x = spin(iters, x);
            if (phase == 1) {
                span[2 * s] = w;
                span[2 * s + 1] = MPI_Wtime();
            }
            step_cpu[phase][s] = cpu_now() - c;
            MPI_Allreduce(&in, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            step_end[phase][s + 1] = MPI_Wtime();
        }
        if (phase == 0 && !o.nomigrate)
            AMPI_Migrate(MPI_INFO_NULL);
    }
    double ms[2], ms_mean[2], ideal[2];
    for (int phase = 0; phase < 2; phase++) {
        int n = nsteps[phase], first = phase ? o.skip : 0;
        double *all = calloc((size_t)n, sizeof(double)), *took = calloc((size_t)n, sizeof(double));
        MPI_Reduce(step_cpu[phase], all, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        for (int s = 0; s < n; s++) {
            took[s] = step_end[phase][s + 1] - step_end[phase][s];
            all[s] /= *npes;
        }
        ms[phase] = 1e3 * median(took + first, n - first);
        ms_mean[phase] = 1e3 * (step_end[phase][n] - step_end[phase][first]) / (n - first);
        ideal[phase] = 1e3 * median(all + first, n - first);
        free(all);
        free(took);
    }
    /* Per-PE totals after balancing: each rank adds its units and CPU time to its PE's entry. */
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &mype, &flag);
    int np = *npes;
    double *pe_cpu = calloc((size_t)np, sizeof(double)), *pe_cpu_all = calloc((size_t)np, sizeof(double));
    int *pe_units = calloc((size_t)np, sizeof(int)), *pe_units_all = calloc((size_t)np, sizeof(int));
    pe_cpu[*mype] = 1e3 * median(step_cpu[1] + o.skip, o.steps - o.skip);
    pe_units[*mype] = units;
    MPI_Reduce(pe_cpu, pe_cpu_all, np, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(pe_units, pe_units_all, np, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    breakdown(span, o.steps, o.skip, *mype, np, rank, size);
    free(span);
    if (sum != (double)size)
        fprintf(stderr, "lb_bsp: rank %d: allreduce gave %g, expected %d\n", rank, sum, size);
    if (x == 0) /* keep the work */
        puts("");
    if (rank == 0) {
        printf("# lb_bsp: %d ranks, %d PEs, %d heavy ranks x %d units, others %d units, unit %.2f ms, %s\n",
               size, np, o.heavy, o.hunits, o.lunits, o.unit_ms, o.nomigrate ? "no migration" : "AMPI_Migrate");
        printf("before_ms_per_step %.3f (mean %.3f)\n", ms[0], ms_mean[0]);
        printf("before_ideal_ms_per_step %.3f\n", ideal[0]);
        printf("after_ms_per_step %.3f (mean %.3f)\n", ms[1], ms_mean[1]);
        printf("ideal_ms_per_step %.3f\n", ideal[1]);
        printf("after_over_ideal %.4f (mean %.4f)\n", ms[1] / ideal[1], ms_mean[1] / ideal[1]);
        for (int p = 0; p < np; p++)
            printf("pe %d units %d cpu_ms_per_step %.3f\n", p, pe_units_all[p], pe_cpu_all[p]);
    }
    for (int phase = 0; phase < 2; phase++) {
        free(step_cpu[phase]);
        free(step_end[phase]);
    }
    free(pe_cpu);
    free(pe_cpu_all);
    free(pe_units);
    free(pe_units_all);
    MPI_Finalize();
    return sum == (double)size ? 0 : 1;
}
