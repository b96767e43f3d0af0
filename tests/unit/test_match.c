/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the messaging layer (msg/msg.h) under the real scheduler: 4 VPs on 2 PEs (ranks 0,1 on PE 0,
 * ranks 2,3 on PE 1) call vmpi_msg_isend / vmpi_msg_irecv / vmpi_msg_probe / vmpi_msg_cancel_recv directly,
 * for same-PE and cross-PE pairs in both directions, then many-to-one:
 *   - wildcard source/tag matching against the unexpected queue and the posted queue (first match wins);
 *   - MPI's non-overtaking order for one (ctx, source, tag), mixing eager and rendezvous sizes, with the
 *     receives posted before, after, and half before the sends;
 *   - contexts isolate messages: a receive or probe on one context never sees another's;
 *   - truncation: MPI_ERR_TRUNCATE, only the capacity copied, the rest of the buffer untouched;
 *   - cancel of a posted receive (the message then goes elsewhere), cancel after completion fails;
 *   - probe without and with removal (vmpi_msg_recv_env), and a blocked probe woken by an arrival;
 *   - protocol selection: an eager send (<= eager_max) is complete on return and its buffer reusable at once;
 *     a rendezvous or synchronous one is not complete until received.
 * Handshake messages on a separate context order the two sides, so each case is deterministic: a message
 * sent before a handshake has arrived when the handshake is received (same PE: delivered synchronously;
 * cross PE: the channel between two PEs is FIFO). */
#include <mpi.h>

#include "base/tunables.h"
#include "dtype/dtype.h"
#include "msg/msg.h"
#include "sched/sched.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR 4
#define NPE 2

typedef struct rank {
    vmpi_vp vp;
    vmpi_ep ep;
    int errs;
    int phase;
    const char *scen;
    char where[96];
} rank;

static rank ranks[NR];
static _Atomic int errs;
static size_t EM; /* eager_max */
static const vmpi_dtype *BYTE, *INT;

#define CHECK(me, cond, ...)                                                                                 \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            (me)->errs++;                                                                                    \
            if (atomic_fetch_add(&errs, 1) < 40) {                                                           \
                flockfile(stderr);                                                                           \
                fprintf(stderr, "%s:%d: rank %d (PE %d) phase %d [%s]: ", __FILE__, __LINE__, (me)->vp.id,   \
                        (me)->vp.pe->id, (me)->phase, (me)->scen);                                           \
                fprintf(stderr, __VA_ARGS__);                                                                \
                fputc('\n', stderr);                                                                         \
                funlockfile(stderr);                                                                         \
            }                                                                                                \
        }                                                                                                    \
    } while (0)

/* ---- helpers ---- */

static void fill(void *buf, size_t n, int seed)
{
    unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 29 + i * 13 + (i >> 8) + 1);
}

/* Index of the first byte of buf[0..n) that is not the pattern of `seed`, or -1. */
static long badbyte(const void *buf, size_t n, int seed)
{
    const unsigned char *b = buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)(seed * 29 + i * 13 + (i >> 8) + 1))
            return (long)i;
    return -1;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static void isend(rank *me, vmpi_req *r, const void *buf, MPI_Count count, const vmpi_dtype *dt, int ctx,
                  int peer, int tag, vmpi_send_mode mode)
{
    memset(r, 0, sizeof *r);
    r->buf = (void *)buf;
    r->count = count;
    r->dt = dt;
    r->ctx = ctx;
    r->rank = me->vp.id;
    r->tag = tag;
    r->peer = peer;
    r->mode = mode;
    r->owner = &me->vp;
    vmpi_msg_isend(r);
}

static void irecv(rank *me, vmpi_req *r, void *buf, MPI_Count count, const vmpi_dtype *dt, int ctx, int src,
                  int tag)
{
    memset(r, 0, sizeof *r);
    r->buf = buf;
    r->count = count;
    r->dt = dt;
    r->ctx = ctx;
    r->rank = src;
    r->tag = tag;
    r->owner = &me->vp;
    r->status.MPI_ERROR = -12345; /* must be set by completion */
    vmpi_msg_irecv(&me->ep, r);
}

/* Blocks until `r` completes; the wait is named after the case, for the deadlock report. */
static void wait(vmpi_req *r)
{
    rank *me = vmpi_container_of(r->owner, rank, vp);
    snprintf(me->where, sizeof me->where, "test_match phase %d [%s] tag %d", me->phase, me->scen, r->tag);
    while (!r->complete)
        vmpi_vp_block(me->where);
}

/* Zero-byte handshake on context `ctx`. */
static void hs_send(rank *me, int peer, int ctx, int tag)
{
    vmpi_req r;
    isend(me, &r, NULL, 0, BYTE, ctx, peer, tag, VMPI_SEND_STD);
    CHECK(me, r.complete, "a 0-byte eager handshake send was not complete on return");
    wait(&r);
}

static void hs_recv(rank *me, int peer, int ctx, int tag)
{
    vmpi_req r;
    irecv(me, &r, NULL, 0, BYTE, ctx, peer, tag);
    wait(&r);
    CHECK(me, r.status.MPI_SOURCE == peer && r.status.MPI_TAG == tag && r.status.vmpi_count == 0,
          "handshake received with source %d tag %d count %lld, expected %d %d 0", r.status.MPI_SOURCE,
          r.status.MPI_TAG, (long long)r.status.vmpi_count, peer, tag);
}

