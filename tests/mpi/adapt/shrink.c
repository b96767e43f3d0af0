/* SPDX-License-Identifier: BSD-3-Clause */
/* Shrink and expand within the process (run with --pes-active 1 on 2 PEs, or as the testlist says):
 *   - at the start every rank is on the PEs `VMPI_PES_ACTIVE` allows;
 *   - VMPIX_Set_active_pes(all) then AMPI_Migrate spreads the ranks (with a balancer that moves: Greedy
 *     sees equal loads, so both PEs get ranks); a ring exchange and an allreduce stay right;
 *   - VMPIX_Set_active_pes(1) then AMPI_Migrate puts every rank on PE 0, even ranks made unmovable and
 *     under any balancer (Null included): a shrinking PE is emptied;
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
    if (my_pe() >= start_active)
        MT_ERR(errs, "started on PE %d with %d PEs active", my_pe(), start_active);

    /* expand */
    mt_spin(200000);
    VMPIX_Set_active_pes(*npes);
    AMPI_Migrate(MPI_INFO_NULL);
    errs += check_comm(rank, size, 0);
    int counts[2] = {0, 0}, mine[2] = {my_pe() == 0, my_pe() == 1};
    MPI_Allreduce(mine, counts, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (lb && !strcmp(lb, "Greedy") && *npes >= 2 && size >= 2 && (counts[0] == 0 || counts[1] == 0))
        MT_ERR(errs, "after expanding, PE 0 holds %d ranks and PE 1 %d", counts[0], counts[1]);

    /* shrink, with a pinned rank */
    if (rank == size - 1)
        AMPI_Set_migratable(0);
    VMPIX_Set_active_pes(1);
    AMPI_Migrate(MPI_INFO_NULL);
    if (my_pe() != 0)
        MT_ERR(errs, "after shrinking to one PE, on PE %d", my_pe());
    errs += check_comm(rank, size, 1);
    mt_spin(1000);
    AMPI_Migrate(MPI_INFO_NULL);
    if (my_pe() != 0)
        MT_ERR(errs, "a migration point after shrinking put the rank on PE %d", my_pe());
    errs += check_comm(rank, size, 2);

    /* placement without balancing */
    MPI_Info nolb;
    MPI_Info_create(&nolb);
    MPI_Info_set(nolb, "ampi_load_balance", "false");
    VMPIX_Set_active_pes(*npes);
    if (rank == 0)
        AMPI_Migrate_to_pe(*npes - 1);
    AMPI_Migrate(nolb);
    if (rank == 0 && my_pe() != *npes - 1)
        MT_ERR(errs, "AMPI_Migrate_to_pe(%d) at a point that does not balance: on PE %d", *npes - 1, my_pe());
    VMPIX_Set_active_pes(1);
    AMPI_Migrate(nolb);
    if (my_pe() != 0)
        MT_ERR(errs, "shrinking at a point that does not balance left the rank on PE %d", my_pe());
    errs += check_comm(rank, size, 3);
    MPI_Info_free(&nolb);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (VMPIX_Set_active_pes(0) != MPI_ERR_ARG || VMPIX_Set_active_pes(*npes + 1) != MPI_ERR_ARG)
        MT_ERR(errs, "a bad active PE count did not give MPI_ERR_ARG");
    return mt_finish(errs);
}
