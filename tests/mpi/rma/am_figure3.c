/* SPDX-License-Identifier: BSD-3-Clause */
/* The program of Figure 3 of Zhao et al. (docs/research/rma-am.md 1.7) on the staged path (hint
 * am_staged=true), with a system buffer too small for a segment (am_system_buffer=16, segments of 64 bytes)
 * so that everything is staged in user buffers.  Pairs (0,1), (2,3)...: the origin locks the target
 * exclusively; a rank without a partner (e.g. with 1 rank) plays both parts.
 *  A. The target attaches user_buf_1 (3 segments) and user_buf_2 (2 segments); the origin sends active
 *     messages of 5 segments (they need both buffers' space) and flushes; the target detaches user_buf_1
 *     and fills it with a canary; the origin sends active messages of 2 segments (they fit user_buf_2) and
 *     unlocks.  Checked: the results; one synchronization for the whole epoch before the flush (the
 *     exclusive-lock view) and exactly one more after it (the view is read again: the target may have
 *     detached a buffer); the canary in user_buf_1 intact (nothing staged there after its detach) and
 *     user_buf_2 used.  The paper's buffers are 100 and 200 bytes; here user_buf_1 is the larger one: vmpi
 *     stages in the largest buffer it knows of, so a view not read again after the flush would stage in
 *     user_buf_1 (the test checks that the AMs before the detach did use it).
 *  B. am_buf_interleave_am_detach=false, no detach: the flush does not cost a synchronization (1 in all).
 *  C. The same active messages under a shared lock: no view, a synchronization (a reservation) per AM.
 *  D. am_user_buf_<target>=320 (the bytes the origin's largest AM needs) at the origin: space of its own,
 *     claimed with the first AM's synchronization and never again (1 in all), under a shared lock and in a
 *     fence epoch.
 * Between processes (vmpirun --emulate-procs, the partners in different processes) the runtime does not use
 * the user-buffer protocol (docs/AM.md, Limits): segments are staged in the target's handler memory, so the
 * checks of which user buffer was used and of the synchronization counts do not apply and are skipped (with
 * a printed reason).  What still holds there is checked: every output and persistent result, the AMs and
 * the bytes staged in counted, attach and detach succeed, and nothing is ever written into a user buffer. */
#include "am_test.h"

enum { IN = 8, OUT = 8, SEG = (IN + OUT) * 4, BUF1 = 3 * SEG, BUF2 = 2 * SEG, BIG = 5, SMALL = 2, NBIG = 3, NSMALL = 2 };
#define CANARY_BYTE 0xA5

typedef struct ctx {
    int rank;
} ctx;

/* persistent[0] += input ints, persistent[1] += segments; output int j = 3 * input int j + target rank */
static void handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                    MPI_Datatype ot, int nseg, void *extra)
{
    (void)it, (void)pc, (void)pt, (void)ot;
    const int *x = in;
    long *pl = p;
    for (int s = 0; s < nseg; s++) {
        for (int j = 0; j < ic; j++)
            pl[0] += x[s * ic + j];
        for (int j = 0; j < oc; j++)
            ((int *)out)[s * oc + j] = 3 * x[s * ic + j] + ((ctx *)extra)->rank;
    }
    pl[1] += nseg;
}

static int value(int o, int a, int s, int j) { return o * 1000 + a * 100 + s * 10 + j; }

/* The origin's AM number a (of nseg segments) to t; its output is checked by check_out after completion. */
static void am(int *errs, MPI_Win win, MPIX_Am_op op, int rank, int t, int a, int nseg, int *in, int *out)
{
    for (int s = 0; s < nseg; s++)
        for (int j = 0; j < IN; j++)
            in[s * IN + j] = value(rank, a, s, j);
    MT_CHECK_RC(*errs, MPIX_Am(in, IN, MPI_INT, out, OUT, MPI_INT, nseg, t, MPI_INT, 0, 2, MPI_LONG, MPI_INT, op, win));
}

static void check_out(int *errs, const char *what, int rank, int t, int a, int nseg, const int *out)
{
    for (int s = 0; s < nseg; s++)
        for (int j = 0; j < OUT; j++)
            if (out[s * OUT + j] != 3 * value(rank, a, s, j) + t)
                MT_ERR(*errs, "%s: AM %d, segment %d, output %d: expected %d, got %d", what, a, s, j,
                       3 * value(rank, a, s, j) + t, out[s * OUT + j]);
}

