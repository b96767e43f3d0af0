/* SPDX-License-Identifier: BSD-3-Clause */
/* A user error code raised on a communicator with MPI_ERRORS_ARE_FATAL stops the job (exit status 1) with a
 * message that gives the code's class and the string the program gave it (the testlist checks both). */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, cls, code;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Add_error_class(&cls);
    MPI_Add_error_code(MPI_ERR_IO, &code);
    MPI_Add_error_string(code, "application-disk-is-full");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
    MPI_Barrier(MPI_COMM_WORLD); /* not reached by rank 0, so nobody leaves */
    MPI_Finalize();
    return 0;
}
