/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_latency: ping-pong between ranks 0 and 1; prints the one-way latency (half a round trip) in µs for
 * message sizes 0, 1, 2, 4, ... 4 MiB.  Other ranks, if any, only take part in the barriers.
 *
 * Checks: in every timed iteration rank 0 stamps the first and last byte of its message with a marker
 * that changes every iteration, rank 1 echoes what it received and rank 0 checks both bytes of the echo;
 * after the timed loop of each size one untimed round trip checks every byte and the received count. */
#include "bench_common.h"

#define PROG "osu_latency"
#define TAG 1
#define CHK(call) bench_check_mpi(PROG, (call), #call)

static inline void pingpong(int rank, unsigned char *s, unsigned char *r, size_t n, long first, long count)
{
    const int c = (int)n;
    for (long it = first; it < first + count; it++) {
        if (rank == 0) {
            unsigned char m = bench_marker(it, (unsigned)n);
            bench_stamp(s, n, m);
            CHK(MPI_Send(s, c, MPI_BYTE, 1, TAG, MPI_COMM_WORLD));
            CHK(MPI_Recv(r, c, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            if (!bench_stamped(r, n, m)) {
                char msg[160];
                snprintf(msg, sizeof msg, "data check failed: size %zu iteration %ld: got %02x..%02x, marker %02x", n,
                         it, r[0], r[n - 1], m);
                bench_die(PROG, msg);
            }
        } else if (rank == 1) {
            CHK(MPI_Recv(r, c, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHK(MPI_Send(r, c, MPI_BYTE, 0, TAG, MPI_COMM_WORLD)); /* echo what arrived */
        }
    }
}

typedef struct ctx {
    int rank;
    unsigned char *s, *r;
    size_t n;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *c = p;
    pingpong(c->rank, c->s, c->r, c->n, first, count);
}

static inline void check_full(int rank, unsigned char *s, unsigned char *r, size_t n)
{
    const int c = (int)n;
    MPI_Status st;
    int got = -1;
    char msg[160];
    if (rank > 1)
        return;
    const int peer = 1 - rank;
    if (rank == 0) {
        bench_fill(s, n, (unsigned)n);
        CHK(MPI_Send(s, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD));
    }
    memset(r, 0, n);
    CHK(MPI_Recv(r, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &st));
    CHK(MPI_Get_count(&st, MPI_BYTE, &got));
    size_t bad = bench_verify(r, n, (unsigned)n + (rank == 0 ? 1u : 0u));
    if (got != c || bad != n) {
        snprintf(msg, sizeof msg, "full check failed on rank %d: size %zu, received count %d, first bad byte %zu",
                 rank, n, got, bad);
        bench_die(PROG, msg);
    }
    if (rank == 1) {
        bench_fill(s, n, (unsigned)n + 1u);
        CHK(MPI_Send(s, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD));
    }
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    bench_parse_opts(PROG, argc, argv, &o, (size_t)4 << 20);
    if (nranks < 2)
        bench_die(PROG, "needs at least 2 ranks");

    unsigned char *s = bench_alloc(PROG, o.max_size);
    unsigned char *r = bench_alloc(PROG, o.max_size);
    bench_header(PROG, rank, nranks, "us", "latency_us");

    for (size_t n = 0; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 8192;
        long big_nominal = (long)((256u << 20) / (n ? n : 1));
        int nominal = small ? 10000 : (int)(big_nominal > 1000 ? 1000 : big_nominal < 50 ? 50 : big_nominal);
        nominal = bench_scaled(nominal, &o, 5);
        int skip = bench_scaled(small ? 100 : 10, &o, 2);
        ctx c = {rank, s, r, n};
        double t = bench_time(PROG, rank, &o, body, &c, skip, nominal, 5);

        check_full(rank, s, r, n);
        if (rank == 0) {
            printf("%zu %.6g\n", n, t * 1e6 / 2.0);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(s);
    free(r);
    MPI_Finalize();
    return 0;
}