/* Checks a completed receive: status and data. */
static void check_recv(rank *me, const char *what, vmpi_req *r, const void *buf, int src, int tag, size_t bytes,
                       int seed)
{
    CHECK(me, r->complete, "%s: not complete", what);
    CHECK(me, r->status.MPI_SOURCE == src, "%s: MPI_SOURCE %d, expected %d", what, r->status.MPI_SOURCE, src);
    CHECK(me, r->status.MPI_TAG == tag, "%s: MPI_TAG %d, expected %d", what, r->status.MPI_TAG, tag);
    CHECK(me, r->status.vmpi_count == (MPI_Count)bytes, "%s: %lld bytes received, expected %zu", what,
          (long long)r->status.vmpi_count, bytes);
    CHECK(me, r->status.MPI_ERROR == MPI_SUCCESS, "%s: MPI_ERROR %d, expected MPI_SUCCESS", what,
          r->status.MPI_ERROR);
    CHECK(me, r->status.vmpi_cancelled == 0, "%s: marked cancelled", what);
    long b = badbyte(buf, bytes, seed);
    CHECK(me, b < 0, "%s: data byte %ld of %zu wrong (seed %d)", what, b, bytes, seed);
}

static bool is_eager(size_t n) { return n <= EM; }

/* ---- scenarios: each has a sender side and a receiver side; ctx = phase base + offset ---- */

enum { C_CTX0, C_CTX1, C_UNEXP, C_POSTED, C_ORDER, C_TRUNC, C_CANCEL, C_PROBE, C_MISC, C_HS = 15 };

/* contexts isolate messages */
static void ctx_send(rank *me, int peer, int base)
{
    me->scen = "contexts";
    size_t na = 48, nb = 24;
    char *a = xmalloc(na), *b = xmalloc(nb), *c = xmalloc(32), *d = xmalloc(EM + 8);
    vmpi_req r[2];
    fill(a, na, 41);
    fill(b, nb, 42);
    isend(me, &r[0], a, (MPI_Count)na, BYTE, base + C_CTX1, peer, 5, VMPI_SEND_STD);
    isend(me, &r[1], b, (MPI_Count)nb, BYTE, base + C_CTX0, peer, 5, VMPI_SEND_STD);
    hs_send(me, peer, base + C_HS, 1);
    wait(&r[0]);
    wait(&r[1]);
    /* receiver posted ctx1 then ctx0: a ctx0 message must skip the ctx1 receive */
    hs_recv(me, peer, base + C_HS, 2);
    fill(c, 32, 43);
    fill(d, EM + 8, 44);
    isend(me, &r[0], c, 32, BYTE, base + C_CTX0, peer, 6, VMPI_SEND_STD);
    isend(me, &r[1], d, (MPI_Count)(EM + 8), BYTE, base + C_CTX1, peer, 6, VMPI_SEND_STD);
    wait(&r[0]);
    wait(&r[1]);
    /* a ctx0 message while only a ctx1 receive is posted stays unexpected */
    hs_recv(me, peer, base + C_HS, 3);
    fill(a, 16, 45);
    isend(me, &r[0], a, 16, BYTE, base + C_CTX0, peer, 7, VMPI_SEND_STD);
    hs_send(me, peer, base + C_HS, 4);
    wait(&r[0]);
    hs_recv(me, peer, base + C_HS, 5);
    fill(b, 20, 46);
    isend(me, &r[1], b, 20, BYTE, base + C_CTX1, peer, 7, VMPI_SEND_STD);
    wait(&r[1]);
    free(a), free(b), free(c), free(d);
}

static void ctx_recv(rank *me, int peer, int base)
{
    me->scen = "contexts";
    char *buf = xmalloc(EM + 64), *buf2 = xmalloc(EM + 64);
    vmpi_req r, r2;
    MPI_Status st;
    hs_recv(me, peer, base + C_HS, 1);
    vmpi_env *e = vmpi_msg_probe(&me->ep, base + C_CTX0, MPI_ANY_SOURCE, MPI_ANY_TAG, false, &st);
    CHECK(me, e && st.vmpi_count == 24, "probe on ctx0 found %s (count %lld), expected the 24-byte ctx0 message",
          e ? "a message" : "nothing", e ? (long long)st.vmpi_count : -1LL);
    irecv(me, &r, buf, 64, BYTE, base + C_CTX0, MPI_ANY_SOURCE, MPI_ANY_TAG);
    wait(&r);
    check_recv(me, "ctx0 receive with ctx1 message queued first", &r, buf, peer, 5, 24, 42);
    irecv(me, &r, buf, 64, BYTE, base + C_CTX1, MPI_ANY_SOURCE, MPI_ANY_TAG);
    wait(&r);
    check_recv(me, "ctx1 receive", &r, buf, peer, 5, 48, 41);
    /* posted: ctx1 first, then ctx0 */
    irecv(me, &r, buf, (MPI_Count)(EM + 64), BYTE, base + C_CTX1, MPI_ANY_SOURCE, MPI_ANY_TAG);
    irecv(me, &r2, buf2, (MPI_Count)(EM + 64), BYTE, base + C_CTX0, MPI_ANY_SOURCE, MPI_ANY_TAG);
    hs_send(me, peer, base + C_HS, 2);
    wait(&r2);
    wait(&r);
    check_recv(me, "posted ctx0 receive (ctx1 receive posted first)", &r2, buf2, peer, 6, 32, 43);
    check_recv(me, "posted ctx1 receive", &r, buf, peer, 6, EM + 8, 44);
    /* only a ctx1 receive posted; a ctx0 message arrives */
    irecv(me, &r, buf, 64, BYTE, base + C_CTX1, MPI_ANY_SOURCE, MPI_ANY_TAG);
    hs_send(me, peer, base + C_HS, 3);
    hs_recv(me, peer, base + C_HS, 4);
    CHECK(me, !r.complete, "a receive on ctx %d matched a message sent on ctx %d", base + C_CTX1, base + C_CTX0);
    CHECK(me, vmpi_msg_probe(&me->ep, base + C_CTX1, MPI_ANY_SOURCE, MPI_ANY_TAG, false, &st) == NULL,
          "probe on ctx1 found the ctx0 message");
    e = vmpi_msg_probe(&me->ep, base + C_CTX0, peer, 7, false, &st);
    CHECK(me, e != NULL, "the ctx0 message is not in the unexpected queue");
    irecv(me, &r2, buf2, 64, BYTE, base + C_CTX0, peer, MPI_ANY_TAG);
    wait(&r2);
    check_recv(me, "ctx0 message with a ctx1 receive posted", &r2, buf2, peer, 7, 16, 45);
    hs_send(me, peer, base + C_HS, 5);
    wait(&r);
    check_recv(me, "ctx1 receive posted before a ctx0 message", &r, buf, peer, 7, 20, 46);
    free(buf), free(buf2);
}

