/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun honours MPIEXEC_TIMEOUT (the testlist sets it): MT_TIMEOUT=spin, every rank computes forever
 * (as MPICH's init/timeout), so the job must be stopped with vmpirun's message and exit status 124;
 * MT_TIMEOUT=exit, rank 0 ends the job with exit status 3 well within the limit, which vmpirun must pass
 * on; unset, a normal run (" No Errors") within the limit. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = getenv("MT_TIMEOUT");
    MPI_Barrier(MPI_COMM_WORLD);
    if (mode && !strcmp(mode, "spin")) {
        if (rank == 0) {
            printf("spinning\n");
            fflush(stdout);
        }
        volatile double sink = 0;
        for (;;)
            sink += MPI_Wtime();
    }
    if (mode && !strcmp(mode, "exit") && rank == 0)
        exit(3); /* a rank's exit ends that rank; a non-zero status is the job's */
    return mt_finish(errs);
}
