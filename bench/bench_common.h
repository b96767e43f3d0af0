/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared helpers of the vmpi benchmark programs (OSU-style micro-benchmarks).
 *
 * The programs are built unchanged against vmpi, MPICH and Open MPI, and use only the functions vmpi's
 * include/mpi.h declares.  Because vmpi runs every rank as a user-level thread of one process, the
 * programs are written to be correct there too:
 *   - no mutable global or static data (everything lives on a rank's stack or heap);
 *   - no exit() from rank code: errors end the job with MPI_Abort;
 *   - no large stack arrays (a rank's stack may be small): buffers come from the heap;
 *   - no busy polling (MPI_Test loops) in timed code: only blocking calls, so that ranks sharing a worker
 *     thread can make progress.
 * Only rank 0 prints.  Output format (parsed by bench/run):
 *   # vmpi-bench <program>
 *   # library: <first line of MPI_Get_library_version>
 *   # ranks: <N>
 *   # unit: <us|MB/s>
 *   # size <value-name>
 *   <size> <value>          one line per message size, in bytes
 *   # done                  last line; its absence means the run did not complete
 *
 * Common options: -m BYTES  largest message size
 *                 -f N      size step factor (sizes 1, N, N^2, ...; default 2)
 *                 -i X      scale iteration counts by X (default 1.0)
 *                 -t SEC    cap on the timed part of one size, in seconds (default 0.2)
 */
#ifndef VMPI_BENCH_COMMON_H
#define VMPI_BENCH_COMMON_H

#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bench_opts {
    size_t max_size;
    unsigned long factor;
    double iter_scale;
    double time_cap;
} bench_opts;

/* A size with an optional k, M or G suffix (powers of 2); 0 when it is not one. */
static inline unsigned long long bench_parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
    }
    return *end == '\0' && end != s ? v : 0;
}

static inline void bench_die(const char *prog, const char *msg)
{
    fprintf(stderr, "%s: ERROR: %s\n", prog, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

static inline void bench_check_mpi(const char *prog, int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s returned error code %d", what, rc);
        bench_die(prog, msg);
    }
}

static inline void bench_parse_opts(const char *prog, int argc, char **argv, bench_opts *o, size_t default_max)
{
    o->max_size = default_max;
    o->factor = 2;
    o->iter_scale = 1.0;
    o->time_cap = 0.2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "-m") && v) {
            o->max_size = (size_t)strtoull(v, &end, 10);
        } else if (!strcmp(a, "-f") && v) {
            o->factor = strtoul(v, &end, 10);
            if (o->factor < 2)
                bench_die(prog, "-f needs a factor >= 2");
        } else if (!strcmp(a, "-i") && v) {
            o->iter_scale = strtod(v, &end);
            if (!(o->iter_scale > 0))
                bench_die(prog, "-i needs a positive scale");
        } else if (!strcmp(a, "-t") && v) {
            o->time_cap = strtod(v, &end);
            if (!(o->time_cap > 0))
                bench_die(prog, "-t needs a positive number of seconds");
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown or incomplete option '%s' (options: -m BYTES -f N -i X -t SEC)", a);
            bench_die(prog, msg);
        }
        if (end == NULL || *end != '\0')
            bench_die(prog, "malformed option value");
        i++;
    }
}

/* Takes a program's own option `flag VALUE` out of argv (before bench_parse_opts sees it): returns VALUE,
 * or def if the flag is absent.  The last occurrence wins. */
static inline const char *bench_take_opt(const char *prog, int *argc, char **argv, const char *flag, const char *def)
{
    const char *v = def;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], flag)) {
            if (i + 1 >= *argc) {
                char msg[128];
                snprintf(msg, sizeof msg, "option %s needs a value", flag);
                bench_die(prog, msg);
            }
            v = argv[++i];
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    return v;
}

/* The next message size after s: 0 -> 1, then multiplied by the factor. */
static inline size_t bench_next_size(size_t s, const bench_opts *o)
{
    return s == 0 ? 1 : s * o->factor;
}

/* Page-aligned, pre-faulted heap buffer. */
static inline unsigned char *bench_alloc(const char *prog, size_t n)
{
    size_t sz = (n + 4095) / 4096 * 4096;
    if (sz == 0)
        sz = 4096;
    unsigned char *p = aligned_alloc(4096, sz);
    if (!p)
        bench_die(prog, "out of memory");
    memset(p, 0, sz);
    return p;
}

/* Iterations for a size: nominal (decreasing with size), scaled, at least min_iters. */
static inline int bench_scaled(int nominal, const bench_opts *o, int min_iters)
{
    double v = nominal * o->iter_scale;
    int n = v < 1 ? 1 : (int)v;
    return n < min_iters ? min_iters : n;
}

/* Rank 0 turns a time per iteration into a number of iterations: the nominal count, cut so that they take
 * no longer than cap seconds, but never below min_iters.  Every rank gets the same answer (MPI_Bcast
 * from rank 0). */
/* Iterations that fit: `nominal`, cut to what fits in `cap` at `per_iter` seconds each, at least min_iters. */
static inline int bench_fit_iters(int nominal, double per_iter, double cap, int min_iters)
{
    int iters = nominal;
    if (per_iter > 0) {
        double fit = cap > 0 ? cap / per_iter : 0;
        if (fit < iters)
            iters = (int)fit;
        if (iters < min_iters)
            iters = min_iters;
    }
    return iters;
}

