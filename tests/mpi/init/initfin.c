/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Initialized / MPI_Finalized before Init, between Init and Finalize, and after Finalize;
 * MPI_Get_version may be called at any time. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, flag = -1, v = 0, sv = 0, rank = -1, size = 0;

    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "Initialized before Init", 0, flag);
    flag = -1;
    MT_CHECK_RC(errs, MPI_Finalized(&flag));
    MT_CHECK_INT(errs, "Finalized before Init", 0, flag);
    MT_CHECK_RC(errs, MPI_Get_version(&v, &sv));
    MT_CHECK(errs, v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version before Init: %d.%d", v, sv);

    MT_CHECK_RC(errs, MPI_Init(&argc, &argv));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    flag = -1;
    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "Initialized after Init", 1, flag);
    flag = -1;
    MT_CHECK_RC(errs, MPI_Finalized(&flag));
    MT_CHECK_INT(errs, "Finalized after Init", 0, flag);

    /* every rank must agree: collect the error count before finalizing */
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    errs = 0;

    MT_CHECK_RC(errs, MPI_Finalize());

    flag = -1;
    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "Initialized after Finalize", 1, flag);
    flag = -1;
    MT_CHECK_RC(errs, MPI_Finalized(&flag));
    MT_CHECK_INT(errs, "Finalized after Finalize", 1, flag);
    v = sv = 0;
    MT_CHECK_RC(errs, MPI_Get_version(&v, &sv));
    MT_CHECK(errs, v == MPI_VERSION && sv == MPI_SUBVERSION, "Get_version after Finalize: %d.%d", v, sv);

    if (errs)
        fprintf(stderr, "[rank %d] %d errors after MPI_Finalize\n", rank, errs);
    if (rank == 0 && total == 0 && errs == 0) {
        printf(" No Errors\n");
        fflush(stdout);
    } else if (rank == 0 && total) {
        printf(" Found %d errors\n", total + errs);
        fflush(stdout);
    }
    return (total || errs) ? 1 : 0;
}
