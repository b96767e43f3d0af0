/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocking collectives between processes (run in the emulated multi-process mode, vmpirun --emulate-procs K;
 * in a one-process job it checks the same results).  On MPI_COMM_WORLD and on communicators from
 * MPI_Comm_split that span processes (every other rank, reversed order, an uneven block) or stay inside one
 * (one per process): barrier, bcast from a root in every process (eager, medium and large sizes), reduce to
 * those roots and allreduce with MPI_SUM and with a non-commutative user op (affine maps, combined in rank
 * order), a floating-point sum whose bits depend on the order (every rank must get the same bits, the
 * root's reduce too), allgather and alltoall (staged and direct sizes).  Results are compared with values
 * computed serially.  A collective over several processes must go through the transport: its counts grow. */
#include <mpi.h>
#include <string.h>
#include <stdbool.h>
#include "mtest.h"

typedef struct { int a, b; } mat;

static mat compose(mat x, mat y) /* x then y */
{
    return (mat){(int)((unsigned)x.a * (unsigned)y.a), (int)((unsigned)y.a * (unsigned)x.b + (unsigned)y.b)};
}

static void matmul(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    (void)dt;
    mat *in = vin, *io = vio;
    for (int i = 0; i < *len; i++)
        io[i] = compose(in[i], io[i]);
}

static mat map_of(int world, int i) { return (mat){2 * world + 3 + i, world * 7 + i}; }
static int val(int world, int i) { return world * 1000 + i; }
static double dval(int world, int i) { return 1.0 / (world + 1) + 1e-3 * (i % 7) * (world % 2 ? 1e10 : 1e-10); }

static MPI_Op noncomm;

/* Roots: the first rank of each process in `c`, and its last rank. */
static int roots_of(MPI_Comm c, int *roots)
{
    int n, nr = 0;
    MPI_Comm_size(c, &n);
    MPI_Group g, wg;
    MPI_Comm_group(c, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    int seen[64] = {0};
    for (int r = 0; r < n; r++) {
        int w, p, np;
        MPI_Group_translate_ranks(g, 1, &r, wg, &w);
        VMPIX_Proc_of(w, &p, &np);
        if (p < 64 && !seen[p]) {
            seen[p] = 1;
            roots[nr++] = r;
        }
    }
    if (roots[nr - 1] != n - 1)
        roots[nr++] = n - 1;
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    return nr;
}

static int check_comm(MPI_Comm c, const char *name)
{
    int errs = 0, n, me;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &me);
    int *world = malloc(sizeof(int) * (size_t)n), wme;
    MPI_Comm_rank(MPI_COMM_WORLD, &wme);
    MPI_Allgather(&wme, 1, MPI_INT, world, 1, MPI_INT, c); /* checked below against a schedule's answer */
    int *w2 = malloc(sizeof(int) * (size_t)n);
    MPI_Request rq;
    MPI_Iallgather(&wme, 1, MPI_INT, w2, 1, MPI_INT, c, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    for (int r = 0; r < n; r++)
        if (world[r] != w2[r])
            MT_ERR(errs, "%s: allgather of world ranks: [%d] = %d, Iallgather says %d", name, r, world[r], w2[r]);
    MPI_Barrier(c);
    int roots[80], nroots = roots_of(c, roots);
    static const int sizes[] = {1, 700, 20000};
    int *buf = malloc(sizeof(int) * 20000), *res = malloc(sizeof(int) * 20000);
    mat *m = malloc(sizeof(mat) * 700), *mr = malloc(sizeof(mat) * 700);
    double *d = malloc(sizeof(double) * 700), *dr = malloc(sizeof(double) * 700), *dall = malloc(sizeof(double) * (size_t)n);
    for (int k = 0; k < nroots; k++) {
        int root = roots[k];
        for (int si = 0; si < 3; si++) {
            int cnt = sizes[si];
            for (int i = 0; i < cnt; i++)
                buf[i] = me == root ? val(world[root], i) : -1;
            MPI_Bcast(buf, cnt, MPI_INT, root, c);
            for (int i = 0; i < cnt; i++)
                if (buf[i] != val(world[root], i)) {
                    MT_ERR(errs, "%s: bcast %d ints from %d: [%d] = %d, expected %d", name, cnt, root, i, buf[i],
                           val(world[root], i));
                    break;
                }
            for (int i = 0; i < cnt; i++)
                buf[i] = val(wme, i);
            MPI_Reduce(buf, res, cnt, MPI_INT, MPI_SUM, root, c);
            if (me == root)
                for (int i = 0; i < cnt; i++) {
                    int want = 0;
                    for (int r = 0; r < n; r++)
                        want += val(world[r], i);
                    if (res[i] != want) {
                        MT_ERR(errs, "%s: reduce sum at %d: [%d] = %d, expected %d", name, root, i, res[i], want);
                        break;
                    }
                }
        }
        for (int i = 0; i < 700; i++)
            m[i] = map_of(wme, i);
        MPI_Reduce(m, mr, 700, MPI_2INT, noncomm, root, c);
        if (me == root)
            for (int i = 0; i < 700; i++) {
                mat want = map_of(world[0], i);
                for (int r = 1; r < n; r++)
                    want = compose(want, map_of(world[r], i));
                if (mr[i].a != want.a || mr[i].b != want.b) {
                    MT_ERR(errs, "%s: reduce non-commutative at %d: [%d] wrong", name, root, i);
                    break;
                }
            }
    }
    for (int si = 0; si < 3; si++) {
        int cnt = sizes[si];
        for (int i = 0; i < cnt; i++)
            buf[i] = val(wme, i);
        MPI_Allreduce(buf, res, cnt, MPI_INT, MPI_SUM, c);
        for (int i = 0; i < cnt; i++) {
            int want = 0;
            for (int r = 0; r < n; r++)
                want += val(world[r], i);
            if (res[i] != want) {
                MT_ERR(errs, "%s: allreduce %d: [%d] = %d, expected %d", name, cnt, i, res[i], want);
                break;
            }
        }
    }
    for (int i = 0; i < 700; i++)
        m[i] = map_of(wme, i);
    MPI_Allreduce(m, mr, 700, MPI_2INT, noncomm, c);
    for (int i = 0; i < 700; i++) {
        mat want = map_of(world[0], i);
        for (int r = 1; r < n; r++)
            want = compose(want, map_of(world[r], i));
        if (mr[i].a != want.a || mr[i].b != want.b) {
            MT_ERR(errs, "%s: allreduce non-commutative: [%d] wrong", name, i);
            break;
        }
    }
    /* floating point: every rank gets the same bits, and so does a reduce to rank 0 */
    for (int i = 0; i < 700; i++)
        d[i] = dval(wme, i);
    MPI_Allreduce(d, dr, 700, MPI_DOUBLE, MPI_SUM, c);
    double dred[700];
    MPI_Reduce(d, dred, 700, MPI_DOUBLE, MPI_SUM, 0, c);
    for (int i = 0; i < 700; i += 99) {
        MPI_Allgather(&dr[i], 1, MPI_DOUBLE, dall, 1, MPI_DOUBLE, c);
        for (int r = 0; r < n; r++)
            if (memcmp(&dall[r], &dr[i], sizeof(double)) != 0)
                MT_ERR(errs, "%s: allreduce of doubles: element %d differs between ranks %d and %d", name, i, me, r);
        if (me == 0 && memcmp(&dred[i], &dr[i], sizeof(double)) != 0)
            MT_ERR(errs, "%s: reduce and allreduce of doubles differ at element %d", name, i);
    }
    /* allgather and alltoall, staged (small) and direct (large) */
    static const int blks[] = {2, 3000};
    for (int bi = 0; bi < 2; bi++) {
        int b = blks[bi];
        int *sb = malloc(sizeof(int) * (size_t)b * (size_t)n), *rb = malloc(sizeof(int) * (size_t)b * (size_t)n);
        for (int i = 0; i < b; i++)
            sb[i] = val(wme, i);
        MPI_Allgather(sb, b, MPI_INT, rb, b, MPI_INT, c);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < b; i++)
                if (rb[r * b + i] != val(world[r], i)) {
                    MT_ERR(errs, "%s: allgather %d: block %d [%d] = %d", name, b, r, i, rb[r * b + i]);
                    r = n;
                    break;
                }
        for (int r = 0; r < n; r++)
            for (int i = 0; i < b; i++)
                sb[r * b + i] = val(wme, i) ^ (world[r] << 20);
        MPI_Alltoall(sb, b, MPI_INT, rb, b, MPI_INT, c);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < b; i++)
                if (rb[r * b + i] != (val(world[r], i) ^ (wme << 20))) {
                    MT_ERR(errs, "%s: alltoall %d: block %d [%d] = %d", name, b, r, i, rb[r * b + i]);
                    r = n;
                    break;
                }
        free(sb);
        free(rb);
    }
    MPI_Barrier(c);
    free(world);
    free(w2);
    free(buf);
    free(res);
    free(m);
    free(mr);
    free(d);
    free(dr);
    free(dall);
    return errs;
}

