/* SPDX-License-Identifier: BSD-3-Clause */
/* Fetch_and_op and Compare_and_swap, one element at a time (MPI-3.1 11.3.4.3, 11.3.4.4), on every type of
 * include/redops.h:
 *   - Fetch_and_op with every predefined operation the type allows, with MPI_REPLACE and with MPI_NO_OP, from
 *     the left neighbour, each into its own element: the result is the target's old value, the target the
 *     combination (REPLACE: the origin's value; NO_OP: unchanged);
 *   - Compare_and_swap on the types it allows (C and Fortran integers, logical, multi-language, byte): a
 *     compare value that differs leaves the target alone and returns its value, an equal one swaps;
 *   - both towards MPI_PROC_NULL: no effect on the result buffer;
 * alternately in a shared lock epoch (ended by Win_unlock) and a lock_all epoch (Win_flush per operation). */
#include "redops.h"

enum { MAXES = 32, SLOTS = O_N + 4 };

static void gen(const red_type *t, int o, int r, void *e)
{
    memset(e, 0, t->esize);
    t->gen(o, r, 0, e);
}

static int cas_allowed(const red_type *t) { return (t->opmask & (M_BITS | M_BOOL)) != 0; }

/* value for slot s (an op, or the REPLACE / NO_OP / CAS slots) of rank r */
static void slot_val(const red_type *t, int s, int r, void *e)
{
    int o = s < O_N ? s : (t->opmask & (1 << O_BXOR)) ? O_BXOR : (t->opmask & (1 << O_SUM)) ? O_SUM : O_LXOR;
    if (s >= O_N && (t->opmask & M_PAIR))
        o = O_MAXLOC;
    gen(t, o, r * 3 + (s >= O_N ? s - O_N : 0), e);
}

/* Open MPI 4.1 gets MPI_MAX and MPI_MIN wrong on MPI_OFFSET and MPI_UNSIGNED_LONG (in MPI_Allreduce too) */
static int ompi_skip(const red_type *t, int o)
{
    return MT_OMPI_BUGS && (t->dt == MPI_OFFSET || t->dt == MPI_UNSIGNED_LONG) && (o == O_MAX || o == O_MIN);
}

static int same(const red_type *t, const void *a, const void *b) { return t->eq(a, b); }