/* unexpected queue with wildcards */
static void unexp_send(rank *me, int peer, int base)
{
    me->scen = "unexpected+wildcards";
    static const int tags[] = {1, 2, 3, 4, 1};
    size_t sz[] = {10, 64, EM + 1, 100, 20};
    vmpi_req r[5];
    char *b[5];
    for (int i = 0; i < 5; i++) {
        b[i] = xmalloc(sz[i]);
        fill(b[i], sz[i], i + 1);
        isend(me, &r[i], b[i], (MPI_Count)sz[i], BYTE, base + C_UNEXP, peer, tags[i], VMPI_SEND_STD);
        if (is_eager(sz[i])) {
            CHECK(me, r[i].complete, "eager send of %zu bytes (eager_max %zu) not complete on return", sz[i], EM);
            memset(b[i], 0, sz[i]); /* the data is out of the buffer: the receiver must not see this */
        } else {
            CHECK(me, !r[i].complete, "rendezvous send of %zu bytes complete before any receive", sz[i]);
        }
    }
    hs_send(me, peer, base + C_HS, 10);
    for (int i = 0; i < 5; i++) {
        wait(&r[i]);
        free(b[i]);
    }
}

static void unexp_recv(rank *me, int peer, int base)
{
    me->scen = "unexpected+wildcards";
    int ctx = base + C_UNEXP;
    char *buf = xmalloc(EM + 64);
    vmpi_req r;
    MPI_Status st = {.MPI_ERROR = MPI_SUCCESS}; /* a probe leaves MPI_ERROR as it was (MPI-3.1 3.2.5) */
    hs_recv(me, peer, base + C_HS, 10);
    vmpi_env *e = vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, 3, false, &st);
    CHECK(me, e && st.MPI_SOURCE == peer && st.MPI_TAG == 3 && st.vmpi_count == (MPI_Count)(EM + 1) &&
                  st.MPI_ERROR == MPI_SUCCESS,
          "probe(ANY, 3): %s source %d tag %d count %lld", e ? "found" : "nothing", st.MPI_SOURCE, st.MPI_TAG,
          (long long)st.vmpi_count);
    irecv(me, &r, buf, (MPI_Count)(EM + 64), BYTE, ctx, MPI_ANY_SOURCE, 3);
    wait(&r);
    check_recv(me, "recv(ANY, 3) [rendezvous]", &r, buf, peer, 3, EM + 1, 3);
    irecv(me, &r, buf, 200, BYTE, ctx, peer, MPI_ANY_TAG);
    wait(&r);
    check_recv(me, "recv(src, ANY): the first message", &r, buf, peer, 1, 10, 1);
    irecv(me, &r, buf, 200, BYTE, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG);
    wait(&r);
    check_recv(me, "recv(ANY, ANY): the oldest left", &r, buf, peer, 2, 64, 2);
    irecv(me, &r, buf, 200, BYTE, ctx, peer, 1);
    wait(&r);
    check_recv(me, "recv(src, 1) skipping tag 4", &r, buf, peer, 1, 20, 5);
    irecv(me, &r, buf, 200, BYTE, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG);
    wait(&r);
    check_recv(me, "recv(ANY, ANY): the last one", &r, buf, peer, 4, 100, 4);
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG, false, &st) == NULL,
          "unexpected queue not empty after receiving everything");
    free(buf);
}

/* posted queue with wildcards: the first posted receive that matches wins */
static void posted_send(rank *me, int peer, int base)
{
    me->scen = "posted+wildcards";
    static const int tags[] = {8, 7, 7, 9};
    size_t sz[] = {30, EM + 5, 0, 2 * EM};
    vmpi_req r[4];
    char *b[4];
    hs_recv(me, peer, base + C_HS, 20);
    for (int i = 0; i < 4; i++) {
        b[i] = xmalloc(sz[i]);
        fill(b[i], sz[i], 50 + i);
        isend(me, &r[i], b[i], (MPI_Count)sz[i], BYTE, base + C_POSTED, peer, tags[i], VMPI_SEND_STD);
    }
    for (int i = 0; i < 4; i++) {
        wait(&r[i]);
        free(b[i]);
    }
}

