/* SPDX-License-Identifier: BSD-3-Clause */
/* fop_rate: contention on one atomic counter.  Every rank, rank 0 included, does MPI_Fetch_and_op(MPI_SUM, +1)
 * on one MPI_INT64_T counter in rank 0's window (MPI_Win_allocate), each followed by MPI_Win_flush(0), inside
 * MPI_Win_lock_all (opened and closed once per timed batch, which ends with a barrier, so that rank 0's time
 * covers every rank's operations).  Prints the aggregate rate, millions of operations per second over all
 * ranks, as one row (size 8, the counter's bytes).
 *
 * Checks: the values a rank fetches must strictly increase; after the timed loop the counter must equal the
 * number of operations of all ranks exactly, and the fetched values of all ranks together must be 0 .. T-1
 * (their sum and sum of squares are compared, modulo 2^64, with those of 0 .. T-1). */
#include "bench_common.h"

#define PROG "fop_rate"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

typedef struct ctx {
    int rank;
    MPI_Win win;
    int64_t last;          /* the last value this rank fetched */
    uint64_t sum, sumsq;   /* of the values this rank fetched */
    uint64_t ops;          /* operations this rank did */
} ctx;

static void body(void *p, long first, long count)
{
    ctx *c = p;
    const int64_t one = 1;
    (void)first;
    c->ops += (uint64_t)count;
    CHK(MPI_Win_lock_all(0, c->win));
    for (long i = 0; i < count; i++) {
        int64_t v = -1;
        CHK(MPI_Fetch_and_op(&one, &v, MPI_INT64_T, 0, 0, MPI_SUM, c->win));
        CHK(MPI_Win_flush(0, c->win));
        if (v <= c->last) {
            char msg[160];
            snprintf(msg, sizeof msg, "rank %d fetched %lld after %lld: the counter went back or repeated", c->rank,
                     (long long)v, (long long)c->last);
            bench_die(PROG, msg);
        }
        c->last = v;
        c->sum += (uint64_t)v;
        c->sumsq += (uint64_t)v * (uint64_t)v;
    }
    CHK(MPI_Win_unlock_all(c->win));
    CHK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    int64_t *counter = NULL;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    bench_parse_opts(PROG, argc, argv, &o, 8);

    ctx c = {rank, MPI_WIN_NULL, -1, 0, 0, 0};
    CHK(MPI_Win_allocate(rank == 0 ? (MPI_Aint)sizeof(int64_t) : 0, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                         &counter, &c.win));
    if (rank == 0)
        *counter = 0; /* before any epoch: the barrier below orders it before every access */
    CHK(MPI_Barrier(MPI_COMM_WORLD));
    bench_header(PROG, rank, nranks, "Mops/s", "rate_Mops");
    if (rank == 0) {
        printf("# every rank: MPI_Fetch_and_op(MPI_INT64_T, MPI_SUM) + MPI_Win_flush on one counter at rank 0\n");
        fflush(stdout);
    }

    double t = bench_time(PROG, rank, &o, body, &c, bench_scaled(100, &o, 2), bench_scaled(10000, &o, 5), 5);

    uint64_t mine[3] = {c.sum, c.sumsq, c.ops}, all[3] = {0, 0, 0};
    CHK(MPI_Reduce(mine, all, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0) {
        int64_t total;
        CHK(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, c.win));
        total = *counter;
        CHK(MPI_Win_unlock(0, c.win));
        uint64_t sum = 0, sumsq = 0;
        for (int64_t v = 0; v < total; v++) {
            sum += (uint64_t)v;
            sumsq += (uint64_t)v * (uint64_t)v;
        }
        if (total <= 0 || (uint64_t)total != all[2] || sum != all[0] || sumsq != all[1]) {
            char msg[240];
            snprintf(msg, sizeof msg, "final check failed: counter %lld, operations %llu (%d ranks), fetched values "
                     "sum %llu (expected %llu), squares %llu (expected %llu)", (long long)total,
                     (unsigned long long)all[2], nranks, (unsigned long long)all[0], (unsigned long long)sum,
                     (unsigned long long)all[1], (unsigned long long)sumsq);
            bench_die(PROG, msg);
        }
        printf("# operations: %lld\n8 %.6g\n", (long long)total, (double)nranks / t / 1e6);
        fflush(stdout);
    }
    bench_footer(rank);
    CHK(MPI_Win_free(&c.win));
    MPI_Finalize();
    return 0;
}
