/* SPDX-License-Identifier: BSD-3-Clause */
/* The transfers of ARMCI's perf.c (GlobalArrays armci/testing/perf.c, the seed paper's Figs. 4 and 5),
 * shared by armci_perf.c (ARMCI) and rma_perf.c (the same transfers in MPI-3 RMA): sizes, sections, options,
 * the data pattern and the once-per-size check.
 *
 * Both sides hold a 550 x 550 array of doubles (row-major, rows of 4400 bytes) plus PERF_SHIFT doubles.  A
 * transfer of chunk c moves c*c doubles from (or to) element `off` of both arrays:
 *   contig   one piece of c*c doubles (8 B .. 2 MiB for perf.c's 28 chunk sizes);
 *   strided  a c x c section: c rows of c doubles, 4400 bytes apart (ARMCI: count[0] = 8c, count[1] = c,
 *            stride[0] = 4400, one stride level; MPI: MPI_Type_vector(c, c, 550, MPI_DOUBLE)).
 * Successive calls alternate off between 0 and PERF_SHIFT (128 doubles), as perf.c does, so that consecutive
 * calls do not touch exactly the same lines.
 *
 * Options taken out of argv (before bench_parse_opts sees -m -i -t):
 *   -k get|put|acc      the operation (default get)
 *   -l contig|strided   the layout (default contig)
 *   -T RANK             the target process (default 1; the origin is always 0; 0 = the origin itself)
 *   -c C,C,...          chunk sizes (default perf.c's 28: 1 .. 512)
 *   -u us|MB/s          the value printed per size: µs per call (default) or MB/s (10^6 bytes per second)
 * -m BYTES drops the chunks whose transfer is larger; -f is accepted and ignored (the sizes are perf.c's). */
#ifndef VMPI_BENCH_PERF_SECTIONS_H
#define VMPI_BENCH_PERF_SECTIONS_H

#include "bench_common.h"

enum { PERF_SIZE = 550, PERF_SHIFT = 128, PERF_ELEMS = PERF_SIZE * PERF_SIZE + PERF_SHIFT, PERF_MAX_CHUNKS = 64 };

typedef enum perf_kind { PERF_GET, PERF_PUT, PERF_ACC } perf_kind;

typedef struct perf_opts {
    perf_kind kind;
    int strided, target, mbps;
    int nchunks;
    int chunk[PERF_MAX_CHUNKS];
    bench_opts b;
} perf_opts;

static inline const char *perf_kind_name(perf_kind k)
{
    return k == PERF_GET ? "get" : k == PERF_PUT ? "put" : "acc";
}

/* Parses the options above and the common ones; the origin is rank 0, the target must exist. */
static inline void perf_parse(const char *prog, int *argc, char **argv, int nranks, perf_opts *o)
{
    static const int perf_chunks[] = {1,  3,  4,  6,  9,   12,  16,  20,  24,  30,  40,  48,  52,  64,
                                      78, 91, 104, 128, 142, 171, 210, 256, 300, 353, 400, 440, 476, 512};
    const char *k = bench_take_opt(prog, argc, argv, "-k", "get");
    const char *l = bench_take_opt(prog, argc, argv, "-l", "contig");
    const char *t = bench_take_opt(prog, argc, argv, "-T", "1");
    const char *c = bench_take_opt(prog, argc, argv, "-c", NULL);
    const char *u = bench_take_opt(prog, argc, argv, "-u", "us");
    bench_parse_opts(prog, *argc, argv, &o->b, (size_t)PERF_SIZE * PERF_SIZE * sizeof(double));
    if (!strcmp(k, "get"))
        o->kind = PERF_GET;
    else if (!strcmp(k, "put"))
        o->kind = PERF_PUT;
    else if (!strcmp(k, "acc"))
        o->kind = PERF_ACC;
    else
        bench_die(prog, "-k takes get, put or acc");
    if (strcmp(l, "contig") && strcmp(l, "strided"))
        bench_die(prog, "-l takes contig or strided");
    o->strided = !strcmp(l, "strided");
    if (strcmp(u, "us") && strcmp(u, "MB/s"))
        bench_die(prog, "-u takes us or MB/s");
    o->mbps = !strcmp(u, "MB/s");
    char *end;
    long tv = strtol(t, &end, 10);
    if (*end || tv < 0 || tv >= nranks)
        bench_die(prog, "-T needs a rank of the job (0 .. size-1)");
    o->target = (int)tv;
    o->nchunks = 0;
    if (c) {
        for (const char *p = c; *p;) {
            long v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > 512 || o->nchunks == PERF_MAX_CHUNKS)
                bench_die(prog, "-c takes up to 64 comma-separated chunk sizes from 1 to 512");
            o->chunk[o->nchunks++] = (int)v;
            p = *end == ',' ? end + 1 : end;
            if (*end && *end != ',')
                bench_die(prog, "-c takes comma-separated numbers");
        }
    } else {
        for (size_t i = 0; i < sizeof perf_chunks / sizeof perf_chunks[0]; i++)
            o->chunk[o->nchunks++] = perf_chunks[i];
    }
    int kept = 0; /* -m: the largest transfer */
    for (int i = 0; i < o->nchunks; i++)
        if ((size_t)o->chunk[i] * o->chunk[i] * sizeof(double) <= o->b.max_size)
            o->chunk[kept++] = o->chunk[i];
    o->nchunks = kept;
}