/* Does a collective over all processes go through the transport? */
static int check_counts(void)
{
    int errs = 0, me, p, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    VMPIX_Proc_of(me, &p, &np);
    VMPIX_Transport_counts c0, c1;
    static const char *what[] = {"MPI_Barrier", "MPI_Bcast", "MPI_Allreduce", "MPI_Allgather"};
    for (int k = 0; k < 4; k++) {
        int x = me, y[1024];
        VMPIX_Transport_counts_get(&c0);
        if (k == 0)
            MPI_Barrier(MPI_COMM_WORLD);
        else if (k == 1)
            MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
        else if (k == 2)
            MPI_Allreduce(&me, &x, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Allgather(&me, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD);
        VMPIX_Transport_counts_get(&c1);
        /* the barrier, allreduce and allgather need every process's part, so each rank's own part leaves its
         * process after it read c0; a broadcast's data may have arrived before, except at the root */
        bool must = np > 1 && (k != 1 || me == 0);
        if (must && c1.am == c0.am)
            MT_ERR(errs, "%s over %d processes: no active message between them", what[k], np);
        if (np == 1 && (c1.am != 0 || c1.get != 0))
            MT_ERR(errs, "one process, yet %lld remote active messages", c1.am);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    return errs;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int errs = 0, me, n, p, np;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    VMPIX_Proc_of(me, &p, &np);
    MPI_Op_create(matmul, 0, &noncomm);
    errs += check_counts();
    errs += check_comm(MPI_COMM_WORLD, "world");
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &c); /* every other rank: spans processes */
    errs += check_comm(c, "even/odd");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, 0, n - me, &c); /* reversed: rank order against the processes' */
    errs += check_comm(c, "reversed");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, me < n / 3, me, &c); /* uneven parts */
    errs += check_comm(c, "uneven");
    MPI_Comm_free(&c);
    MPI_Comm_split(MPI_COMM_WORLD, p, me, &c); /* one per process */
    errs += check_comm(c, "per process");
    MPI_Comm_free(&c);
    MPI_Op_free(&noncomm);
    return mt_finish(errs);
}
