/* SPDX-License-Identifier: BSD-3-Clause */
/* Shrink and expand within the process (run with --pes-active 1 on 2 PEs, or as the testlist says):
 *   - at the start every rank is on the PEs `VMPI_PES_ACTIVE` allows;
 *   - VMPIX_Set_active_pes(all) then AMPI_Migrate spreads the ranks (with a balancer that moves: Greedy
 *     sees equal loads, so both PEs get ranks); a ring exchange and an allreduce stay right;
 *   - VMPIX_Set_active_pes(1) then AMPI_Migrate puts every rank on PE 0, even ranks made unmovable and
 *     under any balancer (Null included): a shrinking PE is emptied;
 *   - in the emulated multi-process mode ranks move only within their process: expanding spreads each
 *     process's ranks over its PEs, shrinking moves them to the active PEs of their process (PE 0 for
 *     process 0), and the ranks of a process without an active PE stay where they are (shrink_check); a
 *     shrink to the first PE of the last process empties that process's other PEs only;
 *   - a migration point that does not balance (ampi_load_balance=false) still applies a shrink and
 *     AMPI_Migrate_to_pe;
 *   - VMPIX_Set_active_pes(0) and (PEs + 1) give MPI_ERR_ARG. */
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

static int my_pe(void)
{
    int *v, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &v, &flag);
    return *v;
}

/* After shrinking to the first `act` PEs (of npes), a rank that was on PE `before` is now on PE `pe`: it
 * must be on an active PE of its process (PEs 0 .. act-1 in a one-process job), or, when its process has no
 * active PE, where it was. */
static int shrink_check(int act, int npes, int before, int pe, const char *when)
{
    int errs = 0, first, n;
    mt_proc_pes(npes, &first, &n);
    int hi = first + n < act ? first + n : act; /* the process's active PEs: first .. hi-1 */
    if (first >= hi && pe != before)
        MT_ERR(errs, "%s: process of PEs %d..%d has no active PE (%d active), yet the rank moved %d -> %d", when,
               first, first + n - 1, act, before, pe);
    if (first < hi && (pe < first || pe >= hi))
        MT_ERR(errs, "%s to %d PEs: on PE %d, expected PE %d..%d", when, act, pe, first, hi - 1);
    return errs;
}

static int check_comm(int rank, int size, int round)
{
    int errs = 0, in = -1, sum = -1, out = rank * 10 + round;
    MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, round, &in, 1, MPI_INT, (rank + size - 1) % size, round,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (in != ((rank + size - 1) % size) * 10 + round)
        MT_ERR(errs, "round %d: ring got %d", round, in);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2)
        MT_ERR(errs, "round %d: allreduce %d", round, sum);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, *npes, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    const char *act = getenv("VMPI_PES_ACTIVE"), *lb = getenv("VMPI_BALANCER");
    int start_active = act && atoi(act) > 0 && atoi(act) < *npes ? atoi(act) : *npes;
    /* a rank starts in its own process, on one of its active PEs (all of them when it has none) */
    int sfirst, sn;
    mt_proc_pes(*npes, &sfirst, &sn);
    int shi = sfirst + sn < start_active ? sfirst + sn : start_active;
    if (shi <= sfirst)
        shi = sfirst + sn;
    if (my_pe() < sfirst || my_pe() >= shi)
        MT_ERR(errs, "started on PE %d with %d PEs active (its process: PEs %d..%d)", my_pe(), start_active, sfirst,
               sfirst + sn - 1);

    /* expand */
    mt_spin(200000);
    VMPIX_Set_active_pes(*npes);
    AMPI_Migrate(MPI_INFO_NULL);
    errs += check_comm(rank, size, 0);
    /* Greedy spreads the ranks of a process over its PEs: with 2 or more PEs and ranks in the process, its
     * first two PEs (PEs 0 and 1 in a one-process job) both hold ranks */
    int first, npp;
    mt_proc_pes(*npes, &first, &npp);
    int *on_pe = calloc((size_t)*npes, sizeof(int)), *counts = calloc((size_t)*npes, sizeof(int));
    on_pe[my_pe()] = 1;
    MPI_Allreduce(on_pe, counts, *npes, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int in_proc = 0;
    for (int q = first; q < first + npp; q++)
        in_proc += counts[q];
    if (lb && !strcmp(lb, "Greedy") && npp >= 2 && in_proc >= 2 && (counts[first] == 0 || counts[first + 1] == 0))
        MT_ERR(errs, "after expanding, PE %d holds %d ranks and PE %d %d (%d ranks on PEs %d..%d)", first,
               counts[first], first + 1, counts[first + 1], in_proc, first, first + npp - 1);
    free(on_pe);
    free(counts);

    /* shrink, with a pinned rank */
    if (rank == size - 1)
        AMPI_Set_migratable(0);
    int before = my_pe();
    VMPIX_Set_active_pes(1);
    AMPI_Migrate(MPI_INFO_NULL);
    errs += shrink_check(1, *npes, before, my_pe(), "after shrinking");
    errs += check_comm(rank, size, 1);
    mt_spin(1000);
    before = my_pe();
    AMPI_Migrate(MPI_INFO_NULL);
    errs += shrink_check(1, *npes, before, my_pe(), "a migration point after shrinking");
    errs += check_comm(rank, size, 2);

    /* placement without balancing */
    MPI_Info nolb;
    MPI_Info_create(&nolb);
    MPI_Info_set(nolb, "ampi_load_balance", "false");
    VMPIX_Set_active_pes(*npes);
    int last = first + npp - 1; /* the last PE of rank 0's process (the job's last PE in a one-process job) */
    if (rank == 0)
        AMPI_Migrate_to_pe(last);
    AMPI_Migrate(nolb);
    if (rank == 0 && my_pe() != last)
        MT_ERR(errs, "AMPI_Migrate_to_pe(%d) at a point that does not balance: on PE %d", last, my_pe());
    before = my_pe();
    VMPIX_Set_active_pes(1);
    AMPI_Migrate(nolb);
    errs += shrink_check(1, *npes, before, my_pe(), "shrinking at a point that does not balance");
    errs += check_comm(rank, size, 3);
    MPI_Info_free(&nolb);

    int nprocs = mt_nprocs();
    if (nprocs > 1) {
        /* emulated multi-process mode: a shrink that empties PEs of the last process only (its first PE and
         * every PE of the other processes stay active) */
        int lfirst, ln;
        mt_pes_of_proc(nprocs - 1, nprocs, *npes, &lfirst, &ln);
        VMPIX_Set_active_pes(*npes);
        AMPI_Migrate(MPI_INFO_NULL);
        before = my_pe();
        VMPIX_Set_active_pes(lfirst + 1);
        AMPI_Migrate(MPI_INFO_NULL);
        errs += shrink_check(lfirst + 1, *npes, before, my_pe(), "shrinking the last process");
        errs += check_comm(rank, size, 4);
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (VMPIX_Set_active_pes(0) != MPI_ERR_ARG || VMPIX_Set_active_pes(*npes + 1) != MPI_ERR_ARG)
        MT_ERR(errs, "a bad active PE count did not give MPI_ERR_ARG");
    return mt_finish(errs);
}
