/* SPDX-License-Identifier: BSD-3-Clause */
/* rma_perf: armci_perf's transfers (ARMCI's perf.c, the seed paper's Figs. 4 and 5) in MPI-3 RMA, for the
 * comparison of vmpi's ARMCI with MPI RMA under vmpi, MPICH and Open MPI.  Process 0 times MPI_Get / MPI_Put /
 * MPI_Accumulate(MPI_SUM, doubles), each followed by MPI_Win_flush(target) (-s flush_local: by
 * MPI_Win_flush_local, which is what armci-mpi does after a blocking call), contiguous (c*c MPI_DOUBLE) or
 * strided (one MPI_Type_vector(c, c, 550, MPI_DOUBLE) per size, built and committed before the timed loop,
 * on both sides).  µs per call or MB/s; the sections, options and checks are in perf_sections.h.
 *
 * Every process makes a window of the 550 x 550 array with MPI_Win_allocate (as ARMCI_Malloc does on every
 * process); the origin's source/destination is a separate local array.  A timed batch is one passive-target
 * epoch: MPI_Win_lock_all, the calls, MPI_Win_unlock_all (the counterpart of armci_perf's ARMCI_AllFence;
 * armci-mpi keeps one lock_all epoch open from ARMCI_Malloc to ARMCI_Free).  After each size's timed loop
 * one more call moves a known pattern and the whole destination array is checked; the target reads and writes
 * its own window inside a lock of itself, between barriers. */
#include "perf_sections.h"

typedef struct rma_ctx {
    const char *prog;
    const perf_opts *o;
    int me, chunk, flush_local;
    MPI_Win win;
    MPI_Datatype type; /* per call: `n` of it at the origin and at the target */
    int n;
    double *loc;  /* the origin's local array */
    double *mine; /* this process's window memory */
} rma_ctx;

static void rma_chk(const rma_ctx *x, int rc, const char *what)
{
    bench_check_mpi(x->prog, rc, what);
}

/* One call and its flush, at offset off (doubles) on both sides. */
static void rma_op(const rma_ctx *x, long off)
{
    const perf_opts *o = x->o;
    double *l = x->loc + off;
    int rc;
    switch (o->kind) {
    case PERF_GET:
        rc = MPI_Get(l, x->n, x->type, o->target, (MPI_Aint)off, x->n, x->type, x->win);
        break;
    case PERF_PUT:
        rc = MPI_Put(l, x->n, x->type, o->target, (MPI_Aint)off, x->n, x->type, x->win);
        break;
    default:
        rc = MPI_Accumulate(l, x->n, x->type, o->target, (MPI_Aint)off, x->n, x->type, MPI_SUM, x->win);
        break;
    }
    rma_chk(x, rc, perf_kind_name(o->kind));
    rma_chk(x, x->flush_local ? MPI_Win_flush_local(o->target, x->win) : MPI_Win_flush(o->target, x->win),
            "MPI_Win_flush");
}

static void rma_body(void *p, long first, long count)
{
    const rma_ctx *x = p;
    rma_chk(x, MPI_Win_lock_all(0, x->win), "MPI_Win_lock_all");
    for (long it = first; it < first + count; it++)
        rma_op(x, (it & 1) ? PERF_SHIFT : 0);
    rma_chk(x, MPI_Win_unlock_all(x->win), "MPI_Win_unlock_all");
}

