/* SPDX-License-Identifier: BSD-3-Clause */
/* Scale test (meant for up to 10,000 ranks): a token travels twice around the ring, each rank checking the
 * value it gets; then MPI_Allreduce of the ranks (sum must be n(n-1)/2, max n-1), a broadcast from the last
 * rank and a barrier.  Rank 0 then prints, for information only (never checked), the process's VmRSS from
 * /proc/self/status divided by the number of ranks: "memory per rank: N KiB".  Small per-rank footprint. */
#include "mtest.h"

static long vmrss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kib;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    long long n = size;

    for (int lap = 0; lap < 2; lap++) {
        long long token = -1;
        if (rank == 0) {
            MPI_Request r;
            long long start = lap * n + 1;
            MPI_Isend(&start, 1, MPI_LONG_LONG, right, lap, MPI_COMM_WORLD, &r);
            MPI_Recv(&token, 1, MPI_LONG_LONG, left, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "token back at rank 0", (lap + 1) * n, token);
        } else {
            MPI_Recv(&token, 1, MPI_LONG_LONG, left, lap, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK(errs, token == lap * n + rank, "lap %d: token %lld, expected %lld", lap, token, lap * n + rank);
            token++;
            MPI_Send(&token, 1, MPI_LONG_LONG, right, lap, MPI_COMM_WORLD);
        }
    }

    long long mine = rank, sum = -1;
    int imax = -1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "Allreduce sum of ranks", n * (n - 1) / 2, sum);
    MPI_Allreduce(&rank, &imax, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "Allreduce max of ranks", size - 1, imax);
    int b = rank == size - 1 ? 4242 : -1;
    MPI_Bcast(&b, 1, MPI_INT, size - 1, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "Bcast from the last rank", 4242, b);
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) {
        long kib = vmrss_kib();
        if (kib >= 0)
            printf("memory per rank: %ld KiB\n", kib / size);
        fflush(stdout);
    }
    return mt_finish(errs);
}
