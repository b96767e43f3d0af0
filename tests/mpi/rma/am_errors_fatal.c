/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_ERRORS_ARE_FATAL is a window's default error handler: rank 0 calls MPIX_Am outside any epoch, which must
 * end the whole job with status 1 and the error class's name (MPI_ERR_RMA_SYNC) printed, while the other ranks
 * wait in an MPI_Recv that is never satisfied.  Reaching the end is a failure. */
#include "mtest.h"

static void handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                    MPI_Datatype ot, int nseg, void *extra)
{
    (void)in, (void)ic, (void)it, (void)p, (void)pc, (void)pt, (void)out, (void)oc, (void)ot, (void)nseg, (void)extra;
}

int main(int argc, char **argv)
{
    int rank, size, x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPIX_Am_op op;
    MPIX_Am_op_create(handler, NULL, &op);
    void *base;
    MPI_Win win;
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rank == 0) {
        MPIX_Am(&x, 1, MPI_INT, NULL, 0, MPI_INT, 1, size - 1, MPI_INT, 0, 0, MPI_INT, MPI_INT, op, win);
        fprintf(stderr, "MPIX_Am outside an epoch returned under MPI_ERRORS_ARE_FATAL\n");
    } else {
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
        fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0; /* the run is expected to exit with status 1: returning 0 fails it */
}
