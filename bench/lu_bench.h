/* SPDX-License-Identifier: BSD-3-Clause */
/* What bench/armci_lu.c and bench/rma_lu.c share around the factorization of lu_blocks.h: the options,
 * the header lines, the cold run with the optional check, the timed runs and their report.  The programs
 * add only their memory, their get and barrier, and (armci_lu) the adaptive calls.
 *
 * Options (each program accepts the ones it names in `allowed`):
 *   -n N          matrix order (default 1500, lu.c's)
 *   -b B          block size (default 16)
 *   -d DIST       cyclic (lu.c's 2-D block-cyclic owner, default) or block (lu-block.c's runs of blocks)
 *   -r REPS       timed factorizations after the cold one (default 5); each starts from the matrix again
 *                 (filled before it, not timed) and is timed on its own, between two barriers
 *   -c            check: a diagonally dominant matrix; after the cold run process 0 fetches every block,
 *                 multiplies L by U and compares with A; a relative error above 1e-12 ends the job with
 *                 MPI_Abort (exit status 1)
 *   -m K          (armci_lu) ARMCI_Migrate() after every K block steps
 *   --memckpt     (armci_lu) three ARMCI_MemCheckpoint() after the cold run
 *   --ckpt DIR    (armci_lu) one ARMCI_Checkpoint(DIR) after the cold run
 *   -s MODE       (rma_lu) lockall or lock
 *
 * Output (process 0; bench/run's format for programs with named values): "# key: value" lines, then "name
 * value" lines (ms per factorization, gets per factorization), "# done".
 *
 * Usable in a program with no mutable globals (vmpi runs the processes as threads of one process). */
#ifndef VMPI_BENCH_LU_BENCH_H
#define VMPI_BENCH_LU_BENCH_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu_blocks.h"

#define LU_MAX_REPS 1000
#define LU_CHECK_TOL 1e-12

typedef struct lu_opts {
    int n, b, dist, reps, check;
    int migrate_every, memckpt; /* armci_lu */
    const char *ckpt_dir;       /* armci_lu */
    const char *sync;           /* rma_lu */
} lu_opts;

