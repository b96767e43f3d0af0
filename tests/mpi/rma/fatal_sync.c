/* SPDX-License-Identifier: BSD-3-Clause */
/* A Put outside any epoch on a window with the default error handler (MPI_ERRORS_ARE_FATAL, MPI-3.1 11.6.1)
 * ends the job with status 1, naming MPI_ERR_RMA_SYNC (the testlist expects both).  Every rank makes the
 * erroneous call; a rank that returned from it reports that and finishes, which the testlist then rejects. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MPI_Errhandler eh;
    MT_CHECK_RC(errs, MPI_Win_get_errhandler(win, &eh));
    MT_CHECK(errs, eh == MPI_ERRORS_ARE_FATAL, "a new window's error handler is not MPI_ERRORS_ARE_FATAL");
    int rc = MPI_Put(&x, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    MT_ERR(errs, "MPI_Put outside any epoch returned %d instead of ending the job", rc);
    MPI_Win_free(&win);
    return mt_finish(errs);
}
