/* SPDX-License-Identifier: BSD-3-Clause */
/* MPIX_Amv: a handler that generates an irregular number of output elements per segment (0 .. MAXOUT, a
 * deterministic function of the segment's input) and reports it in output_segment_counts.  Checked at the
 * origin: every count, every generated element at its segment's fixed offset (segment i's output starts at
 * i x MAXOUT elements), the origin's ints between strided output elements and past the last segment
 * untouched, and the elements past a segment's count untouched where mpix_am.h defines them: on the direct
 * path, and on the staged one when the output is packed (threshold 1.0) - when it is not, the whole segment
 * is sent back, what the handler did not generate included (the header: "only generated elements are sent
 * back when they are few enough"), so those elements are the staging buffer's garbage.  With a
 * contiguous output and with a strided origin output (every other int) against a contiguous target one.
 * The same active messages on windows with am_pack_threshold 0.0 (never pack), 0.5 and 1.0 (pack whenever
 * something is missing): identical results; on the staged path the bytes sent back follow the threshold
 * (all of it at 0.0, only the generated elements at 1.0; the counts always).  Then out-of-order units:
 * am_reverse_units=true with am_max_unit_segments=3, a small system buffer and a user buffer (the staged
 * path runs an AM of 10 segments in at least 4 units, last first: the handler logs what it sees in the
 * persistent buffer, every segment exactly once).  Every rank targets itself and its neighbours under
 * lock_all; any number of ranks. */
#include "am_test.h"

enum { MAXOUT = 6, MAXSEG = 20, NAM = 8, CANARY = -55555 };
enum { SLOT = 64, LOG_FIRST = 1, LOG_COVER = 32 }; /* per origin at each target: invocations, first segments, coverage */

typedef struct ctx {
    int rank;
} ctx;

/* input per segment: {segment number, salt}; output: count(g, salt) elements rank * 100000 + g * 100 + j */
static int count_of(int g, int salt) { return (g * 7 + salt) % (MAXOUT + 1); }

static void gen_handler(const void *in, int ic, MPI_Datatype it, void *p, int pc, MPI_Datatype pt, void *out, int oc,
                        MPI_Datatype ot, int nseg, int *counts, void *extra)
{
    (void)it, (void)pt, (void)ot;
    const int *x = in;
    int *o = out;
    for (int s = 0; s < nseg; s++) {
        int g = x[s * ic], c = count_of(g, x[s * ic + 1]);
        for (int j = 0; j < c; j++)
            o[s * oc + j] = ((ctx *)extra)->rank * 100000 + g * 100 + j;
        counts[s] = c;
    }
    if (pc >= SLOT && nseg > 0) { /* the log: which unit ran when, which segments it had */
        long *pl = p;
        if (pl[0] < LOG_COVER - LOG_FIRST)
            pl[LOG_FIRST + pl[0]] = x[0];
        pl[0]++;
        for (int s = 0; s < nseg; s++)
            if (x[s * ic] < SLOT - LOG_COVER)
                pl[LOG_COVER + x[s * ic]]++;
    }
}

static int ntargets(int size) { return size < 3 ? size : 3; }
static int target_of(int o, int i, int size) { return (o + size + (i == 2 ? -1 : i)) % size; }
static int nseg_of(int o, int a) { return 1 + (a * 5 + o) % MAXSEG; }

/* One window's active messages; `stride` 2: the origin's output elements are every other int.  Returns the
 * bytes the staged path should send back with threshold 0.0 (all) in *all and 1.0 (generated only) in *gen. */
