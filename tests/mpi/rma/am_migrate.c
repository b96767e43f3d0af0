/* SPDX-License-Identifier: BSD-3-Clause */
/* Active messages and migration (the testlist runs it under Rotate, which moves every rank at every
 * migration point, on the direct and the staged path): every rank sends active messages to itself and its
 * two neighbours
 *  - in lock_all epochs between AMPI_Migrate calls;
 *  - in a lock_all epoch open across two migration points (AMs before, between and after them);
 *  - under an exclusive lock of its right neighbour held across a migration point;
 * and the handler reports, per segment, the target's value of a global and of a thread_local that each rank
 * set to its own number, and the rank in the target's extra_state: a handler runs as its target's
 * registration, with the target's copy of the program wherever either rank has moved.  Each target counts
 * the segments it ran in its window.  Under Rotate with 2 or more PEs, each rank checks it moved.
 * am_migrate_tls is this program built with -privatize=tls: only thread_locals are per rank there, so the
 * global is not checked. */
#include "am_test.h"

#ifndef AMT_TLS
#define AMT_TLS 0
#endif

/* The only mutable globals of the am_* tests, on purpose: the handler reads them to show it runs with the
 * target's copy of the program (-privatize=auto gives each rank its own globals and thread_locals,
 * -privatize=tls its own thread_locals); each rank sets them to its number right after MPI_Init. */
int owner_global = -1;
_Thread_local int owner_tls = -1;

typedef struct ctx {
    int rank;
} ctx;

enum { OUT = 4, NSEG = 3, NT = 3, STEPS = 3 };

/* per segment: output {owner_global, owner_tls, extra_state's rank, input + 1}; persistent += segments */
static void handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                    MPI_Datatype ot, int nseg, void *extra)
{
    (void)ic, (void)it, (void)pc, (void)pt, (void)ot;
    int *o = out;
    for (int s = 0; s < nseg; s++) {
        o[s * oc + 0] = owner_global;
        o[s * oc + 1] = owner_tls;
        o[s * oc + 2] = ((ctx *)extra)->rank;
        o[s * oc + 3] = ((const int *)in)[s] + 1;
    }
    ((long *)p)[0] += nseg;
}

static int target_of(int rank, int i, int size) { return (rank + size + i - 1) % size; } /* left, self, right */

/* AMs to the NT targets (output slots `round`), checked once `check` says the epoch completed them */
static void send(int *errs, MPI_Win win, MPIX_Am_op op, int rank, int size, int round, int *in, int *out)
{
    for (int i = 0; i < NT; i++) {
        int *x = in + (round * NT + i) * NSEG;
        for (int s = 0; s < NSEG; s++)
            x[s] = rank * 1000 + round * 10 + s;
        MT_CHECK_RC(*errs, MPIX_Am(x, 1, MPI_INT, out + (round * NT + i) * NSEG * OUT, OUT, MPI_INT, NSEG,
                                   target_of(rank, i, size), MPI_INT, 0, 1, MPI_LONG, MPI_INT, op, win));
    }
}

