/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Wtime across a checkpoint, in the job that took it and in a job restarted from it (tests/tools/ckpt.sh
 * and ckpt_procs.sh kill the first and restart it, also as several processes):
 *   - every rank's MPI_Wtime after the checkpoint is at least what it read before it (the restarted job's
 *     clock goes on from the checkpoint's time, not from the new process's);
 *   - where MPI_WTIME_IS_GLOBAL is true (one node), times still compare between ranks after it: a rank's time
 *     read after a message arrives is at least the sender's time read before the send, around the ring
 *     (between the processes of a job of several, restarted with one offset).
 *
 *   ckpt_wtime DIR [kill]; without arguments (the testlist): into a fresh directory, removed at the end. */
#include "ckpt_test.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "ckpt_wtime");

    double before = MPI_Wtime(); /* kept in the rank's memory across the checkpoint */
    ckpt_test_point(&t, MPI_INFO_NULL, "ckpt_wtime", &errs);
    double after = MPI_Wtime();
    MT_CHECK(errs, after >= before, "MPI_Wtime went back across the checkpoint: %.9f before, %.9f after", before,
             after);

    int *global, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    if (flag && *global && size > 1) {
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        for (int round = 0; round < 3; round++) {
            double sent = MPI_Wtime(), got = 0;
            MT_CHECK_RC(errs, MPI_Sendrecv(&sent, 1, MPI_DOUBLE, right, round, &got, 1, MPI_DOUBLE, left, round,
                                           MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            double now = MPI_Wtime();
            MT_CHECK(errs, now >= got, "round %d: rank %d's time %.9f is before rank %d's %.9f, sent to it", round,
                     rank, now, left, got);
        }
    }
    ckpt_test_close(&t);
    return mt_finish(errs);
}