static void posted_recv(rank *me, int peer, int base)
{
    me->scen = "posted+wildcards";
    int ctx = base + C_POSTED;
    vmpi_req r[4];
    char *b[4];
    for (int i = 0; i < 4; i++)
        b[i] = xmalloc(2 * EM + 16);
    MPI_Count cap = (MPI_Count)(2 * EM + 16);
    irecv(me, &r[0], b[0], cap, BYTE, ctx, peer, 7);
    irecv(me, &r[1], b[1], cap, BYTE, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG);
    irecv(me, &r[2], b[2], cap, BYTE, ctx, MPI_ANY_SOURCE, 7);
    irecv(me, &r[3], b[3], cap, BYTE, ctx, peer, MPI_ANY_TAG);
    for (int i = 0; i < 4; i++)
        CHECK(me, !r[i].complete, "receive %d complete before anything was sent", i);
    hs_send(me, peer, base + C_HS, 20);
    for (int i = 0; i < 4; i++)
        wait(&r[i]);
    check_recv(me, "posted (src, 7) gets the first tag-7 message", &r[0], b[0], peer, 7, EM + 5, 51);
    check_recv(me, "posted (ANY, ANY) gets the tag-8 message", &r[1], b[1], peer, 8, 30, 50);
    check_recv(me, "posted (ANY, 7) gets the second tag-7 message", &r[2], b[2], peer, 7, 0, 52);
    check_recv(me, "posted (src, ANY) gets the tag-9 message", &r[3], b[3], peer, 9, 2 * EM, 53);
    for (int i = 0; i < 4; i++)
        free(b[i]);
}

/* non-overtaking for one (ctx, source, tag), eager and rendezvous mixed */
#define NORD 14
static size_t ord_size(size_t i)
{
    const size_t s[] = {0, 1, 64, 65, 512, 4096, 32768, 32769, 0, 0, 0, 3, 100, 7};
    size_t v = s[i % 14];
    if (i % 14 == 8)
        v = EM;
    if (i % 14 == 9)
        v = EM + 1;
    if (i % 14 == 10)
        v = 3 * EM;
    return v;
}

static void order_send(rank *me, int peer, int base)
{
    me->scen = "non-overtaking";
    int ctx = base + C_ORDER;
    vmpi_req r[NORD];
    char *b[NORD];
    /* round 0: all unexpected; round 1: all posted; round 2: half posted, half unexpected */
    for (int round = 0; round < 3; round++) {
        if (round >= 1)
            hs_recv(me, peer, base + C_HS, 30 + round);
        for (int i = 0; i < NORD; i++) {
            size_t n = ord_size((size_t)(i + round * 5));
            b[i] = xmalloc(n);
            fill(b[i], n, 100 + round * 20 + i);
            isend(me, &r[i], b[i], (MPI_Count)n, BYTE, ctx, peer, 5, VMPI_SEND_STD);
            if (round == 0)
                CHECK(me, r[i].complete == is_eager(n),
                      "send of %zu bytes to a rank with no receive posted: complete %d on return, eager_max %zu", n,
                      r[i].complete, EM);
        }
        hs_send(me, peer, base + C_HS, 40 + round);
        for (int i = 0; i < NORD; i++) {
            wait(&r[i]);
            free(b[i]);
        }
    }
}

static void order_recv(rank *me, int peer, int base)
{
    me->scen = "non-overtaking";
    int ctx = base + C_ORDER;
    vmpi_req r[NORD];
    char *b[NORD];
    MPI_Count cap = (MPI_Count)(3 * EM + 8);
    for (int i = 0; i < NORD; i++)
        b[i] = xmalloc((size_t)cap);
    for (int round = 0; round < 3; round++) {
        int pre = round == 0 ? 0 : round == 1 ? NORD : NORD / 2;
        /* round 2 mixes the wildcards in */
        for (int i = 0; i < pre; i++)
            irecv(me, &r[i], b[i], cap, BYTE, ctx, round == 2 && (i & 1) ? MPI_ANY_SOURCE : peer,
                  round == 2 && (i % 3 == 0) ? MPI_ANY_TAG : 5);
        if (round >= 1)
            hs_send(me, peer, base + C_HS, 30 + round);
        hs_recv(me, peer, base + C_HS, 40 + round);
        for (int i = pre; i < NORD; i++)
            irecv(me, &r[i], b[i], cap, BYTE, ctx, (i & 1) ? MPI_ANY_SOURCE : peer, (i % 3) ? 5 : MPI_ANY_TAG);
        for (int i = 0; i < NORD; i++) {
            wait(&r[i]);
            char what[96];
            snprintf(what, sizeof what, "round %d (%d posted first): receive %d", round, pre, i);
            size_t n = ord_size((size_t)(i + round * 5));
            check_recv(me, what, &r[i], b[i], peer, 5, n, 100 + round * 20 + i);
        }
    }
    for (int i = 0; i < NORD; i++)
        free(b[i]);
}

/* truncation */
static void trunc_send(rank *me, int peer, int base)
{
    me->scen = "truncation";
    size_t sz[] = {100, EM + 100, 100, EM + 100, 40, 12};
    vmpi_req r;
    char *b = xmalloc(EM + 100);
    for (int i = 0; i < 6; i++) {
        hs_recv(me, peer, base + C_HS, 50 + i);
        fill(b, sz[i], 60 + i);
        isend(me, &r, b, (MPI_Count)sz[i], BYTE, base + C_TRUNC, peer, 60 + i, VMPI_SEND_STD);
        hs_send(me, peer, base + C_HS, 70 + i);
        wait(&r);
    }
    free(b);
}

