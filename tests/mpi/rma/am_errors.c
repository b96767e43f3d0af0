/* SPDX-License-Identifier: BSD-3-Clause */
/* Errors of active messages under MPI_ERRORS_RETURN (set on the window with MPI_Win_set_errhandler, and on
 * MPI_COMM_WORLD for the calls without a valid window), each checked for its class, and the window still
 * usable afterwards:
 *  - MPIX_Am / MPIX_Amv outside an epoch, and to a rank the epoch does not cover: MPI_ERR_RMA_SYNC;
 *  - a handler number the target never registered (created at the origin only) or freed at the target,
 *    MPIX_AM_OP_NULL: MPI_ERR_ARG; an MPIX_Amv handler given to MPIX_Am and the reverse: MPI_ERR_ARG;
 *  - a segment that can never be staged (bigger than am_system_buffer, and no user buffer, or only user
 *    buffers each smaller than it though larger together): MPI_ERR_BUFFER, on both paths; a user buffer big
 *    enough makes it work;
 *  - the persistent buffer outside the target's window: MPI_ERR_RMA_RANGE; input types of different sizes at
 *    the origin and the target: MPI_ERR_TYPE; a target rank outside the group: MPI_ERR_RANK; MPI_WIN_NULL
 *    and a freed window: MPI_ERR_WIN;
 *  - detaching a buffer never attached (or twice), attaching one that overlaps an attached one, or of size
 *    0: an error; adjacent buffers are fine; freeing a handler twice: MPI_ERR_ARG.
 * Any number of ranks (each rank's target is its right neighbour; "created at the origin only" needs two). */
#include "am_test.h"

enum { NL = 8, SYSBUF = 64, BIGSEG = 16 }; /* window of NL longs; a segment of BIGSEG ints in and out */

typedef struct ctx {
    int rank;
} ctx;

static void am_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                       MPI_Datatype ot, int nseg, void *extra)
{
    (void)it, (void)pt, (void)ot, (void)extra;
    if (pc > 0)
        ((long *)p)[0] += nseg;
    for (int i = 0; i < nseg * oc && i < nseg * ic; i++)
        ((int *)out)[i] = ((const int *)in)[i] + 1;
}

static void amv_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                        MPI_Datatype ot, int nseg, int *counts, void *extra)
{
    (void)in, (void)ic, (void)it, (void)p, (void)pc, (void)pt, (void)out, (void)oc, (void)ot, (void)extra;
    for (int s = 0; s < nseg; s++)
        counts[s] = 0;
}

#define AM(in, ic, out, oc, nseg, t, tin, pdisp, pcount, op, win)                                              \
    MPIX_Am(in, ic, MPI_INT, out, oc, MPI_INT, nseg, t, tin, pdisp, pcount, MPI_LONG, MPI_INT, op, win)
