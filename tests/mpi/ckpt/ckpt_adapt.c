/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoint/restart (issue 6) and the adaptivity state a rank keeps, in the job that took the checkpoint and
 * in a job restarted from it (tests/tools/ckpt.sh kills the first under VMPI_BALANCER=Metis and restarts it
 * on other PE counts):
 *   - the messaging layer's counts of what each rank sent to whom, which a graph balancer measures: grown by
 *     nonblocking broadcasts that the PEs' handlers advance outside any rank (on communicators whose ranks
 *     are permuted, with rank 0 late, so that ranks forward what they receive to ever more destinations).
 *     After the checkpoint the job sends and balances on them again;
 *   - an AMPI_Migrate_to_pe asked for just before the checkpoint: applied at that migration point, never
 *     again (a restarted job's next migration point without balancing leaves every rank where it is).
 *   ckpt_adapt DIR [kill]: checkpoint into DIR; with `kill`, a job that was not restarted is killed with
 *   SIGKILL right after the checkpoint.  Without arguments: into a fresh directory, and the job goes on.
 *   In sanitizer builds (no checkpoints) it migrates instead. */
#include "ckpt_test.h"

enum { NCOMM = 8 };

/* A broadcast from every rank, each on one of the permuted communicators, all in flight at once. */
static int broadcasts(MPI_Comm *comms, int rank, int size, int it, int *v, MPI_Request *q)
{
    int errs = 0;
    if (rank == 0)
        usleep(20000); /* the others wait in their PEs' loops: their handlers forward the broadcasts */
    for (int r = 0; r < size; r++) {
        int k = (r + it) % NCOMM, crank;
        MPI_Comm_rank(comms[k], &crank);
        v[r] = crank == r ? 1000 * k + 7 * r + it : -1;
        MT_CHECK_RC(errs, MPI_Ibcast(&v[r], 1, MPI_INT, r, comms[k], &q[r]));
    }
    MT_CHECK_RC(errs, MPI_Waitall(size, q, MPI_STATUSES_IGNORE));
    for (int r = 0; r < size; r++)
        MT_CHECK(errs, v[r] == 1000 * ((r + it) % NCOMM) + 7 * r + it, "round %d: broadcast from %d gave %d", it,
                 r, v[r]);
    return errs;
}

static int migrate(const char *key, const char *value)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, key, value);
    int rc = AMPI_Migrate(info);
    MPI_Info_free(&info);
    return rc;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "ckpt_adapt");
    MPI_Comm comms[NCOMM];
    for (int k = 0; k < NCOMM; k++)
        MPI_Comm_split(MPI_COMM_WORLD, 0, (rank * (2 * k + 1) + 5 * k) % size, &comms[k]);
    int *v = mt_malloc(sizeof(int) * (size_t)size);
    MPI_Request *q = mt_malloc(sizeof(MPI_Request) * (size_t)size);
    for (int it = 0; it < 2; it++)
        errs += broadcasts(comms, rank, size, it, v, q);

    /* ---- the checkpoint, rank 0 asking for the last PE of its process at it (the job's last PE in a
     * one-process job: ranks move only within their process) ---- */
    int npes = mt_world_attr(AMPI_NUM_WTHS), restarted = 0, first, npp;
    mt_proc_pes(npes, &first, &npp);
    if (rank == 0)
        MT_CHECK_RC(errs, AMPI_Migrate_to_pe(first + npp - 1));
    restarted = ckpt_test_point(&t, MPI_INFO_NULL, "ckpt_adapt", &errs);

    /* ---- after it: no placement request is pending, the send counts are measured and used again ---- */
    npes = mt_world_attr(AMPI_NUM_WTHS);
    int pe0 = mt_world_attr(AMPI_MY_WTH);
    MT_CHECK_RC(errs, migrate("ampi_load_balance", "false"));
    int pe1 = mt_world_attr(AMPI_MY_WTH);
    MT_CHECK(errs, pe1 == pe0, "(restarted %d, %d PEs) a migration point without balancing moved this rank from "
             "PE %d to PE %d", restarted, npes, pe0, pe1);
    for (int it = 2; it < 4; it++)
        errs += broadcasts(comms, rank, size, it, v, q);
    MT_CHECK_RC(errs, migrate("ampi_load_balance", "sync"));
    errs += broadcasts(comms, rank, size, 4, v, q);

    for (int k = 0; k < NCOMM; k++)
        MPI_Comm_free(&comms[k]);
    free(v);
    free(q);
    ckpt_test_close(&t);
    return mt_finish(errs);
}