static inline int bench_agree_iters(const char *prog, int rank, int nominal, double per_iter, double cap,
                                    int min_iters)
{
    int iters = rank == 0 ? bench_fit_iters(nominal, per_iter, cap, min_iters) : nominal;
    bench_check_mpi(prog, MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Bcast");
    return iters;
}

/* The measured loop of a benchmark: runs iterations first .. first + count - 1 (the iteration number
 * feeds the data checks). */
typedef void (*bench_body)(void *ctx, long first, long count);

/* Warm-up and timing of one message size, the same in every program:
 *   1. one iteration, timed on rank 0;
 *   2. up to `skip` warm-up iterations, as many as fit in a quarter of the time cap;
 *   3. the timed iterations, in BENCH_BATCHES batches, each timed on its own: `nominal` iterations in all,
 *      cut so that they fit in the time cap, but at least min_iters.  Rank 0 sizes every batch from the
 *      time per iteration seen so far and the time left, so that a machine that slows down mid-way (a
 *      busy neighbour) does not stretch the run far past the cap.
 * All counts are decided by rank 0 and sent to every rank (MPI_Bcast, outside the timed parts); the
 * timed part starts right after a barrier.  Returns this rank's time per iteration in seconds: the median
 * over the batches, so that one burst of noise (a preempted virtual CPU, say) does not move the result. */
#define BENCH_BATCHES 5
/* `alone`: only the calling rank times (the others wait elsewhere): no barriers, no broadcast of the counts. */
static inline double bench_time_steps(const char *prog, int rank, const bench_opts *o, bench_body body, void *ctx,
                                      int skip, int nominal, int min_iters, int alone)
{
#define BENCH_ITERS(n, per, cap, min)                                                                          \
    (alone ? bench_fit_iters(n, per, cap, min) : bench_agree_iters(prog, rank, n, per, cap, min))
    if (!alone)
        bench_check_mpi(prog, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    double t0 = MPI_Wtime();
    body(ctx, 0, 1);
    double per_iter = MPI_Wtime() - t0;
    int warm = BENCH_ITERS(skip, per_iter, o->time_cap / 4, 1);
    t0 = MPI_Wtime();
    body(ctx, 1, warm);
    per_iter = (MPI_Wtime() - t0) / warm;

    double t[BENCH_BATCHES], left = o->time_cap;
    int min_batch = (min_iters + BENCH_BATCHES - 1) / BENCH_BATCHES;
    int nominal_batch = (nominal + BENCH_BATCHES - 1) / BENCH_BATCHES;
    long it = 1 + warm;
    if (!alone)
        bench_check_mpi(prog, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    for (int b = 0; b < BENCH_BATCHES; b++) {
        int n = BENCH_ITERS(nominal_batch, per_iter, left / (BENCH_BATCHES - b), min_batch < 1 ? 1 : min_batch);
        t0 = MPI_Wtime();
        body(ctx, it, n);
        double dt = MPI_Wtime() - t0;
        t[b] = dt / n;
        per_iter = t[b];
        left -= dt;
        it += n;
    }
#undef BENCH_ITERS
    for (int i = 1; i < BENCH_BATCHES; i++) /* insertion sort of 5 */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return t[BENCH_BATCHES / 2];
}

static inline double bench_time(const char *prog, int rank, const bench_opts *o, bench_body body, void *ctx,
                                int skip, int nominal, int min_iters)
{
    return bench_time_steps(prog, rank, o, body, ctx, skip, nominal, min_iters, 0);
}

/* The byte pattern of the full-buffer checks. */
static inline unsigned char bench_pattern(size_t i, unsigned seed)
{
    return (unsigned char)((i * 131u + seed * 7u + (i >> 8)) & 0xff);
}

static inline void bench_fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = bench_pattern(i, seed);
}

/* Returns the first index that does not match the pattern, or n if all match. */
static inline size_t bench_verify(const unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != bench_pattern(i, seed))
            return i;
    return n;
}

/* The one-byte marker of iteration it: consecutive iterations always differ. */
static inline unsigned char bench_marker(long it, unsigned salt)
{
    return (unsigned char)((it * 37 + salt * 101 + 11) & 0xff);
}

/* Stamps the first and last byte of a message with marker m (and m ^ 0x5a); bench_stamped checks them. */
static inline void bench_stamp(unsigned char *b, size_t n, unsigned char m)
{
    if (n) {
        b[n - 1] = (unsigned char)(m ^ 0x5a);
        b[0] = m;
    }
}

static inline int bench_stamped(const unsigned char *b, size_t n, unsigned char m)
{
    return n == 0 || (b[0] == m && b[n - 1] == (n > 1 ? (unsigned char)(m ^ 0x5a) : m));
}

static inline void bench_header(const char *prog, int rank, int nranks, const char *unit, const char *value_name)
{
    if (rank != 0)
        return;
    /* on the heap: MPI_MAX_LIBRARY_VERSION_STRING is large and a rank's stack may be small */
    char *lib = calloc(MPI_MAX_LIBRARY_VERSION_STRING + 1, 1);
    int len = 0;
    if (!lib)
        bench_die(prog, "out of memory");
    if (MPI_Get_library_version(lib, &len) != MPI_SUCCESS)
        snprintf(lib, MPI_MAX_LIBRARY_VERSION_STRING, "unknown");
    lib[strcspn(lib, "\r\n")] = '\0';
    printf("# vmpi-bench %s\n# library: %s\n# ranks: %d\n# unit: %s\n# size %s\n", prog, lib, nranks, unit,
           value_name);
    fflush(stdout);
    free(lib);
}

static inline void bench_footer(int rank)
{
    if (rank == 0) {
        printf("# done\n");
        fflush(stdout);
    }
}

/* A system-wide monotonic clock in seconds, comparable across the processes of one machine (MPI_Wtime is
 * not: Open MPI's counts from each process's start). */
static inline double bench_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
