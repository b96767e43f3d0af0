/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_alltoall: time of one MPI_Alltoall of MPI_BYTE blocks over MPI_COMM_WORLD, in µs (each rank's time
 * per call, averaged over the ranks, as OSU's "Avg Latency"), for blocks of 1 B up to -m bytes (default
 * 64 KiB: with 64 ranks a rank then sends 4 MiB per call).
 *
 * Checks: in every timed iteration each rank stamps the first and last byte of every block it sends with a
 * marker of (iteration, sender, receiver) and checks those of every block it receives; after the timed
 * loop of each size one untimed call is checked byte by byte. */
#include "bench_common.h"

#define PROG "osu_alltoall"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

typedef struct ctx {
    int rank, nranks;
    unsigned char *s, *r;
    size_t n;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *x = p;
    for (long it = first; it < first + count; it++) {
        for (int d = 0; d < x->nranks; d++)
            bench_stamp(x->s + (size_t)d * x->n, x->n, bench_marker(it, (unsigned)(x->rank * 7 + d)));
        CHK(MPI_Alltoall(x->s, (int)x->n, MPI_BYTE, x->r, (int)x->n, MPI_BYTE, MPI_COMM_WORLD));
        for (int src = 0; src < x->nranks; src++)
            if (!bench_stamped(x->r + (size_t)src * x->n, x->n, bench_marker(it, (unsigned)(src * 7 + x->rank)))) {
                char msg[120];
                snprintf(msg, sizeof msg, "data check failed: size %zu iteration %ld block from %d", x->n, it, src);
                bench_die(PROG, msg);
            }
    }
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    bench_parse_opts(PROG, argc, argv, &o, (size_t)1 << 16);
    size_t cap = (o.max_size ? o.max_size : 1) * (size_t)nranks;
    unsigned char *s = bench_alloc(PROG, cap), *r = bench_alloc(PROG, cap);
    bench_header(PROG, rank, nranks, "us", "alltoall_us");

    for (size_t n = 1; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 1024;
        int nominal = bench_scaled(small ? 1000 : 100, &o, 5);
        int skip = bench_scaled(small ? 50 : 5, &o, 2);
        ctx x = {rank, nranks, s, r, n};
        double t = bench_time(PROG, rank, &o, body, &x, skip, nominal, 5), sum = 0;
        CHK(MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));

        for (int d = 0; d < nranks; d++)
            bench_fill(s + (size_t)d * n, n, (unsigned)(rank * 1000 + d));
        memset(r, 0, n * (size_t)nranks);
        CHK(MPI_Alltoall(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, MPI_COMM_WORLD));
        for (int src = 0; src < nranks; src++) {
            size_t bad = bench_verify(r + (size_t)src * n, n, (unsigned)(src * 1000 + rank));
            if (bad != n) {
                char msg[120];
                snprintf(msg, sizeof msg, "full check failed: size %zu block from %d byte %zu", n, src, bad);
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
