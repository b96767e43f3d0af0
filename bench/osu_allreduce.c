/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_allreduce: time of one MPI_Allreduce (MPI_SUM of doubles) over all ranks of MPI_COMM_WORLD, in µs
 * (each rank's time per call, averaged over the ranks, as OSU's "Avg Latency"), for 8 B .. 1 MiB.
 *
 * Checks: in every timed iteration each rank puts values depending on its rank and on the iteration in the
 * first and last element, and checks both sums; after the timed loop of each size one untimed call checks
 * every element. */
#include "bench_common.h"

#define PROG "osu_allreduce"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

static inline void stamp(double *s, int c, int rank, long it)
{
    s[c - 1] = 2.0 * rank + (double)it + 1.0;
    s[0] = (double)rank + (double)it;
}

static inline void check(const double *r, int c, int nranks, long it, size_t n)
{
    double sr = (double)nranks * (nranks - 1) / 2.0; /* sum of the ranks */
    double first = sr + (double)nranks * it;
    double last = c > 1 ? 2.0 * sr + (double)nranks * (it + 1) : first;
    if (r[0] != first || r[c - 1] != last) {
        char msg[200];
        snprintf(msg, sizeof msg, "data check failed: size %zu iteration %ld: got %g..%g, want %g..%g", n, it, r[0],
                 r[c - 1], first, last);
        bench_die(PROG, msg);
    }
}

static inline void run(int rank, int nranks, double *s, double *r, int c, size_t n, long first, long count)
{
    for (long it = first; it < first + count; it++) {
        stamp(s, c, rank, it);
        CHK(MPI_Allreduce(s, r, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        check(r, c, nranks, it, n);
    }
}

typedef struct ctx {
    int rank, nranks, c;
    double *s, *r;
    size_t n;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *x = p;
    run(x->rank, x->nranks, x->s, x->r, x->c, x->n, first, count);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    bench_parse_opts(PROG, argc, argv, &o, (size_t)1 << 20);
    if (o.max_size < sizeof(double))
        bench_die(PROG, "-m must be at least 8");

    double *s = (double *)bench_alloc(PROG, o.max_size);
    double *r = (double *)bench_alloc(PROG, o.max_size);
    bench_header(PROG, rank, nranks, "us", "allreduce_us");

    for (size_t n = sizeof(double); n <= o.max_size; n = bench_next_size(n, &o)) {
        int c = (int)(n / sizeof(double));
        int small = n <= 8192;
        for (int j = 0; j < c; j++) /* the elements the stamps don't touch sum to nranks */
            s[j] = 1.0;
        int nominal = bench_scaled(small ? 2000 : 200, &o, 5);
        int skip = bench_scaled(small ? 100 : 10, &o, 2);
        ctx x = {rank, nranks, c, s, r, n};
        double t = bench_time(PROG, rank, &o, body, &x, skip, nominal, 5), sum = 0;
        CHK(MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));

        /* full check of every element */
        for (int j = 0; j < c; j++)
            r[j] = -1.0;
        stamp(s, c, rank, 0);
        CHK(MPI_Allreduce(s, r, c, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        check(r, c, nranks, 0, n);
        for (int j = 1; j < c - 1; j++) {
            if (r[j] != (double)nranks) {
                char msg[160];
                snprintf(msg, sizeof msg, "full check failed: size %zu element %d: got %g, want %d", n, j, r[j],
                         nranks);
                bench_die(PROG, msg);
            }
        }
        if (rank == 0) {
            printf("%zu %.6g\n", n, sum / nranks * 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
