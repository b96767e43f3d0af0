/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_bibw: bidirectional bandwidth.  Per iteration ranks 0 and 1 each post a window of 64 MPI_Irecv and
 * 64 MPI_Isend to each other, then MPI_Waitall both.  Prints the total of both directions in MB/s
 * (1 MB = 10^6 bytes) for sizes 1 B .. 4 MiB.
 *
 * Checks: every iteration each side stamps the first and last byte of its message with a marker that
 * changes every iteration and differs between the two sides; after its MPI_Waitall each side checks the
 * peer's marker.  After the timed loop of each size, one untimed exchange checks every byte and the
 * received counts. */
#include "bench_common.h"

#define PROG "osu_bibw"
#define WINDOW 64
#define TAG 4
#define CHK(call) bench_check_mpi(PROG, (call), #call)

static inline void run_windows(int rank, unsigned char *s, unsigned char *r, size_t n, MPI_Request *req,
                               MPI_Status *st, long first, long count)
{
    const int c = (int)n;
    if (rank > 1)
        return;
    const int peer = 1 - rank;
    for (long it = first; it < first + count; it++) {
        bench_stamp(s, n, bench_marker(it, (unsigned)n * 2u + (unsigned)rank));
        for (int w = 0; w < WINDOW; w++)
            CHK(MPI_Irecv(r, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[WINDOW + w]));
        for (int w = 0; w < WINDOW; w++)
            CHK(MPI_Isend(s, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[w]));
        CHK(MPI_Waitall(WINDOW, req, st));
        CHK(MPI_Waitall(WINDOW, req + WINDOW, st + WINDOW));
        unsigned char m = bench_marker(it, (unsigned)n * 2u + (unsigned)peer);
        if (!bench_stamped(r, n, m)) {
            char msg[160];
            snprintf(msg, sizeof msg, "data check failed on rank %d: size %zu iteration %ld: got %02x..%02x, marker %02x",
                     rank, n, it, r[0], r[n - 1], m);
            bench_die(PROG, msg);
        }
    }
}

typedef struct ctx {
    int rank;
    unsigned char *s, *r;
    size_t n;
    MPI_Request *req;
    MPI_Status *st;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *c = p;
    run_windows(c->rank, c->s, c->r, c->n, c->req, c->st, first, count);
}

static inline void check_full(int rank, unsigned char *s, unsigned char *r, size_t n, MPI_Request *req)
{
    const int c = (int)n;
    MPI_Status st;
    int got = -1;
    if (rank > 1)
        return;
    const int peer = 1 - rank;
    bench_fill(s, n, (unsigned)n + (unsigned)rank);
    memset(r, 0, n);
    CHK(MPI_Irecv(r, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[0]));
    CHK(MPI_Isend(s, c, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[1]));
    CHK(MPI_Wait(&req[1], MPI_STATUS_IGNORE));
    CHK(MPI_Wait(&req[0], &st));
    CHK(MPI_Get_count(&st, MPI_BYTE, &got));
    size_t bad = bench_verify(r, n, (unsigned)n + (unsigned)peer);
    if (got != c || bad != n) {
        char msg[160];
        snprintf(msg, sizeof msg, "full check failed on rank %d: size %zu: count %d, first bad byte %zu", rank, n,
                 got, bad);
        bench_die(PROG, msg);
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
    MPI_Request *req = malloc(2 * WINDOW * sizeof *req);
    MPI_Status *st = malloc(2 * WINDOW * sizeof *st); /* real statuses, as OSU passes */
    if (!req || !st)
        bench_die(PROG, "out of memory");
    bench_header(PROG, rank, nranks, "MB/s", "bibandwidth_MBps");

    for (size_t n = 1; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 8192;
        long big_nominal = (long)(((size_t)1 << 30) / ((size_t)WINDOW * n));
        int nominal = small ? 100 : (int)(big_nominal > 100 ? 100 : big_nominal < 5 ? 5 : big_nominal);
        nominal = bench_scaled(nominal, &o, 3);
        int skip = bench_scaled(small ? 10 : 2, &o, 2);
        ctx c = {rank, s, r, n, req, st};
        double t = bench_time(PROG, rank, &o, body, &c, skip, nominal, 3);

        check_full(rank, s, r, n, req);
        if (rank == 0) {
            printf("%zu %.6g\n", n, 2.0 * (double)n * WINDOW / t / 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(s);
    free(r);
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