static void trunc_recv(rank *me, int peer, int base)
{
    me->scen = "truncation";
    size_t sz[] = {100, EM + 100, 100, EM + 100, 40, 12};
    /* 0,1: posted, truncated; 2,3: unexpected, truncated; 4: exact fit; 5: capacity larger */
    int ints[12 + 4];
    for (int i = 0; i < 6; i++) {
        bool posted = i < 2 || i >= 4;
        vmpi_req r;
        memset(ints, 0x5A, sizeof ints);
        if (posted)
            irecv(me, &r, ints, 10, INT, base + C_TRUNC, peer, MPI_ANY_TAG);
        hs_send(me, peer, base + C_HS, 50 + i);
        hs_recv(me, peer, base + C_HS, 70 + i);
        if (!posted)
            irecv(me, &r, ints, 10, INT, base + C_TRUNC, peer, MPI_ANY_TAG);
        wait(&r);
        size_t got = sz[i] < 40 ? sz[i] : 40;
        char what[96];
        snprintf(what, sizeof what, "%zu-byte %s message into 40 bytes, %s", sz[i],
                 is_eager(sz[i]) ? "eager" : "rendezvous", posted ? "posted" : "unexpected");
        CHECK(me, r.status.MPI_ERROR == (sz[i] > 40 ? MPI_ERR_TRUNCATE : MPI_SUCCESS), "%s: MPI_ERROR %d", what,
              r.status.MPI_ERROR);
        CHECK(me, r.status.vmpi_count == (MPI_Count)got, "%s: count %lld, expected %zu", what,
              (long long)r.status.vmpi_count, got);
        CHECK(me, r.status.MPI_SOURCE == peer && r.status.MPI_TAG == 60 + i, "%s: source %d tag %d", what,
              r.status.MPI_SOURCE, r.status.MPI_TAG);
        long bad = badbyte(ints, got, 60 + i);
        CHECK(me, bad < 0, "%s: received byte %ld wrong", what, bad);
        const unsigned char *u = (const unsigned char *)ints;
        for (size_t k = got; k < sizeof ints; k++)
            if (u[k] != 0x5A) {
                CHECK(me, 0, "%s: byte %zu beyond the %zu received was written", what, k, got);
                break;
            }
    }
}

/* cancel */
static void cancel_send(rank *me, int peer, int base)
{
    me->scen = "cancel";
    char a[24], b[8];
    vmpi_req r[2];
    hs_recv(me, peer, base + C_HS, 80);
    fill(a, sizeof a, 81);
    fill(b, sizeof b, 82);
    isend(me, &r[0], a, sizeof a, BYTE, base + C_CANCEL, peer, 77, VMPI_SEND_STD);
    isend(me, &r[1], b, sizeof b, BYTE, base + C_CANCEL, peer, 78, VMPI_SEND_STD);
    hs_send(me, peer, base + C_HS, 81);
    wait(&r[0]);
    wait(&r[1]);
}

static void cancel_recv(rank *me, int peer, int base)
{
    me->scen = "cancel";
    int ctx = base + C_CANCEL;
    char ca[64], cb[64], cc[64];
    vmpi_req r, r2, r3;
    memset(ca, 0x33, sizeof ca);
    irecv(me, &r, ca, sizeof ca, BYTE, ctx, peer, 77);
    irecv(me, &r2, cb, sizeof cb, BYTE, ctx, MPI_ANY_SOURCE, 78);
    CHECK(me, vmpi_msg_cancel_recv(&me->ep, &r), "cancel of a posted, unmatched receive returned false");
    CHECK(me, r.complete, "a cancelled receive is not complete");
    CHECK(me, r.status.vmpi_cancelled == 1 && r.status.vmpi_count == 0 && r.status.MPI_ERROR == MPI_SUCCESS,
          "cancelled receive status: cancelled %d count %lld error %d", r.status.vmpi_cancelled,
          (long long)r.status.vmpi_count, r.status.MPI_ERROR);
    CHECK(me, !vmpi_msg_cancel_recv(&me->ep, &r), "cancelling a cancelled receive again returned true");
    hs_send(me, peer, base + C_HS, 80);
    hs_recv(me, peer, base + C_HS, 81);
    wait(&r2);
    check_recv(me, "receive posted after the cancelled one", &r2, cb, peer, 78, 8, 82);
    for (size_t k = 0; k < sizeof ca; k++)
        if ((unsigned char)ca[k] != 0x33) {
            CHECK(me, 0, "the cancelled receive's buffer was written (byte %zu)", k);
            break;
        }
    CHECK(me, r.status.vmpi_cancelled == 1 && r.status.vmpi_count == 0,
          "the cancelled receive's status changed after the message arrived");
    MPI_Status st;
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, peer, 77, false, &st) != NULL,
          "the message for the cancelled receive is not in the unexpected queue");
    irecv(me, &r3, cc, sizeof cc, BYTE, ctx, peer, 77);
    wait(&r3);
    check_recv(me, "new receive for the cancelled receive's message", &r3, cc, peer, 77, 24, 81);
    MPI_Status before = r2.status;
    CHECK(me, !vmpi_msg_cancel_recv(&me->ep, &r2), "cancel of a completed receive returned true");
    CHECK(me, r2.status.vmpi_cancelled == 0 && r2.status.vmpi_count == before.vmpi_count,
          "a failed cancel changed the status of the completed receive");
}

