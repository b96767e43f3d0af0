/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_bw: unidirectional bandwidth.  Per iteration rank 0 posts a window of 64 MPI_Isend, rank 1 a window
 * of 64 MPI_Irecv (all into one buffer, as in OSU), both MPI_Waitall, then rank 1 returns a small
 * acknowledgement.  Prints MB/s (1 MB = 10^6 bytes) for sizes 1 B .. 4 MiB.
 *
 * Checks: every iteration rank 0 stamps the first and last byte of the message with a marker that changes
 * every iteration; after its MPI_Waitall rank 1 checks them.  After the timed loop of each size one
 * untimed window checks every byte of every message and the received counts. */
#include "bench_common.h"

#define PROG "osu_bw"
#define WINDOW 64
#define TAG 2
#define TAG_ACK 3
#define CHK(call) bench_check_mpi(PROG, (call), #call)

static inline void run_windows(int rank, unsigned char *buf, size_t n, MPI_Request *req, MPI_Status *st, long first,
                               long count)
{
    const int c = (int)n;
    int ack = 0;
    for (long it = first; it < first + count; it++) {
        unsigned char m = bench_marker(it, (unsigned)n);
        if (rank == 0) {
            bench_stamp(buf, n, m);
            for (int w = 0; w < WINDOW; w++)
                CHK(MPI_Isend(buf, c, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[w]));
            CHK(MPI_Waitall(WINDOW, req, st));
            CHK(MPI_Recv(&ack, 1, MPI_INT, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        } else if (rank == 1) {
            for (int w = 0; w < WINDOW; w++)
                CHK(MPI_Irecv(buf, c, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &req[w]));
            CHK(MPI_Waitall(WINDOW, req, st));
            if (!bench_stamped(buf, n, m)) {
                char msg[160];
                snprintf(msg, sizeof msg, "data check failed: size %zu iteration %ld: got %02x..%02x, marker %02x",
                         n, it, buf[0], buf[n - 1], m);
                bench_die(PROG, msg);
            }
            CHK(MPI_Send(&ack, 1, MPI_INT, 0, TAG_ACK, MPI_COMM_WORLD));
        }
    }
}

typedef struct ctx {
    int rank;
    unsigned char *buf;
    size_t n;
    MPI_Request *req;
    MPI_Status *st;
} ctx;

static void body(void *p, long first, long count)
{
    ctx *c = p;
    run_windows(c->rank, c->buf, c->n, c->req, c->st, first, count);
}

/* One untimed window of distinct messages (seeds w), each into its own part of a 2-message ring. */
static inline void check_full(int rank, unsigned char *buf, unsigned char *buf2, size_t n, MPI_Request *req,
                              MPI_Status *st)
{
    const int c = (int)n;
    char msg[160];
    for (int w = 0; w < WINDOW; w += 2) {
        if (rank == 0) {
            bench_fill(buf, n, (unsigned)(n + w));
            bench_fill(buf2, n, (unsigned)(n + w + 1));
            CHK(MPI_Isend(buf, c, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[0]));
            CHK(MPI_Isend(buf2, c, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, &req[1]));
            CHK(MPI_Waitall(2, req, st));
        } else if (rank == 1) {
            memset(buf, 0, n);
            memset(buf2, 0, n);
            CHK(MPI_Irecv(buf, c, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &req[0]));
            CHK(MPI_Irecv(buf2, c, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, &req[1]));
            CHK(MPI_Waitall(2, req, st));
            for (int k = 0; k < 2; k++) {
                int got = -1;
                CHK(MPI_Get_count(&st[k], MPI_BYTE, &got));
                size_t bad = bench_verify(k ? buf2 : buf, n, (unsigned)(n + w + k));
                if (got != c || bad != n) {
                    snprintf(msg, sizeof msg, "full check failed: size %zu message %d: count %d, first bad byte %zu",
                             n, w + k, got, bad);
                    bench_die(PROG, msg);
                }
            }
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
    bench_parse_opts(PROG, argc, argv, &o, (size_t)4 << 20);
    if (nranks < 2)
        bench_die(PROG, "needs at least 2 ranks");

    unsigned char *buf = bench_alloc(PROG, o.max_size);
    unsigned char *buf2 = bench_alloc(PROG, o.max_size);
    MPI_Request *req = malloc(WINDOW * sizeof *req);
    MPI_Status *st = malloc(WINDOW * sizeof *st);
    if (!req || !st)
        bench_die(PROG, "out of memory");
    bench_header(PROG, rank, nranks, "MB/s", "bandwidth_MBps");

    for (size_t n = 1; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 8192;
        /* bytes moved per size bounded near 2 GiB for large messages */
        long big_nominal = (long)(((size_t)2 << 30) / ((size_t)WINDOW * n));
        int nominal = small ? 100 : (int)(big_nominal > 100 ? 100 : big_nominal < 5 ? 5 : big_nominal);
        nominal = bench_scaled(nominal, &o, 3);
        int skip = bench_scaled(small ? 10 : 2, &o, 2);
        ctx c = {rank, buf, n, req, st};
        double t = bench_time(PROG, rank, &o, body, &c, skip, nominal, 3);

        check_full(rank, buf, buf2, n, req, st);
        if (rank == 0) {
            printf("%zu %.6g\n", n, (double)n * WINDOW / t / 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(buf);
    free(buf2);
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