/* Bytes moved by one call of chunk c (both layouts move c*c doubles). */
static inline long perf_bytes(int c)
{
    return (long)c * c * (long)sizeof(double);
}

/* Iterations per size: about 256 MiB of data or 100,000 calls, at least 50 (perf_time cuts them to its time
 * cap); warm-up a tenth of that. */
static inline int perf_nominal(int c)
{
    long n = (256L << 20) / perf_bytes(c);
    return n > 100000 ? 100000 : n < 50 ? 50 : (int)n;
}

/* The timing of one size, run by the origin alone while every other process waits in a barrier (perf.c's
 * other processes sleep): bench_time's steps without its barriers and MPI_Bcast of the counts.  The waiting processes then block in the barrier: under vmpi, ranks waiting in a broadcast spin
 * and yield for a while (src/mpi/coll/shm.c), and the 30 such ranks sharing the origin's PE in a 64-rank run
 * would add a round of context switches every 16 ARMCI calls (vmpi's ARMCI yields to ready ranks that
 * often), which is the cost of that waiting rather than of the transfers. */
static inline double perf_time(const bench_opts *o, bench_body body, void *ctx, int skip, int nominal, int min_iters)
{
    return bench_time_steps("perf", 0, o, body, ctx, skip, nominal, min_iters, 1);
}

/* Whether element i of the array lies in the section of chunk c at offset 0. */
static inline int perf_in_section(int strided, int c, long i)
{
    if (!strided)
        return i < (long)c * c;
    return i / PERF_SIZE < c && i % PERF_SIZE < c;
}

/* The data: small integers (exact in doubles, and their sums too), different per seed. */
static inline double perf_val(long i, unsigned seed)
{
    return (double)((i * 7 + (long)seed * 13 + (i >> 9)) % 1021);
}

static inline void perf_fill(double *a, unsigned seed)
{
    for (long i = 0; i < PERF_ELEMS; i++)
        a[i] = perf_val(i, seed);
}

/* Checks a whole array after one transfer of chunk c at offset 0: the section must hold `in`'s values
 * (in_seed; for acc: dst + scale * src), every other element `out_seed`'s (nothing outside the section may
 * change).  Returns the first bad index, or -1. */
static inline long perf_verify(const double *a, int strided, int c, perf_kind kind, unsigned dst_seed,
                               unsigned src_seed, double scale)
{
    for (long i = 0; i < PERF_ELEMS; i++) {
        double want = perf_val(i, dst_seed);
        if (perf_in_section(strided, c, i))
            want = kind == PERF_ACC ? want + scale * perf_val(i, src_seed) : perf_val(i, src_seed);
        double d = a[i] - want;
        if (d > 1e-9 * (want < 0 ? -want : want) + 1e-12 || -d > 1e-9 * (want < 0 ? -want : want) + 1e-12)
            return i;
    }
    return -1;
}

static inline void perf_check_failed(const char *prog, const perf_opts *o, int c, int rank, long bad,
                                     const double *a)
{
    char msg[256];
    snprintf(msg, sizeof msg, "data check failed on rank %d: %s %s of chunk %d (%ld bytes), element %ld (row %ld, "
             "column %ld) is %g",
             rank, o->strided ? "strided" : "contiguous", perf_kind_name(o->kind), c, perf_bytes(c), bad,
             bad / PERF_SIZE, bad % PERF_SIZE, a[bad]);
    bench_die(prog, msg);
}

/* The header of the output (bench_common.h's format) and a line saying what was measured. */
static inline void perf_header(const char *prog, int rank, int nranks, const perf_opts *o, const char *how)
{
    bench_header(prog, rank, nranks, o->mbps ? "MB/s" : "us", o->mbps ? "bandwidth_MBps" : "latency_us");
    if (rank == 0) {
        printf("# %s %s, rank 0 -> rank %d, %s; 550 x 550 doubles, offsets alternating 0 / %d doubles\n",
               o->strided ? "strided (c x c section, rows 4400 B apart)" : "contiguous (c*c doubles)",
               perf_kind_name(o->kind), o->target, how, PERF_SHIFT);
        fflush(stdout);
    }
}

static inline void perf_print(int rank, const perf_opts *o, int c, double secs)
{
    if (rank == 0) {
        printf("%ld %.6g\n", perf_bytes(c), o->mbps ? (double)perf_bytes(c) / secs / 1e6 : secs * 1e6);
        fflush(stdout);
    }
}

#endif