/* probe */
static void probe_send(rank *me, int peer, int base)
{
    me->scen = "probe";
    int ctx = base + C_PROBE;
    size_t sz[] = {33, EM + 3, 44};
    static const int tags[] = {9, 10, 9};
    char *b[3];
    vmpi_req r[3];
    hs_recv(me, peer, base + C_HS, 89);
    for (int i = 0; i < 3; i++) {
        b[i] = xmalloc(sz[i]);
        fill(b[i], sz[i], 90 + i);
        isend(me, &r[i], b[i], (MPI_Count)sz[i], BYTE, ctx, peer, tags[i], VMPI_SEND_STD);
    }
    hs_send(me, peer, base + C_HS, 90);
    for (int i = 0; i < 3; i++) {
        wait(&r[i]);
        free(b[i]);
    }
    /* the receiver blocks in a probe loop; this arrival must wake it */
    hs_recv(me, peer, base + C_HS, 91);
    for (int k = 0; k < 3; k++)
        vmpi_vp_yield(); /* give a same-PE receiver time to block */
    char k[16];
    fill(k, sizeof k, 95);
    isend(me, &r[0], k, sizeof k, BYTE, ctx, peer, 11, VMPI_SEND_STD);
    wait(&r[0]);
}

static void probe_recv(rank *me, int peer, int base)
{
    me->scen = "probe";
    int ctx = base + C_PROBE;
    char *buf = xmalloc(EM + 64);
    MPI_Status st = {.MPI_ERROR = MPI_SUCCESS}, st2; /* a probe leaves MPI_ERROR as it was (MPI-3.1 3.2.5) */
    vmpi_req r;
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG, false, &st) == NULL,
          "probe found a message before any was sent");
    hs_send(me, peer, base + C_HS, 89);
    hs_recv(me, peer, base + C_HS, 90);
    vmpi_env *h = vmpi_msg_probe(&me->ep, ctx, peer, 9, false, &st);
    CHECK(me, h && st.MPI_SOURCE == peer && st.MPI_TAG == 9 && st.vmpi_count == 33 && st.MPI_ERROR == MPI_SUCCESS &&
                  st.vmpi_cancelled == 0,
          "probe(src, 9): %p source %d tag %d count %lld", (void *)h, st.MPI_SOURCE, st.MPI_TAG,
          (long long)st.vmpi_count);
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, peer, 9, false, &st2) == h, "a second probe found another message");
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG, false, NULL) == h,
          "probe(ANY, ANY) did not find the oldest message");
    vmpi_env *i_ = vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, 10, true, &st);
    CHECK(me, i_ && st.MPI_TAG == 10 && st.vmpi_count == (MPI_Count)(EM + 3),
          "probe(ANY, 10, remove): %p tag %d count %lld", (void *)i_, st.MPI_TAG, (long long)st.vmpi_count);
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, 10, false, &st2) == NULL,
          "a message taken by probe(remove) is still in the queue");
    if (i_) {
        irecv(me, &r, buf, 1, BYTE, ctx, MPI_ANY_SOURCE, 10); /* must not get the removed message */
        if (r.complete) {
            CHECK(me, 0, "a receive matched a message taken by probe(remove)");
            i_ = NULL; /* delivered already: receiving it again would corrupt the queues */
        } else {
            CHECK(me, vmpi_msg_cancel_recv(&me->ep, &r), "cancel failed");
        }
    }
    if (i_) {
        memset(&r, 0, sizeof r);
        r.buf = buf;
        r.count = (MPI_Count)(EM + 64);
        r.dt = BYTE;
        r.owner = &me->vp;
        vmpi_msg_recv_env(i_, &r);
        wait(&r);
        check_recv(me, "vmpi_msg_recv_env of the rendezvous message", &r, buf, peer, 10, EM + 3, 91);
    }
    vmpi_env *h2 = vmpi_msg_probe(&me->ep, ctx, peer, 9, true, &st);
    CHECK(me, h2 == h, "probe(src, 9, remove) took a different message than the first probe saw");
    /* with the first tag-9 message taken, a receive gets the second */
    irecv(me, &r, buf, 64, BYTE, ctx, peer, 9);
    wait(&r);
    check_recv(me, "receive after probe(remove) took the first tag-9 message", &r, buf, peer, 9, 44, 92);
    if (r.status.vmpi_count != 44)
        h2 = NULL; /* the receive got the removed message: do not deliver it twice */
    if (h2) {
        memset(&r, 0, sizeof r);
        r.buf = buf;
        r.count = 64;
        r.dt = BYTE;
        r.owner = &me->vp;
        vmpi_msg_recv_env(h2, &r);
        wait(&r);
        check_recv(me, "vmpi_msg_recv_env of the eager message", &r, buf, peer, 9, 33, 90);
    }
    CHECK(me, vmpi_msg_probe(&me->ep, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG, false, &st) == NULL,
          "unexpected queue not empty at the end of the probe case");
    /* blocking probe, as MPI_Probe does it */
    hs_send(me, peer, base + C_HS, 91);
    vmpi_env *e;
    int blocks = 0;
    for (;;) {
        vmpi_pe_poll(me->vp.pe);
        e = vmpi_msg_probe(&me->ep, ctx, peer, 11, false, &st);
        if (e)
            break;
        me->ep.probing = true;
        vmpi_vp_block("test_match probe");
        me->ep.probing = false;
        blocks++;
    }
    CHECK(me, st.MPI_TAG == 11 && st.vmpi_count == 16, "blocking probe: tag %d count %lld", st.MPI_TAG,
          (long long)st.vmpi_count);
    irecv(me, &r, buf, 64, BYTE, ctx, peer, 11);
    wait(&r);
    check_recv(me, "receive after a blocking probe", &r, buf, peer, 11, 16, 95);
    free(buf);
}