#define AMV(in, ic, out, oc, nseg, t, counts, op, win)                                                          \
    MPIX_Amv(in, ic, MPI_INT, out, oc, MPI_INT, nseg, t, MPI_INT, 0, 0, MPI_LONG, MPI_INT, counts, op, win)

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size;
    ctx *me = mt_malloc(sizeof *me);
    me->rank = rank;
    MPIX_Am_op am_op, amv_op, freed, gone, only_here = MPIX_AM_OP_NULL;
    MT_CHECK_RC(errs, MPIX_Am_op_create(am_handler, me, &am_op));
    MT_CHECK_RC(errs, MPIX_Amv_op_create(amv_handler, me, &amv_op));
    MT_CHECK_RC(errs, MPIX_Am_op_create(am_handler, me, &freed));
    if (rank == 0 && size > 1) /* a number rank 0 has and its right neighbour never registered */
        MT_CHECK_RC(errs, MPIX_Am_op_create(am_handler, me, &only_here));
    gone = freed; /* (freed after only_here's creation, which could reuse its number) */
    MT_CHECK_RC(errs, MPIX_Am_op_free(&freed)); /* every rank frees it: unknown at every target */
    MT_CHECK_CLASS(errs, MPIX_Am_op_free(&gone), MPI_ERR_ARG);

    const char *const hints[][2] = {{"am_system_buffer", "64"}};
    long *base;
    MPI_Win win = amt_win(NL * sizeof(long), sizeof(long), 1, hints, &base);
    MT_CHECK_RC(errs, MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    int *in = mt_malloc(sizeof(int) * 4 * BIGSEG), *out = mt_malloc(sizeof(int) * 4 * BIGSEG), counts[4];
    for (int i = 0; i < 4 * BIGSEG; i++)
        in[i] = i;

    /* epochs */
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_RMA_SYNC);
    MT_CHECK_CLASS(errs, AMV(in, 1, out, 1, 1, right, counts, amv_op, win), MPI_ERR_RMA_SYNC);
    if (size > 1) { /* locking myself does not cover my neighbour */
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
        MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_RMA_SYNC);
        MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
    }
    MPI_Barrier(MPI_COMM_WORLD); /* before anyone's lock_all: the frees and creations above are done */

    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    /* handlers */
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, gone, win), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, MPIX_AM_OP_NULL, win), MPI_ERR_ARG);
    if (only_here != MPIX_AM_OP_NULL)
        MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, only_here, win), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, amv_op, win), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, AMV(in, 1, out, 1, 1, right, counts, am_op, win), MPI_ERR_ARG);
    /* arguments */
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, NL, 1, am_op, win), MPI_ERR_RMA_RANGE);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, NL - 1, 2, am_op, win), MPI_ERR_RMA_RANGE);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, -1, 1, am_op, win), MPI_ERR_RMA_RANGE);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_DOUBLE, 0, 1, am_op, win), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, size, MPI_INT, 0, 1, am_op, win), MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, -1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, am_op, MPI_WIN_NULL), MPI_ERR_WIN);
    /* a segment of 2 x BIGSEG ints (128 bytes) never fits the 64-byte system buffer, nor (below) two
     * attached user buffers of 100 bytes each */
    MT_CHECK_CLASS(errs, AM(in, BIGSEG, out, BIGSEG, 1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, AM(in, 2 * BIGSEG, NULL, 0, 1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_BUFFER);
    MT_CHECK_RC(errs, AM(in, BIGSEG / 2, out, BIGSEG / 2, 1, right, MPI_INT, 0, 1, am_op, win)); /* 64 bytes: fits */
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    for (int i = 0; i < BIGSEG / 2; i++)
        MT_CHECK_INT(errs, "output of the AM that fits the system buffer", i + 1, out[i]);

    /* user buffers */
    char *ub = mt_malloc(400);
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub, 100, win));
    MT_CHECK(errs, MPIX_Am_win_buffer_attach(ub, 100, win) != MPI_SUCCESS, "attaching a buffer twice succeeded");
    MT_CHECK(errs, MPIX_Am_win_buffer_attach(ub + 50, 100, win) != MPI_SUCCESS, "an overlapping attach succeeded");
    MT_CHECK(errs, MPIX_Am_win_buffer_attach(ub + 99, 1, win) != MPI_SUCCESS, "an overlapping attach succeeded");
    MT_CHECK(errs, MPIX_Am_win_buffer_attach(ub + 200, 0, win) != MPI_SUCCESS, "attaching 0 bytes succeeded");
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub + 100, 100, win)); /* adjacent */
    MT_CHECK(errs, MPIX_Am_win_buffer_detach(ub + 200, win) != MPI_SUCCESS, "detaching an unknown buffer succeeded");
    MT_CHECK(errs, MPIX_Am_win_buffer_detach(ub + 50, win) != MPI_SUCCESS,
             "detaching from inside an attached buffer succeeded");
    MT_CHECK(errs, MPIX_Am_win_buffer_attach(NULL, 100, win) != MPI_SUCCESS, "attaching NULL succeeded");
    MPI_Barrier(MPI_COMM_WORLD); /* my right neighbour has 2 x 100 bytes attached */
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_CLASS(errs, AM(in, BIGSEG, out, BIGSEG, 1, right, MPI_INT, 0, 1, am_op, win), MPI_ERR_BUFFER);
    MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub + 200, 200, win)); /* one buffer that holds a segment */
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_RC(errs, AM(in, BIGSEG, out, BIGSEG, 4, right, MPI_INT, 0, 1, am_op, win));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    for (int i = 0; i < 4 * BIGSEG; i++)
        MT_CHECK_INT(errs, "output of the AM staged in the 200-byte buffer", i + 1, out[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub, win));
    MT_CHECK(errs, MPIX_Am_win_buffer_detach(ub, win) != MPI_SUCCESS, "detaching a buffer twice succeeded");
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub + 100, win));
    MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub + 200, win));

    /* the errors changed nothing: the 1 + 4 segments of the two AMs that worked, from the left neighbour */
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MT_CHECK_INT(errs, "segments counted in the persistent buffer", 5, base[0]);
    MPI_Win_unlock(rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win freed_win = win;
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK_CLASS(errs, AM(in, 1, out, 1, 1, right, MPI_INT, 0, 1, am_op, freed_win), MPI_ERR_WIN);
    MT_CHECK_CLASS(errs, MPIX_Am_win_buffer_attach(ub, 100, freed_win), MPI_ERR_WIN);
    if (only_here != MPIX_AM_OP_NULL)
        MT_CHECK_RC(errs, MPIX_Am_op_free(&only_here));
    MT_CHECK_RC(errs, MPIX_Am_op_free(&am_op));
    MT_CHECK_RC(errs, MPIX_Am_op_free(&amv_op));
    free(ub);
    free(in);
    free(out);
    free(me);
    return mt_finish(errs);
}