/* What the target's persistent buffer must hold after NBIG big and NSMALL small AMs from `o`. */
static void check_persistent(int *errs, const char *what, MPI_Win win, const long *base, int rank, int o)
{
    long sum = 0, segs = 0;
    for (int a = 0; a < NBIG + NSMALL; a++)
        for (int s = 0; s < (a < NBIG ? BIG : SMALL); s++, segs++)
            for (int j = 0; j < IN; j++)
                sum += value(o, a, s, j);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    if (base[0] != sum || base[1] != segs)
        MT_ERR(*errs, "%s: persistent buffer: expected %ld over %ld segments, got %ld over %ld", what, sum, segs,
               base[0], base[1]);
    MPI_Win_unlock(rank, win);
}

static int all_canary(const unsigned char *b, int n)
{
    for (int i = 0; i < n; i++)
        if (b[i] != CANARY_BYTE)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1;
    if (partner >= size)
        partner = rank;
    int is_origin = partner == rank || rank % 2 == 0, is_target = partner == rank || rank % 2 == 1;
    int t = is_origin ? partner : -1, o = is_target ? partner : -1;
    int nprocs = 1, far = mt_proc_of(partner, &nprocs) != mt_proc_of(rank, &nprocs); /* partners' processes */
    if (far)
        printf("[rank %d] partner %d is in another process: the user-buffer protocol does not apply between "
               "processes (docs/AM.md); skipping the checks of user-buffer use and synchronization counts\n",
               rank, partner);
    ctx *me = mt_malloc(sizeof *me);
    me->rank = rank;
    MPIX_Am_op op;
    MT_CHECK_RC(errs, MPIX_Am_op_create(handler, me, &op));
    int *in = mt_malloc(sizeof(int) * BIG * IN), *out = mt_malloc(sizeof(int) * (NBIG + NSMALL) * BIG * OUT);
    unsigned char *buf1 = mt_malloc(BIG * SEG), *buf2 = mt_malloc(BUF2); /* buf1: BUF1 bytes, BIG * SEG in D */
    char claim_key[32];
    snprintf(claim_key, sizeof claim_key, "am_user_buf_%d", t);

    for (int variant = 0; variant < 4; variant++) {
        static const char *const names[4] = {"A (detach after the flush)", "B (am_buf_interleave_am_detach=false)",
                                             "C (shared lock)", "D (am_user_buf_<rank>)"};
        const char *what = names[variant];
        const char *const hints[][2] = {{"am_staged", "true"},
                                        {"am_system_buffer", "16"},
                                        {variant == 1 ? "am_buf_interleave_am_detach" : NULL, "false"},
                                        {variant == 3 && is_origin ? claim_key : NULL, "320"}};
        long *base;
        MPI_Win win = amt_win(2 * sizeof(long), sizeof(long), 4, hints, &base);
        memset(buf1, CANARY_BYTE, BUF1);
        memset(buf2, CANARY_BYTE, BUF2);
        if (is_target) { /* D: one buffer, exactly the origin's claim */
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(buf1, variant == 3 ? BIG * SEG : BUF1, win));
            if (variant != 3)
                MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(buf2, BUF2, win));
        }
        MPI_Barrier(MPI_COMM_WORLD); /* buffers attached */
        VMPIX_Am_stats st1 = {0}, st2 = {0};
        if (is_origin) {
            amt_stats(win, 1);
            if (variant == 3)
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
            else
                MT_CHECK_RC(errs, MPI_Win_lock(variant == 2 ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, win));
            for (int a = 0; a < NBIG; a++) /* need both buffers */
                am(&errs, win, op, rank, t, a, BIG, in, out + a * BIG * OUT);
            MT_CHECK_RC(errs, MPI_Win_flush(t, win));
            st1 = amt_stats(win, 0);
            for (int a = 0; a < NBIG; a++)
                check_out(&errs, what, rank, t, a, BIG, out + a * BIG * OUT);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the flush has completed */
        if (is_target && variant == 0) {
            MT_CHECK(errs, far ? all_canary(buf1, BUF1) : !all_canary(buf1, BUF1),
                     far ? "%s: something was written into user_buf_1 by AMs from another process" :
                     "%s: the AMs before the detach did not use user_buf_1: its canary proves nothing", what);
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(buf1, win));
            memset(buf1, CANARY_BYTE, BUF1); /* nothing may be staged here any more */
            memset(buf2, CANARY_BYTE, BUF2); /* attached: the AMs to come must be staged here */
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the detach has happened */
        if (is_origin && variant != 3) { /* AMs should have access to one user buffer */
            for (int a = NBIG; a < NBIG + NSMALL; a++)
                am(&errs, win, op, rank, t, a, SMALL, in, out + a * BIG * OUT);
            st2 = amt_stats(win, 0);
            MT_CHECK_RC(errs, MPI_Win_unlock(t, win));
        }
        if (variant == 3) { /* D: the small AMs in a fence epoch (the claim is the window's, not the epoch's) */
            if (is_origin)
                MT_CHECK_RC(errs, MPI_Win_unlock(t, win));
            MT_CHECK_RC(errs, MPI_Win_fence(0, win));
            if (is_origin)
                for (int a = NBIG; a < NBIG + NSMALL; a++)
                    am(&errs, win, op, rank, t, a, SMALL, in, out + a * BIG * OUT);
            MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
            if (is_origin)
                st2 = amt_stats(win, 0);
        }
        if (is_origin) {
            for (int a = NBIG; a < NBIG + NSMALL; a++)
                check_out(&errs, what, rank, t, a, SMALL, out + a * BIG * OUT);
            MT_CHECK_INT(errs, "AMs counted", NBIG + NSMALL, st2.ams);
            MT_CHECK(errs, st2.staged_in_bytes == (long long)(NBIG * BIG + NSMALL * SMALL) * IN * 4,
                     "%s: %lld bytes staged in, expected %d", what, st2.staged_in_bytes,
                     (NBIG * BIG + NSMALL * SMALL) * IN * 4);
            switch (far ? -1 : variant) { /* between processes: no synchronizations with user buffers */
            case 0:
                MT_CHECK(errs, st1.syncs == 1, "%s: %lld synchronizations before the flush, expected 1 (one view)",
                         what, st1.syncs);
                MT_CHECK(errs, st2.syncs == st1.syncs + 1,
                         "%s: %lld synchronizations after the flush, expected one more than the %lld before", what,
                         st2.syncs, st1.syncs);
                break;
            case 1:
                MT_CHECK(errs, st1.syncs == 1 && st2.syncs == 1,
                         "%s: %lld synchronizations before the flush and %lld in all, expected 1 and 1", what,
                         st1.syncs, st2.syncs);
                break;
            case 2:
                MT_CHECK(errs, st2.syncs >= NBIG + NSMALL,
                         "%s: %lld synchronizations for %d AMs staged in shared user buffers", what, st2.syncs,
                         NBIG + NSMALL);
                break;
            case 3:
                MT_CHECK(errs, st2.syncs == 1, "%s: %lld synchronizations, expected 1 (the claim)", what, st2.syncs);
                break;
            }
        }
        MPI_Barrier(MPI_COMM_WORLD); /* every epoch is over */
        if (is_target) {
            check_persistent(&errs, what, win, base, rank, o);
            if (variant == 0) {
                MT_CHECK(errs, all_canary(buf1, BUF1), "%s: something was staged in user_buf_1 after its detach",
                         what);
                MT_CHECK(errs, far ? all_canary(buf2, BUF2) : !all_canary(buf2, BUF2),
                         far ? "%s: something was written into user_buf_2 by AMs from another process" :
                         "%s: the AMs after the detach were not staged in user_buf_2, the only buffer left", what);
            }
            if (variant == 1 || variant == 2) /* never detached during the epoch */
                MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(buf1, win));
            if (variant != 3)
                MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(buf2, win));
            /* D: the origin's claim keeps buf1 attached until the window is freed */
        }
        MPI_Win_free(&win);
    }
    MT_CHECK_RC(errs, MPIX_Am_op_free(&op));
    free(in);
    free(out);
    free(buf1);
    free(buf2);
    free(me);
    return mt_finish(errs);
}