/* non-contiguous layouts through both protocols, and synchronous mode */
static const vmpi_dtype_block b_gap[] = {{0, 4, 1, 0}, {8, 4, 1, 0}};
static const vmpi_dtype_elems e_gap[] = {{2, 4}};
static const vmpi_dtype t_gap = {.size = 8, .extent = 16, .true_extent = 12, .nblocks = 2, .blocks = b_gap,
                                 .nelems_runs = 1, .elems = e_gap, .nelems = 2, .name = "gap"};

static void misc_send(rank *me, int peer, int base)
{
    me->scen = "noncontig+sync";
    int ctx = base + C_MISC;
    size_t inst_small = 10, inst_big = EM / 8 + 3; /* 80 bytes eager; > eager_max rendezvous */
    unsigned char *s = xmalloc(inst_big * 16), *l = xmalloc(inst_big * 16);
    fill(s, inst_small * 16, 120);
    fill(l, inst_big * 16, 121);
    vmpi_req r[3];
    isend(me, &r[0], s, (MPI_Count)inst_small, &t_gap, ctx, peer, 1, VMPI_SEND_STD);
    CHECK(me, r[0].complete, "eager non-contiguous send not complete on return");
    fill(s, inst_small * 16, 0); /* overwrite: the receiver must see the original */
    isend(me, &r[1], l, (MPI_Count)inst_big, &t_gap, ctx, peer, 2, VMPI_SEND_STD);
    char sy[8];
    fill(sy, sizeof sy, 122);
    isend(me, &r[2], sy, sizeof sy, BYTE, ctx, peer, 3, VMPI_SEND_SYNC);
    CHECK(me, !r[2].complete, "synchronous send complete before the receiver posted a receive");
    hs_send(me, peer, base + C_HS, 100);
    for (int i = 0; i < 3; i++)
        wait(&r[i]);
    free(s), free(l);
}

static void misc_recv(rank *me, int peer, int base)
{
    me->scen = "noncontig+sync";
    int ctx = base + C_MISC;
    size_t inst_small = 10, inst_big = EM / 8 + 3;
    unsigned char *src = xmalloc(inst_big * 16), *got = xmalloc(inst_big * 16);
    vmpi_req r;
    hs_recv(me, peer, base + C_HS, 100);
    /* eager, into contiguous bytes */
    irecv(me, &r, got, (MPI_Count)(inst_small * 8), BYTE, ctx, peer, 1);
    wait(&r);
    CHECK(me, r.status.vmpi_count == (MPI_Count)(inst_small * 8), "noncontig eager: count %lld",
          (long long)r.status.vmpi_count);
    fill(src, inst_small * 16, 120);
    for (size_t i = 0, k = 0; i < inst_small; i++)
        for (size_t j = 0; j < 8; j++, k++)
            if (got[k] != src[i * 16 + (j < 4 ? j : j + 4)]) {
                CHECK(me, 0, "noncontig eager: packed byte %zu wrong", k);
                i = inst_small;
                break;
            }
    /* rendezvous, into the same non-contiguous layout: gaps untouched */
    memset(got, 0xC3, inst_big * 16);
    irecv(me, &r, got, (MPI_Count)inst_big, &t_gap, ctx, peer, 2);
    wait(&r);
    CHECK(me, r.status.vmpi_count == (MPI_Count)(inst_big * 8) && r.status.MPI_ERROR == MPI_SUCCESS,
          "noncontig rendezvous: count %lld error %d", (long long)r.status.vmpi_count, r.status.MPI_ERROR);
    fill(src, inst_big * 16, 121);
    for (size_t k = 0; k + 4 < inst_big * 16; k++) {
        bool data = (k % 16) < 4 || ((k % 16) >= 8 && (k % 16) < 12);
        if (got[k] != (data ? src[k] : 0xC3)) {
            CHECK(me, 0, "noncontig rendezvous: byte %zu is 0x%02x, expected 0x%02x (%s)", k, got[k],
                  data ? src[k] : 0xC3, data ? "data" : "gap");
            break;
        }
    }
    char sy[8];
    irecv(me, &r, sy, sizeof sy, BYTE, ctx, peer, 3);
    wait(&r);
    check_recv(me, "synchronous send", &r, sy, peer, 3, 8, 122);
    free(src), free(got);
}

/* ---- phases ---- */

typedef struct {
    int from, to;
} pair;

/* phases 0-1: same PE, both directions; 2-3: across PEs, both directions */
static const pair phases[4][2] = {{{0, 1}, {2, 3}}, {{1, 0}, {3, 2}}, {{0, 2}, {3, 1}}, {{2, 0}, {1, 3}}};

static void run_pair(rank *me, int peer, bool sender, int base)
{
    if (sender) {
        ctx_send(me, peer, base);
        unexp_send(me, peer, base);
        posted_send(me, peer, base);
        order_send(me, peer, base);
        trunc_send(me, peer, base);
        cancel_send(me, peer, base);
        probe_send(me, peer, base);
        misc_send(me, peer, base);
    } else {
        ctx_recv(me, peer, base);
        unexp_recv(me, peer, base);
        posted_recv(me, peer, base);
        order_recv(me, peer, base);
        trunc_recv(me, peer, base);
        cancel_recv(me, peer, base);
        probe_recv(me, peer, base);
        misc_recv(me, peer, base);
    }
}

/* many to one: ranks 1, 2, 3 send K messages each to rank 0, tag = sequence number; rank 0 receives with
 * (ANY, ANY), half posted in advance, and each source's messages must come in order */
