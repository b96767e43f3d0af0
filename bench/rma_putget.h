/* SPDX-License-Identifier: BSD-3-Clause */
/* The program behind osu_put_latency, osu_get_latency, osu_put_bw and osu_get_bw: rank 0 puts into or gets
 * from rank 1's window (MPI_Win_allocate), `ops` operations of one size per iteration, all to offset 0 of
 * the window and from offset 0 of one local buffer (as OSU does, and as osu_bw does with its messages),
 * then the iteration's synchronization (-s lock|fence|pscw, rma_common.h; lock: MPI_Win_flush).
 * Latency (ops = 1): µs per iteration; bandwidth (ops = 64): MB/s = 64 x size / time per iteration.
 *
 * Checks, so that an RMA that moves nothing cannot show a fast time:
 *   put: every iteration the origin stamps the first and last byte of its buffer with a marker that changes
 *        every iteration; the target checks them after every epoch (pscw) or after every batch (lock,
 *        fence: the last iteration's marker);
 *   get: the target's window carries a stamp; before every iteration the origin overwrites its buffer's
 *        first and last byte with the complement, and after the epoch it checks that the get brought the
 *        stamp back;
 *   after the timed loop of each size, an untimed put (or get) of a full pattern checks every byte. */
#ifndef VMPI_BENCH_RMA_PUTGET_H
#define VMPI_BENCH_RMA_PUTGET_H

#include "rma_common.h"

typedef struct putget_ctx {
    const rma_epochs *e;
    int get, ops;
    unsigned char *buf; /* the origin's local buffer */
    unsigned char *win; /* the target's window memory */
    size_t n;
    long last; /* put: the iteration whose marker the target must see */
} putget_ctx;

/* The target's stamp of size n in the get programs (the origin writes its complement before each get). */
static inline unsigned char putget_stamp(size_t n)
{
    return bench_marker((long)n, 3u);
}

static inline void putget_fail(const putget_ctx *c, const char *who, long it, const unsigned char *b,
                               unsigned char m)
{
    char msg[200];
    snprintf(msg, sizeof msg, "%s data check failed (-s %s): size %zu iteration %ld: got %02x..%02x, expected %02x",
             who, rma_sync_name(c->e->sync), c->n, it, b[0], b[c->n - 1], m);
    bench_die(c->e->prog, msg);
}

static void putget_target_check(void *p)
{
    const putget_ctx *c = p;
    unsigned char m = bench_marker(c->last, (unsigned)c->n);
    if (!c->get && !bench_stamped(c->win, c->n, m))
        putget_fail(c, "target", c->last, c->win, m);
}

static void putget_body(void *p, long first, long count)
{
    putget_ctx *c = p;
    const rma_epochs *e = c->e;
    const int k = (int)c->n;
    const unsigned char stamp = putget_stamp(c->n);
    rma_batch_begin(e);
    for (long it = first; it < first + count; it++) {
        rma_iter_begin(e);
        if (e->rank == e->origin) {
            if (c->get) {
                bench_stamp(c->buf, c->n, (unsigned char)~stamp);
                for (int w = 0; w < c->ops; w++)
                    rma_chk(e, MPI_Get(c->buf, k, MPI_BYTE, e->target, 0, k, MPI_BYTE, e->win), "MPI_Get");
            } else {
                bench_stamp(c->buf, c->n, bench_marker(it, (unsigned)c->n));
                for (int w = 0; w < c->ops; w++)
                    rma_chk(e, MPI_Put(c->buf, k, MPI_BYTE, e->target, 0, k, MPI_BYTE, e->win), "MPI_Put");
            }
        }
        rma_iter_end(e, it == first + count - 1);
        if (e->rank == e->origin && c->get && !bench_stamped(c->buf, c->n, stamp))
            putget_fail(c, "origin", it, c->buf, stamp);
        if (rma_target_checks_each(e)) {
            c->last = it;
            putget_target_check(c);
        }
    }
    c->last = first + count - 1;
    rma_batch_end(e, putget_target_check, c);
}

