/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the PE-to-PE channels (sched/chan.h) under the real scheduler, with small rings (4 and 8 KiB)
 * so that they wrap and fill all the time.  One VP per PE sends records with vmpi_chan_reserve /
 * vmpi_chan_commit; the records of each ordered pair of PEs follow a plan fixed in advance (length, kind,
 * content, and the ring cell each will take), and the receiving handler checks every record against it:
 *   - every length from 0 to vmpi_chan_max_record() in random order (twice with 2 PEs), every byte derived
 *     from (src PE, dst PE, seq); per pair the records must come in order, none lost, none duplicated (the
 *     handler id of a record also encodes seq % 4, so that even empty records are checked);
 *   - bursts of ~12 rings' worth to every other PE without yielding (the sender-side queue), then more
 *     records, with yields in between, that must queue behind the burst, not overtake it;
 *   - every PE sends to every other at once: runs with 2 PEs (4 KiB rings), 4 PEs (4 KiB; more PEs than
 *     cores is fine) and 3 PEs (8 KiB);
 *   - stale cells: the first 16 bytes of every continuation cell of every record form a well-formed header
 *     carrying the sequence number the channel will look for in that cell on the next lap (its handler reports
 *     the error), and the first payload word of every third record is its own cell's next-lap number;
 *   - cells reused under a running handler: every 8th handler checks its record again after a pause;
 *   - ping-pong where the receiving PE has gone to sleep (idle-spin-us is 50): the commit must wake it; half
 *     the replies are sent by the handler itself.
 * A watchdog thread ends the test with a report when nothing is received for 5 s (a lost record or wake-up),
 * or shortly after the first error.  TEST_CHAN_SEED=n changes the random plans. */
#include "base/clock.h"
#include "base/tunables.h"
#include "xport/chan.h"
#include "xport/xport.h"
#include "sched/sched.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXPE 4
/* The channel's layout (chan.c), used only to place the stale-cell bait; checked against max_record. */
#define CELL 64
#define HDR 16

#define BURST 100     /* records per destination sent without yielding (~12 rings) */
#define AFTER 100     /* records per destination after the bursts */
#define SLEEP_REPS 3  /* ping-pongs per ordered pair with a sleeping receiver */
#define STALL_S 5.0   /* watchdog: no record received for this long */

enum { K_DATA, K_BARRIER, K_PING_VP, K_PING_H, K_PONG };
static const char *const kind_name[] = {"data", "barrier", "ping (VP replies)", "ping (handler replies)", "pong"};
enum { PH_LEN, PH_BURST, PH_SLEEP, NPHASE };
static const char *const phase_name[] = {"lengths", "bursts", "sleeping receivers", "done"};

typedef struct {
    uint32_t len;
    uint8_t kind;
    uint8_t bait_first; /* first payload word = the next-lap sequence number of the record's first cell */
    uint64_t pos;       /* ring cell of the record's header, as chan.c places it */
} rec_plan;

typedef struct {
    rec_plan *r;
    uint32_t n, cap;
    uint32_t ph_end[NPHASE]; /* index after the barrier that ends each phase */
} pair_plan;

typedef struct {
    int a, b, kind; /* a sends a ping of `kind` to b, b answers with a pong */
} round_t;

typedef struct pe_state {
    vmpi_vp vp;
    uint8_t *scratch;            /* expected bytes of the record being checked */
    _Atomic unsigned long received;
    _Atomic int phase;
    const char *_Atomic waiting; /* what the VP waits for, for the watchdog */
    uint64_t rng;
    uint32_t expect[MAXPE];      /* sleep phase: records awaited from each PE so far */
    unsigned long bursts, bursts_queued, sends_queued, slept, not_slept, rechecks;
} __attribute__((aligned(64))) pe_state;

