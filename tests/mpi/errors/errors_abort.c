/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4's MPI_ERRORS_ABORT: a predefined handler that MPI_Comm_get_errhandler gives back and
 * MPI_Errhandler_free accepts; an error on a communicator that has it (a send to rank `size`, MPI_ERR_RANK,
 * from the last rank while the others wait in a receive from it) aborts the job as MPI_Abort would, with the
 * error code as the exit status (the testlist expects 6, MPI_ERR_RANK, and the handler named). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, x = 0, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Errhandler got;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(dup, MPI_ERRORS_ABORT));
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(dup, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ABORT, "Comm_get_errhandler gave another handler");
    MT_CHECK_RC(errs, MPI_Errhandler_free(&got));
    if (errs) {
        fprintf(stderr, "[rank %d] Found %d errors\n", rank, errs);
        return 2;
    }
    if (rank == size - 1) {
        MPI_Send(&x, 1, MPI_INT, size, 0, dup); /* no such rank */
        fprintf(stderr, "the erroneous MPI_Send returned under MPI_ERRORS_ABORT\n");
    } else {
        MPI_Recv(&x, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* never matched */
        fprintf(stderr, "[rank %d] MPI_Recv completed unexpectedly\n", rank);
    }
    MPI_Finalize();
    return 0;
}