static inline void lu_die(const char *prog, const char *msg)
{
    fprintf(stderr, "%s: ERROR: %s\n", prog, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static inline void lu_usage_error(const char *prog, const char *usage, int me, const char *msg)
{
    if (me == 0)
        fprintf(stderr, "%s: %s\nusage: %s %s\n", prog, msg, prog, usage);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Parses the options; `allowed` lists the program-specific ones the program accepts, each between spaces
 * (" -m --memckpt --ckpt ", " -s "). */
static inline void lu_parse_opts(const char *prog, const char *usage, const char *allowed, int argc, char **argv,
                                 int me, lu_opts *o)
{
    *o = (lu_opts){.n = 1500, .b = 16, .dist = LU_CYCLIC, .reps = 5, .sync = "lockall"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-m") || !strcmp(a, "--memckpt") || !strcmp(a, "--ckpt") || !strcmp(a, "-s")) {
            char word[16];
            snprintf(word, sizeof word, " %s ", a);
            if (!strstr(allowed, word))
                lu_usage_error(prog, usage, me, "this program has no such option");
        }
        if (!strcmp(a, "-c")) {
            o->check = 1;
            continue;
        }
        if (!strcmp(a, "--memckpt")) {
            o->memckpt = 1;
            continue;
        }
        if (!v)
            lu_usage_error(prog, usage, me, "an option is missing its value, or unknown");
        i++;
        if (!strcmp(a, "--ckpt")) {
            o->ckpt_dir = v;
        } else if (!strcmp(a, "-s")) {
            if (strcmp(v, "lockall") && strcmp(v, "lock"))
                lu_usage_error(prog, usage, me, "-s takes lockall or lock");
            o->sync = v;
        } else if (!strcmp(a, "-d")) {
            if (!strcmp(v, "cyclic"))
                o->dist = LU_CYCLIC;
            else if (!strcmp(v, "block"))
                o->dist = LU_BLOCK;
            else
                lu_usage_error(prog, usage, me, "-d takes cyclic or block");
        } else {
            char *end = NULL;
            long x = strtol(v, &end, 10);
            if (*v == '\0' || *end != '\0' || x < 0 || x > 1000000)
                lu_usage_error(prog, usage, me, "a number is malformed or out of range");
            if (!strcmp(a, "-n") && x > 0)
                o->n = (int)x;
            else if (!strcmp(a, "-b") && x > 0)
                o->b = (int)x;
            else if (!strcmp(a, "-r") && x <= LU_MAX_REPS)
                o->reps = (int)x;
            else if (!strcmp(a, "-m"))
                o->migrate_every = (int)x;
            else
                lu_usage_error(prog, usage, me, "unknown option, or its value is out of range");
        }
    }
}

/* The header lines (process 0); `impl` is one more "# key: value" line, e.g. "armci: vmpi". */
static inline void lu_print_header(const char *prog, const lu_layout *L, const lu_opts *o, const char *impl)
{
    if (L->me != 0)
        return;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\n")] = '\0';
    int maxb = 0, none = 0;
    for (int p = 0; p < L->nproc; p++) {
        maxb = L->nblocks[p] > maxb ? L->nblocks[p] : maxb;
        none += L->nblocks[p] == 0;
    }
    printf("# %s\n# library: %s\n# %s\n# procs: %d\n# n: %d\n# b: %d\n", prog, lib, impl, L->nproc, o->n, o->b);
    if (o->dist == LU_CYCLIC)
        printf("# dist: cyclic, %d x %d process grid\n", L->rows, L->cols);
    else
        printf("# dist: block, runs of %d blocks\n", L->run);
    printf("# blocks: %d x %d, at most %d per process (mean %.1f), %d processes own none\n", L->nb, L->nb, maxb,
           (double)L->nb * L->nb / L->nproc, none);
    printf("# matrix: %s\n", o->check ? "diagonally dominant (check)" : "lu.c's a_ij = i + 6j + 1, diagonal x10");
    fflush(stdout);
}

/* One factorization between two barriers; seconds (process 0's clock). */
static inline double lu_timed_factor(const char *prog, const lu_layout *L, double *mine, lu_comm *c)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (lu_factor(L, mine, c) != 0)
        lu_die(prog, "no memory for the block buffers");
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
}

/* Fills the matrix and factors it once (the cold run, printed as cold_ms); with -c, process 0 then checks
 * the factors and the job ends with exit status 1 if they are wrong. */
static inline void lu_cold_run(const char *prog, const lu_layout *L, const lu_opts *o, double *mine, lu_comm *c)
{
    int kind = o->check ? LU_MAT_CHECK : LU_MAT_TIMING;
    lu_fill(L, mine, kind);
    double cold = lu_timed_factor(prog, L, mine, c);
    if (o->check) {
        int ok = 1;
        double res = 0.0;
        if (L->me == 0) {
            double *f = (double *)malloc((size_t)o->n * o->n * sizeof(double));
            if (!f || lu_gather(L, mine, c, f) != 0)
                lu_die(prog, "no memory for the check");
            res = lu_residual(f, o->n, kind);
            free(f);
            ok = res <= LU_CHECK_TOL;
            printf("residual %.3e\n", res);
            fflush(stdout);
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (!ok) {
            if (L->me == 0)
                fprintf(stderr, "%s: check FAILED: max |LU - A| / max |A| = %.3e > %g\n", prog, res, LU_CHECK_TOL);
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    if (L->me == 0) {
        printf("cold_ms %.3f\n", 1e3 * cold);
        fflush(stdout);
    }
}

static inline int lu_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The timed runs and their report (process 0): min and median ms, GFlop/s of the median (2/3 n^3 flops),
 * gets per factorization of process 0 and of all processes, the time in gets.  Collective. */
static inline void lu_timed_runs(const char *prog, const lu_layout *L, const lu_opts *o, double *mine, lu_comm *c)
{
    if (o->reps < 1)
        return;
    int kind = o->check ? LU_MAT_CHECK : LU_MAT_TIMING;
    double *t = (double *)malloc((size_t)o->reps * sizeof(double));
    if (!t)
        lu_die(prog, "no memory");
    c->gets = 0;
    c->get_bytes = c->get_s = 0.0;
    for (int r = 0; r < o->reps; r++) {
        lu_fill(L, mine, kind);
        t[r] = lu_timed_factor(prog, L, mine, c);
    }
    long gets_all = 0;
    double get_s_max = 0.0;
    MPI_Reduce(&c->gets, &gets_all, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&c->get_s, &get_s_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (L->me == 0) {
        int R = o->reps;
        for (int r = 0; r < R; r++)
            printf("# rep %d: %.3f ms\n", r + 1, 1e3 * t[r]);
        qsort(t, (size_t)R, sizeof *t, lu_cmp_double);
        double med = R % 2 ? t[R / 2] : 0.5 * (t[R / 2 - 1] + t[R / 2]);
        printf("time_min_ms %.3f\ntime_med_ms %.3f\n", 1e3 * t[0], 1e3 * med);
        printf("gflops %.3f\n", 2.0 / 3.0 * o->n * (double)o->n * o->n / med / 1e9);
        printf("gets_rank0 %.1f\nget_ms_rank0 %.3f\nget_kb_rank0 %.1f\n", (double)c->gets / R, 1e3 * c->get_s / R,
               c->get_bytes / 1e3 / R);
        printf("gets_all %.1f\nget_ms_max %.3f\n", (double)gets_all / R, 1e3 * get_s_max / R);
        fflush(stdout);
    }
    free(t);
}

static inline void lu_print_done(int me)
{
    if (me == 0) {
        printf("# done\n");
        fflush(stdout);
    }
}

#endif