static struct {
    int run, npes, len_repeat; /* len_repeat: permutations of every length, per pair */
    size_t ring_bytes, maxrec;
    uint64_t ncells;
    uint32_t salt;
    uint32_t hid[4], h_stale;
    pair_plan plan[MAXPE][MAXPE];             /* [src][dst] */
    _Atomic uint32_t rnext[MAXPE][MAXPE];     /* [src][dst]: next seq expected, written by dst */
    uint32_t snext[MAXPE][MAXPE];             /* [src][dst]: next seq to send, written by src */
    round_t *rounds;
    int nrounds;
} T;

static pe_state P[MAXPE];
static _Atomic int run_active, test_over;
static _Atomic int errs;
static _Atomic double first_err_at;

static void report(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(int line, const char *fmt, ...)
{
    int n = atomic_fetch_add(&errs, 1);
    if (n == 0)
        atomic_store(&first_err_at, vmpi_clock_now());
    if (n >= 30)
        return;
    va_list ap;
    va_start(ap, fmt);
    flockfile(stderr);
    fprintf(stderr, "test_chan.c:%d: run %d (%d PEs, %zu-byte rings): ", line, T.run, T.npes, T.ring_bytes);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    funlockfile(stderr);
    va_end(ap);
}
#define ERR(...) report(__LINE__, __VA_ARGS__)

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "test_chan: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    _exit(2);
}

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static uint32_t get32(const uint8_t *p, size_t len)
{
    uint32_t v = 0;
    memcpy(&v, p, len < 4 ? len : 4);
    return v;
}

/* ---- records ---- */

/* The bytes of record `seq` from `s` to `d`: a pattern of (s, d, seq), with word 0 = seq (or, for bait_first
 * records, the number its first cell will be checked for on the next lap), word 1 = s, d and seq's low bits,
 * and at the start of every continuation cell a 16-byte header { next-lap seq of that cell, the stale
 * handler, 1 cell, 0 bytes }: if the channel takes that cell for a record on the next lap, the stale handler
 * says so. */
static void gen(uint8_t *out, int s, int d, uint32_t seq, const rec_plan *r)
{
    size_t len = r->len;
    uint32_t k = mix(seq * 0x9e3779b9u ^ (uint32_t)(s * 64 + d) * 0x85ebca6bu ^ T.salt);
    for (size_t o = 0; o < len; o++)
        out[o] = (uint8_t)((k >> (8 * (o & 3))) + 7 * o + 3 * (o >> 8));
    uint8_t w[8];
    put32(w, r->bait_first ? (uint32_t)(r->pos + T.ncells + 1) : seq);
    put32(w + 4, (uint32_t)s << 24 | (uint32_t)d << 16 | (seq & 0xffffu));
    memcpy(out, w, len < 8 ? len : 8);
    for (size_t j = 0, o = CELL - HDR; o < len; j++, o += CELL) {
        uint8_t b[16];
        put32(b, (uint32_t)(r->pos + 1 + j + T.ncells + 1));
        put16(b + 4, (uint16_t)T.h_stale);
        put16(b + 6, 1);
        put32(b + 8, 0);
        put32(b + 12, 0);
        memcpy(out + o, b, len - o < 16 ? len - o : 16);
    }
}

static long first_diff(const uint8_t *got, const uint8_t *want, size_t len)
{
    for (size_t o = 0; o < len; o++)
        if (got[o] != want[o])
            return (long)o;
    return -1;
}

/* Sends the next planned record from PE `me` to `d`, which must be of kind `kind`. */
static void send_next(int me, int d, int kind)
{
    pair_plan *pp = &T.plan[me][d];
    uint32_t seq = T.snext[me][d];
    if (seq >= pp->n || pp->r[seq].kind != kind) {
        if (atomic_load(&errs))
            die("stopping: after the errors above, PE %d is out of step with its plan", me);
        die("internal error: PE %d's record %u to PE %d is not a planned %s", me, seq, d, kind_name[kind]);
    }
    const rec_plan *r = &pp->r[seq];
    uint8_t *p = vmpi_chan_reserve(d, r->len);
    if (p == NULL)
        die("vmpi_chan_reserve(%d, %u) on PE %d returned NULL", d, r->len, me);
    if ((uintptr_t)p % 8)
        ERR("vmpi_chan_reserve(%d, %u) on PE %d returned %p, not 8-byte aligned", d, r->len, me, (void *)p);
    gen(p, me, d, seq, r);
    vmpi_chan_commit(d, T.hid[seq % 4]);
    T.snext[me][d] = seq + 1;
}

