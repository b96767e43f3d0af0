/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_barrier: time of one MPI_Barrier over all ranks of MPI_COMM_WORLD, in µs (each rank's time per
 * barrier, averaged over the ranks, as OSU's "Avg Latency").  Prints one row, with size 0.
 *
 * Check: after the timed loop, a rank enters a barrier 2 ms late (twice, the last rank then rank 0); every
 * rank must leave that barrier after the late rank entered it (system-wide monotonic clock), so that a
 * barrier that does not synchronise can't show a fast time. */
#include "bench_common.h"

#define PROG "osu_barrier"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

static inline void check_sync(int rank, int nranks, int late)
{
    double t_enter = 0, t_exit;
    int bad, nbad = 0;
    CHK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == late) {
        double until = bench_mono() + 0.002;
        while (bench_mono() < until)
            ;
        t_enter = bench_mono();
    }
    CHK(MPI_Barrier(MPI_COMM_WORLD));
    t_exit = bench_mono();
    CHK(MPI_Bcast(&t_enter, 1, MPI_DOUBLE, late, MPI_COMM_WORLD));
    bad = t_exit < t_enter;
    CHK(MPI_Reduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD));
    if (rank == 0 && nbad > 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "barrier check failed: %d of %d ranks left the barrier before rank %d entered it",
                 nbad, nranks, late);
        bench_die(PROG, msg);
    }
}

static void body(void *p, long first, long count)
{
    (void)p;
    (void)first;
    for (long i = 0; i < count; i++)
        CHK(MPI_Barrier(MPI_COMM_WORLD));
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &nranks));
    bench_parse_opts(PROG, argc, argv, &o, 0);
    bench_header(PROG, rank, nranks, "us", "barrier_us");

    int nominal = bench_scaled(10000, &o, 20);
    int skip = bench_scaled(100, &o, 10);

    double t = bench_time(PROG, rank, &o, body, NULL, skip, nominal, 20), sum = 0;
    CHK(MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD));

    check_sync(rank, nranks, nranks - 1);
    check_sync(rank, nranks, 0);
    if (rank == 0) {
        printf("0 %.6g\n", sum / nranks * 1e6);
        fflush(stdout);
    }
    bench_footer(rank);
    MPI_Finalize();
    return 0;
}
