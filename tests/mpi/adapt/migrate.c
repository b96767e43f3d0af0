/* SPDX-License-Identifier: BSD-3-Clause */
/* Migration at AMPI_Migrate, checked under any balancer (the testlist runs it with Rotate, which moves every
 * movable rank at every migration point, with many ranks per PE):
 *   - a ring exchange where each step's Isend and Irecv (half of them MPI_ANY_SOURCE / MPI_ANY_TAG) are
 *     posted before AMPI_Migrate and completed after it, with an Iallreduce and an Ibcast in flight too:
 *     every value arrives once, in order, intact;
 *   - blocking broadcasts of 4 B, 4 KiB and 64 KiB (the shared-memory paths, whose per-PE state is regrouped
 *     at every migration) from a root that changes every step, 70 of the small ones per step so that the
 *     broadcast mailbox ring wraps;
 *   - a communicator from Comm_split_type and an attribute on it stay valid across migrations;
 *   - under Rotate with 2 or more PEs every movable rank's PE (AMPI_MY_WTH) changes at every step to the
 *     next PE of its process (mt_rotate_next: (pe + 1) % PEs in a one-process job) and just_migrated runs
 *     exactly then; AMPI_Set_migratable(0) keeps rank 1 in place; AMPI_Migrate_to_pe sends rank 2 to the
 *     first PE of its process (PE 0 in a one-process job); about_to_migrate runs at every migration point;
 *     in the emulated multi-process mode a rank never leaves its process, and AMPI_Migrate_to_pe to a PE of
 *     another process is refused (the rank stays); in a job of several OS processes Rotate sends every rank
 *     to the next PE of the job, in the next process from its process's last PE (mt_lb_across);
 *   - AMPI_NUM_WTHS, AMPI_NUM_PROCESSES, AMPI_MY_PROCESS; bad arguments give MPI_ERR_ARG / MPI_ERR_INFO. */
#include <stdlib.h>
#include <string.h>
#include "mtest.h"

