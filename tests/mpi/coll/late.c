/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives with a late rank: each round one rank computes for a while (about a millisecond) before
 * entering, so the others stop spinning and sleep until it arrives (vmpi's shared-memory collectives then
 * wake them with messages).  Late roots and late readers of small broadcasts (several broadcasts in a row,
 * and more in a row than there are mailboxes, so a root reuses a mailbox that a late reader still has to
 * read), barriers, small and large allreduces;
 * every value checked.  (Correct results do not depend on the timing; the sleeping paths are exercised
 * when it works out as intended.) */
#include "mtest.h"

static double work(int amount)
{
    volatile double x = 1.0;
    for (int i = 0; i < amount; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    double sink = 0;
    int big = 8192, *v = mt_malloc(sizeof(int) * (size_t)big), *w = mt_malloc(sizeof(int) * (size_t)big);
    for (int round = 0; round < 6; round++) {
        int late = (round * 5 + 1) % n;
        for (int b = 0; b < 5; b++) { /* broadcasts in a row, roots alternating between late and on time */
            int root = b % 2 ? late : (late + 1) % n, x = rank == root ? round * 100 + b : -1;
            if (rank == late && b == 1)
                sink += work(1000000);
            MT_CHECK_RC(errs, MPI_Bcast(&x, 1, MPI_INT, root, MPI_COMM_WORLD));
            MT_CHECK_INT(errs, "Bcast with a late rank", round * 100 + b, x);
        }
        for (int b = 0; b < 4; b++) { /* an on-time root gets ahead of a late reader by two broadcasts */
            int root = (late + 1) % n, x = rank == root ? round * 1000 + b : -1;
            if (rank == late && b == 0)
                sink += work(1000000);
            MT_CHECK_RC(errs, MPI_Bcast(&x, 1, MPI_INT, root, MPI_COMM_WORLD));
            MT_CHECK_INT(errs, "Bcast to a late reader", round * 1000 + b, x);
        }
        /* more broadcasts in a row than vmpi has mailboxes (64) and big buffers (8): the on-time root
         * catches up with the late reader and waits for it to free a mailbox */
        for (int b = 0; b < 90; b++) {
            int root = (late + 1) % n, len = b < 70 ? 1 : 250; /* 4 bytes, then 1000 */
            if (rank == late && (b == 0 || b == 70))
                sink += work(2000000);
            for (int i = 0; i < len; i++)
                v[i] = rank == root ? round * 100000 + b * 1000 + i : -1;
            MT_CHECK_RC(errs, MPI_Bcast(v, len, MPI_INT, root, MPI_COMM_WORLD));
            for (int i = 0; i < len; i++)
                if (v[i] != round * 100000 + b * 1000 + i) {
                    MT_ERR(errs, "Bcast %d of a long row to a late reader: element %d is %d", b, i, v[i]);
                    break;
                }
        }
        if (rank == late)
            sink += work(1000000);
        MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD));
        if (rank == late)
            sink += work(1000000);
        int one = rank + round, sum = -1;
        MT_CHECK_RC(errs, MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK_INT(errs, "Allreduce with a late rank", n * (n - 1) / 2 + n * round, sum);
        for (int i = 0; i < big; i++)
            v[i] = rank + i;
        if (rank == late)
            sink += work(1000000);
        MT_CHECK_RC(errs, MPI_Allreduce(v, w, big, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        for (int i = 0; i < big; i++)
            if (w[i] != n - 1 + i) {
                MT_ERR(errs, "large Allreduce with a late rank: element %d: expected %d, got %d", i, n - 1 + i, w[i]);
                break;
            }
    }
    if (sink < 0) /* keeps the computation */
        printf("%g\n", sink);
    free(v);
    free(w);
    return mt_finish(errs);
}
