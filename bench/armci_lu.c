/* SPDX-License-Identifier: BSD-3-Clause */
/* armci_lu: ARMCI's LU benchmarks (lu.c and lu-block.c of the ARMCI distribution), written anew over
 * bench/lu_blocks.h, the ARMCI way: the blocks live in ARMCI_Malloc'ed memory, each process updates the
 * blocks it owns and fetches the others' with ARMCI_Get, ARMCI_Barrier separates the phases of a step.
 *
 *   armci_lu [-n N] [-b B] [-d cyclic|block] [-r REPS] [-c] [-m K] [--memckpt] [--ckpt DIR]
 *
 * -n -b -d -r -c: bench/lu_bench.h.  Adaptivity (vmpi's ARMCI extensions):
 *   -m K        ARMCI_Migrate() after every K block steps, in the cold and the timed runs (vmpirun
 *               --balancer NAME decides the moves; with lu-block.c's distribution the processes that own the
 *               first columns run out of work, which a balancer can even out between PEs)
 *   --memckpt   three ARMCI_MemCheckpoint() after the cold run, each timed between two barriers: vmpi keeps
 *               the newest two in-memory checkpoints, so the first two calls also grow a buffer each (the
 *               first: memckpt_first_ms) and the third reuses the first's (the steady cost: memckpt_ms);
 *               before them, one ARMCI_Migrate() timed the same way, the cost of the migration point alone
 *               (migrate_ms; nothing moves unless vmpirun --balancer says so)
 *   --ckpt DIR  then one ARMCI_Checkpoint(DIR), timed the same way (ckpt_ms), and the newest checkpoint
 *               file's size (ckpt_bytes).  In a job restarted from it (vmpirun --restart DIR -p P armci_lu
 *               ...) every process checks its blocks, and its neighbour's fetched with ARMCI_Get, against
 *               digests taken before the checkpoint; process 0 prints "restarted ok" and the program goes on
 *               (to the timed runs, if -r asked for any).  vmpirun --ckpt-verbose 1 reports each checkpoint's
 *               and the restart's bytes, time and bandwidth.
 *
 * Builds with vmpicc against vmpi's ARMCI, or against armci-mpi (Debian's libarmci-mpi-dev:
 * `mpicc.openmpi -O2 armci_lu.c -larmci-openmpi -lm`, or `mpicc.mpich ... -larmci-mpich -lm` run with
 * ARMCI_USE_WIN_ALLOCATE=0, docs/research/armci.md section 4), which has none of the extensions (-m,
 * --memckpt and --ckpt are refused there).  MPI is initialized before ARMCI, as armci-mpi requires. */
#define _POSIX_C_SOURCE 200809L
#include <armci.h>
#include <dirent.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lu_bench.h"

#define PROG "armci_lu"
#define USAGE "[-n N] [-b B] [-d cyclic|block] [-r REPS] [-c] [-m K] [--memckpt] [--ckpt DIR]"

#if defined(ARMCI_VMPI)
#define ARMCI_IMPL "armci: vmpi"
#elif defined(ARMCI_MPI)
#define ARMCI_IMPL "armci: armci-mpi"
#else
#define ARMCI_IMPL "armci: unknown"
#endif

typedef struct armci_ctx {
    void **ptr; /* every process's ARMCI_Malloc'ed block memory */
    int migrate_every, nb;
    long migrations;
} armci_ctx;

static void armci_get_block(void *ctx, int owner, size_t off, double *buf, size_t count)
{
    armci_ctx *x = (armci_ctx *)ctx;
    ARMCI_Get((double *)x->ptr[owner] + off, buf, (int)(count * sizeof(double)), owner);
}

static void armci_barrier(void *ctx)
{
    (void)ctx;
    ARMCI_Barrier();
}

static void armci_step_done(void *ctx, int K)
{
    armci_ctx *x = (armci_ctx *)ctx;
    if (x->migrate_every > 0 && (K + 1) % x->migrate_every == 0 && K + 1 < x->nb) {
#if defined(ARMCI_VMPI)
        ARMCI_Migrate();
#endif
        x->migrations++;
    }
}

#if defined(ARMCI_VMPI)
/* The size of the newest DIR/vmpi-ckpt-N.ckpt, or -1. */
static long long newest_ckpt_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    long best = -1;
    long long bytes = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        long seq;
        char tail[8];
        if (sscanf(e->d_name, "vmpi-ckpt-%ld.%7s", &seq, tail) == 2 && !strcmp(tail, "ckpt") && seq > best) {
            char path[4096];
            struct stat st;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            if (stat(path, &st) == 0) {
                best = seq;
                bytes = (long long)st.st_size;
            }
        }
    }
    closedir(d);
    return bytes;
}

/* After a restart: every process's blocks must have their digests of before the checkpoint, its own read
 * directly and its right neighbour's fetched with ARMCI_Get (the pointers and the data survived).
 * Collective; the number of processes that found a difference. */
