/* SPDX-License-Identifier: BSD-3-Clause */
/* A deadlock whose ranks each wait in another call: the report must name the call each rank is in (not the
 * receive or barrier inside it) and, for point-to-point, the peer, the tag and the communicator
 * (tests/tools/output.sh checks the lines).  Rank 0 waits in MPI_Barrier, rank 1 in MPI_Recv from rank 0
 * with tag 7 on MPI_COMM_WORLD, rank 2 in MPI_Wait for a receive from any rank with tag 9 on a duplicate
 * named "mycomm", rank 3 in MPI_Ssend to rank 1 with tag 5, rank 5 in MPI_Wait for a broadcast on "mycomm" (a
 * nonblocking collective: named by its communicator, nothing of its steps), rank 6 in MPI_Bcast_c from rank 0
 * on MPI_COMM_WORLD (a large-count form: named as called), the others in MPI_Finalize; a single rank receives
 * from itself. */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    MPI_Comm dup;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_name(dup, "mycomm");
    if (size == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* from itself */
    } else if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 2) {
        MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 9, dup, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 3) {
        MPI_Ssend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else if (rank == 5) {
        MPI_Ibcast(&v, 1, MPI_INT, 0, dup, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (rank == 6) {
        MPI_Bcast_c(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
