/* SPDX-License-Identifier: BSD-3-Clause */
/* osu_acc_latency: latency of one-sided atomic operations from rank 0 on rank 1's window (MPI_Win_allocate),
 * each followed by its synchronization (-s lock|fence|pscw, rma_common.h; lock, the default: the operation
 * then MPI_Win_flush inside MPI_Win_lock_all), µs per operation.  -k picks the operation:
 *   acc   MPI_Accumulate of n / 8 doubles with MPI_SUM, sizes 8 B .. 1 MiB (-m);
 *   fop   MPI_Fetch_and_op of one int64 with MPI_SUM (+1), one row (size 8);
 *   cas   MPI_Compare_and_swap of one int64 (counter from i to i + 1), one row (size 8).
 *
 * Checks: the target's elements start at 0 for every size and every iteration adds a known value, so their
 * values count the operations exactly: acc adds (i % 7) + 1 to element i (integers: exact in doubles), and
 * the target checks the first and last element against the number of iterations run (after every epoch
 * in pscw mode, after every batch in lock and fence modes), then every element after the size's timed loop;
 * fop and cas return the counter's previous value, which the origin checks every iteration (it must equal
 * the iteration's number), and the target checks the counter after every batch. */
#include "rma_common.h"

#define PROG "osu_acc_latency"

enum kind { K_ACC, K_FOP, K_CAS };

typedef struct ctx {
    const rma_epochs *e;
    enum kind kind;
    double *src;  /* acc: the origin's addends */
    void *win;    /* the target's window memory */
    size_t n;     /* bytes per operation */
    long done;    /* iterations run for this size (every rank counts them) */
} ctx;

static double addend(size_t i)
{
    return (double)(i % 7 + 1);
}

static void fail(const ctx *c, const char *what, long it, double got, double want)
{
    char msg[240];
    snprintf(msg, sizeof msg, "%s check failed (-s %s): size %zu after %ld iterations: got %.17g, expected %.17g",
             what, rma_sync_name(c->e->sync), c->n, it, got, want);
    bench_die(PROG, msg);
}

/* The target's elements after c->done iterations: the ends (full = 0) or every element. */
static void check_window(const ctx *c, int full)
{
    if (c->kind == K_ACC) {
        const double *w = c->win;
        size_t cnt = c->n / sizeof(double);
        for (size_t i = 0; i < cnt; i = (full || i + 1 == cnt) ? i + 1 : cnt - 1)
            if (w[i] != (double)c->done * addend(i))
                fail(c, full ? "full" : "target", c->done, w[i], (double)c->done * addend(i));
    } else {
        const int64_t *w = c->win;
        if (w[0] != c->done)
            fail(c, "target counter", c->done, (double)w[0], (double)c->done);
    }
}

static void target_check(void *p)
{
    check_window(p, 0);
}

static void body(void *p, long first, long count)
{
    ctx *c = p;
    const rma_epochs *e = c->e;
    const int cnt = (int)(c->n / sizeof(double));
    const int64_t one = 1;
    rma_batch_begin(e);
    for (long it = first; it < first + count; it++) {
        int64_t result = -1, cmp = it, next = it + 1;
        rma_iter_begin(e);
        if (e->rank == e->origin) {
            if (c->kind == K_ACC)
                rma_chk(e, MPI_Accumulate(c->src, cnt, MPI_DOUBLE, e->target, 0, cnt, MPI_DOUBLE, MPI_SUM, e->win),
                        "MPI_Accumulate");
            else if (c->kind == K_FOP)
                rma_chk(e, MPI_Fetch_and_op(&one, &result, MPI_INT64_T, e->target, 0, MPI_SUM, e->win),
                        "MPI_Fetch_and_op");
            else
                rma_chk(e, MPI_Compare_and_swap(&next, &cmp, &result, MPI_INT64_T, e->target, 0, e->win),
                        "MPI_Compare_and_swap");
        }
        rma_iter_end(e, it == first + count - 1);
        if (e->rank == e->origin && c->kind != K_ACC && result != it)
            fail(c, c->kind == K_FOP ? "MPI_Fetch_and_op result" : "MPI_Compare_and_swap result", it,
                 (double)result, (double)it);
        if (rma_target_checks_each(e)) {
            c->done = it + 1;
            check_window(c, 0);
        }
    }
    c->done = first + count;
    rma_batch_end(e, target_check, c);
}

int main(int argc, char **argv)
{
    int rank, nranks;
    bench_opts o;
    rma_epochs e;
    MPI_Init(&argc, &argv);
    bench_check_mpi(PROG, MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    bench_check_mpi(PROG, MPI_Comm_size(MPI_COMM_WORLD, &nranks), "MPI_Comm_size");
    rma_sync sync = rma_take_sync(PROG, &argc, argv);
    const char *k = bench_take_opt(PROG, &argc, argv, "-k", "acc");
    bench_parse_opts(PROG, argc, argv, &o, (size_t)1 << 20);
    if (nranks < 2)
        bench_die(PROG, "needs at least 2 ranks");
    if (strcmp(k, "acc") && strcmp(k, "fop") && strcmp(k, "cas"))
        bench_die(PROG, "-k takes acc, fop or cas");
    enum kind kind = !strcmp(k, "acc") ? K_ACC : !strcmp(k, "fop") ? K_FOP : K_CAS;
    size_t max = kind == K_ACC ? o.max_size / sizeof(double) * sizeof(double) : sizeof(int64_t);
    if (max < sizeof(double))
        bench_die(PROG, "-m must be at least 8");

    ctx c = {&e, kind, NULL, rma_setup(&e, PROG, sync, max), 0, 0};
    c.src = (double *)bench_alloc(PROG, max);
    for (size_t i = 0; i < max / sizeof(double); i++)
        c.src[i] = addend(i);
    bench_header(PROG, rank, nranks, "us", "latency_us");
    if (rank == 0) {
        printf("# sync: %s; operation: %s\n", rma_sync_name(sync),
               kind == K_ACC ? "MPI_Accumulate(MPI_DOUBLE, MPI_SUM)"
               : kind == K_FOP ? "MPI_Fetch_and_op(MPI_INT64_T, MPI_SUM)" : "MPI_Compare_and_swap(MPI_INT64_T)");
        fflush(stdout);
    }

    for (size_t n = sizeof(double); n <= max; n *= o.factor) {
        int small = n <= 8192;
        long big = (long)((256u << 20) / n);
        int nominal = small ? 10000 : (int)(big > 1000 ? 1000 : big < 50 ? 50 : big);
        c.n = n;
        c.done = 0;
        if (rank == e.target) { /* every element from 0 */
            rma_local_begin(&e, 1);
            memset(c.win, 0, n);
            rma_local_end(&e);
        }
        double t = bench_time(PROG, rank, &o, body, &c, bench_scaled(small ? 100 : 10, &o, 2),
                              bench_scaled(nominal, &o, 5), 5);
        if (rank == e.target) {
            rma_local_begin(&e, 0);
            check_window(&c, 1);
            rma_local_end(&e);
        }
        if (rank == 0) {
            printf("%zu %.6g\n", n, t * 1e6);
            fflush(stdout);
        }
    }
    bench_footer(rank);
    free(c.src);
    rma_teardown(&e);
    MPI_Finalize();
    return 0;
}
