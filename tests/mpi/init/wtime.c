/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Wtime never goes backwards and eventually advances; MPI_Wtick is positive.  MPI_WTIME_IS_GLOBAL is
 * true when every rank reads one clock, those of a job on one node (mt_nnodes), and false on several: then
 * a time read by any rank before a barrier is at most one read by any rank after it, and a message arrives
 * no earlier than the sender's time of sending.  No other timing assertions. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0;

    MPI_Init(&argc, &argv);
    double tick = MPI_Wtick();
    MT_CHECK(errs, tick > 0.0 && tick <= 1.0, "Wtick = %g", tick);

    double t0 = MPI_Wtime(), prev = t0;
    long backwards = 0;
    for (int i = 0; i < 100000; i++) {
        double t = MPI_Wtime();
        if (t < prev)
            backwards++;
        prev = t;
        if ((i & 1023) == 0)
            MPI_Barrier(MPI_COMM_SELF);
    }
    MT_CHECK(errs, backwards == 0, "Wtime went backwards %ld times", backwards);

    /* the clock must advance eventually (spin until it does, bounded by a call count, not by time) */
    int advanced = 0;
    for (long i = 0; i < 2000000000L && !advanced; i++)
        if (MPI_Wtime() > t0)
            advanced = 1;
    MT_CHECK(errs, advanced, "Wtime never advanced from %g", t0);

    /* across a barrier the time seen by one rank does not go backwards either */
    double before = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    double after = MPI_Wtime();
    MT_CHECK(errs, after >= before, "Wtime after barrier %.9f < before %.9f", after, before);

    int *global = NULL, flag = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag));
    if (!flag || global == NULL) {
        MT_ERR(errs, "MPI_WTIME_IS_GLOBAL is not set");
    } else if (!MT_MPICH_BUGS) {
        MT_CHECK(errs, *global == (mt_nnodes() == 1), "MPI_WTIME_IS_GLOBAL %d on %d node(s)", *global, mt_nnodes());
        if (*global) { /* one clock, one zero: times of different ranks compare */
            double latest = 0;
            before = MPI_Wtime();
            MPI_Allreduce(&before, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            after = MPI_Wtime();
            MT_CHECK(errs, after >= latest, "Wtime %.9f after an allreduce, a rank read %.9f before it", after, latest);
            double sent = MPI_Wtime(), got = 0;
            MPI_Sendrecv(&sent, 1, MPI_DOUBLE, (rank + 1) % size, 0, &got, 1, MPI_DOUBLE, (rank + size - 1) % size, 0,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            after = MPI_Wtime();
            MT_CHECK(errs, after >= got, "a message sent at %.9f arrived at %.9f", got, after);
        }
    }

    return mt_finish(errs);
}