static void run(int *errs, MPI_Win win, MPIX_Am_op op, int stride, int past_count_kept, int rank, int size,
                const char *what, long long *all, long long *gen)
{
    int nt = ntargets(size);
    size_t per_am = (size_t)MAXSEG * MAXOUT * (size_t)stride;
    int *in = mt_malloc(sizeof(int) * (size_t)(nt * NAM * MAXSEG * 2));
    int *out = mt_malloc(sizeof(int) * per_am * (size_t)(nt * NAM));
    int *counts = mt_malloc(sizeof(int) * (size_t)(nt * NAM * MAXSEG));
    for (size_t i = 0; i < per_am * (size_t)(nt * NAM); i++)
        out[i] = CANARY;
    MPI_Datatype every_other;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &every_other);
    MPI_Type_commit(&every_other);
    *all = *gen = 0;
    MT_CHECK_RC(*errs, MPI_Win_lock_all(0, win));
    for (int i = 0; i < nt; i++)
        for (int a = 0; a < NAM; a++) {
            int t = target_of(rank, i, size), k = i * NAM + a, ns = nseg_of(rank, a);
            for (int s = 0; s < ns; s++) {
                in[(k * MAXSEG + s) * 2] = s;
                in[(k * MAXSEG + s) * 2 + 1] = rank * 3 + a + t;
                counts[k * MAXSEG + s] = -1;
                *gen += count_of(s, rank * 3 + a + t) * (long long)sizeof(int);
            }
            *all += ns * (long long)(MAXOUT * sizeof(int));
            *all += ns * (long long)sizeof(int), *gen += ns * (long long)sizeof(int); /* the counts */
            MT_CHECK_RC(*errs, MPIX_Amv(in + k * MAXSEG * 2, 2, MPI_INT, out + (size_t)k * per_am, MAXOUT,
                                        stride == 1 ? MPI_INT : every_other, ns, t, MPI_INT, 0, 0, MPI_LONG, MPI_INT,
                                        counts + k * MAXSEG, op, win));
        }
    MT_CHECK_RC(*errs, MPI_Win_unlock_all(win));
    for (int i = 0; i < nt; i++)
        for (int a = 0; a < NAM; a++) {
            int t = target_of(rank, i, size), k = i * NAM + a, ns = nseg_of(rank, a);
            for (int s = 0; s < ns; s++) {
                int c = count_of(s, rank * 3 + a + t);
                if (counts[k * MAXSEG + s] != c)
                    MT_ERR(*errs, "%s: AM %d to %d, count of segment %d: expected %d, got %d", what, a, t, s, c,
                           counts[k * MAXSEG + s]);
                for (int j = 0; j < MAXOUT * stride; j++) {
                    int want = j % stride == 0 && j / stride < c ? t * 100000 + s * 100 + j / stride : CANARY;
                    int got = out[(size_t)k * per_am + (size_t)(s * MAXOUT * stride + j)];
                    if (got != want && (past_count_kept || j % stride != 0 || j / stride < c))
                        MT_ERR(*errs, "%s: AM %d to %d (%d segments), segment %d, int %d of its output: expected %d, "
                               "got %d", what, a, t, ns, s, j, want, got);
                }
            }
            for (size_t j = (size_t)ns * MAXOUT * (size_t)stride; j < per_am; j++) /* past the last segment */
                if (out[(size_t)k * per_am + j] != CANARY)
                    MT_ERR(*errs, "%s: AM %d to %d wrote int %zu past its %d segments", what, a, t, j, ns);
        }
    MPI_Type_free(&every_other);
    free(in);
    free(out);
    free(counts);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, staged = amt_env_staged();
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ctx *me = mt_malloc(sizeof *me);
    me->rank = rank;
    MPIX_Am_op op;
    MT_CHECK_RC(errs, MPIX_Amv_op_create(gen_handler, me, &op));

    const char *const thr[3] = {"0.0", "0.5", "1.0"};
    for (int w = 0; w < 3; w++) {
        const char *const hints[][2] = {{"am_pack_threshold", thr[w]}};
        long *base;
        MPI_Win win = amt_win(sizeof(long), sizeof(long), 1, hints, &base);
        for (int stride = 1; stride <= 2; stride++) {
            char what[96];
            snprintf(what, sizeof what, "am_pack_threshold %s, %s output", thr[w], stride == 1 ? "contiguous" : "strided");
            long long all, gen;
            amt_stats(win, 1);
            run(&errs, win, op, stride, !staged || w == 2, rank, size, what, &all, &gen);
            VMPIX_Am_stats st = amt_stats(win, 1);
            AMT_CHECK_PATH(errs, st, staged, what);
            if (staged && w == 0)
                MT_CHECK(errs, st.returned_bytes == all, "%s: %lld bytes returned, expected all %lld", what,
                         st.returned_bytes, all);
            if (staged && w == 2)
                MT_CHECK(errs, st.returned_bytes == gen, "%s: %lld bytes returned, expected the %lld generated",
                         what, st.returned_bytes, gen);
            if (staged && w == 1)
                MT_CHECK(errs, st.returned_bytes >= gen && st.returned_bytes <= all,
                         "%s: %lld bytes returned, expected between %lld and %lld", what, st.returned_bytes, gen, all);
        }
        MPI_Win_free(&win);
    }

    /* out of order: units of at most 3 segments, run last first */
    {
        const char *const hints[][2] = {{"am_reverse_units", "true"},
                                        {"am_max_unit_segments", "3"},
                                        {"am_system_buffer", "100"}};
        long *base;
        MPI_Win win = amt_win(sizeof(long) * SLOT * (size_t)size, sizeof(long), 3, hints, &base);
        char *ub = mt_malloc(256);
        MT_CHECK_RC(errs, MPIX_Am_win_buffer_attach(ub, 256, win));
        MPI_Barrier(MPI_COMM_WORLD);
        for (int stride = 1; stride <= 2; stride++) {
            long long all, gen;
            amt_stats(win, 1);
            run(&errs, win, op, stride, !staged, rank, size, stride == 1 ? "reversed units" : "reversed units, strided",
                &all, &gen);
        }
        /* one AM of 10 segments to the right neighbour, logged in its persistent buffer (my slot there) */
        enum { NS = 10 };
        int right = (rank + 1) % size, left = (rank + size - 1) % size;
        int in[2 * NS], *out = mt_malloc(sizeof(int) * NS * MAXOUT), counts[NS];
        for (int s = 0; s < NS; s++)
            in[2 * s] = s, in[2 * s + 1] = rank;
        MPI_Barrier(MPI_COMM_WORLD); /* the others' AMs, which share right's user buffer, are over: this AM's
                                      * first plan is not cut short by a lack of space, it has several units */
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
        MT_CHECK_RC(errs, MPIX_Amv(in, 2, MPI_INT, out, MAXOUT, MPI_INT, NS, right, MPI_INT, (MPI_Aint)rank * SLOT, SLOT,
                                   MPI_LONG, MPI_INT, counts, op, win));
        MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
        for (int s = 0; s < NS; s++)
            MT_CHECK_INT(errs, "count of a segment of the logged AM", count_of(s, rank), counts[s]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        const long *log = base + (size_t)left * SLOT;
        for (int s = 0; s < NS; s++)
            MT_CHECK_INT(errs, "times the handler saw a segment", 1, log[LOG_COVER + s]);
        if (staged) {
            MT_CHECK(errs, log[0] >= 4, "staged, at most 3 segments per unit: %ld invocations for %d segments", log[0],
                     NS);
            MT_CHECK(errs, log[LOG_FIRST] > 0, "reversed units: the first unit run starts at segment %ld",
                     log[LOG_FIRST]);
        } else
            MT_CHECK_INT(errs, "invocations of the logged AM on the direct path", 1, log[0]);
        MPI_Win_unlock(rank, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CHECK_RC(errs, MPIX_Am_win_buffer_detach(ub, win));
        MPI_Win_free(&win);
        free(ub);
        free(out);
    }
    MT_CHECK_RC(errs, MPIX_Am_op_free(&op));
    free(me);
    return mt_finish(errs);
}
