/* SPDX-License-Identifier: BSD-3-Clause */
/* An erroneous program whose ranks enter different collectives at once: rank 0 MPI_Reduce (and then
 * MPI_Bcast of 1000 ints), the others MPI_Barrier (twice).  The shared-memory synchronization pairs them;
 * when the last rank to arrive is in the barrier, no reduction result (or broadcast data) was made, and the
 * reduce (broadcast) must fail instead of reading it (MPICH errors/coll/noalias2 crashed so on 1 PE).  With
 * MPI_ERRORS_RETURN the job then finishes: rank 0 prints whether its calls failed, each rank " No Errors"
 * is not checked (the pairing depends on the arrival order).  In a job of several processes (real, or
 * vmpirun --emulate-procs) the calls are mismatched within each process only (on a communicator per
 * process): between processes the leaders' messages would pair them, and what such an erroneous program
 * then does depends on the transport (a broadcast root's data to a leader in a barrier goes by rendezvous
 * above the network's eager limit and waits forever, as MPI allows; the leftover messages put the
 * collectives that follow, MPI_Finalize's barrier too, out of step), so no outcome can be expected. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int wrank, rank, size, p, nprocs;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    VMPIX_Proc_of(wrank, &p, &nprocs);
    /* in a job of several processes, within each process: see above */
    MPI_Comm comm = MPI_COMM_WORLD;
    if (nprocs > 1)
        MPI_Comm_split(MPI_COMM_WORLD, p, wrank, &comm);
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int one = 1, sum = -1, bad = 0;
    int *b = mt_malloc(sizeof(int) * 1000);
    if (rank == 0) {
        int e1 = MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, 0, comm);
        int e2 = MPI_Bcast(b, 1000, MPI_INT, 0, comm);
        /* with more ranks the reduce can only fail (no rank contributed); the sum, if any, is not checked */
        /* the broadcast only when the job is one process, as before (on the per-process communicators its
         * pairing is not checked) */
        if (size > 1 && (e1 == MPI_SUCCESS || (e2 == MPI_SUCCESS && nprocs == 1))) {
            printf("rank %d: a collective nobody else called succeeded (%d, %d)\n", wrank, e1, e2);
            bad = 1;
        }
    } else {
        MPI_Barrier(comm);
        MPI_Barrier(comm);
    }
    if (nprocs > 1) { /* the world's collectives are still in step */
        int any = 0;
        MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        bad = any;
    }
    if (wrank == 0 && !bad)
        printf(" No Errors\n");
    free(b);
    MPI_Finalize();
    return 0;
}
