/* SPDX-License-Identifier: BSD-3-Clause */
/* The balancers use the loads they should (run with 2 PEs and a balancer that balances: Greedy, Refine,
 * GreedyRefine, Metis):
 *   - loads given with AMPI_Load_set_value (the first quarter of the ranks 4, the others 1; block placement
 *     puts the heavy ones together): after one AMPI_Migrate the PEs' sums of given loads are within the
 *     largest single load of each other;
 *   - measured loads (CPU time, with a stretch excluded by AMPI_Load_stop_measure / _start_measure): the
 *     step runs and communication stays right.  Their balance is not asserted: it depends on how the OS
 *     shares the cores with other jobs (docs/PERFORMANCE.md measures it on a quiet machine);
 * With one PE, or a balancer that does not balance, it only checks that everything runs.  A last step
 * gives huge loads (1e30 and up: --lb-verbose must still print them). */
#include <stdlib.h>
#include <string.h>
#include "mtest.h"


/* Sum of `w` over the ranks of each of the first two PEs. */
static void pe_sums(double w, double out[2])
{
    int *pe, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
    double mine[2] = {*pe == 0 ? w : 0, *pe == 1 ? w : 0};
    MPI_Allreduce(mine, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, *npes, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    const char *lb = getenv("VMPI_BALANCER");
    int check = *npes == 2 && size >= 8 && lb && strcmp(lb, "Null") && strcmp(lb, "Rotate") && strcmp(lb, "Random");

    /* given loads */
    double given = rank < size / 4 ? 4.0 : 1.0, s[2];
    AMPI_Load_set_value(given);
    AMPI_Migrate(MPI_INFO_NULL);
    pe_sums(given, s);
    if (check && (s[0] - s[1] > 4.0 || s[1] - s[0] > 4.0))
        MT_ERR(errs, "given loads: PE sums %.1f and %.1f after balancing", s[0], s[1]);

    /* measured loads, with an excluded stretch that is heaviest on the light ranks */
    double weight = rank >= size - size / 4 ? 4.0 : 1.0;
    AMPI_Load_stop_measure();
    mt_spin((long)(5.0 / weight * 200000));
    AMPI_Load_start_measure();
    mt_spin((long)(weight * 400000));
    AMPI_Migrate(MPI_INFO_NULL);
    pe_sums(weight, s);
    if ((*npes <= 2 && s[0] + s[1] != (double)(size / 4) * 4.0 + (double)(size - size / 4)) ||
        (*npes == 1 && s[1] != 0))
        MT_ERR(errs, "measured loads: PE sums of weights %.1f and %.1f", s[0], s[1]);

    AMPI_Load_set_value(1e30 * (rank + 1));
    AMPI_Migrate(MPI_INFO_NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (AMPI_Load_set_value(-1.0) != MPI_ERR_ARG)
        MT_ERR(errs, "a negative load did not give MPI_ERR_ARG");
    return mt_finish(errs);
}
