/* SPDX-License-Identifier: BSD-3-Clause */
/* The accumulate operations with every predefined operation on every type it is defined for (MPI-3.1 11.3.4,
 * 5.9.2; the values of include/redops.h, exactly computable), for each (type, op):
 *   - Accumulate in a fence epoch from up to K origins into each target (the target's own value is the
 *     starting value: the result is the reduction over those ranks), through different layouts of the same
 *     signature: contiguous or a resized type (extent 2 elements) at the origin, contiguous or a vector
 *     (stride 2) at the target, whose gaps must stay untouched;
 *   - Get_accumulate from one origin (the left neighbour) in a shared lock epoch: the result buffer (laid out
 *     like the origin buffer) gets the target's values from before the operation, the target the
 *     combination; every third (type, op) uses Raccumulate and Rget_accumulate with MPI_Wait / MPI_Test
 *     instead;
 * and for each type: Accumulate with MPI_REPLACE, then Get_accumulate with MPI_NO_OP (an atomic read of it)
 * and with MPI_REPLACE (a fetch-and-set), in one lock_all epoch from one origin (program order is kept
 * between accumulate operations of one origin on one target).  The window uses disp_unit 1 (displacements
 * in bytes).  Bytes of the windows and result buffers past the elements concerned must stay untouched. */
#include "redops.h"

enum { CNT = 2 * RP + 3, K = 4, MAXES = 32, REGION = 2 * CNT * MAXES, WINSZ = 2 * REGION };

/* Bytes around the elements: FILL in windows and result buffers, ofill(op) in origin buffers, chosen so that
 * an operation applied to them would change them (0x5A... is larger than 0x11..., 0xEE... smaller, in every
 * type's order: MINLOC needs the smaller one) */
#define FILL 0x11
static int ofill(int o) { return o == O_MINLOC || o == O_MIN || o == O_LAND ? 0xEE : 0x5A; }

typedef struct {
    int rank, size;
    MPI_Win win;
    unsigned char *base, *obuf, *rbuf, *want;
} ctx;

/* element j's value for op o and rank r */
static void gen(const red_type *t, int o, int r, int j, void *e)
{
    memset(e, 0, t->esize);
    t->gen(o, r, j % RP, e);
}

static int value_op(const red_type *t) /* an op whose generator gives varied values for the type */
{
    if (t->opmask & (1 << O_BXOR))
        return O_BXOR;
    if (t->opmask & (1 << O_SUM))
        return O_SUM;
    if (t->opmask & (1 << O_LXOR))
        return O_LXOR;
    return O_MAXLOC;
}

static int check_elems(const red_type *t, const unsigned char *got, const unsigned char *want, int n, int stride,
                       const char *what, int o)
{
    int errs = 0;
    size_t es = t->esize;
    for (int j = 0; j < n; j++)
        if (!t->eq(got + (size_t)j * stride * es, want + (size_t)j * es)) {
            char g[96], w[96];
            t->show(got + (size_t)j * stride * es, g, sizeof g);
            t->show(want + (size_t)j * es, w, sizeof w);
            MT_ERR(errs, "%s %s %s: element %d: expected %s, got %s", what, t->name, o < 0 ? "" : red_opname[o], j, w,
                   g);
            break;
        }
    return errs;
}

/* n bytes that must still be FILL */
static int untouched(const unsigned char *p, size_t n, const red_type *t, int o, const char *what)
{
    int errs = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] != FILL) {
            MT_ERR(errs, "%s %s %s: byte %zu was written", what, t->name, o < 0 ? "" : red_opname[o], i);
            break;
        }
    return errs;
}

