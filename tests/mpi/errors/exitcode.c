/* SPDX-License-Identifier: BSD-3-Clause */
/* After a clean MPI_Finalize, the last rank returns 42 from main and all others return 0: the job's exit
 * status is 42. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size, errs = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int r = rank, sum = -1;
    MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "sum of ranks", (long long)size * (size - 1) / 2, sum);
    MPI_Finalize();
    if (errs)
        return 1;
    return rank == size - 1 ? 42 : 0;
}
