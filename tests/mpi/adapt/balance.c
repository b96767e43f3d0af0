/* SPDX-License-Identifier: BSD-3-Clause */
/* The balancers use the loads they should (run with 2 PEs and a balancer that balances: Greedy, Refine,
 * GreedyRefine, Metis):
 *   - loads given with AMPI_Load_set_value (the first quarter of the ranks 4, the others 1; block placement
 *     puts the heavy ones together): after one AMPI_Migrate the PEs' sums of given loads are within the
 *     largest single load of each other;
 *   - measured loads (CPU time, with a stretch excluded by AMPI_Load_stop_measure / _start_measure): the
 *     step runs and communication stays right.  Their balance is not asserted: it depends on how the OS
 *     shares the cores with other jobs (docs/PERFORMANCE.md measures it on a quiet machine);
 * With one PE, or a balancer that does not balance, it only checks that everything runs.  In the emulated
 * multi-process mode each process is balanced alone: the checks apply to the ranks of a process with 2 PEs
 * (as to the job's ranks in a one-process job), and every rank stays in its process; in a job of several OS
 * processes they apply to the job's ranks over the job's PEs (ranks move between processes).  A last step
 * gives huge loads (1e30 and up: --lb-verbose must still print them). */
#include <stdlib.h>
#include <string.h>
#include "mtest.h"


/* Sum of `w` over the ranks of each of the first two PEs of the calling rank's process (PEs 0 and 1 in a
 * one-process job) in out[0..1], over the ranks on all its PEs in out[2]. */
static void pe_sums(double w, int npes, double out[3])
{
    int *pe, flag, first, n;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
    mt_proc_pes(npes, &first, &n);
    double *mine = calloc((size_t)npes, sizeof(double)), *all = calloc((size_t)npes, sizeof(double));
    mine[*pe] = w;
    MPI_Allreduce(mine, all, npes, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    out[0] = all[first];
    out[1] = n > 1 ? all[first + 1] : 0;
    out[2] = 0;
    for (int q = first; q < first + n; q++)
        out[2] += all[q];
    free(mine);
    free(all);
}

/* The number of ranks balanced with the calling rank's: those of its process (the job's ranks in a
 * one-process job, and when ranks move between processes), and the sum of weight(r) over them. */
static int proc_ranks(int size, double (*weight)(int, int), double *sum)
{
    int rank, nprocs, n = 0, me, across = mt_lb_across();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    me = mt_proc_of(rank, &nprocs);
    *sum = 0;
    for (int r = 0; r < size; r++)
        if (across || mt_proc_of(r, NULL) == me) {
            n++;
            *sum += weight(r, size);
        }
    return n;
}

static double given_load(int r, int size) { return r < size / 4 ? 4.0 : 1.0; }
static double measured_weight(int r, int size) { return r >= size - size / 4 ? 4.0 : 1.0; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size, *npes, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    const char *lb = getenv("VMPI_BALANCER");
    /* the ranks of this process (all in a one-process job) and the PEs they are balanced over */
    double total;
    int nranks = proc_ranks(size, given_load, &total), npp = mt_proc_npes(*npes);
    int check = npp == 2 && nranks >= 8 && lb && strcmp(lb, "Null") && strcmp(lb, "Rotate") && strcmp(lb, "Random");

    /* given loads */
    double given = given_load(rank, size), s[3];
    AMPI_Load_set_value(given);
    AMPI_Migrate(MPI_INFO_NULL);
    pe_sums(given, *npes, s);
    if (check && (s[0] - s[1] > 4.0 || s[1] - s[0] > 4.0))
        MT_ERR(errs, "given loads: PE sums %.1f and %.1f after balancing", s[0], s[1]);

    /* measured loads, with an excluded stretch that is heaviest on the light ranks */
    double weight = measured_weight(rank, size);
    AMPI_Load_stop_measure();
    mt_spin((long)(5.0 / weight * 200000));
    AMPI_Load_start_measure();
    mt_spin((long)(weight * 400000));
    AMPI_Migrate(MPI_INFO_NULL);
    pe_sums(weight, *npes, s);
    proc_ranks(size, measured_weight, &total);
    if ((npp <= 2 && s[0] + s[1] != total) || (npp == 1 && s[1] != 0) || s[2] != total)
        MT_ERR(errs, "measured loads: PE sums of weights %.1f and %.1f (%.1f on the process's %d PEs), expected %.1f",
               s[0], s[1], s[2], npp, total);

    AMPI_Load_set_value(1e30 * (rank + 1));
    AMPI_Migrate(MPI_INFO_NULL);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (AMPI_Load_set_value(-1.0) != MPI_ERR_ARG)
        MT_ERR(errs, "a negative load did not give MPI_ERR_ARG");
    return mt_finish(errs);
}