static int count_bad_after_restart(const lu_layout *L, void **ptr, const uint64_t *digests)
{
    int me = L->me, next = (me + 1) % L->nproc, bad = 0, nbad = 0;
    if (lu_digest((double *)ptr[me], L->elems[me]) != digests[me]) {
        fprintf(stderr, PROG ": process %d: its blocks changed across the checkpoint\n", me);
        bad = 1;
    }
    size_t cnt = L->elems[next];
    if (next != me && cnt > 0) {
        double *buf = (double *)malloc(cnt * sizeof(double));
        if (!buf)
            lu_die(PROG, "no memory for the restart check");
        ARMCI_Get(ptr[next], buf, (int)(cnt * sizeof(double)), next);
        if (lu_digest(buf, cnt) != digests[next]) {
            fprintf(stderr, PROG ": process %d: process %d's blocks, fetched with ARMCI_Get, changed across the "
                            "checkpoint\n", me, next);
            bad = 1;
        }
        free(buf);
    }
    MPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return nbad;
}

/* One collective call between two barriers: seconds (process 0's clock). */
static double timed_call(void (*call)(const char *), const char *arg)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    call(arg);
    MPI_Barrier(MPI_COMM_WORLD);
    return MPI_Wtime() - t0;
}

static void migration_point(const char *unused)
{
    (void)unused;
    ARMCI_Migrate();
}

static void mem_checkpoint(const char *unused)
{
    (void)unused;
    ARMCI_MemCheckpoint();
}

static void file_checkpoint(const char *dir) { ARMCI_Checkpoint((char *)dir); }

/* --memckpt and --ckpt, after the cold run. */
static void checkpoints(const lu_layout *L, const lu_opts *o, void **ptr)
{
    int me = L->me;
    uint64_t mine = lu_digest((double *)ptr[me], L->elems[me]);
    uint64_t *digests = (uint64_t *)malloc((size_t)L->nproc * sizeof *digests);
    if (!digests)
        lu_die(PROG, "no memory");
    MPI_Allgather(&mine, 1, MPI_UINT64_T, digests, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    if (o->memckpt) {
        double mig = timed_call(migration_point, NULL);
        double first = timed_call(mem_checkpoint, NULL);
        timed_call(mem_checkpoint, NULL);
        double t = timed_call(mem_checkpoint, NULL);
        if (me == 0)
            printf("migrate_ms %.3f\nmemckpt_first_ms %.3f\nmemckpt_ms %.3f\n", 1e3 * mig, 1e3 * first, 1e3 * t);
    }
    if (o->ckpt_dir) {
        double t = timed_call(file_checkpoint, o->ckpt_dir);
        int restarted = 0;
        VMPIX_Restarted(&restarted);
        if (restarted) {
            int nbad = count_bad_after_restart(L, ptr, digests);
            if (nbad) {
                if (me == 0)
                    fprintf(stderr, PROG ": %d processes found blocks changed after the restart\n", nbad);
                fflush(stderr);
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            if (me == 0)
                printf("restarted ok\n");
        } else if (me == 0) {
            printf("ckpt_ms %.3f\nckpt_bytes %lld\n", 1e3 * t, newest_ckpt_bytes(o->ckpt_dir));
        }
    }
    if (me == 0)
        fflush(stdout);
    free(digests);
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int nproc, me;
    MPI_Comm_size(MPI_COMM_WORLD, &nproc);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    lu_opts o;
    lu_parse_opts(PROG, USAGE, " -m --memckpt --ckpt ", argc, argv, me, &o);
#if !defined(ARMCI_VMPI)
    if (o.migrate_every || o.memckpt || o.ckpt_dir)
        lu_usage_error(PROG, USAGE, me, "-m, --memckpt and --ckpt need vmpi's ARMCI (ARMCI_Migrate, ARMCI_Checkpoint)");
#endif

    lu_layout L;
    if (lu_layout_init(&L, o.n, o.b, o.dist, nproc, me) != 0)
        lu_die(PROG, "bad sizes, or no memory for the layout");
    void **ptr = (void **)malloc((size_t)nproc * sizeof(void *));
    if (!ptr)
        lu_die(PROG, "no memory");
    if (ARMCI_Malloc(ptr, (armci_size_t)(L.elems[me] * sizeof(double))) != 0)
        lu_die(PROG, "ARMCI_Malloc failed");
    double *mine = (double *)ptr[me];
    armci_ctx x = {.ptr = ptr, .migrate_every = o.migrate_every, .nb = L.nb};
    lu_comm c = {.ctx = &x, .get = armci_get_block, .barrier = armci_barrier, .step_done = armci_step_done};

    lu_print_header(PROG, &L, &o, ARMCI_IMPL);
    if (me == 0)
        printf("# migrate every: %d steps\n", o.migrate_every);
    lu_cold_run(PROG, &L, &o, mine, &c);
#if defined(ARMCI_VMPI)
    if (o.memckpt || o.ckpt_dir)
        checkpoints(&L, &o, ptr);
#endif
    x.migrations = 0;
    lu_timed_runs(PROG, &L, &o, mine, &c);
    if (me == 0 && o.reps > 0)
        printf("migrations %.1f\n", (double)x.migrations / o.reps);
    lu_print_done(me);

    ARMCI_Free(ptr[me]);
    ARMCI_Finalize();
    free(ptr);
    lu_layout_free(&L);
    MPI_Finalize();
    return 0;
}