static void describe(char *buf, size_t n, const uint8_t *p, size_t len)
{
    if (len >= 8)
        snprintf(buf, n, "its word 0 is %u, word 1 0x%08x (src %u, dst %u, seq %% 65536 = %u)", get32(p, 4),
                 get32(p + 4, 4), get32(p + 4, 4) >> 24, (get32(p + 4, 4) >> 16) & 0xff, get32(p + 4, 4) & 0xffff);
    else
        snprintf(buf, n, "too short to say which it is");
}

static void on_rec(int k, vmpi_pe *pe, int src, void *rec, size_t len)
{
    if (pe == NULL || pe != vmpi_pe_self() || pe->id < 0 || pe->id >= T.npes || src < 0 || src >= T.npes ||
        src == pe->id) {
        ERR("handler called with pe %p (id %d), vmpi_pe_self() %p, src_pe %d", (void *)pe, pe ? pe->id : -1,
            (void *)vmpi_pe_self(), src);
        return;
    }
    int me = pe->id;
    pe_state *ps = &P[me];
    atomic_store_explicit(&ps->received, atomic_load_explicit(&ps->received, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    pair_plan *pp = &T.plan[src][me];
    uint32_t seq = atomic_load_explicit(&T.rnext[src][me], memory_order_relaxed);
    char what[160];
    if (seq >= pp->n) {
        describe(what, sizeof what, rec, len);
        ERR("PE %d got a record of %zu bytes from PE %d after all %u planned ones (duplicate or phantom; %s)", me,
            len, src, pp->n, what);
        return;
    }
    atomic_store_explicit(&T.rnext[src][me], seq + 1, memory_order_relaxed);
    const rec_plan *r = &pp->r[seq];
    if ((uintptr_t)rec % 8)
        ERR("record %u from PE %d to PE %d handed to its handler at %p, not 8-byte aligned", seq, src, me, rec);
    if (k != (int)(seq % 4) || len != r->len) {
        describe(what, sizeof what, rec, len);
        ERR("record %u from PE %d to PE %d (%s): %zu bytes through handler %d, sent as %u bytes through handler %u "
            "(a record lost, duplicated or overtaken; %s)",
            seq, src, me, kind_name[r->kind], len, k, r->len, seq % 4, what);
    } else {
        gen(ps->scratch, src, me, seq, r);
        long bad = first_diff(rec, ps->scratch, len);
        if (bad >= 0) {
            describe(what, sizeof what, rec, len);
            ERR("record %u (%zu bytes, %s) from PE %d to PE %d: byte %ld is 0x%02x, expected 0x%02x (%s)", seq, len,
                kind_name[r->kind], src, me, bad, ((uint8_t *)rec)[bad], ps->scratch[bad], what);
        } else if (seq % 8 == 5 && len > 0) {
            /* the record must stay in place until its handler returns */
            ps->rechecks++;
            for (int i = 0; i < 400; i++)
                __builtin_ia32_pause();
            bad = first_diff(rec, ps->scratch, len);
            if (bad >= 0)
                ERR("record %u (%zu bytes) from PE %d to PE %d changed while its handler ran: byte %ld is now 0x%02x "
                    "(its cells were reused before the handler returned)",
                    seq, len, src, me, bad, ((uint8_t *)rec)[bad]);
        }
    }
    switch (r->kind) {
    case K_PING_H:
        send_next(me, src, K_PONG); /* from the handler, as the messaging layer does */
        vmpi_vp_wake(&ps->vp);
        break;
    case K_BARRIER:
    case K_PING_VP:
    case K_PONG:
        vmpi_vp_wake(&ps->vp);
        break;
    }
}

static void h0(vmpi_pe *pe, int src, void *rec, size_t len) { on_rec(0, pe, src, rec, len); }
static void h1(vmpi_pe *pe, int src, void *rec, size_t len) { on_rec(1, pe, src, rec, len); }
static void h2(vmpi_pe *pe, int src, void *rec, size_t len) { on_rec(2, pe, src, rec, len); }
static void h3(vmpi_pe *pe, int src, void *rec, size_t len) { on_rec(3, pe, src, rec, len); }

static void on_stale(vmpi_pe *pe, int src, void *rec, size_t len)
{
    int me = pe ? pe->id : -1;
    uint32_t seq = me >= 0 && src >= 0 && src < T.npes ? atomic_load(&T.rnext[src][me]) : 0;
    ERR("PE %d ran a %zu-byte record from PE %d that was never sent: a stale continuation cell of an earlier lap "
        "(test bait) was taken for a record header, at about record %u of the pair",
        me, len, src, seq);
}

/* ---- plans ---- */

static void plan_add(int s, int d, uint32_t len, int kind, uint64_t *rng)
{
    pair_plan *pp = &T.plan[s][d];
    if (pp->n == pp->cap) {
        pp->cap = pp->cap ? 2 * pp->cap : 1024;
        pp->r = realloc(pp->r, sizeof(rec_plan) * pp->cap);
        if (pp->r == NULL)
            die("out of memory");
    }
    if (len == UINT32_MAX)
        len = (uint32_t)(rnd(rng) % (T.maxrec + 1));
    pp->r[pp->n] = (rec_plan){.len = len, .kind = (uint8_t)kind, .bait_first = pp->n % 3 == 1};
    pp->n++;
}

static void plan_build(uint64_t seed)
{
    uint64_t rng = seed * 0x9e3779b97f4a7c15ull + (uint64_t)T.run + 1;
    int np = T.npes;
    uint32_t nl = (uint32_t)T.maxrec + 1, *perm = malloc(sizeof(uint32_t) * nl);
    if (perm == NULL)
        die("out of memory");
    for (int s = 0; s < np; s++)
        for (int d = 0; d < np; d++) {
            if (s == d)
                continue;
            for (int rep = 0; rep < T.len_repeat; rep++) {
                for (uint32_t i = 0; i < nl; i++)
                    perm[i] = i;
                for (uint32_t i = nl - 1; i > 0; i--) {
                    uint32_t j = (uint32_t)(rnd(&rng) % (i + 1)), t = perm[i];
                    perm[i] = perm[j];
                    perm[j] = t;
                }
                for (uint32_t i = 0; i < nl; i++)
                    plan_add(s, d, perm[i], K_DATA, &rng);
            }
            plan_add(s, d, UINT32_MAX, K_BARRIER, &rng);
            T.plan[s][d].ph_end[PH_LEN] = T.plan[s][d].n;
            for (int i = 0; i < BURST + AFTER; i++)
                plan_add(s, d, UINT32_MAX, K_DATA, &rng);
            plan_add(s, d, UINT32_MAX, K_BARRIER, &rng);
            T.plan[s][d].ph_end[PH_BURST] = T.plan[s][d].n;
        }
    free(perm);
    /* sleep phase: every ordered pair SLEEP_REPS times, shuffled */
    int npairs = np * (np - 1);
    T.nrounds = npairs * SLEEP_REPS;
    T.rounds = malloc(sizeof(round_t) * (size_t)T.nrounds);
    if (T.rounds == NULL)
        die("out of memory");
    for (int rep = 0, n = 0; rep < SLEEP_REPS; rep++) {
        round_t *base = &T.rounds[n];
        for (int s = 0; s < np; s++)
            for (int d = 0; d < np; d++)
                if (s != d)
                    T.rounds[n++] = (round_t){s, d, 0};
        for (int i = npairs - 1; i > 0; i--) {
            int j = (int)(rnd(&rng) % (uint64_t)(i + 1));
            round_t t = base[i];
            base[i] = base[j];
            base[j] = t;
        }
        for (int i = 0; i < npairs; i++)
            base[i].kind = (rep + i) % 2 ? K_PING_H : K_PING_VP;
    }
    for (int i = 0; i < T.nrounds; i++) {
        plan_add(T.rounds[i].a, T.rounds[i].b, UINT32_MAX, T.rounds[i].kind, &rng);
        plan_add(T.rounds[i].b, T.rounds[i].a, UINT32_MAX, K_PONG, &rng);
    }
    for (int s = 0; s < np; s++)
        for (int d = 0; d < np; d++) {
            if (s == d)
                continue;
            plan_add(s, d, UINT32_MAX, K_BARRIER, &rng);
            pair_plan *pp = &T.plan[s][d];
            pp->ph_end[PH_SLEEP] = pp->n;
            /* where chan.c puts each record: a record that would cross the end of the ring starts at cell 0 */
            uint64_t pos = 0;
            for (uint32_t i = 0; i < pp->n; i++) {
                uint64_t need = (HDR + pp->r[i].len + CELL - 1) / CELL, off = pos % T.ncells;
                if (off + need > T.ncells)
                    pos += T.ncells - off;
                pp->r[i].pos = pos;
                pos += need;
            }
        }
}

/* ---- the VPs ---- */

static void set_waiting(pe_state *ps, const char *what)
{
    atomic_store_explicit(&ps->waiting, what, memory_order_relaxed);
}

static void barrier(int me, int ph)
{
    pe_state *ps = &P[me];
    for (int d = 0; d < T.npes; d++)
        if (d != me) {
            if (T.snext[me][d] + 1 != T.plan[me][d].ph_end[ph])
                die("internal error: PE %d at the end of phase %s has sent %u records to PE %d, planned %u", me,
                    phase_name[ph], T.snext[me][d], d, T.plan[me][d].ph_end[ph] - 1);
            send_next(me, d, K_BARRIER);
        }
    set_waiting(ps, "the barrier records of the other PEs");
    for (;;) {
        bool all = true;
        for (int s = 0; s < T.npes; s++)
            if (s != me && atomic_load_explicit(&T.rnext[s][me], memory_order_relaxed) < T.plan[s][me].ph_end[ph])
                all = false;
        if (all)
            break;
        vmpi_vp_block("test_chan barrier");
    }
    set_waiting(ps, NULL);
    atomic_store(&ps->phase, ph + 1);
}

static void phase_lengths(int me)
{
    pe_state *ps = &P[me];
    int nd = T.npes - 1;
    uint32_t cnt = T.plan[me][(me + 1) % T.npes].ph_end[PH_LEN] - 1;
    unsigned gap = 1 + (unsigned)(rnd(&ps->rng) % 24);
    for (uint32_t i = 0; i < cnt; i++) {
        for (int k = 0; k < nd; k++)
            send_next(me, (me + 1 + (int)((i + (uint32_t)k) % (uint32_t)nd)) % T.npes, K_DATA);
        if (--gap == 0) {
            vmpi_vp_yield();
            gap = 1 + (unsigned)(rnd(&ps->rng) % 24);
        }
    }
}

static void phase_bursts(int me)
{
    pe_state *ps = &P[me];
    int nd = T.npes - 1, order[MAXPE];
    for (int k = 0; k < nd; k++)
        order[k] = (me + 1 + k) % T.npes;
    for (int k = nd - 1; k > 0; k--) {
        int j = (int)(rnd(&ps->rng) % (uint64_t)(k + 1)), t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    /* far more than a ring to each, without yielding: the rest queues on this side */
    for (int k = 0; k < nd; k++) {
        for (int i = 0; i < BURST; i++)
            send_next(me, order[k], K_DATA);
        ps->bursts++;
        ps->bursts_queued += vmpi_chan_backlog(me);
    }
    /* more while the queues drain: they go behind the queued records */
    for (int i = 0; i < AFTER; i++) {
        for (int k = 0; k < nd; k++) {
            ps->sends_queued += vmpi_chan_backlog(me);
            send_next(me, order[(i + k) % nd], K_DATA);
        }
        if (rnd(&ps->rng) % 4 == 0)
            vmpi_vp_yield();
    }
}

/* Waits, without polling, until PE `x` sleeps (or 0.25 s went by). */
static void wait_asleep(pe_state *ps, int x)
{
    set_waiting(ps, "a PE to fall asleep (nanosleep loop)");
    double t0 = vmpi_clock_now();
    struct timespec ts = {0, 20000};
    while (!atomic_load(&vmpi_sched_pe(x)->sleeping)) {
        if (vmpi_clock_now() - t0 > 0.25) {
            ps->not_slept++;
            set_waiting(ps, NULL);
            return;
        }
        nanosleep(&ts, NULL);
    }
    ps->slept++;
    set_waiting(ps, NULL);
}

/* Blocks until the next record expected from `s` in the sleep phase has arrived. */
static void wait_rec(int me, int s)
{
    pe_state *ps = &P[me];
    uint32_t want = ++ps->expect[s];
    set_waiting(ps, "a ping or pong");
    while (atomic_load_explicit(&T.rnext[s][me], memory_order_relaxed) < want)
        vmpi_vp_block("test_chan ping-pong");
    set_waiting(ps, NULL);
}

static void phase_sleep(int me)
{
    pe_state *ps = &P[me];
    for (int s = 0; s < T.npes; s++)
        ps->expect[s] = s == me ? 0 : T.plan[s][me].ph_end[PH_BURST];
    for (int i = 0; i < T.nrounds; i++) {
        const round_t *r = &T.rounds[i];
        if (me == r->a) {
            wait_asleep(ps, r->b);
            send_next(me, r->b, r->kind);
            wait_rec(me, r->b);
        } else if (me == r->b) {
            wait_rec(me, r->a);
            if (r->kind == K_PING_VP) {
                wait_asleep(ps, r->a);
                send_next(me, r->a, K_PONG);
            }
        }
    }
}

static void vp_main(vmpi_vp *vp)
{
    int me = vp->id;
    if (vmpi_pe_self() == NULL || vmpi_pe_self()->id != me || vmpi_vp_self() != vp)
        ERR("VP %d runs on PE %d (or vmpi_vp_self() is wrong)", me, vmpi_pe_self() ? vmpi_pe_self()->id : -1);
    phase_lengths(me);
    barrier(me, PH_LEN);
    phase_bursts(me);
    barrier(me, PH_BURST);
    phase_sleep(me);
    barrier(me, PH_SLEEP);
}

/* ---- watchdog ---- */

static void dump_state(void)
{
    fprintf(stderr, "test_chan: state of run %d (%d PEs, %zu-byte rings):\n", T.run, T.npes, T.ring_bytes);
    if (!atomic_load(&run_active))
        return;
    for (int i = 0; i < T.npes; i++) {
        vmpi_pe *pe = vmpi_sched_pe(i);
        const char *w = atomic_load(&P[i].waiting);
        fprintf(stderr, "  PE %d: phase %s, VP state %d, waits for %s; PE %s, record pending %d, backlog %d\n", i,
                phase_name[atomic_load(&P[i].phase)], (int)P[i].vp.state, w ? w : "-",
                atomic_load(&pe->sleeping) ? "asleep" : "awake", vmpi_chan_pending(i), vmpi_chan_backlog(i));
        if (atomic_load(&pe->sleeping) && vmpi_chan_pending(i))
            fprintf(stderr, "    PE %d sleeps with a record waiting for it: the commit did not wake it\n", i);
        for (int s = 0; s < T.npes; s++)
            if (s != i)
                fprintf(stderr, "    from PE %d: %u of %u records received (%u sent)\n", s,
                        atomic_load(&T.rnext[s][i]), T.plan[s][i].n, T.snext[s][i]);
    }
}

static void *watchdog(void *arg)
{
    (void)arg;
    unsigned long last = 0;
    double last_move = vmpi_clock_now();
    while (!atomic_load(&test_over)) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        double now = vmpi_clock_now();
        int e = atomic_load(&errs);
        if (e > 0 && now - atomic_load(&first_err_at) > 0.5) {
            fflush(stdout);
            dump_state();
            fprintf(stderr, "test_chan: stopping after %d error(s)\n", e);
            _exit(1);
        }
        unsigned long sum = 0;
        for (int i = 0; i < MAXPE; i++)
            sum += atomic_load_explicit(&P[i].received, memory_order_relaxed);
        if (sum != last || !atomic_load(&run_active)) {
            last = sum;
            last_move = now;
        } else if (now - last_move > STALL_S) {
            fflush(stdout);
            fprintf(stderr, "test_chan: no record received for %.0f s (a lost record or a lost wake-up)\n", STALL_S);
            dump_state();
            _exit(1);
        }
    }
    return NULL;
}

/* ---- main ---- */

static void one_run(uint64_t seed, int npes, size_t ring_bytes, int len_repeat)
{
    T.npes = npes;
    T.len_repeat = len_repeat;
    T.ring_bytes = ring_bytes;
    T.salt = mix((uint32_t)seed ^ (uint32_t)T.run * 0x27d4eb2fu);
    vmpi_cfg.channel_size = ring_bytes;
    vmpi_sched_init(0, npes, npes);
    vmpi_xport_init(npes, 1); /* the channels, which register with the scheduler */
    vmpi_xport_am_fn hs[4] = {h0, h1, h2, h3};
    for (int k = 0; k < 4; k++)
        T.hid[k] = vmpi_xport_am_register(hs[k]);
    T.h_stale = vmpi_xport_am_register(on_stale);
    T.maxrec = vmpi_chan_max_record();
    T.ncells = (T.maxrec + HDR) * 4 / CELL;
    if (T.maxrec + HDR != ring_bytes / 4 || T.ncells * CELL != ring_bytes) {
        ERR("a %zu-byte channel takes records of up to %zu bytes, expected %zu: the test's model of the ring "
            "(64-byte cells, 16-byte header, a quarter of the ring) no longer matches chan.c",
            ring_bytes, T.maxrec, ring_bytes / 4 - HDR);
        vmpi_xport_fini();
        vmpi_sched_fini();
        return;
    }
    plan_build(seed);
    for (int i = 0; i < npes; i++) {
        memset(&P[i], 0, sizeof P[i]);
        P[i].rng = seed * 31 + (uint64_t)(T.run * 8 + i) * 0x9e3779b97f4a7c15ull + 1;
        P[i].scratch = malloc(T.maxrec + 1);
        if (P[i].scratch == NULL)
            die("out of memory");
        P[i].vp.id = i;
        P[i].vp.main = vp_main;
        vmpi_sched_add_vp(&P[i].vp, i);
    }
    atomic_store(&run_active, 1);
    int rc = vmpi_sched_run();
    atomic_store(&run_active, 0);
    if (rc != 0)
        ERR("vmpi_sched_run() returned %d", rc);
    unsigned long bursts = 0, bq = 0, sq = 0, slept = 0, not_slept = 0, rechecks = 0, pads = 0, recs = 0;
    for (int i = 0; i < npes; i++) {
        if (P[i].vp.state != VMPI_VP_DONE)
            ERR("VP of PE %d not done after vmpi_sched_run() (state %d)", i, (int)P[i].vp.state);
        if (vmpi_chan_backlog(i))
            ERR("PE %d still has queued records at the end (vmpi_chan_backlog)", i);
        if (vmpi_chan_pending(i))
            ERR("a record is still pending for PE %d at the end (vmpi_chan_pending)", i);
        for (int s = 0; s < npes; s++) {
            if (s == i)
                continue;
            pair_plan *pp = &T.plan[s][i];
            if (atomic_load(&T.rnext[s][i]) != pp->n || T.snext[s][i] != pp->n)
                ERR("PE %d -> PE %d: %u records sent and %u received, %u planned", s, i, T.snext[s][i],
                    atomic_load(&T.rnext[s][i]), pp->n);
            recs += pp->n;
            for (uint32_t k = 1; k < pp->n; k++)
                pads += pp->r[k].pos != pp->r[k - 1].pos + (HDR + pp->r[k - 1].len + CELL - 1) / CELL;
        }
        bursts += P[i].bursts;
        bq += P[i].bursts_queued;
        sq += P[i].sends_queued;
        slept += P[i].slept;
        not_slept += P[i].not_slept;
        rechecks += P[i].rechecks;
    }
    printf("run %d: %d PEs, %zu-byte rings (records up to %zu bytes): %lu records, %lu ring wraps with padding; "
           "%lu of %lu bursts left records queued, %lu sends behind a queue; %lu of %lu pings/pongs to a sleeping "
           "PE; %lu handler re-checks\n",
           T.run, npes, ring_bytes, T.maxrec, recs, pads, bq, bursts, sq, slept, slept + not_slept, rechecks);
    fflush(stdout);
    if (bq == 0)
        ERR("no burst of %d records left any queued: the sender-side queue was not exercised", BURST);
    if (slept == 0)
        ERR("no ping or pong found its receiver asleep in %lu tries: the wake-up of a sleeping PE was not exercised",
            not_slept);
    vmpi_xport_fini();
    vmpi_sched_fini();
    for (int i = 0; i < npes; i++) {
        free(P[i].scratch);
        P[i].scratch = NULL;
        for (int d = 0; d < npes; d++) {
            free(T.plan[i][d].r);
            memset(&T.plan[i][d], 0, sizeof T.plan[i][d]);
            atomic_store(&T.rnext[i][d], 0);
            T.snext[i][d] = 0;
        }
    }
    free(T.rounds);
    T.rounds = NULL;
}

int main(void)
{
    setenv("VMPI_IDLE_SPIN_US", "50", 1);
    setenv("VMPI_PIN", "0", 1);
    setenv("VMPI_DEADLOCK_CHECK", "1", 1);
    setenv("VMPI_STACK_SIZE", "256k", 1);
    vmpi_tunables_load();
    vmpi_iso_init(MAXPE, vmpi_cfg.stack_size, vmpi_cfg.iso_base, 64 << 20); /* one VP per PE, slots reused by each run */
    const char *se = getenv("TEST_CHAN_SEED");
    uint64_t seed = se ? strtoull(se, NULL, 0) : 20240611;
    static const struct {
        int npes;
        size_t ring;
        int len_repeat;
    } runs[] = {{2, 4096, 2}, {4, 4096, 1}, {3, 8192, 1}};
    pthread_t wd;
    if (pthread_create(&wd, NULL, watchdog, NULL) != 0)
        die("cannot start the watchdog thread");
    double t0 = vmpi_clock_now();
    for (int r = 0; r < (int)(sizeof runs / sizeof runs[0]); r++) {
        T.run = r;
        one_run(seed, runs[r].npes, runs[r].ring, runs[r].len_repeat);
    }
    atomic_store(&test_over, 1);
    pthread_join(wd, NULL);
    if (atomic_load(&errs)) {
        fprintf(stderr, "test_chan: %d error(s) (seed %llu)\n", atomic_load(&errs), (unsigned long long)seed);
        return 1;
    }
    printf("seed %llu, %.2f s\n No Errors\n", (unsigned long long)seed, vmpi_clock_now() - t0);
    return 0;
}
