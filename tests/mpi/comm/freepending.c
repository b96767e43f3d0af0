/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_free with nonblocking collectives still pending (MPI-3.1 6.4.3: the free takes effect once
 * they complete): on a split intracommunicator and on an intercommunicator between the two halves, an
 * Ibarrier and an Iallreduce are started, both communicators freed, memory churned (so freed state would
 * be reused), then the requests completed and the results checked.  Twenty rounds. */
#include <stdlib.h>
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int round = 0; round < 20; round++) {
        MPI_Comm half, inter = MPI_COMM_NULL;
        int color = rank % 2, hs, rs = 0, sum = -1, isum = -1, want = 0, iwant = 0;
        MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
        MPI_Comm_size(half, &hs);
        MPI_Request rq[4];
        int nrq = 0;
        MPI_Ibarrier(half, &rq[nrq++]);
        MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half, &rq[nrq++]);
        if (size >= 2) {
            MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, color ? 0 : 1, 11, &inter);
            MPI_Comm_remote_size(inter, &rs);
            MPI_Ibarrier(inter, &rq[nrq++]);
            MPI_Iallreduce(&rank, &isum, 1, MPI_INT, MPI_SUM, inter, &rq[nrq++]);
            MPI_Comm_free(&inter);
        }
        MPI_Comm_free(&half);
        for (int k = 0; k < 50; k++) { /* churn: freed groups' memory gets reused */
            int *p = malloc(sizeof(int) * (size_t)(16 + k));
            for (int j = 0; j < 16 + k; j++)
                p[j] = -1;
            free(p);
        }
        MPI_Waitall(nrq, rq, MPI_STATUSES_IGNORE);
        for (int w = 0; w < size; w++) {
            if (w % 2 == color)
                want += w;
            else
                iwant += w;
        }
        if (sum != want)
            MT_ERR(errs, "round %d: Iallreduce on the freed split communicator gave %d, expected %d", round, sum,
                   want);
        if (size >= 2 && isum != iwant)
            MT_ERR(errs, "round %d: Iallreduce on the freed intercommunicator gave %d, expected %d", round, isum,
                   iwant);
        (void)hs;
        (void)rs;
    }
    return mt_finish(errs);
}