static int combo(ctx *c, const red_type *t, int o, int n)
{
    int errs = 0, rank = c->rank, size = c->size;
    size_t es = t->esize;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int tvec = o % 2, ores = o % 3 == 0, reqs = n % 3 == 0;
    MPI_Datatype ttype = t->dt, otype = t->dt, tmp;
    int tcount = CNT;
    if (tvec) {
        MPI_Type_vector(CNT, 1, 2, t->dt, &ttype);
        MPI_Type_commit(&ttype);
        tcount = 1;
    }
    if (ores) {
        MPI_Type_contiguous(1, t->dt, &tmp);
        MPI_Type_create_resized(tmp, 0, (MPI_Aint)(2 * es), &otype);
        MPI_Type_free(&tmp);
        MPI_Type_commit(&otype);
    }
    unsigned char *A = c->base, *B = c->base + REGION;
    /* region A: the target layout's elements hold this rank's values, the gaps and the rest FILL; region B:
     * contiguous, then FILL */
    memset(A, FILL, 2 * REGION);
    for (int j = 0; j < CNT; j++)
        gen(t, o, rank, j, A + (size_t)j * (tvec ? 2 : 1) * es);
    for (int j = 0; j < CNT; j++)
        gen(t, o, rank, j, B + (size_t)j * es);
    memset(c->obuf, ofill(o), REGION);
    for (int j = 0; j < CNT; j++)
        gen(t, o, rank, j, c->obuf + (size_t)j * (ores ? 2 : 1) * es);

    /* Accumulate from K origins (fewer with fewer ranks) */
    int nk = size - 1 < K ? size - 1 : K;
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, c->win));
    for (int k = 1; k <= nk; k++)
        MT_CHECK_RC(errs, MPI_Accumulate(c->obuf, CNT, otype, (rank + k) % size, 0, tcount, ttype, red_op(o), c->win));
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, c->win));
    for (int j = 0; j < CNT; j++) {
        unsigned char in[MAXES];
        gen(t, o, rank, j, c->want + (size_t)j * es);
        for (int k = 1; k <= nk; k++) {
            gen(t, o, (rank + size - k) % size, j, in);
            t->combine(o, c->want + (size_t)j * es, in);
        }
    }
    errs += check_elems(t, A, c->want, CNT, tvec ? 2 : 1, "Accumulate", o);
    if (tvec)
        for (int j = 0; j < CNT; j++)
            for (size_t b = 0; b < es; b++)
                if (A[(size_t)(2 * j + 1) * es + b] != FILL) {
                    MT_ERR(errs, "Accumulate %s %s into a vector: gap after element %d was written", t->name,
                           red_opname[o], j);
                    j = CNT;
                    break;
                }
    errs += untouched(A + (size_t)(tvec ? 2 * CNT - 1 : CNT) * es, REGION - (size_t)(tvec ? 2 * CNT - 1 : CNT) * es,
                      t, o, "Accumulate: the window past the target elements");

    /* Get_accumulate from the left neighbour into region B */
    memset(c->rbuf, FILL, REGION);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, c->win));
    if (reqs) {
        MPI_Request r[2];
        int flag = 0;
        MT_CHECK_RC(errs, MPI_Rget_accumulate(c->obuf, CNT, otype, c->rbuf, CNT, otype, right, REGION, CNT, t->dt,
                                              red_op(o), c->win, &r[0]));
        MT_CHECK_RC(errs, MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        /* and an Raccumulate of nothing (count 0) completed by MPI_Test */
        MT_CHECK_RC(errs, MPI_Raccumulate(c->obuf, 0, t->dt, right, REGION, 0, t->dt, red_op(o), c->win, &r[1]));
        while (!flag)
            MT_CHECK_RC(errs, MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE));
    } else {
        MT_CHECK_RC(errs, MPI_Get_accumulate(c->obuf, CNT, otype, c->rbuf, CNT, otype, right, REGION, CNT, t->dt,
                                             red_op(o), c->win));
    }
    MT_CHECK_RC(errs, MPI_Win_unlock(right, c->win));
    for (int j = 0; j < CNT; j++)
        gen(t, o, right, j, c->want + (size_t)j * es);
    errs += check_elems(t, c->rbuf, c->want, CNT, ores ? 2 : 1,
                        reqs ? "Rget_accumulate result" : "Get_accumulate result", o);
    if (ores) /* the result type is the origin's resized one: every other element, the gaps untouched */
        for (int j = 0; j < CNT; j++)
            errs += untouched(c->rbuf + (size_t)(2 * j + 1) * es, es, t, o, "Get_accumulate: a gap of the result");
    size_t rend = (size_t)(ores ? 2 * CNT - 1 : CNT) * es;
    errs += untouched(c->rbuf + rend, REGION - rend, t, o, "Get_accumulate: the result buffer past its count");
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, c->win));
    for (int j = 0; j < CNT; j++) {
        unsigned char in[MAXES];
        gen(t, o, rank, j, c->want + (size_t)j * es);
        gen(t, o, left, j, in);
        t->combine(o, c->want + (size_t)j * es, in);
    }
    errs += check_elems(t, B, c->want, CNT, 1, reqs ? "Rget_accumulate target" : "Get_accumulate target", o);
    errs += untouched(B + CNT * es, REGION - CNT * es, t, o, "Get_accumulate: the window past the target elements");
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, c->win));
    MPI_Barrier(MPI_COMM_WORLD); /* before the next combination sets the windows */
    if (tvec)
        MPI_Type_free(&ttype);
    if (ores)
        MPI_Type_free(&otype);
    return errs;
}

