/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_lu: the LU of bench/armci_lu.c (bench/lu_blocks.h) in MPI-3 one-sided communication, for the same
 * program under vmpi, MPICH and Open MPI (`--mca osc sm`).  Each process's blocks are its part of one
 * window made by MPI_Win_allocate (disp_unit 8: displacements count doubles); a remote block is fetched
 * with MPI_Get and completed before use.
 *
 *   rma_lu [-n N] [-b B] [-d cyclic|block] [-r REPS] [-c] [-s lockall|lock]
 *
 * -n -b -d -r -c: bench/lu_bench.h.  -s, how a get is synchronized:
 *   lockall  (default) the window stays in one MPI_Win_lock_all epoch from creation to free, as armci-mpi
 *            keeps its windows; a get is MPI_Get + MPI_Win_flush(owner); between the phases of a step each
 *            process makes its own stores public with MPI_Win_sync before the barrier
 *   lock     lu.c's own MPI-2 form (its MPI2_ONESIDED): no epoch between gets, each get is
 *            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner) + MPI_Get + MPI_Win_unlock, phases separated by
 *            MPI_Barrier alone (lu.c made its window with MPI_Win_create over MPI_Alloc_mem memory; this one
 *            uses the same MPI_Win_allocate window in both modes, which Open MPI's osc/sm needs).
 * Local blocks are read and written directly (the unified memory model, which all three implementations
 * have for these windows). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu_bench.h"

#define PROG "rma_lu"
#define USAGE "[-n N] [-b B] [-d cyclic|block] [-r REPS] [-c] [-s lockall|lock]"

typedef struct rma_ctx {
    MPI_Win win;
    int lock_per_get;
} rma_ctx;

static void rma_check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s returned error code %d", what, rc);
        lu_die(PROG, msg);
    }
}

static void rma_get_block(void *ctx, int owner, size_t off, double *buf, size_t count)
{
    rma_ctx *x = (rma_ctx *)ctx;
    if (x->lock_per_get) {
        rma_check(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, owner, 0, x->win), "MPI_Win_lock");
        rma_check(MPI_Get(buf, (int)count, MPI_DOUBLE, owner, (MPI_Aint)off, (int)count, MPI_DOUBLE, x->win),
                  "MPI_Get");
        rma_check(MPI_Win_unlock(owner, x->win), "MPI_Win_unlock");
    } else {
        rma_check(MPI_Get(buf, (int)count, MPI_DOUBLE, owner, (MPI_Aint)off, (int)count, MPI_DOUBLE, x->win),
                  "MPI_Get");
        rma_check(MPI_Win_flush(owner, x->win), "MPI_Win_flush");
    }
}

static void rma_barrier(void *ctx)
{
    rma_ctx *x = (rma_ctx *)ctx;
    if (!x->lock_per_get)
        rma_check(MPI_Win_sync(x->win), "MPI_Win_sync");
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int nproc, me;
    MPI_Comm_size(MPI_COMM_WORLD, &nproc);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    lu_opts o;
    lu_parse_opts(PROG, USAGE, " -s ", argc, argv, me, &o);

    lu_layout L;
    if (lu_layout_init(&L, o.n, o.b, o.dist, nproc, me) != 0)
        lu_die(PROG, "bad sizes, or no memory for the layout");
    rma_ctx x = {.lock_per_get = !strcmp(o.sync, "lock")};
    double *mine = NULL;
    rma_check(MPI_Win_allocate((MPI_Aint)(L.elems[me] * sizeof(double)), (int)sizeof(double), MPI_INFO_NULL,
                               MPI_COMM_WORLD, &mine, &x.win),
              "MPI_Win_allocate");
    if (!x.lock_per_get)
        rma_check(MPI_Win_lock_all(0, x.win), "MPI_Win_lock_all");
    lu_comm c = {.ctx = &x, .get = rma_get_block, .barrier = rma_barrier};

    char impl[64];
    snprintf(impl, sizeof impl, "sync: %s", x.lock_per_get ? "lock (exclusive lock per get)" : "lockall (get + flush)");
    lu_print_header(PROG, &L, &o, impl);
    lu_cold_run(PROG, &L, &o, mine, &c);
    lu_timed_runs(PROG, &L, &o, mine, &c);
    lu_print_done(me);

    if (!x.lock_per_get)
        rma_check(MPI_Win_unlock_all(x.win), "MPI_Win_unlock_all");
    rma_check(MPI_Win_free(&x.win), "MPI_Win_free");
    lu_layout_free(&L);
    MPI_Finalize();
    return 0;
}
