/* SPDX-License-Identifier: BSD-3-Clause */
/* A broadcast whose root passes 100 ints (the eager path: it leaves the data and goes on) while the other
 * ranks pass 1000 (they synchronize with the root's slot): the readers' broadcast ends when the root's next
 * collective (here MPI_Finalize) arrives, and must fail with MPI_ERR_TRUNCATE instead of reading what the
 * root's slot held before (a crash on 1 PE before the check).  The testlist expects the fatal error. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *b = mt_malloc(sizeof(int) * 1000);
    for (int i = 0; i < 1000; i++)
        b[i] = rank == 0 ? i : -1;
    MPI_Bcast(b, rank == 0 ? 100 : 1000, MPI_INT, 0, MPI_COMM_WORLD);
    free(b);
    MPI_Finalize();
    return 0;
}