/* MPI_REPLACE and MPI_NO_OP, from the left neighbour, in program order in one epoch */
static int replace_noop(ctx *c, const red_type *t)
{
    int errs = 0, rank = c->rank, size = c->size, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int vo = value_op(t);
    size_t es = t->esize;
    unsigned char *B = c->base + REGION;
    memset(B, FILL, REGION);
    for (int j = 0; j < CNT; j++)
        gen(t, vo, rank, j, B + (size_t)j * es);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, c->win));
    for (int j = 0; j < CNT; j++)
        gen(t, vo, rank + 50, j, c->obuf + (size_t)j * es);
    MT_CHECK_RC(errs, MPI_Accumulate(c->obuf, CNT, t->dt, right, REGION, CNT, t->dt, MPI_REPLACE, c->win));
    memset(c->rbuf, FILL, REGION);
    MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, t->dt, c->rbuf, CNT, t->dt, right, REGION, CNT, t->dt, MPI_NO_OP,
                                         c->win));
    MT_CHECK_RC(errs, MPI_Win_flush(right, c->win));
    for (int j = 0; j < CNT; j++)
        gen(t, vo, rank + 50, j, c->want + (size_t)j * es);
    errs += check_elems(t, c->rbuf, c->want, CNT, 1, "Get_accumulate(MPI_NO_OP) after Accumulate(MPI_REPLACE):", -1);
    unsigned char *src2 = c->obuf + REGION / 2;
    for (int j = 0; j < CNT; j++)
        gen(t, vo, rank + 90, j, src2 + (size_t)j * es);
    memset(c->rbuf, FILL, REGION);
    MT_CHECK_RC(errs, MPI_Get_accumulate(src2, CNT, t->dt, c->rbuf, CNT, t->dt, right, REGION, CNT, t->dt,
                                         MPI_REPLACE, c->win));
    MT_CHECK_RC(errs, MPI_Win_flush_local(right, c->win));
    errs += check_elems(t, c->rbuf, c->want, CNT, 1, "Get_accumulate(MPI_REPLACE) result:", -1);
    errs += untouched(c->rbuf + CNT * es, REGION - CNT * es, t, -1, "Get_accumulate(MPI_REPLACE): the result buffer");
    MT_CHECK_RC(errs, MPI_Win_unlock_all(c->win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, c->win));
    for (int j = 0; j < CNT; j++)
        gen(t, vo, left + 90, j, c->want + (size_t)j * es);
    errs += check_elems(t, B, c->want, CNT, 1, "after Get_accumulate(MPI_REPLACE), the target:", -1);
    errs += untouched(B + CNT * es, REGION - CNT * es, t, -1, "Accumulate/Get_accumulate(MPI_REPLACE): the window");
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, c->win));
    MPI_Barrier(MPI_COMM_WORLD);
    return errs;
}

/* Open MPI 4.1 gets MPI_MAX and MPI_MIN wrong on MPI_OFFSET and MPI_UNSIGNED_LONG (in MPI_Allreduce too), and
 * accumulates MPI_SHORT_INT (whose size is not its extent) wrongly into a vector of it */
static int ompi_skip(const red_type *t, int o)
{
    return MT_OMPI_BUGS && (((t->dt == MPI_OFFSET || t->dt == MPI_UNSIGNED_LONG) && (o == O_MAX || o == O_MIN)) ||
                            (t->dt == MPI_SHORT_INT && o % 2 == 1));
}

int main(int argc, char **argv)
{
    int errs = 0, n = 0;
    ctx c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    c.obuf = mt_malloc(REGION);
    c.rbuf = mt_malloc(REGION);
    c.want = mt_malloc(REGION);
    MT_CHECK_RC(errs, MPI_Win_allocate(WINSZ, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &c.base, &c.win));
    for (int ti = 0; ti < RED_NTYPES; ti++) {
        const red_type *t = &red_types[ti];
        for (int o = 0; o < O_N; o++)
            if ((t->opmask & (1 << o)) && !ompi_skip(t, o))
                errs += combo(&c, t, o, n++);
        errs += replace_noop(&c, t);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&c.win));
    free(c.obuf);
    free(c.rbuf);
    free(c.want);
    return mt_finish(errs);
}
