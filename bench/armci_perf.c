/* SPDX-License-Identifier: BSD-3-Clause */
/* armci_perf: the measurement of ARMCI's perf.c (the seed paper's Figs. 4 and 5), written anew: process 0
 * times blocking ARMCI_Get / ARMCI_Put / ARMCI_Acc(ARMCI_ACC_DBL), contiguous or strided (ARMCI_GetS/PutS/AccS,
 * one stride level), of perf.c's sizes to one target process (-T, default 1), µs per call (or MB/s).  The
 * sections, options and checks are in perf_sections.h; -a SCALE sets the accumulate's scale factor (default
 * 1.0, which makes it the same operation as rma_perf's MPI_Accumulate(MPI_SUM); perf.c used the iteration
 * number).
 *
 * Process 0 times alone while the others wait in ARMCI_Barrier (perf_time; -w bcast: in MPI_Bcast, which under
 * vmpi spins and yields for a while before it blocks, so that ranks sharing the origin's PE take turns with it).  Every timed batch is a loop of
 * blocking calls followed by one ARMCI_AllFence (blocking put and acc are
 * complete at the origin only; the fence completes them at the target, inside the timed part).  After the
 * timed loop of each size one more call moves a known pattern and the whole array at its destination is
 * checked, section and gaps, so a transfer that moves nothing or too much fails the run.
 *
 * Builds against vmpi's ARMCI (vmpicc) and against armci-mpi (mpicc.mpich ... -larmci-mpich, mpicc.openmpi
 * ... -larmci-openmpi; with MPICH run it with ARMCI_USE_WIN_ALLOCATE=0, docs/research/armci.md section 4).
 * MPI is initialized first (armci-mpi requires it); at least 2 processes. */
#include "perf_sections.h"

#include <armci.h>
#include <message.h>

typedef struct armci_ctx {
    const char *prog;
    const perf_opts *o;
    int me, chunk;
    double scale;
    double *loc;  /* the origin's local array (ARMCI_Malloc_local) */
    double *rem;  /* the target's ARMCI array, as the origin addresses it */
    double *mine; /* this process's own ARMCI array */
} armci_ctx;

/* One blocking call of the size at offset off (doubles); returns ARMCI's code. */
static int armci_op(const armci_ctx *x, long off)
{
    const perf_opts *o = x->o;
    int c = x->chunk;
    int stride[1] = {PERF_SIZE * (int)sizeof(double)};
    int count[2] = {o->strided ? c * (int)sizeof(double) : (int)perf_bytes(c), c};
    double *l = x->loc + off, *r = x->rem + off;
    double scale = x->scale;
    switch (o->kind) {
    case PERF_GET:
        return o->strided ? ARMCI_GetS(r, stride, l, stride, count, 1, o->target)
                          : ARMCI_Get(r, l, count[0], o->target);
    case PERF_PUT:
        return o->strided ? ARMCI_PutS(l, stride, r, stride, count, 1, o->target)
                          : ARMCI_Put(l, r, count[0], o->target);
    default:
        return o->strided ? ARMCI_AccS(ARMCI_ACC_DBL, &scale, l, stride, r, stride, count, 1, o->target)
                          : ARMCI_Acc(ARMCI_ACC_DBL, &scale, l, r, count[0], o->target);
    }
}

static void armci_body(void *p, long first, long count)
{
    const armci_ctx *x = p;
    for (long it = first; it < first + count; it++)
        if (armci_op(x, (it & 1) ? PERF_SHIFT : 0) != 0)
            bench_die(x->prog, "an ARMCI transfer returned an error");
    ARMCI_AllFence();
}

/* Direct loads and stores of a process's own ARMCI memory are bracketed as armci-mpi asks (needed with
 * MPI_WIN_SEPARATE windows; vmpi has the calls too, other ARMCIs do not). */
static void own_begin(void *p)
{
#if defined(ARMCI_MPI) || defined(ARMCI_VMPI)
    ARMCI_Access_begin(p);
#else
    (void)p;
#endif
}

static void own_end(void *p)
{
#if defined(ARMCI_MPI) || defined(ARMCI_VMPI)
    ARMCI_Access_end(p);
#else
    (void)p;
#endif
}

/* Untimed: the source side gets one pattern, the destination another, one call at offset 0, then the
 * destination's whole array is checked (get: at the origin; put, acc: at the target). */
