/* SPDX-License-Identifier: MIT */
/* rma_bench: small one-sided latencies/rates between two ranks of one node, for comparing MPICH and Open MPI
 * with vmpi later. Rank 0 is the origin, rank 1 the target (which waits in MPI_Barrier, i.e. inside MPI, except
 * in the "busy target" test where it computes without calling MPI).
 * usage: rma_bench create|allocate [iters]   (window flavor) */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double now(void) { return MPI_Wtime(); }

static int64_t *lbuf, *rbuf;

/* one timed loop; returns microseconds per iteration (best of 5 runs) */
typedef void (*body_fn)(MPI_Win, int);
static double run(MPI_Win win, body_fn f, int iters, int reps)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        f(win, iters / 10 + 1); /* warm-up */
        double t = now();
        f(win, iters);
        t = (now() - t) / iters * 1e6;
        if (t < best) best = t;
    }
    return best;
}

static void put_flush(MPI_Win w, int n) { for (int i = 0; i < n; i++) { MPI_Put(lbuf, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, w); MPI_Win_flush(1, w); } }
static void get_flush(MPI_Win w, int n) { for (int i = 0; i < n; i++) { MPI_Get(lbuf, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, w); MPI_Win_flush(1, w); } }
static void acc_flush(MPI_Win w, int n) { for (int i = 0; i < n; i++) { MPI_Accumulate(lbuf, 1, MPI_INT64_T, 1, 1, 1, MPI_INT64_T, MPI_SUM, w); MPI_Win_flush(1, w); } }
static void fop_flush(MPI_Win w, int n) { int64_t one = 1; for (int i = 0; i < n; i++) { MPI_Fetch_and_op(&one, lbuf, MPI_INT64_T, 1, 2, MPI_SUM, w); MPI_Win_flush(1, w); } }
static void cas_flush(MPI_Win w, int n) { int64_t c = 0, v = 0; for (int i = 0; i < n; i++) { MPI_Compare_and_swap(&v, &c, lbuf, MPI_INT64_T, 1, 3, w); MPI_Win_flush(1, w); } }
static void put_many(MPI_Win w, int n) { for (int i = 0; i < n; i++) MPI_Put(lbuf, 1, MPI_INT64_T, 1, i % 1024, 1, MPI_INT64_T, w); MPI_Win_flush(1, w); }
static void acc_many(MPI_Win w, int n) { for (int i = 0; i < n; i++) MPI_Accumulate(lbuf, 1, MPI_INT64_T, 1, i % 1024, 1, MPI_INT64_T, MPI_SUM, w); MPI_Win_flush(1, w); }
static int bw_bytes;
static void put_bw(MPI_Win w, int n) { for (int i = 0; i < n; i++) { MPI_Put(lbuf, bw_bytes, MPI_BYTE, 1, 0, bw_bytes, MPI_BYTE, w); MPI_Win_flush(1, w); } }
static void get_bw(MPI_Win w, int n) { for (int i = 0; i < n; i++) { MPI_Get(lbuf, bw_bytes, MPI_BYTE, 1, 0, bw_bytes, MPI_BYTE, w); MPI_Win_flush(1, w); } }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) { if (!rank) fprintf(stderr, "needs 2 ranks\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
    const char *flavor = argc > 1 ? argv[1] : "allocate";
    int iters = argc > 2 ? atoi(argv[2]) : 20000;
    const MPI_Aint wsize = 1 << 20;
    MPI_Win win;
    lbuf = malloc(wsize);
    memset(lbuf, 1, wsize);
    if (!strcmp(flavor, "create")) {
        rbuf = malloc(wsize);
        memset(rbuf, 0, wsize);
        MPI_Win_create(rbuf, wsize, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    } else {
        MPI_Win_allocate(wsize, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &rbuf, &win);
        memset(rbuf, 0, wsize);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    struct { const char *name; body_fn f; int div; } tests[] = {
        {"put8+flush", put_flush, 1}, {"get8+flush", get_flush, 1}, {"acc8(sum)+flush", acc_flush, 1},
        {"fetch_and_op+flush", fop_flush, 1}, {"compare_and_swap+flush", cas_flush, 1},
        {"put8 x N, 1 flush (per op)", put_many, 1}, {"acc8 x N, 1 flush (per op)", acc_many, 1},
    };
    if (rank == 0) {
        MPI_Win_lock_all(0, win);
        for (unsigned t = 0; t < sizeof tests / sizeof tests[0]; t++)
            printf("%-30s %8.3f us\n", tests[t].name, run(win, tests[t].f, iters, 5));
        int sizes[] = {4096, 65536, 1 << 20};
        for (int s = 0; s < 3; s++) {
            bw_bytes = sizes[s];
            int n = sizes[s] >= 65536 ? iters / 100 + 10 : iters / 10;
            double tp = run(win, put_bw, n, 3), tg = run(win, get_bw, n, 3);
            printf("put %7d B+flush %10.3f us %8.2f GB/s   get %10.3f us %8.2f GB/s\n", sizes[s], tp,
                   sizes[s] / tp / 1e3, tg, sizes[s] / tg / 1e3);
        }
        MPI_Win_unlock_all(win);
        /* exclusive lock epoch: lock, put 8 B, unlock */
        double best = 1e30;
        for (int r = 0; r < 5; r++) {
            double t = now();
            for (int i = 0; i < iters / 10; i++) {
                MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
                MPI_Put(lbuf, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win);
                MPI_Win_unlock(1, win);
            }
            t = (now() - t) / (iters / 10) * 1e6;
            if (t < best) best = t;
        }
        printf("%-30s %8.3f us\n", "lock(excl)+put8+unlock", best);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* fence epoch cost (collective) */
    {
        MPI_Win_fence(MPI_MODE_NOPRECEDE, win); /* opens the first epoch: a put before it is MPI_ERR_RMA_SYNC */
        double t = now();
        int n = iters / 10;
        for (int i = 0; i < n; i++) {
            if (rank == 0) MPI_Put(lbuf, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win);
            MPI_Win_fence(0, win);
        }
        t = (now() - t) / n * 1e6;
        if (rank == 0) printf("%-30s %8.3f us\n", "put8+fence", t);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    }

    /* passive target while the target computes without calling MPI for 200 ms */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        double t = now();
        volatile double x = 0;
        while (now() - t < 0.2) x += 1;
    } else {
        double t = now();
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(lbuf, 1, MPI_INT64_T, 1, 0, 1, MPI_INT64_T, win);
        MPI_Accumulate(lbuf, 1, MPI_INT64_T, 1, 1, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Win_unlock(1, win);
        printf("%-30s %8.3f ms (target busy 200 ms outside MPI)\n", "busy-target lock+put+acc+unlock", (now() - t) * 1e3);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_free(&win);
    if (!strcmp(flavor, "create")) free(rbuf);
    free(lbuf);
    MPI_Finalize();
    return 0;
}
