/* SPDX-License-Identifier: BSD-3-Clause */
/* MPIX_Am in every buffer configuration, on the path the job selects (direct, or staged with
 * env=VMPI_AM_STAGED=1):
 *  - input, persistent and output together, from many origins x many active messages (num_segments 0..4,
 *    a rank's own window among the targets) under lock_all, shared locks, exclusive locks, fence and PSCW;
 *    each target's persistent sums are checked exactly, each output element (a function of its input and
 *    of the target's rank, which the handler takes from the target's extra_state) after the epoch.  Twice:
 *    with the default system buffer, and with a system buffer of one segment and two small user buffers
 *    attached at every target (units split over them, origins competing for them);
 *  - input only (output count 0, NULL output), output only (input count 0, NULL input), persistent only
 *    (input and output counts 0);
 *  - derived datatypes: strided origin input and output against contiguous target layouts of the same
 *    signature, a strided persistent buffer (the gaps of all three must stay untouched);
 *  - MPI_PROC_NULL as target and num_segments 0: nothing runs, nothing is written.
 * Any number of ranks: with up to 8, every rank targets every rank; with more, itself and 3 neighbours. */
#include "am_test.h"

typedef struct ctx { /* a handler's extra_state: the registering (target) rank's own */
    int rank;
} ctx;

enum { IC = 3, MAXSEG = 4, NAM = 12, NMODES = 5, CANARY = -77777 };
enum { LOCK_ALL, SHARED, EXCL, FENCE, PSCW };
static const char *const mode_name[NMODES] = {"lock_all", "shared locks", "exclusive locks", "fence", "PSCW"};
/* the window, in longs */
enum { P_MODES = 0, P_IN = 20, P_PERS = 22, P_ZERO = 23, P_OUTONLY = 24, P_DT = 32, P_DT_SPAN = 10, P_TOTAL = 48 };
enum { DT_PN = 4, DT_PS = 3, DT_IE = 3, DT_OE = 2 }; /* derived types: see dt_handler */

/* input, persistent and output: persistent[0] += every input element, persistent[1] += segments;
 * output element j of a segment = 2 * input element j + the target's rank */
static void full_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                         MPI_Datatype ot, int nseg, void *extra)
{
    (void)it, (void)pc, (void)pt, (void)ot;
    const int *x = in;
    long *pl = p;
    int *o = out;
    for (int s = 0; s < nseg; s++)
        for (int j = 0; j < ic; j++)
            pl[0] += x[s * ic + j];
    pl[1] += nseg;
    for (int s = 0; s < nseg; s++)
        for (int j = 0; j < oc; j++)
            o[s * oc + j] = 2 * x[s * ic + j % ic] + ((ctx *)extra)->rank;
}

/* output only: element j of each segment = target rank * 1000 + j + persistent[0] (if any) */
static void out_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                        MPI_Datatype ot, int nseg, void *extra)
{
    (void)in, (void)ic, (void)it, (void)pt, (void)ot;
    long add = pc > 0 ? ((long *)p)[0] : 0;
    for (int s = 0; s < nseg; s++)
        for (int j = 0; j < oc; j++)
            ((int *)out)[s * oc + j] = (int)(((ctx *)extra)->rank * 1000 + j + add);
}

/* persistent only: persistent[0] += segments */
static void pers_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                         MPI_Datatype ot, int nseg, void *extra)
{
    (void)in, (void)ic, (void)it, (void)pc, (void)pt, (void)out, (void)oc, (void)ot, (void)extra;
    ((long *)p)[0] += nseg;
}

/* Derived types.  The target sees each input element as DT_IE contiguous ints, each output element as DT_OE
 * contiguous doubles, the persistent buffer as DT_PN longs DT_PS apart.  Persistent long i += (i + 1) * every
 * input int; output double k of element e of a segment = the segment's first input int + 10 e + k / 2 + the
 * target's rank * 1000. */