static void armci_check(armci_ctx *x, unsigned seed)
{
    const perf_opts *o = x->o;
    const unsigned loc_seed = seed, rem_seed = seed + 1;
    ARMCI_Barrier(); /* the timed loop is over */
    if (x->me == o->target) {
        own_begin(x->mine);
        perf_fill(x->mine, rem_seed);
        own_end(x->mine);
    }
    if (x->me == 0)
        perf_fill(x->loc, loc_seed);
    ARMCI_Barrier();
    if (x->me == 0) {
        if (armci_op(x, 0) != 0)
            bench_die(x->prog, "an ARMCI transfer returned an error");
        ARMCI_AllFence();
    }
    ARMCI_Barrier();
    long bad = -1;
    if (o->kind == PERF_GET && x->me == 0) {
        bad = perf_verify(x->loc, o->strided, x->chunk, o->kind, loc_seed, rem_seed, x->scale);
        if (bad >= 0)
            perf_check_failed(x->prog, o, x->chunk, x->me, bad, x->loc);
    } else if (o->kind != PERF_GET && x->me == o->target) {
        own_begin(x->mine);
        bad = perf_verify(x->mine, o->strided, x->chunk, o->kind, rem_seed, loc_seed, x->scale);
        own_end(x->mine);
        if (bad >= 0)
            perf_check_failed(x->prog, o, x->chunk, x->me, bad, x->mine);
    }
    ARMCI_Barrier();
}

int main(int argc, char **argv)
{
    const char *prog = "armci_perf";
    int rank, nranks;
    perf_opts o;
    MPI_Init(&argc, &argv);
    if (ARMCI_Init() != 0)
        bench_die(prog, "ARMCI_Init failed");
    bench_check_mpi(prog, MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    bench_check_mpi(prog, MPI_Comm_size(MPI_COMM_WORLD, &nranks), "MPI_Comm_size");
    if (armci_msg_me() != rank || armci_msg_nproc() != nranks)
        bench_die(prog, "ARMCI's process ids are not MPI_COMM_WORLD's ranks");
    if (nranks < 2)
        bench_die(prog, "needs at least 2 processes");
    const char *scale = bench_take_opt(prog, &argc, argv, "-a", "1.0");
    const char *wait = bench_take_opt(prog, &argc, argv, "-w", "barrier");
    if (strcmp(wait, "barrier") && strcmp(wait, "bcast"))
        bench_die(prog, "-w takes barrier or bcast");
    const int wait_bcast = !strcmp(wait, "bcast");
    perf_parse(prog, &argc, argv, nranks, &o);

    armci_ctx x = {prog, &o, rank, 0, strtod(scale, NULL), NULL, NULL, NULL};
    void **ptr = malloc(sizeof(void *) * (size_t)nranks);
    if (!ptr)
        bench_die(prog, "out of memory");
    /* perf.c allocates the array on every process */
    if (ARMCI_Malloc(ptr, (armci_size_t)(PERF_ELEMS * sizeof(double))) != 0)
        bench_die(prog, "ARMCI_Malloc failed");
    x.mine = ptr[rank];
    x.rem = ptr[o.target];
    own_begin(x.mine);
    memset(x.mine, 0, PERF_ELEMS * sizeof(double));
    own_end(x.mine);
    if (rank == 0) {
        x.loc = ARMCI_Malloc_local((armci_size_t)(PERF_ELEMS * sizeof(double)));
        if (!x.loc)
            bench_die(prog, "ARMCI_Malloc_local failed");
        memset(x.loc, 0, PERF_ELEMS * sizeof(double));
    }
    ARMCI_Barrier();

    char how[96];
    snprintf(how, sizeof how, "blocking calls, one ARMCI_AllFence per batch; acc scale %g", x.scale);
    perf_header(prog, rank, nranks, &o, how);
    for (int i = 0; i < o.nchunks; i++) {
        x.chunk = o.chunk[i];
        int nominal = perf_nominal(x.chunk);
        double t = 0;
        ARMCI_Barrier();
        if (rank == 0)
            t = perf_time(&o.b, armci_body, &x, bench_scaled(nominal / 10, &o.b, 2), bench_scaled(nominal, &o.b, 5), 5);
        if (wait_bcast) /* -w bcast: the others wait for the end of the timing in a broadcast, not a barrier */
            bench_check_mpi(prog, MPI_Bcast(&t, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD), "MPI_Bcast");
        armci_check(&x, (unsigned)i * 3u + 5u);
        perf_print(rank, &o, x.chunk, t);
    }
    bench_footer(rank);

    ARMCI_Barrier();
    if (rank == 0)
        ARMCI_Free_local(x.loc);
    ARMCI_Free(x.mine);
    free(ptr);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