static void rma_barrier(const rma_ctx *x)
{
    rma_chk(x, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

/* Untimed: as armci_perf's check (the source side gets one pattern, the destination another, one call at
 * offset 0, the destination's whole array is checked). */
static void rma_check(rma_ctx *x, unsigned seed)
{
    const perf_opts *o = x->o;
    const unsigned loc_seed = seed, rem_seed = seed + 1;
    rma_barrier(x); /* the timed loop is over */
    if (x->me == o->target) {
        rma_chk(x, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, x->me, 0, x->win), "MPI_Win_lock");
        perf_fill(x->mine, rem_seed);
        rma_chk(x, MPI_Win_unlock(x->me, x->win), "MPI_Win_unlock");
    }
    if (x->me == 0)
        perf_fill(x->loc, loc_seed);
    rma_barrier(x);
    if (x->me == 0) {
        rma_chk(x, MPI_Win_lock(MPI_LOCK_SHARED, o->target, 0, x->win), "MPI_Win_lock");
        rma_op(x, 0);
        rma_chk(x, MPI_Win_unlock(o->target, x->win), "MPI_Win_unlock");
    }
    rma_barrier(x);
    long bad = -1;
    if (o->kind == PERF_GET && x->me == 0) {
        bad = perf_verify(x->loc, o->strided, x->chunk, o->kind, loc_seed, rem_seed, 1.0);
        if (bad >= 0)
            perf_check_failed(x->prog, o, x->chunk, x->me, bad, x->loc);
    } else if (o->kind != PERF_GET && x->me == o->target) {
        rma_chk(x, MPI_Win_lock(MPI_LOCK_SHARED, x->me, 0, x->win), "MPI_Win_lock");
        bad = perf_verify(x->mine, o->strided, x->chunk, o->kind, rem_seed, loc_seed, 1.0);
        rma_chk(x, MPI_Win_unlock(x->me, x->win), "MPI_Win_unlock");
        if (bad >= 0)
            perf_check_failed(x->prog, o, x->chunk, x->me, bad, x->mine);
    }
    rma_barrier(x);
}

int main(int argc, char **argv)
{
    const char *prog = "rma_perf";
    int rank, nranks;
    perf_opts o;
    MPI_Init(&argc, &argv);
    bench_check_mpi(prog, MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    bench_check_mpi(prog, MPI_Comm_size(MPI_COMM_WORLD, &nranks), "MPI_Comm_size");
    if (nranks < 2)
        bench_die(prog, "needs at least 2 processes");
    const char *sync = bench_take_opt(prog, &argc, argv, "-s", "flush");
    perf_parse(prog, &argc, argv, nranks, &o);
    if (strcmp(sync, "flush") && strcmp(sync, "flush_local"))
        bench_die(prog, "-s takes flush or flush_local");

    rma_ctx x = {prog, &o, rank, 0, !strcmp(sync, "flush_local"), MPI_WIN_NULL, MPI_DATATYPE_NULL, 0, NULL, NULL};
    rma_chk(&x, MPI_Win_allocate((MPI_Aint)(PERF_ELEMS * sizeof(double)), (int)sizeof(double), MPI_INFO_NULL,
                                 MPI_COMM_WORLD, &x.mine, &x.win),
            "MPI_Win_allocate");
    rma_chk(&x, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, x.win), "MPI_Win_lock");
    memset(x.mine, 0, PERF_ELEMS * sizeof(double));
    rma_chk(&x, MPI_Win_unlock(rank, x.win), "MPI_Win_unlock");
    if (rank == 0)
        x.loc = (double *)bench_alloc(prog, PERF_ELEMS * sizeof(double));
    rma_barrier(&x);

    perf_header(prog, rank, nranks, &o,
                x.flush_local ? "MPI_Win_flush_local per call, lock_all/unlock_all per batch"
                              : "MPI_Win_flush per call, lock_all/unlock_all per batch");
    for (int i = 0; i < o.nchunks; i++) {
        x.chunk = o.chunk[i];
        if (o.strided) {
            rma_chk(&x, MPI_Type_vector(x.chunk, x.chunk, PERF_SIZE, MPI_DOUBLE, &x.type), "MPI_Type_vector");
            rma_chk(&x, MPI_Type_commit(&x.type), "MPI_Type_commit");
            x.n = 1;
        } else {
            x.type = MPI_DOUBLE;
            x.n = x.chunk * x.chunk;
        }
        int nominal = perf_nominal(x.chunk);
        double t = 0;
        rma_barrier(&x);
        if (rank == 0) /* alone, while the others wait in MPI_Barrier (perf_time) */
            t = perf_time(&o.b, rma_body, &x, bench_scaled(nominal / 10, &o.b, 2), bench_scaled(nominal, &o.b, 5), 5);
        rma_check(&x, (unsigned)i * 3u + 5u);
        perf_print(rank, &o, x.chunk, t);
        if (o.strided)
            rma_chk(&x, MPI_Type_free(&x.type), "MPI_Type_free");
    }
    bench_footer(rank);

    free(x.loc);
    rma_chk(&x, MPI_Win_free(&x.win), "MPI_Win_free");
    MPI_Finalize();
    return 0;
}
