/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Barrier: no rank leaves before every rank has entered.
 * In round k the checker is rank k % size.  Every other rank sends a PRE message to the checker, enters the
 * barrier, and after leaving it sends a POST message.  The checker receives all size-1 PRE messages (so it
 * counts that everyone is about to enter), polls MPI_Iprobe for POST messages - there must be none, since it
 * has not entered the barrier yet - then enters the barrier and receives the size-1 POST messages.
 * Plus many back-to-back barriers, and a barrier on MPI_COMM_SELF. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = 3 * size < 40 ? 3 * size : 40;

    for (int k = 0; k < rounds; k++) {
        int checker = k % size;
        if (rank == checker) {
            int pre = 0, v;
            MPI_Status st;
            for (int i = 0; i < size - 1; i++) {
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
                MT_CHECK(errs, v == k, "round %d: PRE message from %d carries round %d", k, st.MPI_SOURCE, v);
                pre++;
                MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &st);
                MT_CHECK(errs, !flag, "round %d: rank %d left the barrier before rank %d entered it", k, st.MPI_SOURCE,
                         rank);
            }
            for (int i = 0; i < 200; i++) { /* give early leavers every chance to show up */
                MPI_Iprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &st);
                if (flag) {
                    MT_ERR(errs, "round %d: rank %d left the barrier before rank %d entered it", k, st.MPI_SOURCE,
                           rank);
                    break;
                }
            }
            MT_CHECK_INT(errs, "PRE messages before the barrier", size - 1, pre);
            MPI_Barrier(MPI_COMM_WORLD);
            for (int i = 0; i < size - 1; i++) {
                MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
                MT_CHECK(errs, v == k, "round %d: POST message from %d carries round %d", k, st.MPI_SOURCE, v);
            }
        } else {
            MPI_Send(&k, 1, MPI_INT, checker, 1, MPI_COMM_WORLD);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Send(&k, 1, MPI_INT, checker, 2, MPI_COMM_WORLD);
        }
    }

    for (int i = 0; i < 200; i++)
        MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_SELF));
    return mt_finish(errs);
}
