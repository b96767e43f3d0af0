/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Wtime never goes backwards and eventually advances; MPI_Wtick is positive.  No timing assertions. */
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

    return mt_finish(errs);
}
