/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_bcast: time of one MPI_Bcast of MPI_BYTE from rank 0 over MPI_COMM_WORLD, in µs (each rank's time per
 * call, averaged over the ranks, as OSU's "Avg Latency"), for 1 B .. 1 MiB.
 *
 * Checks: in every timed iteration the root stamps the first and last byte with a marker of the iteration
 * and every rank checks both; after the timed loop of each size one untimed broadcast of a full pattern
 * is checked byte by byte on every rank. */
#include "bench_common.h"

#define PROG "osu_bcast"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

typedef struct ctx {
    int rank;
    unsigned char *b;
    size_t n;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *x = p;
    for (long it = first; it < first + count; it++) {
        unsigned char m = bench_marker(it, 3);
        if (x->rank == 0)
            bench_stamp(x->b, x->n, m);
        CHK(MPI_Bcast(x->b, (int)x->n, MPI_BYTE, 0, MPI_COMM_WORLD));
        if (!bench_stamped(x->b, x->n, m)) {
            char msg[120];
            snprintf(msg, sizeof msg, "data check failed: size %zu iteration %ld", x->n, it);
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
    bench_parse_opts(PROG, argc, argv, &o, (size_t)1 << 20);
    unsigned char *b = bench_alloc(PROG, o.max_size ? o.max_size : 1);
    bench_header(PROG, rank, nranks, "us", "bcast_us");

    for (size_t n = 1; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 8192;
        int nominal = bench_scaled(small ? 2000 : 200, &o, 5);
        int skip = bench_scaled(small ? 100 : 10, &o, 2);
        ctx x = {rank, b, n};
        double t = bench_time(PROG, rank, &o, body, &x, skip, nominal, 5), sum = 0;
        CHK(MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));

        unsigned seed = (unsigned)n;
        if (rank == 0)
            bench_fill(b, n, seed);
        else
            memset(b, 0, n);
        CHK(MPI_Bcast(b, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD));
        size_t bad = bench_verify(b, n, seed);
        if (bad != n) {
            char msg[120];
            snprintf(msg, sizeof msg, "full check failed: size %zu byte %zu on rank %d", n, bad, rank);
            bench_die(PROG, msg);
        }
        if (rank == 0) {
            printf("%zu %.6g\n", n, sum / nranks * 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(b);
    MPI_Finalize();
    return 0;
}