static void dt_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                       MPI_Datatype ot, int nseg, void *extra)
{
    (void)it, (void)pc, (void)pt, (void)ot;
    const int *x = in;
    long *pl = p;
    double *o = out;
    for (int s = 0; s < nseg; s++) {
        for (int v = 0; v < ic * DT_IE; v++)
            for (int i = 0; i < DT_PN; i++)
                pl[i * DT_PS] += (long)(i + 1) * x[s * ic * DT_IE + v];
        for (int e = 0; e < oc; e++)
            for (int k = 0; k < DT_OE; k++)
                o[(s * oc + e) * DT_OE + k] = x[s * ic * DT_IE] + 10.0 * e + 0.5 * k + ((ctx *)extra)->rank * 1000.0;
    }
}

static int ntargets(int size) { return size <= 8 ? size : 4; }
static int target_of(int o, int i, int size)
{
    static const int d[4] = {0, 1, 2, -1};
    return size <= 8 ? i : (o + d[i] + size) % size;
}
static int targets(int o, int t, int size)
{
    for (int i = 0; i < ntargets(size); i++)
        if (target_of(o, i, size) == t)
            return 1;
    return 0;
}
static int nseg_of(int o, int t, int a) { return (o + t + a) % (MAXSEG + 1); }
static int value(int o, int t, int a, int s, int j) { return (o * 131 + t * 17 + a * 7 + s * 3 + j) % 1009; }

/* One epoch mode: every origin sends NAM active messages to each of its targets; then each target checks
 * the sums in its slot and each origin its outputs.  Returns the number of AMs with segments issued. */
static long run_mode(int *errs, MPI_Win win, long *base, int slot, int mode, MPIX_Am_op op, int rank, int size,
                     const char *cfg)
{
    int nt = ntargets(size);
    int *in = mt_malloc(sizeof(int) * (size_t)(nt * NAM * MAXSEG * IC));
    int *out = mt_malloc(sizeof(int) * (size_t)(nt * NAM * MAXSEG * IC));
    for (int i = 0; i < nt * NAM * MAXSEG * IC; i++)
        out[i] = CANARY;
    MPI_Group world, posters = MPI_GROUP_NULL, starters = MPI_GROUP_NULL;
    if (mode == PSCW) { /* expose to the ranks that target me, access the ranks I target */
        int *ro = mt_malloc(sizeof(int) * (size_t)size), *rt = mt_malloc(sizeof(int) * (size_t)size), no = 0;
        for (int o = 0; o < size; o++)
            if (targets(o, rank, size))
                ro[no++] = o;
        for (int i = 0; i < nt; i++)
            rt[i] = target_of(rank, i, size);
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, no, ro, &posters);
        MPI_Group_incl(world, nt, rt, &starters);
        MPI_Group_free(&world);
        free(ro);
        free(rt);
        MT_CHECK_RC(*errs, MPI_Win_post(posters, 0, win));
        MT_CHECK_RC(*errs, MPI_Win_start(starters, 0, win));
    } else if (mode == LOCK_ALL)
        MT_CHECK_RC(*errs, MPI_Win_lock_all(0, win));
    else if (mode == FENCE)
        MT_CHECK_RC(*errs, MPI_Win_fence(0, win));
    long issued = 0;
    for (int i = 0; i < nt; i++) {
        int t = target_of(rank, i, size);
        if (mode == SHARED || mode == EXCL)
            MT_CHECK_RC(*errs, MPI_Win_lock(mode == SHARED ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE, t, 0, win));
        for (int a = 0; a < NAM; a++) {
            int ns = nseg_of(rank, t, a), *x = in + (i * NAM + a) * MAXSEG * IC;
            for (int s = 0; s < ns; s++)
                for (int j = 0; j < IC; j++)
                    x[s * IC + j] = value(rank, t, a, s, j);
            MT_CHECK_RC(*errs, MPIX_Am(x, IC, MPI_INT, out + (i * NAM + a) * MAXSEG * IC, IC, MPI_INT, ns, t, MPI_INT,
                                       slot, 2, MPI_LONG, MPI_INT, op, win));
            issued += ns > 0;
        }
        if (mode == SHARED || mode == EXCL)
            MT_CHECK_RC(*errs, MPI_Win_unlock(t, win));
    }
    if (mode == PSCW) {
        MT_CHECK_RC(*errs, MPI_Win_complete(win));
        MT_CHECK_RC(*errs, MPI_Win_wait(win));
        MPI_Group_free(&posters);
        MPI_Group_free(&starters);
    } else if (mode == LOCK_ALL)
        MT_CHECK_RC(*errs, MPI_Win_unlock_all(win));
    else if (mode == FENCE)
        MT_CHECK_RC(*errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < nt; i++) { /* outputs: valid once the epoch completed them */
        int t = target_of(rank, i, size);
        for (int a = 0; a < NAM; a++) {
            const int *o = out + (i * NAM + a) * MAXSEG * IC;
            for (int s = 0; s < MAXSEG; s++)
                for (int j = 0; j < IC; j++) {
                    int want = s < nseg_of(rank, t, a) ? 2 * value(rank, t, a, s, j) + t : CANARY;
                    if (o[s * IC + j] != want)
                        MT_ERR(*errs, "%s, %s: output of AM %d to %d, segment %d element %d: expected %d, got %d",
                               cfg, mode_name[mode], a, t, s, j, want, o[s * IC + j]);
                }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD); /* every origin's epoch is over */
    long sum = 0, segs = 0;
    for (int o = 0; o < size; o++)
        if (targets(o, rank, size))
            for (int a = 0; a < NAM; a++)
                for (int s = 0; s < nseg_of(o, rank, a); s++, segs++)
                    for (int j = 0; j < IC; j++)
                        sum += value(o, rank, a, s, j);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    long got_sum = base[slot], got_segs = base[slot + 1];
    MPI_Win_unlock(rank, win);
    if (got_sum != sum || got_segs != segs)
        MT_ERR(*errs, "%s, %s: persistent sums at %d: expected %ld over %ld segments, got %ld over %ld", cfg,
               mode_name[mode], rank, sum, segs, got_sum, got_segs);
    free(in);
    free(out);
    return issued;
}