enum { MAXR = 4096, STEPS = 12 };
/* callbacks have no argument: counted per world rank (ranks share the program's globals) */
static int about_calls[MAXR], just_calls[MAXR];
static int world_rank(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
static void about(void) { about_calls[world_rank()]++; }
static void just(void) { just_calls[world_rank()]++; }

/* Whether every rank of the calling rank's process is on its PE `pe` (collective). */
static int all_on_one_pe(int rank, int size, int pe)
{
    int *pes = malloc(sizeof(int) * (size_t)size), one = 1, me = mt_proc_of(rank, NULL);
    MPI_Allgather(&pe, 1, MPI_INT, pes, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        if (mt_proc_of(r, NULL) == me && pes[r] != pe)
            one = 0;
    free(pes);
    return one;
}

static int attr_int(int key)
{
    int *v, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
    return flag ? *v : -1;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *lb = getenv("VMPI_BALANCER");
    int npes = attr_int(AMPI_NUM_WTHS), first = 0, npp = npes, proc = mt_proc_of(rank, NULL);
    mt_proc_pes(npes, &first, &npp); /* the PEs of this rank's process: all of them in a one-process job */
    int rotate = lb && !strcmp(lb, "Rotate") && npp > 1, across = mt_lb_across();
    if (npes < 1 || attr_int(AMPI_NUM_PROCESSES) != 1 || attr_int(AMPI_MY_PROCESS) != 0)
        MT_ERR(errs, "AMPI attributes: %d PEs, %d processes", npes, attr_int(AMPI_NUM_PROCESSES));
    if (size > MAXR)
        return mt_finish(errs);
    AMPI_Register_about_to_migrate(about);
    AMPI_Register_just_migrated(just);
    if (rank == 1)
        AMPI_Set_migratable(0);

    MPI_Comm node;
    int key, val = 1000 + rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int want_sum, want = mt_proc_ranks(rank, size, &want_sum); /* its members: fixed, wherever they move */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(node, key, &val);

    int right = (rank + 1) % size, left = (rank + size - 1) % size, moves = 0, moves_alone = 0;
    for (int step = 0; step < STEPS; step++) {
        int out = rank * 100 + step, in = -1, sum = -1, b = rank == 0 ? 77 + step : -1;
        int wild = step % 2;
        MPI_Request rq[4];
        MPI_Status st[4];
        MPI_Irecv(&in, 1, MPI_INT, wild ? MPI_ANY_SOURCE : left, wild ? MPI_ANY_TAG : step, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(&out, 1, MPI_INT, right, step, MPI_COMM_WORLD, &rq[1]);
        MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[2]);
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq[3]);
        if (rank == 2 && step == 5)
            AMPI_Migrate_to_pe(first);
        int pe0 = attr_int(AMPI_MY_WTH), just0 = just_calls[rank];
        /* between processes a process keeps at least one rank: when all of its ranks are on one PE, one of them
         * may stay */
        int alone = across && all_on_one_pe(rank, size, pe0);
        MPI_Info hints;
        MPI_Info_create(&hints);
        MPI_Info_set(hints, "ampi_load_balance", "sync");
        AMPI_Migrate(hints);
        MPI_Info_free(&hints);
        int pe1 = attr_int(AMPI_MY_WTH);
        moves += pe1 != pe0;
        if (pe1 < 0 || pe1 >= npes)
            MT_ERR(errs, "step %d: AMPI_MY_WTH = %d", step, pe1);
        if ((pe1 != pe0) != (just_calls[rank] != just0))
            MT_ERR(errs, "step %d: moved %d -> %d, just_migrated calls %d -> %d", step, pe0, pe1, just0,
                   just_calls[rank]);
        moves_alone += alone && pe1 == pe0;
        if (rotate && rank != 1 && !(rank == 2 && step == 5) && pe1 != mt_rotate_next(pe0, npes) &&
            !(alone && pe1 == pe0))
            MT_ERR(errs, "step %d: Rotate moved rank PE %d -> %d, expected %d", step, pe0, pe1,
                   mt_rotate_next(pe0, npes));
        if (!across && (pe1 < first || pe1 >= first + npp || mt_proc_of(rank, NULL) != proc))
            MT_ERR(errs, "step %d: rank left its process %d (PEs %d..%d): on PE %d, process %d", step, proc, first,
                   first + npp - 1, pe1, mt_proc_of(rank, NULL));
        if (rank == 1 && pe1 != pe0)
            MT_ERR(errs, "step %d: unmovable rank 1 moved %d -> %d", step, pe0, pe1);
        if (rank == 2 && step == 5 && size > 2 && pe1 != first && !(alone && pe1 == pe0))
            MT_ERR(errs, "AMPI_Migrate_to_pe(%d): rank 2 is on PE %d", first, pe1);
        MPI_Waitall(4, rq, st);
        if (in != left * 100 + step || (wild && (st[0].MPI_SOURCE != left || st[0].MPI_TAG != step)))
            MT_ERR(errs, "step %d: got %d from %d tag %d, expected %d from %d", step, in, st[0].MPI_SOURCE,
                   st[0].MPI_TAG, left * 100 + step, left);
        if (sum != size * (size - 1) / 2)
            MT_ERR(errs, "step %d: iallreduce %d", step, sum);
        if (b != 77 + step)
            MT_ERR(errs, "step %d: ibcast %d", step, b);
        int root = step % size;
        for (int j = 0; j < 70; j++) {
            int bb = rank == root ? step * 1000 + j : -1;
            MPI_Bcast(&bb, 1, MPI_INT, root, MPI_COMM_WORLD);
            if (bb != step * 1000 + j)
                MT_ERR(errs, "step %d: bcast %d gave %d", step, j, bb);
        }
        for (int len = 1024; len <= 16384; len *= 16) {
            int *big = malloc(sizeof(int) * (size_t)len);
            for (int j = 0; j < len; j++)
                big[j] = rank == root ? step + j : -1;
            MPI_Bcast(big, len, MPI_INT, root, MPI_COMM_WORLD);
            for (int j = 0; j < len; j++)
                if (big[j] != step + j) {
                    MT_ERR(errs, "step %d: %d-int bcast [%d] = %d", step, len, j, big[j]);
                    break;
                }
            free(big);
        }
        int *v, flag = 0, ns = -1, nsum = -1;
        MPI_Comm_get_attr(node, key, &v, &flag);
        if (!flag || *v != 1000 + rank)
            MT_ERR(errs, "step %d: attribute on the split_type communicator lost", step);
        MPI_Comm_size(node, &ns);
        MPI_Allreduce(&rank, &nsum, 1, MPI_INT, MPI_SUM, node);
        if (ns != want || nsum != want_sum)
            MT_ERR(errs, "step %d: split_type communicator: size %d, sum %d", step, ns, nsum);
    }
    if (about_calls[rank] != STEPS)
        MT_ERR(errs, "about_to_migrate ran %d times, expected %d", about_calls[rank], STEPS);
    if (rotate && rank != 1 && moves + moves_alone < STEPS - 1)
        MT_ERR(errs, "Rotate moved this rank %d times in %d steps", moves, STEPS);

    /* several processes: rank 0's request for a PE of the next process is refused (with a warning) in the
     * emulated mode, and granted between OS processes; at a point that does not balance, every other rank
     * stays where it is */
    int nprocs = 1;
    mt_proc_of(rank, &nprocs);
    if (nprocs > 1) {
        int pe0 = attr_int(AMPI_MY_WTH), other, nother, alone = across && all_on_one_pe(rank, size, pe0);
        proc = mt_proc_of(rank, NULL);
        mt_pes_of_proc((mt_proc_of(0, NULL) + 1) % nprocs, nprocs, npes, &other, &nother);
        if (rank == 0)
            AMPI_Migrate_to_pe(other);
        int stay_pe = pe0; /* (between processes it may stay only when its process would be left empty) */
        if (rank == 0 && across)
            pe0 = other, proc = mt_proc_of_pe(other, nprocs, npes);
        MPI_Info nolb;
        MPI_Info_create(&nolb);
        MPI_Info_set(nolb, "ampi_load_balance", "false");
        AMPI_Migrate(nolb);
        MPI_Info_free(&nolb);
        if ((attr_int(AMPI_MY_WTH) != pe0 || mt_proc_of(rank, NULL) != proc) &&
            !(alone && attr_int(AMPI_MY_WTH) == stay_pe))
            MT_ERR(errs, "%s: moved from PE %d (process %d) to PE %d (process %d)",
                   rank == 0 ? "AMPI_Migrate_to_pe to another process" : "a point that does not balance", pe0, proc,
                   attr_int(AMPI_MY_WTH), mt_proc_of(rank, NULL));
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (AMPI_Migrate_to_pe(npes + 3) != MPI_ERR_ARG)
        MT_ERR(errs, "AMPI_Migrate_to_pe to a PE that does not exist did not give MPI_ERR_ARG");
    MPI_Info bad;
    MPI_Info_create(&bad);
    MPI_Info_set(bad, "ampi_load_balance", "sometimes");
    if (AMPI_Migrate(bad) != MPI_ERR_INFO)
        MT_ERR(errs, "a bad ampi_load_balance value did not give MPI_ERR_INFO");
    /* on one rank only: it takes part in the migration point all the same (no deadlock), then says so */
    int rc = AMPI_Migrate(rank == size - 1 ? bad : MPI_INFO_NULL);
    if (rc != (rank == size - 1 ? MPI_ERR_INFO : MPI_SUCCESS))
        MT_ERR(errs, "a bad ampi_load_balance value on rank %d only: AMPI_Migrate returned %d", size - 1, rc);
    MPI_Info_free(&bad);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&node);
    return mt_finish(errs);
}
