/* SPDX-License-Identifier: BSD-3-Clause */
/* A program built with -privatize=none (the name ends in _none) that has globals: a checkpoint is refused
 * with MPI_ERR_UNSUPPORTED_OPERATION on every rank, also when the job has one rank (its globals are the
 * process's, outside the ranks' slots: a restart would find them as they were at load time), and the job
 * goes on. */
#include "mtest.h"

int counter = 5; /* the program's state, changed before the checkpoint */

int main(int argc, char **argv)
{
    int errs = 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0)
        counter = 42;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "ampi_checkpoint", "in_memory");
    int rc = AMPI_Migrate(info), cls = rc;
    MPI_Info_free(&info);
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    MT_CHECK_INT(errs, "AMPI_Migrate(ampi_checkpoint=in_memory)", MPI_ERR_UNSUPPORTED_OPERATION, cls);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "the global", 42, counter);
    return mt_finish(errs);
}
