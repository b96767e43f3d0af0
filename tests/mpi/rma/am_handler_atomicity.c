/* SPDX-License-Identifier: BSD-3-Clause */
/* Handlers on one target window run one at a time: every rank sends many active messages to one target
 * whose handler updates a structure of several words in its persistent buffer without any atomic operation
 * (it reads them all, works a little, writes them all back, and counts the times it found them
 * inconsistent).  The final state must be exact: as many updates as segments, the sum of every input, all
 * words equal, no inconsistency seen.  Under shared locks (rank 0 the target) and lock_all (the last rank the
 * target); the testlist runs 64 ranks on 2 PEs, where origins on both PEs run handlers at the same time. */
#include "am_test.h"

enum { NW = 4, NAM = 200, BATCH = 10, MAXSEG = 3 };

typedef struct state { /* the persistent buffer */
    long count, sum, torn;
    long words[NW];   /* all equal to count when no update is half done */
} state;

static void handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                    MPI_Datatype ot, int nseg, void *extra)
{
    (void)ic, (void)it, (void)pc, (void)pt, (void)out, (void)oc, (void)ot, (void)extra;
    volatile state *st = p;
    for (int s = 0; s < nseg; s++) {
        long c = st->count, sum = st->sum, w[NW];
        for (int i = 0; i < NW; i++) {
            w[i] = st->words[i];
            if (w[i] != c)
                st->torn++;
        }
        mt_spin(50); /* room for another handler to interleave, if one could */
        st->sum = sum + ((const int *)in)[s];
        for (int i = 0; i < NW; i++) {
            st->words[i] = w[i] + 1;
            mt_spin(5);
        }
        st->count = c + 1;
    }
}

static int value(int o, int a, int s) { return o * 7 + a * 3 + s + 1; }
static int nseg_of(int o, int a) { return 1 + (o + a) % MAXSEG; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPIX_Am_op op;
    MT_CHECK_RC(errs, MPIX_Am_op_create(handler, NULL, &op));
    state *base;
    MPI_Win win = amt_win(sizeof(state), 1, 0, NULL, &base);
    int *in = mt_malloc(sizeof(int) * NAM * MAXSEG);
    for (int a = 0; a < NAM; a++)
        for (int s = 0; s < nseg_of(rank, a); s++)
            in[a * MAXSEG + s] = value(rank, a, s);
    long count = 0, sum = 0;
    for (int o = 0; o < size; o++)
        for (int a = 0; a < NAM; a++)
            for (int s = 0; s < nseg_of(o, a); s++, count++)
                sum += value(o, a, s);

    for (int phase = 0; phase < 2; phase++) {
        int t = phase == 0 ? 0 : size - 1;
        if (phase == 1)
            MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
        for (int a = 0; a < NAM; a++) {
            if (phase == 0 && a % BATCH == 0)
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            MT_CHECK_RC(errs, MPIX_Am(in + a * MAXSEG, 1, MPI_INT, NULL, 0, MPI_INT, nseg_of(rank, a), t, MPI_INT,
                                      0, (int)sizeof(state), MPI_BYTE, MPI_INT, op, win));
            if (phase == 0 && a % BATCH == BATCH - 1)
                MT_CHECK_RC(errs, MPI_Win_unlock(t, win));
        }
        if (phase == 1)
            MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == t) {
            const char *what = phase == 0 ? "shared locks" : "lock_all";
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
            if (base->count != count || base->sum != sum || base->torn != 0)
                MT_ERR(errs, "%s: %ld updates, sum %ld, %ld inconsistent states seen (expected %ld, %ld, 0)", what,
                       base->count, base->sum, base->torn, count, sum);
            for (int i = 0; i < NW; i++)
                if (base->words[i] != count)
                    MT_ERR(errs, "%s: word %d is %ld, expected %ld", what, i, base->words[i], count);
            memset(base, 0, sizeof *base);
            MPI_Win_unlock(rank, win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Win_free(&win);
    MT_CHECK_RC(errs, MPIX_Am_op_free(&op));
    free(in);
    return mt_finish(errs);
}