static int report(int *errs, const red_type *t, const char *what, const void *want, const void *got)
{
    char w[96], g[96];
    t->show(want, w, sizeof w);
    t->show(got, g, sizeof g);
    MT_ERR(*errs, "%s on %s: expected %s, got %s", what, t->name, w, g);
    return 0;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(SLOTS * MAXES, MAXES, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    for (int ti = 0; ti < RED_NTYPES; ti++) {
        const red_type *t = &red_types[ti];
        size_t es = t->esize;
        int use_all = ti % 2;
        unsigned char org[MAXES], res[MAXES], want[MAXES], in[MAXES], cmp[MAXES];
        for (int s = 0; s < SLOTS; s++)
            slot_val(t, s, rank, base + s * MAXES);
        MPI_Barrier(MPI_COMM_WORLD);
        if (use_all)
            MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
        else
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        for (int s = 0; s < O_N + 2; s++) {
            MPI_Op op = s < O_N ? red_op(s) : s == O_N ? MPI_REPLACE : MPI_NO_OP;
            const char *opname = s < O_N ? red_opname[s] : s == O_N ? "MPI_REPLACE" : "MPI_NO_OP";
            if (s < O_N && (!(t->opmask & (1 << s)) || ompi_skip(t, s)))
                continue;
            slot_val(t, s, rank + 1000, org);
            memset(res, 0xEE, sizeof res);
            MT_CHECK_RC(errs, MPI_Fetch_and_op(org, res, t->dt, right, s, op, win));
            if (use_all)
                MT_CHECK_RC(errs, MPI_Win_flush(right, win));
            else if (s % 3 == 0)
                MT_CHECK_RC(errs, MPI_Win_flush_local(right, win));
            if (!use_all && s % 3 != 0)
                MT_CHECK_RC(errs, MPI_Win_flush(right, win));
            slot_val(t, s, right, want);
            if (!same(t, res, want)) {
                char what[128];
                snprintf(what, sizeof what, "Fetch_and_op(%s) result", opname);
                report(&errs, t, what, want, res);
            }
        }
        if (cas_allowed(t)) {
            int s = O_N + 2;
            /* a compare value that differs: no swap */
            slot_val(t, s, right, cmp);
            for (size_t b = 0; b < es; b++) /* flip the lowest bit of the first byte */
                in[b] = cmp[b];
            in[0] ^= 1;
            slot_val(t, s, rank + 2000, org);
            memset(res, 0xEE, sizeof res);
            MT_CHECK_RC(errs, MPI_Compare_and_swap(org, in, res, t->dt, right, s, win));
            MT_CHECK_RC(errs, MPI_Win_flush(right, win));
            if (!same(t, res, cmp))
                report(&errs, t, "Compare_and_swap with a different compare value: result", cmp, res);
            /* an equal one: swap */
            s = O_N + 3;
            slot_val(t, s, right, cmp);
            memset(res, 0xEE, sizeof res);
            MT_CHECK_RC(errs, MPI_Compare_and_swap(org, cmp, res, t->dt, right, s, win));
            MT_CHECK_RC(errs, MPI_Win_flush(right, win));
            if (!same(t, res, cmp))
                report(&errs, t, "Compare_and_swap with the equal compare value: result", cmp, res);
            /* MPI_PROC_NULL */
            memset(res, 0xEE, sizeof res);
            memset(want, 0xEE, sizeof want);
            MT_CHECK_RC(errs, MPI_Compare_and_swap(org, cmp, res, t->dt, MPI_PROC_NULL, 0, win));
            MT_CHECK(errs, !memcmp(res, want, es), "Compare_and_swap to MPI_PROC_NULL on %s wrote the result", t->name);
        }
        {
            unsigned char res2[MAXES], want2[MAXES];
            memset(res2, 0xEE, sizeof res2);
            memset(want2, 0xEE, sizeof want2);
            MT_CHECK_RC(errs, MPI_Fetch_and_op(org, res2, t->dt, MPI_PROC_NULL, 0, MPI_REPLACE, win));
            MT_CHECK(errs, !memcmp(res2, want2, es), "Fetch_and_op to MPI_PROC_NULL on %s wrote the result", t->name);
        }
        if (use_all)
            MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
        else
            MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
        MPI_Barrier(MPI_COMM_WORLD);
        /* the targets */
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        for (int s = 0; s < O_N + 2; s++) {
            if (s < O_N && (!(t->opmask & (1 << s)) || ompi_skip(t, s)))
                continue;
            slot_val(t, s, rank, want);
            slot_val(t, s, left + 1000, in);
            if (s < O_N)
                t->combine(s, want, in);
            else if (s == O_N)
                memcpy(want, in, es);
            if (!same(t, base + s * MAXES, want)) {
                char what[128];
                snprintf(what, sizeof what, "target after Fetch_and_op(%s)",
                         s < O_N ? red_opname[s] : s == O_N ? "MPI_REPLACE" : "MPI_NO_OP");
                report(&errs, t, what, want, base + s * MAXES);
            }
        }
        if (cas_allowed(t)) {
            slot_val(t, O_N + 2, rank, want);
            if (!same(t, base + (O_N + 2) * MAXES, want))
                report(&errs, t, "target after a Compare_and_swap that must not swap", want, base + (O_N + 2) * MAXES);
            slot_val(t, O_N + 2, left + 2000, want);
            if (!same(t, base + (O_N + 3) * MAXES, want))
                report(&errs, t, "target after a Compare_and_swap that must swap", want, base + (O_N + 3) * MAXES);
        }
        MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return mt_finish(errs);
}