/* The single active messages: each origin to its right neighbour (so each target gets one of each). */
static void run_single(int *errs, MPI_Win win, long *base, const MPIX_Am_op *ops, int rank, int size)
{
    enum { OC = 5, NS = 3 };
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[NS * IC], *out = mt_malloc(sizeof(int) * NS * OC), *out2 = mt_malloc(sizeof(int) * NS * OC);
    for (int i = 0; i < NS * OC; i++)
        out[i] = out2[i] = CANARY;
    for (int i = 0; i < NS * IC; i++)
        in[i] = rank * 10 + i;
    MPI_Win_lock_all(0, win);
    VMPIX_Am_stats before = amt_stats(win, 0);
    /* input only: the handler adds it into the persistent buffer */
    MT_CHECK_RC(*errs, MPIX_Am(in, IC, MPI_INT, NULL, 0, MPI_INT, NS, right, MPI_INT, P_IN, 2, MPI_LONG, MPI_INT,
                               ops[0], win));
    /* output only, from the target's extra_state and persistent buffer */
    MT_CHECK_RC(*errs, MPIX_Am(NULL, 0, MPI_INT, out, OC, MPI_INT, NS, right, MPI_INT, P_OUTONLY, 1, MPI_LONG,
                               MPI_INT, ops[1], win));
    /* persistent only */
    MT_CHECK_RC(*errs, MPIX_Am(NULL, 0, MPI_INT, NULL, 0, MPI_INT, NS, right, MPI_INT, P_PERS, 1, MPI_LONG,
                               MPI_INT, ops[2], win));
    MT_CHECK_RC(*errs, MPIX_Am(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 2 * NS, right, MPI_INT, P_PERS, 1, MPI_LONG,
                               MPI_INT, ops[2], win));
    VMPIX_Am_stats mid = amt_stats(win, 0);
    /* nothing runs: MPI_PROC_NULL, and num_segments 0 (output canaries and P_ZERO must stay) */
    MT_CHECK_RC(*errs, MPIX_Am(in, IC, MPI_INT, out2, OC, MPI_INT, NS, MPI_PROC_NULL, MPI_INT, P_ZERO, 2, MPI_LONG,
                               MPI_INT, ops[3], win));
    MT_CHECK_RC(*errs, MPIX_Am(in, IC, MPI_INT, out2, OC, MPI_INT, 0, right, MPI_INT, P_ZERO, 1, MPI_LONG, MPI_INT,
                               ops[2], win));
    MT_CHECK_RC(*errs, MPI_Win_unlock_all(win));
    VMPIX_Am_stats after = amt_stats(win, 0);
    MT_CHECK_INT(*errs, "handler invocations for MPI_PROC_NULL and num_segments 0", mid.invocations,
                 after.invocations);
    MT_CHECK(*errs, mid.invocations - before.invocations >= 4, "4 AMs with segments ran %lld invocations",
             mid.invocations - before.invocations);
    for (int i = 0; i < NS * OC; i++) {
        MT_CHECK_INT(*errs, "output-only element", right * 1000 + i % OC + right * 7, out[i]);
        MT_CHECK_INT(*errs, "output of MPI_PROC_NULL / num_segments 0", CANARY, out2[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    long sum = 0;
    for (int i = 0; i < NS * IC; i++)
        sum += left * 10 + i;
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    MT_CHECK_INT(*errs, "input-only sum", sum, base[P_IN]);
    MT_CHECK_INT(*errs, "input-only segments", NS, base[P_IN + 1]);
    MT_CHECK_INT(*errs, "persistent-only segments", 3 * NS, base[P_PERS]);
    MT_CHECK_INT(*errs, "persistent buffer of num_segments 0", 0, base[P_ZERO]);
    MPI_Win_unlock(rank, win);
    free(out);
    free(out2);
}

/* Derived datatypes on all three buffers, under an exclusive lock of the right neighbour. */
static void run_derived(int *errs, MPI_Win win, long *base, MPIX_Am_op op, int rank, int size)
{
    enum { NS = 3, ICD = 2, OCD = 2, ISTRIDE = 2, OSTRIDE = 3 };
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Datatype ivec, icon, ovec, ocon, pvec;
    MPI_Type_vector(DT_IE, 1, ISTRIDE, MPI_INT, &ivec); /* origin input element: DT_IE ints, one in two */
    MPI_Type_contiguous(DT_IE, MPI_INT, &icon);
    MPI_Type_vector(DT_OE, 1, OSTRIDE, MPI_DOUBLE, &ovec); /* origin output element: DT_OE doubles, one in 3 */
    MPI_Type_contiguous(DT_OE, MPI_DOUBLE, &ocon);
    MPI_Type_vector(DT_PN, 1, DT_PS, MPI_LONG, &pvec);
    MPI_Datatype all[5] = {ivec, icon, ovec, ocon, pvec};
    for (int i = 0; i < 5; i++)
        MPI_Type_commit(&all[i]);
    ivec = all[0], icon = all[1], ovec = all[2], ocon = all[3], pvec = all[4];
    MPI_Aint lb, iext, oext;
    MPI_Type_get_extent(ivec, &lb, &iext);
    MPI_Type_get_extent(ovec, &lb, &oext);
    int iints = (int)(iext / (MPI_Aint)sizeof(int)), odbls = (int)(oext / (MPI_Aint)sizeof(double));
    int *in = mt_malloc((size_t)(NS * ICD) * (size_t)iext);
    double *out = mt_malloc((size_t)(NS * OCD) * (size_t)oext);
    for (int i = 0; i < NS * ICD * iints; i++)
        in[i] = rank * 100 + i; /* the gaps too: the handler must not see them */
    for (int i = 0; i < NS * OCD * odbls; i++)
        out[i] = CANARY;
    MT_CHECK_RC(*errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_RC(*errs, MPIX_Am(in, ICD, ivec, out, OCD, ovec, NS, right, icon, P_DT, 1, pvec, ocon, op, win));
    MT_CHECK_RC(*errs, MPI_Win_unlock(right, win));
    for (int s = 0; s < NS; s++)
        for (int e = 0; e < OCD; e++)
            for (int d = 0; d < odbls; d++) {
                double want = d % OSTRIDE == 0 && d / OSTRIDE < DT_OE
                                  ? rank * 100 + s * ICD * iints + 10.0 * e + 0.5 * (d / OSTRIDE) + right * 1000.0
                                  : CANARY;
                double got = out[(s * OCD + e) * odbls + d];
                if (got != want)
                    MT_ERR(*errs, "derived output, segment %d element %d double %d: expected %g, got %g", s, e, d, want,
                           got);
            }
    MPI_Barrier(MPI_COMM_WORLD);
    long sum = 0; /* of the left neighbour's input ints (the ones its ivec selects) */
    for (int i = 0; i < NS * ICD * iints; i++)
        if (i % iints % ISTRIDE == 0 && i % iints / ISTRIDE < DT_IE)
            sum += left * 100 + i;
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
    for (int i = 0; i < P_DT_SPAN; i++) {
        long want = i % DT_PS == 0 ? (long)(i / DT_PS + 1) * sum : CANARY;
        if (base[P_DT + i] != want)
            MT_ERR(*errs, "strided persistent buffer, long %d: expected %ld, got %ld", i, want, base[P_DT + i]);
    }
    MPI_Win_unlock(rank, win);
    for (int i = 0; i < 5; i++)
        MPI_Type_free(&all[i]);
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, staged = amt_env_staged();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ctx *me = mt_malloc(sizeof *me);
    me->rank = rank;
    MPIX_Am_op ops[5];
    MT_CHECK_RC(errs, MPIX_Am_op_create(full_handler, me, &ops[0]));
    MT_CHECK_RC(errs, MPIX_Am_op_create(out_handler, me, &ops[1]));
    MT_CHECK_RC(errs, MPIX_Am_op_create(pers_handler, me, &ops[2]));
    MT_CHECK_RC(errs, MPIX_Am_op_create(full_handler, me, &ops[3]));
    MT_CHECK_RC(errs, MPIX_Am_op_create(dt_handler, me, &ops[4]));

    /* cfg 0: the default system buffer; cfg 1: one segment of system buffer (IC ints in and out) and two
     * user buffers of 2 and 3 segments at every target */
    const char *const small[][2] = {{"am_system_buffer", "24"}};
    for (int cfg = 0; cfg < 2; cfg++) {
        const char *cname = cfg ? "small system buffer + user buffers" : "default system buffer";
        long *base;
        MPI_Win win = amt_win(P_TOTAL * sizeof(long), sizeof(long), cfg, small, &base);
        char *ub = mt_malloc(5 * 2 * IC * sizeof(int));
        if (cfg) {
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub, 2 * 2 * IC * sizeof(int), win));
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub + 2 * 2 * IC * sizeof(int), 3 * 2 * IC * sizeof(int), win));
        }
        base[P_OUTONLY] = rank * 7;
        for (int i = 0; i < P_DT_SPAN; i++)
            base[P_DT + i] = i % DT_PS ? CANARY : 0; /* the strided longs start at 0, the gaps hold canaries */
        MPI_Barrier(MPI_COMM_WORLD); /* buffers attached, window set */
        amt_stats(win, 1);
        long issued = 0;
        for (int mode = 0; mode < NMODES; mode++)
            issued += run_mode(&errs, win, base, P_MODES + 2 * (cfg * NMODES + mode), mode, ops[0], rank, size, cname);
        VMPIX_Am_stats st = amt_stats(win, 1);
        AMT_CHECK_PATH(errs, st, staged, cname);
        MT_CHECK_INT(errs, "AMs counted", NMODES * NAM * ntargets(size), st.ams);
        if (staged)
            MT_CHECK(errs, st.invocations >= issued, "%s: %ld AMs with segments, %lld invocations", cname, issued,
                     st.invocations);
        else
            MT_CHECK_INT(errs, "invocations on the direct path (one per AM with segments)", issued, st.invocations);
        run_single(&errs, win, base, ops, rank, size);
        run_derived(&errs, win, base, ops[4], rank, size);
        MPI_Barrier(MPI_COMM_WORLD); /* no active message uses the user buffers any more */
        if (cfg) {
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub, win));
            MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub + 2 * 2 * IC * sizeof(int), win));
        }
        MPI_Win_free(&win);
        free(ub);
    }
    for (int i = 0; i < 5; i++)
        MT_CHECK_RC(errs, MPIX_Am_op_free(&ops[i]));
    MT_CHECK_INT(errs, "freed handle", MPIX_AM_OP_NULL, ops[0]);
    free(me);
    return mt_finish(errs);
}