/* The target's window for the get programs: a pattern of the size, with the stamp at both ends. */
static inline void putget_prepare(putget_ctx *c)
{
    const rma_epochs *e = c->e;
    if (c->get && e->rank == e->target) {
        rma_local_begin(e, 1);
        bench_fill(c->win, c->n, (unsigned)c->n);
        bench_stamp(c->win, c->n, putget_stamp(c->n));
        rma_local_end(e);
    }
    rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

/* Untimed: one put (or get) of a full pattern in a lock epoch; every byte is checked where it arrived. */
static inline void putget_check_full(putget_ctx *c)
{
    const rma_epochs *e = c->e;
    const int k = (int)c->n;
    const unsigned seed = (unsigned)c->n + 17u;
    size_t bad = c->n;
    if (c->get && e->rank == e->target) {
        rma_local_begin(e, 1);
        bench_fill(c->win, c->n, seed);
        rma_local_end(e);
    }
    rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (e->rank == e->origin) {
        if (c->get)
            memset(c->buf, 0, c->n);
        else
            bench_fill(c->buf, c->n, seed);
        rma_chk(e, MPI_Win_lock(MPI_LOCK_SHARED, e->target, 0, e->win), "MPI_Win_lock");
        if (c->get)
            rma_chk(e, MPI_Get(c->buf, k, MPI_BYTE, e->target, 0, k, MPI_BYTE, e->win), "MPI_Get");
        else
            rma_chk(e, MPI_Put(c->buf, k, MPI_BYTE, e->target, 0, k, MPI_BYTE, e->win), "MPI_Put");
        rma_chk(e, MPI_Win_unlock(e->target, e->win), "MPI_Win_unlock");
        if (c->get)
            bad = bench_verify(c->buf, c->n, seed);
    }
    rma_chk(e, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
    if (!c->get && e->rank == e->target) {
        rma_local_begin(e, 0);
        bad = bench_verify(c->win, c->n, seed);
        rma_local_end(e);
    }
    if (bad != c->n) {
        char msg[160];
        snprintf(msg, sizeof msg, "full check failed on rank %d: size %zu, first bad byte %zu", e->rank, c->n, bad);
        bench_die(e->prog, msg);
    }
}

/* main() of the four programs: ops = 1 for latency (µs), 64 for bandwidth (MB/s). */
static inline int putget_main(int argc, char **argv, const char *prog, int get, int ops)
{
    int rank, nranks;
    bench_opts o;
    rma_epochs e;
    MPI_Init(&argc, &argv);
    bench_check_mpi(prog, MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    bench_check_mpi(prog, MPI_Comm_size(MPI_COMM_WORLD, &nranks), "MPI_Comm_size");
    rma_sync sync = rma_take_sync(prog, &argc, argv);
    bench_parse_opts(prog, argc, argv, &o, (size_t)4 << 20);
    if (nranks < 2)
        bench_die(prog, "needs at least 2 ranks");

    unsigned char *win = rma_setup(&e, prog, sync, o.max_size);
    putget_ctx c = {&e, get, ops, bench_alloc(prog, o.max_size), win, 0, 0};
    const int bw = ops > 1;
    bench_header(prog, rank, nranks, bw ? "MB/s" : "us", bw ? "bandwidth_MBps" : "latency_us");
    if (rank == 0) {
        printf("# sync: %s; %d MPI_%s per iteration\n", rma_sync_name(sync), ops, get ? "Get" : "Put");
        fflush(stdout);
    }

    for (size_t n = 1; n <= o.max_size; n = bench_next_size(n, &o)) {
        int small = n <= 8192, nominal, skip;
        if (bw) { /* as osu_bw: about 2 GiB per size for large messages */
            long big = (long)(((size_t)2 << 30) / ((size_t)ops * n));
            nominal = small ? 100 : (int)(big > 100 ? 100 : big < 5 ? 5 : big);
            skip = small ? 10 : 2;
        } else { /* as osu_latency */
            long big = (long)((256u << 20) / n);
            nominal = small ? 10000 : (int)(big > 1000 ? 1000 : big < 50 ? 50 : big);
            skip = small ? 100 : 10;
        }
        c.n = n;
        putget_prepare(&c);
        double t = bench_time(prog, rank, &o, putget_body, &c, bench_scaled(skip, &o, 2),
                              bench_scaled(nominal, &o, bw ? 3 : 5), bw ? 3 : 5);
        putget_check_full(&c);
        if (rank == 0) {
            printf("%zu %.6g\n", n, bw ? (double)n * ops / t / 1e6 : t * 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(c.buf);
    rma_teardown(&e);
    MPI_Finalize();
    return 0;
}

#endif