#define K 30
static size_t m2o_size(int src, int i)
{
    return (i * 7 + src) % 5 == 0 ? EM + 1 + (size_t)i : (size_t)(1 + (i * 37) % 300);
}

static void many_to_one(rank *me, int base)
{
    me->scen = "many-to-one";
    int ctx = base;
    if (me->vp.id != 0) {
        vmpi_req r[K];
        char *b[K];
        for (int i = 0; i < K; i++) {
            size_t n = m2o_size(me->vp.id, i);
            b[i] = xmalloc(n);
            fill(b[i], n, me->vp.id * 100 + i);
            isend(me, &r[i], b[i], (MPI_Count)n, BYTE, ctx, 0, i, VMPI_SEND_STD);
            if (i % 4 == 3)
                vmpi_vp_yield();
        }
        for (int i = 0; i < K; i++) {
            wait(&r[i]);
            free(b[i]);
        }
        return;
    }
    const int total = (NR - 1) * K, pre = total / 2;
    vmpi_req *r = xmalloc(sizeof(vmpi_req) * (size_t)total);
    char **b = xmalloc(sizeof(char *) * (size_t)total);
    MPI_Count cap = (MPI_Count)(EM + 1 + K);
    for (int i = 0; i < total; i++)
        b[i] = xmalloc((size_t)cap);
    for (int i = 0; i < pre; i++)
        irecv(me, &r[i], b[i], cap, BYTE, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG);
    int next[NR] = {0};
    for (int i = 0; i < total; i++) {
        if (i >= pre)
            irecv(me, &r[i], b[i], cap, BYTE, ctx, MPI_ANY_SOURCE, MPI_ANY_TAG);
        wait(&r[i]);
        int s = r[i].status.MPI_SOURCE, t = r[i].status.MPI_TAG;
        if (s < 1 || s >= NR) {
            CHECK(me, 0, "receive %d: source %d", i, s);
            continue;
        }
        CHECK(me, t == next[s], "receive %d: message %d of rank %d where %d was due (overtaking)", i, t, s,
              next[s]);
        char what[64];
        snprintf(what, sizeof what, "receive %d (rank %d message %d)", i, s, t);
        check_recv(me, what, &r[i], b[i], s, t, m2o_size(s, t), s * 100 + t);
        next[s] = t + 1;
    }
    for (int s = 1; s < NR; s++)
        CHECK(me, next[s] == K, "rank %d: %d of %d messages received", s, next[s], K);
    for (int i = 0; i < total; i++)
        free(b[i]);
    free(b);
    free(r);
}

static void rank_main(vmpi_vp *vp)
{
    rank *me = vmpi_container_of(vp, rank, vp);
    me->scen = "start";
    CHECK(me, vmpi_vp_self() == vp, "vmpi_vp_self() is not the running VP");
    CHECK(me, vmpi_pe_self() && vmpi_pe_self()->id == vp->id / 2, "rank %d runs on PE %d, placed on %d", vp->id,
          vmpi_pe_self() ? vmpi_pe_self()->id : -1, vp->id / 2);
    for (int p = 0; p < 4; p++) {
        me->phase = p;
        int base = 16 * p;
        for (int k = 0; k < 2; k++) {
            const pair *pr = &phases[p][k];
            if (pr->from == vp->id)
                run_pair(me, pr->to, true, base);
            else if (pr->to == vp->id)
                run_pair(me, pr->from, false, base);
        }
    }
    me->phase = 4;
    many_to_one(me, 16 * 4);
    me->scen = "end";
    if (me->errs)
        vmpi_vp_exit(10 + vp->id);
}

int main(void)
{
    setenv("VMPI_IDLE_SPIN_US", "20", 1);
    setenv("VMPI_PIN", "0", 1);
    setenv("VMPI_DEADLOCK_CHECK", "1", 1);
    setenv("VMPI_EAGER_MAX", "40000", 1); /* above the largest envelope class: heap envelopes too */
    setenv("VMPI_STACK_SIZE", "256k", 1);
    vmpi_tunables_load();
    EM = vmpi_cfg.eager_max;
    if (EM != 40000) {
        fprintf(stderr, "VMPI_EAGER_MAX=40000 gave eager_max %zu\n", EM);
        return 1;
    }
    BYTE = vmpi_dtype_builtin(MPI_BYTE & 0x03ffffff);
    INT = vmpi_dtype_builtin(MPI_INT & 0x03ffffff);
    vmpi_iso_init(NR, vmpi_cfg.stack_size, vmpi_cfg.iso_base, 64 << 20);
    vmpi_sched_init(0, NPE, NPE);
    vmpi_msg_init(NR, NPE, 1);
    for (int r = 0; r < NR; r++) {
        ranks[r].vp.id = r;
        ranks[r].vp.main = rank_main;
        vmpi_sched_add_vp(&ranks[r].vp, r / 2);
        vmpi_msg_ep_init(&ranks[r].ep, r, &ranks[r].vp, r / 2);
    }
    int rc = vmpi_sched_run();
    int bad = 0;
    if (rc != 0) {
        fprintf(stderr, "vmpi_sched_run() returned %d\n", rc);
        bad = 1;
    }
    for (int r = 0; r < NR; r++)
        if (ranks[r].vp.state != VMPI_VP_DONE) {
            fprintf(stderr, "rank %d not done after vmpi_sched_run() (state %d)\n", r, (int)ranks[r].vp.state);
            bad = 1;
        }
    vmpi_msg_fini();
    vmpi_sched_fini();
    if (bad || atomic_load(&errs)) {
        fprintf(stderr, "test_match: %d error(s)\n", atomic_load(&errs));
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