static void check(int *errs, const char *what, int rank, int size, int round, const int *out)
{
    for (int i = 0; i < NT; i++) {
        int t = target_of(rank, i, size);
        for (int s = 0; s < NSEG; s++) {
            const int *o = out + ((round * NT + i) * NSEG + s) * OUT;
            if ((!AMT_TLS && o[0] != t) || o[1] != t || o[2] != t || o[3] != rank * 1000 + round * 10 + s + 1)
                MT_ERR(*errs, "%s, round %d, target %d: handler saw global %d, thread_local %d, extra_state %d, "
                       "output %d (expected %d %d %d %d)", what, round, t, o[0], o[1], o[2], o[3],
                       AMT_TLS ? o[0] : t, t, t, rank * 1000 + round * 10 + s + 1);
        }
    }
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, staged = amt_env_staged();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#if !AMT_TLS /* shared under -privatize=tls: ranks on two PEs would write it at once (a race TSan reports) */
    owner_global = rank;
#endif
    owner_tls = rank;
    ctx *me = mt_malloc(sizeof *me);
    me->rank = rank;
    MPIX_Am_op op;
    MT_CHECK_RC(errs, MPIX_Am_op_create(handler, me, &op));
    const char *lb = getenv("VMPI_BALANCER");
    /* Rotate moves a rank at every point when its process (the job in a one-process job) has 2 PEs or more (a
     * window keeps it in its process) */
    int rotate = lb && !strcmp(lb, "Rotate") && mt_proc_npes_own(mt_world_attr(AMPI_NUM_WTHS)) > 1;
    int moves = 0, points = 0;
    enum { ROUNDS = STEPS + 5 };
    int *in = mt_malloc(sizeof(int) * ROUNDS * NT * NSEG), *out = mt_malloc(sizeof(int) * ROUNDS * NT * NSEG * OUT);
    long *base;
    MPI_Win win = amt_win(sizeof(long), sizeof(long), 0, NULL, &base);
    int round = 0;
#define MIGRATE()                                                                                               \
    do {                                                                                                        \
        int pe0 = mt_world_attr(AMPI_MY_WTH);                                                                   \
        mt_migrate();                                                                                           \
        moves += mt_world_attr(AMPI_MY_WTH) != pe0;                                                             \
        points++;                                                                                               \
    } while (0)

    for (int step = 0; step < STEPS; step++, round++) { /* epochs between migration points */
        MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
        send(&errs, win, op, rank, size, round, in, out);
        MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
        check(&errs, "between migrations", rank, size, round, out);
        MIGRATE();
    }
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win)); /* an epoch open across migrations */
    send(&errs, win, op, rank, size, round++, in, out);
    MIGRATE();
    send(&errs, win, op, rank, size, round++, in, out);
    MT_CHECK_RC(errs, MPI_Win_flush_all(win));
    check(&errs, "lock_all across a migration", rank, size, round - 2, out);
    check(&errs, "lock_all across a migration", rank, size, round - 1, out);
    MIGRATE();
    send(&errs, win, op, rank, size, round++, in, out);
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    check(&errs, "lock_all across two migrations", rank, size, round - 1, out);

    /* an exclusive lock of the right neighbour across a migration (AMs to it only) */
    int right = (rank + 1) % size;
    for (int k = 0; k < 2; k++, round++) {
        int *x = in + round * NT * NSEG, *o = out + round * NT * NSEG * OUT;
        for (int s = 0; s < NSEG; s++)
            x[s] = rank * 1000 + round * 10 + s;
        if (k == 0)
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
        MT_CHECK_RC(errs, MPIX_Am(x, 1, MPI_INT, o, OUT, MPI_INT, NSEG, right, MPI_INT, 0, 1, MPI_LONG, MPI_INT, op, win));
        if (k == 0) {
            MT_CHECK_RC(errs, MPI_Win_flush(right, win));
            MPI_Barrier(MPI_COMM_WORLD); /* all exclusive locks are held */
            MIGRATE();
        } else
            MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    }
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < NSEG; s++) {
            int r = round - 2 + k;
            const int *o = out + (r * NT * NSEG + s) * OUT;
            if ((!AMT_TLS && o[0] != right) || o[1] != right || o[2] != right || o[3] != rank * 1000 + r * 10 + s + 1)
                MT_ERR(errs, "exclusive lock across a migration, AM %d: handler saw %d %d %d %d (expected %d %d %d %d)",
                       k, o[0], o[1], o[2], o[3], AMT_TLS ? o[0] : right, right, right, rank * 1000 + r * 10 + s + 1);
        }
    VMPIX_Am_stats st = amt_stats(win, 0);
    AMT_CHECK_PATH(errs, st, staged, "active messages");
    MPI_Barrier(MPI_COMM_WORLD);
    long want = (long)(round - 2) * NT * NSEG + 2 * NSEG; /* each round: from my right, me, my left */
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MT_CHECK_INT(errs, "segments run at this target", want, base[0]);
    MPI_Win_unlock(rank, win);
    if (rotate)
        MT_CHECK(errs, moves == points, "Rotate with several PEs in the process: moved at %d of %d migration points",
                 moves, points);
    MPI_Win_free(&win);
    MT_CHECK_RC(errs, MPIX_Am_op_free(&op));
    free(in);
    free(out);
    free(me);
    return mt_finish(errs);
}
