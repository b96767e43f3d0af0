/* SPDX-License-Identifier: BSD-3-Clause */
/* An erroneous program whose ranks enter different collectives at once: rank 0 MPI_Reduce (and then
 * MPI_Bcast of 1000 ints), the others MPI_Barrier (twice).  The shared-memory synchronization pairs them;
 * when the last rank to arrive is in the barrier, no reduction result (or broadcast data) was made, and the
 * reduce (broadcast) must fail instead of reading it (MPICH errors/coll/noalias2 crashed so on 1 PE).  With
 * MPI_ERRORS_RETURN the job then finishes: rank 0 prints whether its calls failed, each rank " No Errors"
 * is not checked (the pairing depends on the arrival order).  When the ranks live in several processes
 * (vmpirun --emulate-procs), the leaders' messages pair the calls too: the reduce's root meets a barrier's
 * message instead of a contribution and fails, but the broadcast's root only sends and may be the last to
 * arrive in its process (its data then made the result): it may succeed, as a root that nobody reads
 * from may under MPI. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int one = 1, sum = -1;
    int *b = mt_malloc(sizeof(int) * 1000);
    if (rank == 0) {
        int e1 = MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        int e2 = MPI_Bcast(b, 1000, MPI_INT, 0, MPI_COMM_WORLD);
        /* with more ranks the reduce can only fail (no rank contributed); the sum, if any, is not checked */
        int p, nprocs;
        VMPIX_Proc_of(0, &p, &nprocs);
        if (size > 1 && (e1 == MPI_SUCCESS || (e2 == MPI_SUCCESS && nprocs == 1)))
            printf("rank 0: a collective nobody else called succeeded (%d, %d)\n", e1, e2);
        else
            printf(" No Errors\n");
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(b);
    MPI_Finalize();
    return 0;
}
