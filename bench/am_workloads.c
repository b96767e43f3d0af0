/* SPDX-License-Identifier: BSD-3-Clause */
/* am_workloads: the two workloads of the MPI-interoperable active-message paper (seed 003; docs/research/rma-am.md
 * 1.8 and 1.9), done with plain MPI (the baselines) and with vmpi's MPIX_Am / MPIX_Amv.
 *
 *   -w search   remote search: the target holds a dataset of 20-character sequences (an index and the
 *               sequences, in its window); a segment is one 20-character query; its answer is every sequence
 *               whose first 12 characters are the query's: 1 to 10 sequences (20 to 200 characters).
 *   -w absval   absolute value: a segment is 100 int32 a[i], preceded by the int32 index of its slot (an active
 *               message's handler gets any subset of the segments in any order, so a segment must say which of
 *               the target's data it goes with); the target holds, per origin and per slot, 100 int32 b[i] and
 *               a result area r[i]; the answer is r[i] = |a[i]| + |b[i]|, stored at the target (r) and
 *               returned (100 int32).
 *
 *   -k mpi-getput    Get + local compute (+ Put): inside MPI_Win_lock(SHARED, target) the origin gets what it
 *                    needs (search: the index entries the query hashes to, then the matching sequences, straight
 *                    into its output; absval: b), computes at home and puts the results (absval: r) back, in
 *                    pipeline stages of up to 1024 segments (one MPI_Win_flush per round of gets).
 *   -k mpi-sendrecv  request-response: the origin sends the segments of a request in one message (MPI_Isend,
 *                    its reply's MPI_Irecv posted first, up to 64 requests in flight), the target serves requests
 *                    in a loop, MPI_Recv(MPI_ANY_SOURCE) / compute / MPI_Send, until every origin has told it to
 *                    stop (at the end of each timed batch).  Search replies carry the per-segment counts and the
 *                    matches packed; the origin unpacks them to the fixed-offset output.
 *   -k am, -k amv    vmpi's active messages (include/vmpi/mpix_am.h; built only where mpi.h declares them):
 *                    inside MPI_Win_lock(SHARED, target) one MPIX_Am (or MPIX_Amv) per request, whose handler is
 *                    the workload's target-side computation (w->serve, the code the send/receive server runs)
 *                    on the persistent data in the target's window; MPIX_Am's search answers end at the first
 *                    empty sequence (its handler fills the rest of the fixed-size answer), MPIX_Amv's count.
 *   -k am-staged, -k amv-staged   the same on a window with the hint am_staged=true (the paper's protocol: input
 *                    and output staged at the target, in the origin's 8 KiB system-buffer partition and in the
 *                    32 MiB of user buffer the target attaches; MPIX_Amv packs below am_pack_threshold).
 *
 *   -x latency       one request of N segments per epoch (N = 1, 2, 4 .. 4096, -m), rank 0 to rank 1: µs per
 *                    epoch (the paper's Fig. 5).
 *   -x throughput    R requests of one segment per epoch (R = 1, 10, 100 .. 100,000, -m, -f 10 by default, the
 *                    largest always included), rank 0 to rank 1: millions of requests per second (Fig. 6).
 *   -x contention    the same with every rank but the last as an origin, all to the last rank (bench/run: 4
 *                    origins, 1 target; Fig. 8), R up to 1,000 by default: aggregate Mreq/s.
 * In latency and throughput modes other ranks take part only in the collectives.  The target is always the
 * last rank.
 *
 * For the paper's figures (bench/am-paper): -M N answers of at most N sequences (the paper's section V-A: 1),
 * -L LEN sequences of LEN characters in the dataset (20 .. 400; default 20, the paper's),
 * -g PCT answers holding PCT% of N sequences on average (deterministic: Fig. 9), -l shared|exclusive the epochs'
 * lock, -r R requests per latency epoch, -F 1 a flush between an epoch's requests (Fig. 5(e)), -s S segments per
 * throughput/contention request, -a N the first row, -U BYTES the target's user buffer, -H KEY=VALUE,... window
 * hints (am_user_buf_T: the target's), -S 1 the active-message counters of each row (comment lines).
 *
 * Output layout, as MPIX_Am's (Fig. 4(b)): segment k's answer at a fixed offset (k x the largest answer) in the
 * origin's output, and a count of answers per segment (search).  Each origin has 4096 slots of input and output;
 * request segments use them in turn (segment s of an epoch: slot s mod 4096).
 *
 * Checks (the data are made by hash functions of the origin, the slot and the parity of the epoch, so that
 * consecutive epochs differ, and each origin can compute every answer on its own, without the target's
 * structures): before each epoch the origin clears one sampled slot, and after it checks that slot's answer
 * against its own computation; after the timed loop of each size one more epoch clears and checks every slot
 * used (two epochs: one of each parity), and (absval) the target's result areas are compared with the origin's
 * answers by checksum.
 *
 * What a workload provides (struct workload) is shared by every method, and w->serve is the target-side
 * computation in the shape of an AM handler (persistent data, segments in, answers out at fixed offsets with
 * per-segment counts, or packed): the send/receive server calls it, and -k am/amv register it. */
#include "bench_common.h"

#define PROG "am_workloads"
#define CHK(call) bench_check_mpi(PROG, (call), #call)

#define NSLOT 4096   /* input/output slots per origin; absval: persistent chunks per origin */
#define PIPE 1024    /* getput: segments per pipeline stage (< NSLOT: no slot twice in one stage) */
#define WINDOW 64    /* sendrecv: requests in flight per origin */
#define TAG_STOP 1
#define TAG_REP 2
#define TAG_REQ 1000 /* + the request's first slot (< NSLOT, so tags stay below 32767) */

/* ---------------------------------------------------------------- hashing */

static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline uint64_t fnv64(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* ---------------------------------------------------------------- remote search */

#define SEQ 20      /* characters per query, and per sequence of the dataset by default (-L: longer) */
#define MAXL 400    /* -L at most */
#define PFX 12      /* a match shares the first PFX characters */
#define MAXM 10     /* matches per query at most (-M: fewer) */
#define NGROUP 16384
#define NBUCKET 65536 /* load factor 1/4 */
#define OVERFLOW 64   /* linear probing runs past the last bucket into these, never wraps */

typedef struct search_hdr {
    uint32_t nbucket, probe, ngroup, nseq; /* probe: the longest probe sequence + 1 */
    uint32_t maxm, seqlen;                 /* answers have room for maxm sequences of seqlen characters */
    uint64_t table_off, seq_off;           /* byte offsets in the window */
} search_hdr;

/* The run's shape of the search dataset: at most maxm sequences per answer (-M; the paper's section V-A
 * returns 1, V-B up to 10), and gen_pct (-g), when not 0, the percentage of maxm the answers hold on average:
 * every group has floor(x) or floor(x) + 1 sequences, x = gen_pct / 100 * maxm, the extra one for a fixed
 * hash-chosen part of the groups, so the generated fraction of the output is deterministic (the paper's
 * Fig. 9).  By default 1 to maxm sequences, uniformly.  seqlen (-L): characters per sequence of the dataset,
 * the query's 20 and then a filler of the sequence's own (bigger answers for the same search). */
typedef struct wparams {
    int maxm, gen_pct, seqlen;
} wparams;

typedef struct search_entry {
    char key[PFX];
    uint32_t first, count; /* the group's sequences; count 0 = empty bucket */
    uint32_t pad;
} search_entry;

static const char ACGT[4] = {'A', 'C', 'G', 'T'};

/* Group g's prefix: a bijection of g into 24 bits, 2 bits per character, so that prefixes are distinct. */
static inline void group_prefix(uint32_t g, char *p)
{
    uint32_t code = ((g * 0x9e3779b1u) ^ 0x5a5a5au) & 0xffffffu;
    for (int i = 0; i < PFX; i++)
        p[i] = ACGT[(code >> (2 * i)) & 3];
}

static inline int group_count(uint32_t g, const wparams *p)
{
    uint64_t x = mix64(g ^ 0x1234abcdull);
    if (p->gen_pct <= 0)
        return 1 + (int)(x % (uint64_t)p->maxm);
    int per100 = p->gen_pct * p->maxm; /* 100 x the mean count */
    int n = per100 / 100 + ((int)(x % 100) < per100 % 100);
    return n < 1 ? 1 : n > p->maxm ? p->maxm : n;
}

/* Sequence j of group g (len characters): the group's prefix, 8 characters of its own, and a filler of its own
 * up to len. */
static inline void group_seq(uint32_t g, int j, char *s, int len)
{
    uint64_t x = mix64(((uint64_t)g << 4 | (uint64_t)j) ^ 0x77aa55ull);
    group_prefix(g, s);
    for (int i = PFX; i < SEQ; i++)
        s[i] = ACGT[(x >> (2 * i)) & 3];
    for (int i = SEQ; i < len; i += 32) {
        uint64_t y = mix64(x + (uint64_t)i);
        for (int k = i; k < len && k < i + 32; k++)
            s[k] = ACGT[(y >> (2 * (k - i))) & 3];
    }
}

static inline uint32_t key_hash(const char *key)
{
    return (uint32_t)fnv64(key, PFX, 0xcbf29ce484222325ull) & (NBUCKET - 1);
}

/* The query of an origin's slot in epochs of one parity, and the group it must find. */
static inline uint32_t search_query(int origin, int parity, int slot, char *q)
{
    uint64_t x = mix64((uint64_t)origin << 32 ^ (uint64_t)parity << 24 ^ (uint64_t)slot ^ 0x51ed2701ull);
    uint32_t g = (uint32_t)(x % NGROUP);
    group_prefix(g, q);
    for (int i = PFX; i < SEQ; i++)
        q[i] = ACGT[(x >> (2 * i + 16)) & 3];
    return g;
}

static size_t search_window_bytes(int norigins, const wparams *p)
{
    (void)norigins;
    size_t nseq = 0;
    for (uint32_t g = 0; g < NGROUP; g++)
        nseq += (size_t)group_count(g, p);
    return sizeof(search_hdr) + (NBUCKET + OVERFLOW) * sizeof(search_entry) + nseq * (size_t)p->seqlen;
}

static void search_build(unsigned char *win, int norigins, const wparams *p)
{
    (void)norigins;
    search_hdr *h = (search_hdr *)win;
    search_entry *t = (search_entry *)(win + sizeof *h);
    memset(h, 0, sizeof *h);
    h->nbucket = NBUCKET;
    h->ngroup = NGROUP;
    h->maxm = (uint32_t)p->maxm;
    h->seqlen = (uint32_t)p->seqlen;
    h->table_off = sizeof *h;
    h->seq_off = sizeof *h + (NBUCKET + OVERFLOW) * sizeof(search_entry);
    memset(t, 0, (NBUCKET + OVERFLOW) * sizeof *t);
    char *seqs = (char *)win + h->seq_off;
    uint32_t nseq = 0;
    for (uint32_t g = 0; g < NGROUP; g++) {
        char key[PFX];
        group_prefix(g, key);
        uint32_t b = key_hash(key), i = b;
        while (t[i].count != 0)
            if (++i >= NBUCKET + OVERFLOW)
                bench_die(PROG, "search index: probing ran past the overflow buckets");
        if (i - b + 1 > h->probe)
            h->probe = i - b + 1;
        memcpy(t[i].key, key, PFX);
        t[i].first = nseq;
        t[i].count = (uint32_t)group_count(g, p);
        for (int j = 0; j < (int)t[i].count; j++)
            group_seq(g, j, seqs + (size_t)(nseq + (uint32_t)j) * (size_t)p->seqlen, p->seqlen);
        nseq += t[i].count;
    }
    if (h->probe > OVERFLOW)
        bench_die(PROG, "search index: a probe sequence is longer than the overflow area");
    h->nseq = nseq;
}

static void search_input(int origin, int parity, int slot, unsigned char *in)
{
    search_query(origin, parity, slot, (char *)in);
}

/* One query against the target's index: copies the matches to dst, returns how many. */
static inline int search_one(const unsigned char *win, const char *q, char *dst)
{
    const search_hdr *h = (const search_hdr *)win;
    const search_entry *t = (const search_entry *)(win + h->table_off);
    for (uint32_t i = key_hash(q); i < h->nbucket + OVERFLOW && t[i].count; i++) {
        if (memcmp(t[i].key, q, PFX))
            continue;
        const size_t len = h->seqlen;
        const char *s = (const char *)win + h->seq_off + (size_t)t[i].first * len;
        int m = 0;
        for (uint32_t j = 0; j < t[i].count; j++, s += len)
            if (!memcmp(s, q, PFX))
                memcpy(dst + (size_t)m++ * len, s, len);
        return m;
    }
    return 0;
}

/* The target side (an AM handler's shape): nseg queries; answers at fixed offsets with counts[k] (or, counts
 * NULL, ended by an empty sequence), or packed as the reply message: int32 counts[nseg], then the matches back
 * to back.  Returns the answer's bytes. */
static size_t search_serve(unsigned char *persist, int nseg, const unsigned char *in, unsigned char *out,
                           int32_t *counts, int packed)
{
    const size_t maxm = ((const search_hdr *)persist)->maxm, len = ((const search_hdr *)persist)->seqlen;
    if (!packed) { /* MPIX_Amv reports the counts; MPIX_Am's answers end at the first empty (zero) sequence */
        for (int k = 0; k < nseg; k++) {
            char *a = (char *)out + (size_t)k * maxm * len;
            int m = search_one(persist, (const char *)in + (size_t)k * SEQ, a);
            if (counts)
                counts[k] = m;
            else
                memset(a + (size_t)m * len, 0, (maxm - (size_t)m) * len);
        }
        return (size_t)nseg * maxm * len;
    }
    int32_t *cnt = (int32_t *)out;
    char *dst = (char *)out + (size_t)nseg * sizeof(int32_t);
    for (int k = 0; k < nseg; k++) {
        cnt[k] = search_one(persist, (const char *)in + (size_t)k * SEQ, dst);
        dst += (size_t)cnt[k] * len;
    }
    return (size_t)(dst - (char *)out);
}

static const char *search_check(int origin, int parity, int slot, const unsigned char *in, const unsigned char *out,
                                int count, const wparams *p)
{
    char q[SEQ], s[MAXL];
    uint32_t g = search_query(origin, parity, slot, q);
    if (memcmp(q, in, SEQ))
        return "the query in the input buffer changed";
    if (count != group_count(g, p))
        return "wrong number of matches";
    for (int j = 0; j < count; j++) {
        group_seq(g, j, s, p->seqlen);
        if (memcmp(s, out + (size_t)j * (size_t)p->seqlen, (size_t)p->seqlen))
            return "a match differs from the dataset's sequence";
    }
    return NULL;
}

/* ---------------------------------------------------------------- absolute value */

#define NINT 100
#define ABS_CHUNK (2 * NINT * sizeof(int32_t)) /* b[100] then r[100], per origin and slot */

static inline int32_t abs_value(uint64_t key)
{
    return (int32_t)(mix64(key) % 2000001u) - 1000000;
}

static inline int32_t abs_b(int origin, int slot, int i)
{
    return abs_value((uint64_t)origin << 40 ^ (uint64_t)slot << 8 ^ (uint64_t)i ^ 0xb0b0ull << 48);
}

static inline int32_t abs_a(int origin, int parity, int slot, int i)
{
    return abs_value((uint64_t)origin << 40 ^ (uint64_t)parity << 32 ^ (uint64_t)slot << 8 ^ (uint64_t)i ^
                     0xa0a0ull << 48);
}

static inline size_t abs_disp(int origin, int slot)
{
    return ((size_t)origin * NSLOT + (size_t)slot) * ABS_CHUNK;
}

static size_t abs_window_bytes(int norigins, const wparams *p)
{
    (void)p;
    return (size_t)norigins * NSLOT * ABS_CHUNK;
}

static void abs_build(unsigned char *win, int norigins, const wparams *p)
{
    (void)p;
    for (int o = 0; o < norigins; o++)
        for (int s = 0; s < NSLOT; s++) {
            int32_t *b = (int32_t *)(win + abs_disp(o, s));
            for (int i = 0; i < NINT; i++) {
                b[i] = abs_b(o, s, i);
                b[NINT + i] = 0;
            }
        }
}

static void abs_input(int origin, int parity, int slot, unsigned char *in)
{
    int32_t *a = (int32_t *)in + 1;
    ((int32_t *)in)[0] = slot;
    for (int i = 0; i < NINT; i++)
        a[i] = abs_a(origin, parity, slot, i);
}

static inline int32_t iabs32(int32_t x)
{
    return x < 0 ? -x : x;
}

/* The target side: persist is the origin's chunks (b, r) of every slot; each segment names its slot. */
static size_t abs_serve(unsigned char *persist, int nseg, const unsigned char *in, unsigned char *out, int32_t *counts,
                        int packed)
{
    (void)packed; /* every answer has 100 int32: packed and fixed offsets are the same */
    for (int k = 0; k < nseg; k++) {
        const int32_t *seg = (const int32_t *)in + (size_t)k * (1 + NINT), *a = seg + 1;
        int32_t *o = (int32_t *)out + (size_t)k * NINT;
        if (seg[0] < 0 || seg[0] >= NSLOT) { /* a handler cannot report an error: an answer the origin refuses */
            memset(o, 0xff, NINT * sizeof *o);
            continue;
        }
        int32_t *b = (int32_t *)(persist + (size_t)seg[0] * ABS_CHUNK);
        for (int i = 0; i < NINT; i++)
            b[NINT + i] = o[i] = iabs32(a[i]) + iabs32(b[i]);
        if (counts)
            counts[k] = NINT;
    }
    return (size_t)nseg * NINT * sizeof(int32_t);
}

static const char *abs_check(int origin, int parity, int slot, const unsigned char *in, const unsigned char *out,
                             int count, const wparams *p)
{
    (void)p;
    const int32_t *a = (const int32_t *)in + 1, *o = (const int32_t *)out;
    (void)count;
    if (((const int32_t *)in)[0] != slot)
        return "the input buffer changed";
    for (int i = 0; i < NINT; i++) {
        int32_t ai = abs_a(origin, parity, slot, i);
        if (a[i] != ai)
            return "the input buffer changed";
        if (o[i] != iabs32(ai) + iabs32(abs_b(origin, slot, i)))
            return "wrong |a| + |b|";
    }
    return NULL;
}

/* ---------------------------------------------------------------- what every method shares */

typedef struct workload {
    const char *name;
    size_t in_bytes, out_bytes; /* per segment: the input, the largest answer */
    size_t (*window_bytes)(int norigins, const wparams *p);
    void (*build)(unsigned char *win, int norigins, const wparams *p); /* the target's persistent data */
    void (*input)(int origin, int parity, int slot, unsigned char *in);
    size_t (*persist_disp)(int origin); /* where an origin's persistent data start */
    size_t (*persist_bytes)(const wparams *p); /* and their size */
    size_t (*serve)(unsigned char *persist, int nseg, const unsigned char *in, unsigned char *out, int32_t *counts,
                    int packed);
    const char *(*check)(int origin, int parity, int slot, const unsigned char *in, const unsigned char *out,
                         int count, const wparams *p);
} workload;

static size_t search_disp(int origin)
{
    (void)origin;
    return 0; /* every query searches the whole dataset */
}

static size_t search_persist_bytes(const wparams *p)
{
    return search_window_bytes(1, p);
}

static size_t abs_persist(int origin)
{
    return abs_disp(origin, 0);
}

static size_t abs_persist_bytes(const wparams *p)
{
    (void)p;
    return (size_t)NSLOT * ABS_CHUNK;
}

static const workload WL_SEARCH = {"search", SEQ, MAXM * SEQ, search_window_bytes, search_build, search_input,
                                   search_disp, search_persist_bytes, search_serve, search_check};
#define IS_SEARCH(w) ((w)->serve == search_serve)
static const workload WL_ABSVAL = {"absval", (1 + NINT) * sizeof(int32_t), NINT * sizeof(int32_t),
                                   abs_window_bytes, abs_build, abs_input, abs_persist, abs_persist_bytes,
                                   abs_serve, abs_check};

enum mode { X_LATENCY, X_THROUGHPUT, X_CONTENTION };

#ifdef MPIX_AM_OP_NULL /* vmpi's mpi.h: active messages */
typedef MPIX_Am_op am_op;
#else
typedef int am_op;
#endif

typedef struct ctx ctx;
typedef struct method {
    const char *name;
    void (*origin_epoch)(ctx *c, int parity, long nreq, int segs); /* one epoch at an origin */
    void (*target_batch)(ctx *c);                                   /* the target's part of a timed batch */
} method;

struct ctx {
    const workload *w;     /* &wl */
    workload wl;           /* the workload, with the run's answer size (-M) */
    wparams prm;
    const method *m;
    enum mode mode;
    int lock_type;         /* -l: getput's and the active messages' epochs */
    int flush;             /* -F: MPI_Win_flush between an epoch's requests (active messages) */
    int opt_segs, opt_nreq; /* -s: segments per request (throughput, contention); -r: requests per epoch (latency) */
    size_t ubuf_bytes;     /* -U: user buffer the target attaches for staged active messages */
    int stats;             /* -S: print the active-message counters of each size */
    int user_buf_hint;     /* -H has an am_user_buf_<rank> hint */
    int rank, nranks, target, norigins; /* origins: ranks 0 .. norigins - 1 */
    MPI_Win win;
    unsigned char *base; /* the target's window memory */
    /* origin */
    unsigned char *in[2];  /* NSLOT inputs per parity */
    unsigned char *out;    /* NSLOT answers at fixed offsets */
    int32_t *counts;       /* NSLOT */
    unsigned char *stage;  /* getput: fetched index entries or b; sendrecv: reply buffers */
    search_hdr hdr;        /* getput search: the target's index header */
    MPI_Request *req;
    /* target (sendrecv) */
    unsigned char *rq, *rp;
    /* active messages */
    size_t wbytes;         /* the target's window */
    am_op op;
    MPI_Datatype seg_dt, oseg_dt, p_dt; /* a query or an int32; an answer sequence or an int32; the persistent data */
    int in_count, out_count, pcount; /* elements per segment; of the persistent data */
    unsigned char *ubuf;   /* the target's attached user buffer */
    /* the size being measured */
    long nreq;
    int segs;
    int full; /* the untimed epoch after a size's timed loop: clear and check every slot used */
};

static inline int is_origin(const ctx *c)
{
    return c->rank < c->norigins;
}

static inline long used_slots(const ctx *c)
{
    long n = c->nreq * c->segs;
    return n < NSLOT ? n : NSLOT;
}

/* ---------------------------------------------------------------- -k mpi-getput */

static void getput_search_stage(ctx *c, int parity, long s0, int n)
{
    const unsigned char *in = c->in[parity];
    const uint32_t P = c->hdr.probe;
    search_entry *ent = (search_entry *)c->stage;
    /* round 1: the index entries each query hashes to */
    for (int j = 0; j < n; j++) {
        int slot = (int)((s0 + j) % NSLOT);
        size_t disp = c->hdr.table_off + (size_t)key_hash((const char *)in + (size_t)slot * SEQ) * sizeof *ent;
        CHK(MPI_Get(ent + (size_t)j * P, (int)(P * sizeof *ent), MPI_BYTE, c->target, (MPI_Aint)disp,
                    (int)(P * sizeof *ent), MPI_BYTE, c->win));
    }
    CHK(MPI_Win_flush(c->target, c->win));
    /* round 2: each query's group of sequences, straight into its answer slot */
    for (int j = 0; j < n; j++) {
        int slot = (int)((s0 + j) % NSLOT);
        const char *q = (const char *)in + (size_t)slot * SEQ;
        const search_entry *e = ent + (size_t)j * P, *hit = NULL;
        for (uint32_t i = 0; i < P && e[i].count && !hit; i++)
            if (!memcmp(e[i].key, q, PFX))
                hit = &e[i];
        if (!hit || (int)hit->count > c->prm.maxm)
            bench_die(PROG, "getput search: the query's prefix is not in the index entries fetched");
        c->counts[slot] = (int32_t)hit->count;
        const int len = c->prm.seqlen;
        size_t disp = c->hdr.seq_off + (size_t)hit->first * (size_t)len;
        CHK(MPI_Get(c->out + (size_t)slot * c->w->out_bytes, (int)hit->count * len, MPI_BYTE, c->target,
                    (MPI_Aint)disp, (int)hit->count * len, MPI_BYTE, c->win));
    }
    CHK(MPI_Win_flush(c->target, c->win));
    /* local compute: keep the sequences that match the query's prefix */
    for (int j = 0; j < n; j++) {
        int slot = (int)((s0 + j) % NSLOT);
        const char *q = (const char *)in + (size_t)slot * SEQ;
        char *a = (char *)c->out + (size_t)slot * c->w->out_bytes;
        int m = 0;
        for (int i = 0; i < c->counts[slot]; i++)
            if (!memcmp(a + (size_t)i * (size_t)c->prm.seqlen, q, PFX)) {
                if (m != i)
                    memmove(a + (size_t)m * (size_t)c->prm.seqlen, a + (size_t)i * (size_t)c->prm.seqlen,
                            (size_t)c->prm.seqlen);
                m++;
            }
        c->counts[slot] = m;
    }
}

static void getput_abs_stage(ctx *c, int parity, long s0, int n)
{
    const unsigned char *in = c->in[parity];
    int32_t *b = (int32_t *)c->stage;
    const int bytes = NINT * (int)sizeof(int32_t);
    for (int j = 0; j < n; j++) {
        int slot = (int)((s0 + j) % NSLOT);
        CHK(MPI_Get(b + (size_t)j * NINT, bytes, MPI_BYTE, c->target, (MPI_Aint)abs_disp(c->rank, slot), bytes,
                    MPI_BYTE, c->win));
    }
    /* also completes the previous stage's puts, whose result areas a later stage may reuse */
    CHK(MPI_Win_flush(c->target, c->win));
    for (int j = 0; j < n; j++) {
        int slot = (int)((s0 + j) % NSLOT);
        const int32_t *a = (const int32_t *)(in + (size_t)slot * c->w->in_bytes) + 1, *bj = b + (size_t)j * NINT;
        int32_t *o = (int32_t *)(c->out + (size_t)slot * bytes);
        for (int i = 0; i < NINT; i++)
            o[i] = iabs32(a[i]) + iabs32(bj[i]);
        c->counts[slot] = NINT;
        CHK(MPI_Put(o, bytes, MPI_BYTE, c->target, (MPI_Aint)(abs_disp(c->rank, slot) + (size_t)bytes), bytes,
                    MPI_BYTE, c->win));
    }
}

/* The requests' segments are independent, so the epoch handles them all in pipeline stages. */
static void getput_epoch(ctx *c, int parity, long nreq, int segs)
{
    long total = nreq * segs;
    CHK(MPI_Win_lock(c->lock_type, c->target, 0, c->win));
    for (long s0 = 0; s0 < total; s0 += PIPE) {
        int n = (int)(total - s0 < PIPE ? total - s0 : PIPE);
        if (IS_SEARCH(c->w))
            getput_search_stage(c, parity, s0, n);
        else
            getput_abs_stage(c, parity, s0, n);
    }
    CHK(MPI_Win_unlock(c->target, c->win));
}

static void getput_target(ctx *c)
{
    (void)c; /* passive: the target computes nothing */
}

/* ---------------------------------------------------------------- -k mpi-sendrecv */

/* Reply buffer bytes of one request of segs segments. */
static inline size_t reply_bytes(const ctx *c, int segs)
{
    return (size_t)segs * (c->w->out_bytes + sizeof(int32_t));
}

static void unpack_search(ctx *c, const unsigned char *rep, int slot0, int segs, int got)
{
    const int32_t *cnt = (const int32_t *)rep;
    const unsigned char *src = rep + (size_t)segs * sizeof(int32_t);
    size_t need = (size_t)segs * sizeof(int32_t);
    for (int k = 0; k < segs; k++) {
        if (cnt[k] < 0 || cnt[k] > c->prm.maxm || need + (size_t)cnt[k] * (size_t)c->prm.seqlen > (size_t)got)
            bench_die(PROG, "sendrecv search: malformed reply");
        c->counts[slot0 + k] = cnt[k];
        memcpy(c->out + (size_t)(slot0 + k) * c->w->out_bytes, src, (size_t)cnt[k] * (size_t)c->prm.seqlen);
        src += (size_t)cnt[k] * (size_t)c->prm.seqlen;
        need += (size_t)cnt[k] * (size_t)c->prm.seqlen;
    }
    if (need != (size_t)got)
        bench_die(PROG, "sendrecv search: reply longer than its counts say");
}

static void sendrecv_epoch(ctx *c, int parity, long nreq, int segs)
{
    const workload *w = c->w;
    MPI_Status *st = (MPI_Status *)(c->req + 2 * WINDOW); /* 2 * WINDOW of them */
    for (long k0 = 0; k0 < nreq; k0 += WINDOW) {
        int n = (int)(nreq - k0 < WINDOW ? nreq - k0 : WINDOW);
        for (int k = 0; k < n; k++) {
            int slot0 = (int)(((k0 + k) * segs) % NSLOT);
            if (IS_SEARCH(w))
                CHK(MPI_Irecv(c->stage + (size_t)k * reply_bytes(c, segs), (int)reply_bytes(c, segs), MPI_BYTE,
                              c->target, TAG_REP, MPI_COMM_WORLD, &c->req[k]));
            else
                CHK(MPI_Irecv(c->out + (size_t)slot0 * w->out_bytes, (int)(segs * w->out_bytes), MPI_BYTE, c->target,
                              TAG_REP, MPI_COMM_WORLD, &c->req[k]));
        }
        for (int k = 0; k < n; k++) {
            int slot0 = (int)(((k0 + k) * segs) % NSLOT);
            CHK(MPI_Isend(c->in[parity] + (size_t)slot0 * w->in_bytes, (int)(segs * w->in_bytes), MPI_BYTE, c->target,
                          TAG_REQ + slot0, MPI_COMM_WORLD, &c->req[n + k]));
        }
        CHK(MPI_Waitall(2 * n, c->req, st)); /* the replies' statuses first */
        for (int k = 0; k < n; k++) {
            int slot0 = (int)(((k0 + k) * segs) % NSLOT), got = -1;
            CHK(MPI_Get_count(&st[k], MPI_BYTE, &got));
            if (IS_SEARCH(w)) {
                unpack_search(c, c->stage + (size_t)k * reply_bytes(c, segs), slot0, segs, got);
            } else {
                if ((size_t)got != segs * w->out_bytes)
                    bench_die(PROG, "sendrecv absval: reply of the wrong size");
                for (int j = 0; j < segs; j++)
                    c->counts[slot0 + j] = NINT;
            }
        }
    }
}

/* Serves requests until every origin sent its stop. */
static void sendrecv_target(ctx *c)
{
    const workload *w = c->w;
    int stops = 0;
    while (stops < c->norigins) {
        MPI_Status st;
        int got = -1;
        CHK(MPI_Recv(c->rq, (int)(NSLOT * w->in_bytes), MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        if (st.MPI_TAG == TAG_STOP) {
            stops++;
            continue;
        }
        CHK(MPI_Get_count(&st, MPI_BYTE, &got));
        int slot0 = st.MPI_TAG - TAG_REQ, nseg = got / (int)w->in_bytes, o = st.MPI_SOURCE;
        if (slot0 < 0 || slot0 + nseg > NSLOT || nseg * (int)w->in_bytes != got || o >= c->norigins)
            bench_die(PROG, "sendrecv target: malformed request");
        size_t n = w->serve(c->base + w->persist_disp(o), nseg, c->rq, c->rp, NULL, 1);
        CHK(MPI_Send(c->rp, (int)n, MPI_BYTE, o, TAG_REP, MPI_COMM_WORLD));
    }
}

/* ---------------------------------------------------------------- -k am, -k amv (vmpi's MPIX_Am / MPIX_Amv) */

#ifdef MPIX_AM_OP_NULL
#define AM_USER_BUFFER ((size_t)32 << 20) /* what the target attaches for staged active messages (the paper's; -U) */

/* The handlers: the workload's target-side computation, answers at fixed offsets.  extra_state is the
 * registering rank's workload (its own copy of the program's data). */
static void am_handler(const void *in, int in_count, MPI_Datatype in_dt, void *persist, int pcount, MPI_Datatype pdt,
                       void *out, int out_count, MPI_Datatype out_dt, int nseg, void *extra)
{
    (void)in_count, (void)in_dt, (void)pcount, (void)pdt, (void)out_count, (void)out_dt;
    const workload *w = extra;
    w->serve(persist, nseg, in, out, NULL, 0);
}

static void amv_handler(const void *in, int in_count, MPI_Datatype in_dt, void *persist, int pcount,
                        MPI_Datatype pdt, void *out, int out_count, MPI_Datatype out_dt, int nseg, int *counts,
                        void *extra)
{
    (void)in_count, (void)in_dt, (void)pcount, (void)pdt, (void)out_count, (void)out_dt;
    const workload *w = extra;
    w->serve(persist, nseg, in, out, counts, 0);
}

/* The datatypes of one segment: search moves sequences (counts are in sequences), absval int32. */
static void am_types(ctx *c)
{
    if (IS_SEARCH(c->w)) {
        CHK(MPI_Type_contiguous(SEQ, MPI_CHAR, &c->seg_dt));
        CHK(MPI_Type_commit(&c->seg_dt));
        CHK(MPI_Type_contiguous(c->prm.seqlen, MPI_CHAR, &c->oseg_dt));
        CHK(MPI_Type_commit(&c->oseg_dt));
        c->in_count = 1;
        c->out_count = c->prm.maxm;
        c->p_dt = MPI_BYTE;
        c->pcount = (int)c->w->persist_bytes(&c->prm);
    } else {
        c->seg_dt = c->oseg_dt = MPI_INT32_T;
        c->in_count = 1 + NINT; /* the slot, then a */
        c->out_count = NINT;
        c->p_dt = MPI_INT32_T;
        c->pcount = (int)(c->w->persist_bytes(&c->prm) / sizeof(int32_t));
    }
}

static void am_setup(ctx *c)
{
    int vector = strstr(c->m->name, "amv") != NULL;
    am_types(c);
    CHK(vector ? MPIX_Amv_op_create(amv_handler, (void *)c->w, &c->op)
               : MPIX_Am_op_create(am_handler, (void *)c->w, &c->op));
    if (c->rank == c->target && c->ubuf_bytes > 0) {
        c->ubuf = bench_alloc(PROG, c->ubuf_bytes);
        CHK(MPIX_Am_win_buffer_attach(c->ubuf, (MPI_Aint)c->ubuf_bytes, c->win));
    }
}

/* -S: the active-message counters of the origins (VMPIX_Am_win_stats), summed at rank 0; reset when read. */
static void am_stats(ctx *c, size_t row, int print)
{
    VMPIX_Am_stats st;
    long long v[6] = {0}, sum[6];
    memset(&st, 0, sizeof st);
    if (is_origin(c)) {
        CHK(VMPIX_Am_win_stats(c->win, &st, 1));
        long long x[6] = {st.ams, st.invocations, st.syncs, st.staged_in_bytes, st.staged_out_bytes,
                          st.returned_bytes};
        memcpy(v, x, sizeof v);
    }
    CHK(MPI_Reduce(v, sum, 6, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD));
    if (print && c->rank == 0) {
        printf("# am-stats %zu ams %lld invocations %lld syncs %lld staged_in %lld staged_out %lld returned %lld\n",
               row, sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]);
        fflush(stdout);
    }
}

static void am_teardown(ctx *c)
{
    /* space guaranteed to origins (am_user_buf_<rank> hints) is theirs until MPI_Win_free: a detach of its
     * buffer before would fail (MPI_ERR_PENDING) */
    if (c->rank == c->target && c->ubuf && !c->user_buf_hint)
        CHK(MPIX_Am_win_buffer_detach(c->ubuf, c->win));
    CHK(MPIX_Am_op_free(&c->op));
    if (IS_SEARCH(c->w)) {
        CHK(MPI_Type_free(&c->seg_dt));
        CHK(MPI_Type_free(&c->oseg_dt));
    }
}

static void am_epoch(ctx *c, int parity, long nreq, int segs)
{
    const workload *w = c->w;
    const int vector = strstr(c->m->name, "amv") != NULL;
    CHK(MPI_Win_lock(c->lock_type, c->target, 0, c->win));
    for (long k = 0; k < nreq; k++) {
        if (k > 0 && c->flush) /* the paper's Fig. 5(e): active messages separated by flushes */
            CHK(MPI_Win_flush(c->target, c->win));
        int slot0 = (int)((k * segs) % NSLOT);
        const unsigned char *in = c->in[parity] + (size_t)slot0 * w->in_bytes;
        unsigned char *out = c->out + (size_t)slot0 * w->out_bytes;
        MPI_Aint disp = (MPI_Aint)w->persist_disp(c->rank);
        if (vector)
            CHK(MPIX_Amv(in, c->in_count, c->seg_dt, out, c->out_count, c->oseg_dt, segs, c->target, c->seg_dt, disp,
                         c->pcount, c->p_dt, c->oseg_dt, c->counts + slot0, c->op, c->win));
        else
            CHK(MPIX_Am(in, c->in_count, c->seg_dt, out, c->out_count, c->oseg_dt, segs, c->target, c->seg_dt, disp,
                        c->pcount, c->p_dt, c->oseg_dt, c->op, c->win));
    }
    CHK(MPI_Win_unlock(c->target, c->win));
    if (vector)
        return;
    /* MPIX_Am: the answers' counts, from the answers (the user's side of a fixed-size output) */
    long used = used_slots(c);
    for (long s = 0; s < used; s++) {
        int m = NINT;
        if (IS_SEARCH(w))
            for (m = 0; m < c->prm.maxm && c->out[(size_t)s * w->out_bytes + (size_t)m * (size_t)c->prm.seqlen]; m++)
                ;
        c->counts[s] = m;
    }
}
#else
static void am_setup(ctx *c)
{
    (void)c;
    bench_die(PROG, "-k am, amv, am-staged and amv-staged need MPIX_Am/MPIX_Amv (vmpi), which this MPI does not have");
}

static void am_teardown(ctx *c)
{
    (void)c;
}

static void am_stats(ctx *c, size_t row, int print)
{
    (void)c, (void)row, (void)print;
}

static void am_epoch(ctx *c, int parity, long nreq, int segs)
{
    (void)c, (void)parity, (void)nreq, (void)segs;
}
#endif

static void am_target(ctx *c)
{
    (void)c; /* the handlers run without the target */
}

static const method METHODS[] = {
    {"mpi-getput", getput_epoch, getput_target},
    {"mpi-sendrecv", sendrecv_epoch, sendrecv_target},
    {"am", am_epoch, am_target},
    {"amv", am_epoch, am_target},
    {"am-staged", am_epoch, am_target},
    {"amv-staged", am_epoch, am_target},
};

/* ---------------------------------------------------------------- timing and checks */

static void die_check(const ctx *c, long it, int slot, const char *why)
{
    char msg[256];
    snprintf(msg, sizeof msg, "%s check failed (-w %s -k %s): origin %d, epoch %ld, slot %d, %ld request(s) of %d "
             "segment(s): %s", c->full ? "full" : "sampled", c->w->name, c->m->name, c->rank, it, slot, c->nreq,
             c->segs, why);
    bench_die(PROG, msg);
}

static void body(void *p, long first, long count)
{
    ctx *c = p;
    const workload *w = c->w;
    if (is_origin(c)) {
        long used = used_slots(c);
        for (long it = first; it < first + count; it++) {
            int parity = (int)(it & 1);
            int lo = (int)((uint64_t)mix64((uint64_t)it) % (uint64_t)used), hi = lo + 1;
            if (c->full)
                lo = 0, hi = (int)used;
            for (int s = lo; s < hi; s++) { /* the answers to check: cleared first */
                memset(c->out + (size_t)s * w->out_bytes, 0xff, w->out_bytes);
                c->counts[s] = -1;
            }
            c->m->origin_epoch(c, parity, c->nreq, c->segs);
            for (int s = lo; s < hi; s++) {
                const char *why = w->check(c->rank, parity, s, c->in[parity] + (size_t)s * w->in_bytes,
                                           c->out + (size_t)s * w->out_bytes, c->counts[s], &c->prm);
                if (why)
                    die_check(c, it, s, why);
            }
        }
        if (c->m->target_batch == sendrecv_target)
            CHK(MPI_Send(NULL, 0, MPI_BYTE, c->target, TAG_STOP, MPI_COMM_WORLD));
    } else if (c->rank == c->target) {
        c->m->target_batch(c);
    }
    if (c->mode == X_CONTENTION) /* so that rank 0's time covers every origin */
        CHK(MPI_Barrier(MPI_COMM_WORLD));
}

/* absval, after the full check: the target's result areas hold what each origin received. */
static void check_results(ctx *c)
{
    long used = used_slots(c);
    const size_t bytes = NINT * sizeof(int32_t);
    CHK(MPI_Barrier(MPI_COMM_WORLD));
    if (c->rank == c->target) {
        if (c->m->target_batch != sendrecv_target) /* written by one-sided operations */
            CHK(MPI_Win_lock(MPI_LOCK_SHARED, c->rank, 0, c->win));
        for (int o = 0; o < c->norigins; o++) {
            uint64_t h = 0xcbf29ce484222325ull;
            for (long s = 0; s < used; s++)
                h = fnv64(c->base + abs_disp(o, (int)s) + bytes, bytes, h);
            CHK(MPI_Send(&h, 1, MPI_UINT64_T, o, TAG_REP, MPI_COMM_WORLD));
        }
        if (c->m->target_batch != sendrecv_target)
            CHK(MPI_Win_unlock(c->rank, c->win));
    } else if (is_origin(c)) {
        uint64_t h = 0xcbf29ce484222325ull, got = 0;
        for (long s = 0; s < used; s++)
            h = fnv64(c->out + (size_t)s * bytes, bytes, h);
        CHK(MPI_Recv(&got, 1, MPI_UINT64_T, c->target, TAG_REP, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        if (got != h)
            die_check(c, -1, -1, "the target's result areas differ from the answers the origin received");
    }
}

static const method *find_method(const char *name)
{
    for (size_t i = 0; i < sizeof METHODS / sizeof METHODS[0]; i++)
        if (!strcmp(METHODS[i].name, name))
            return &METHODS[i];
    bench_die(PROG, "-k takes mpi-getput, mpi-sendrecv, am, amv, am-staged or amv-staged");
    return NULL;
}

int main(int argc, char **argv)
{
    bench_opts o;
    ctx c;
    memset(&c, 0, sizeof c);
    MPI_Init(&argc, &argv);
    CHK(MPI_Comm_rank(MPI_COMM_WORLD, &c.rank));
    CHK(MPI_Comm_size(MPI_COMM_WORLD, &c.nranks));
    const char *wname = bench_take_opt(PROG, &argc, argv, "-w", "search");
    const char *kname = bench_take_opt(PROG, &argc, argv, "-k", "mpi-getput");
    const char *xname = bench_take_opt(PROG, &argc, argv, "-x", "latency");
    /* the reproduction of the paper's figures (bench/am-paper): the dataset's shape, the epochs' shape,
     * window hints, and the active-message counters */
    const char *mname = bench_take_opt(PROG, &argc, argv, "-M", "10");
    const char *gname = bench_take_opt(PROG, &argc, argv, "-g", "0");
    const char *Lname = bench_take_opt(PROG, &argc, argv, "-L", "20");
    const char *lname = bench_take_opt(PROG, &argc, argv, "-l", "shared");
    const char *sname = bench_take_opt(PROG, &argc, argv, "-s", "1");
    const char *rname = bench_take_opt(PROG, &argc, argv, "-r", "1");
    const char *aname = bench_take_opt(PROG, &argc, argv, "-a", "1");
    const char *uname = bench_take_opt(PROG, &argc, argv, "-U", "33554432");
    const char *hname = bench_take_opt(PROG, &argc, argv, "-H", "");
    c.user_buf_hint = strstr(hname, "am_user_buf_") != NULL;
    c.flush = !strcmp(bench_take_opt(PROG, &argc, argv, "-F", "0"), "1");
    c.stats = !strcmp(bench_take_opt(PROG, &argc, argv, "-S", "0"), "1");
    int has_f = 0;
    for (int i = 1; i < argc; i++)
        has_f |= !strcmp(argv[i], "-f");
    const workload *tmpl = !strcmp(wname, "search") ? &WL_SEARCH : !strcmp(wname, "absval") ? &WL_ABSVAL : NULL;
    if (!tmpl)
        bench_die(PROG, "-w takes search or absval");
    c.prm.maxm = atoi(mname);
    c.prm.gen_pct = atoi(gname);
    c.prm.seqlen = atoi(Lname);
    if (c.prm.maxm < 1 || c.prm.maxm > MAXM || c.prm.gen_pct < 0 || c.prm.gen_pct > 100 || c.prm.seqlen < SEQ ||
        c.prm.seqlen > MAXL)
        bench_die(PROG, "-M takes 1 .. 10 (sequences per answer at most), -g 0 .. 100 (percent generated; 0: 1 .. M), "
                        "-L 20 .. 400 (characters per sequence)");
    c.wl = *tmpl;
    if (IS_SEARCH(tmpl))
        c.wl.out_bytes = (size_t)c.prm.maxm * (size_t)c.prm.seqlen;
    c.w = &c.wl;
    if (strcmp(lname, "shared") && strcmp(lname, "exclusive"))
        bench_die(PROG, "-l takes shared or exclusive");
    c.lock_type = !strcmp(lname, "shared") ? MPI_LOCK_SHARED : MPI_LOCK_EXCLUSIVE;
    c.opt_segs = atoi(sname);
    c.opt_nreq = atoi(rname);
    c.ubuf_bytes = (size_t)strtoull(uname, NULL, 10);
    size_t first = (size_t)strtoull(aname, NULL, 10);
    if (c.opt_segs < 1 || NSLOT % c.opt_segs || c.opt_nreq < 1 || c.opt_nreq > 1000000 || first < 1)
        bench_die(PROG, "-s takes a divisor of 4096, -r 1 .. 1000000, -a a positive number");
    c.m = find_method(kname);
    if (strcmp(xname, "latency") && strcmp(xname, "throughput") && strcmp(xname, "contention"))
        bench_die(PROG, "-x takes latency, throughput or contention");
    c.mode = !strcmp(xname, "latency") ? X_LATENCY : !strcmp(xname, "throughput") ? X_THROUGHPUT : X_CONTENTION;
    bench_parse_opts(PROG, argc, argv, &o, c.mode == X_LATENCY ? NSLOT : c.mode == X_THROUGHPUT ? 100000 : 1000);
    if (!has_f && c.mode != X_LATENCY)
        o.factor = 10;
    if (c.nranks < 2)
        bench_die(PROG, "needs at least 2 ranks");
    if (c.mode == X_LATENCY && o.max_size > NSLOT)
        bench_die(PROG, "-x latency: at most 4096 segments per request (-m)");
    if (o.max_size < 1 || o.max_size > 100000000 || first > o.max_size)
        bench_die(PROG, "-m out of range (or below -a)");
    c.target = c.nranks - 1;
    c.norigins = c.mode == X_CONTENTION ? c.nranks - 1 : 1;
    const workload *w = c.w;
    const int lat = c.mode == X_LATENCY;
    /* sendrecv: the requests in flight must not share answer slots */
    long inflight = lat ? (c.opt_nreq < WINDOW ? c.opt_nreq : WINDOW) : WINDOW;
    size_t maxsegs = lat ? o.max_size : (size_t)c.opt_segs;
    if (c.m->origin_epoch == sendrecv_epoch && (size_t)inflight * maxsegs > NSLOT)
        bench_die(PROG, "-k mpi-sendrecv: requests in flight (64, or -r) x segments per request exceed 4096 slots");

    /* the window: the target's persistent data; hints: am_staged for -staged methods, and -H KEY=VALUE,... (a
     * key am_user_buf_T names the target: am_user_buf_<its rank>) */
    const int am = c.m->origin_epoch == am_epoch;
    MPI_Info info = MPI_INFO_NULL;
    c.wbytes = w->window_bytes(c.norigins, &c.prm);
    if (strstr(c.m->name, "-staged") || *hname) {
        CHK(MPI_Info_create(&info));
        if (strstr(c.m->name, "-staged"))
            CHK(MPI_Info_set(info, "am_staged", "true"));
        char hints[512], key[64];
        snprintf(hints, sizeof hints, "%s", hname);
        for (char *save = NULL, *kv = strtok_r(hints, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
            char *eq = strchr(kv, '=');
            if (!eq || eq == kv)
                bench_die(PROG, "-H takes KEY=VALUE[,KEY=VALUE...]");
            *eq = '\0';
            if (!strcmp(kv, "am_user_buf_T"))
                snprintf(key, sizeof key, "am_user_buf_%d", c.target);
            else
                snprintf(key, sizeof key, "%s", kv);
            CHK(MPI_Info_set(info, key, eq + 1));
        }
    }
    CHK(MPI_Win_allocate(c.rank == c.target ? (MPI_Aint)c.wbytes : 0, 1, info, MPI_COMM_WORLD, &c.base, &c.win));
    if (info != MPI_INFO_NULL)
        CHK(MPI_Info_free(&info));
    if (c.rank == c.target) {
        CHK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c.rank, 0, c.win));
        w->build(c.base, c.norigins, &c.prm);
        CHK(MPI_Win_unlock(c.rank, c.win));
        c.rq = bench_alloc(PROG, NSLOT * w->in_bytes);
        c.rp = bench_alloc(PROG, (size_t)NSLOT * (w->out_bytes + sizeof(int32_t)));
    }
    if (am)
        am_setup(&c);
    CHK(MPI_Barrier(MPI_COMM_WORLD));
    if (is_origin(&c)) {
        for (int p = 0; p < 2; p++) {
            c.in[p] = bench_alloc(PROG, NSLOT * w->in_bytes);
            for (int s = 0; s < NSLOT; s++)
                w->input(c.rank, p, s, c.in[p] + (size_t)s * w->in_bytes);
        }
        c.out = bench_alloc(PROG, NSLOT * w->out_bytes);
        c.counts = (int32_t *)bench_alloc(PROG, NSLOT * sizeof(int32_t));
        /* getput: fetched index entries (probe <= OVERFLOW) or b, per stage; sendrecv: the replies in flight */
        size_t st = (size_t)PIPE * OVERFLOW * sizeof(search_entry);
        if (st < (size_t)NSLOT * (w->out_bytes + sizeof(int32_t)))
            st = (size_t)NSLOT * (w->out_bytes + sizeof(int32_t));
        if (st < (size_t)inflight * maxsegs * (w->out_bytes + sizeof(int32_t)))
            st = (size_t)inflight * maxsegs * (w->out_bytes + sizeof(int32_t));
        c.stage = bench_alloc(PROG, st);
        c.req = (MPI_Request *)bench_alloc(PROG, 2 * WINDOW * (sizeof(MPI_Request) + sizeof(MPI_Status)));
        if (IS_SEARCH(w) && c.m->origin_epoch == getput_epoch) { /* the index's shape, once */
            CHK(MPI_Win_lock(MPI_LOCK_SHARED, c.target, 0, c.win));
            CHK(MPI_Get(&c.hdr, (int)sizeof c.hdr, MPI_BYTE, c.target, 0, (int)sizeof c.hdr, MPI_BYTE, c.win));
            CHK(MPI_Win_unlock(c.target, c.win));
            if (c.hdr.probe < 1 || c.hdr.probe > OVERFLOW || c.hdr.nbucket != NBUCKET)
                bench_die(PROG, "getput search: implausible index header");
        }
    }
    bench_header(PROG, c.rank, c.nranks, lat ? "us" : "Mreq/s", lat ? "latency_us" : "rate_Mreqps");
    if (c.rank == 0) {
        printf("# workload: %s; method: %s; mode: %s; origins: %d; target: rank %d; rows: %s\n", w->name, c.m->name,
               xname, c.norigins, c.target, lat ? "segments per request" : "requests per epoch");
        printf("# shape: %d request(s) per epoch (latency), %d segment(s) per request (throughput), lock %s%s; "
               "search answers up to %d sequences of %d characters, %d%% generated (0: 1 .. that many, uniformly); "
               "hints: %s; user buffer %zu bytes\n", c.opt_nreq, c.opt_segs, lname,
               c.flush ? ", flush between requests" : "", c.prm.maxm, c.prm.seqlen, c.prm.gen_pct,
               *hname ? hname : "none", c.ubuf_bytes);
        fflush(stdout);
    }

    for (size_t n = first; n <= o.max_size;) {
        c.nreq = lat ? c.opt_nreq : (long)n;
        c.segs = lat ? (int)n : c.opt_segs;
        long work = c.nreq * c.segs;
        long nominal = (lat ? 200000 : 1000000) / work;
        nominal = nominal < 5 ? 5 : nominal > 10000 ? 10000 : nominal;
        long skip = nominal / 50 < 2 ? 2 : nominal / 50 > 100 ? 100 : nominal / 50;
        c.full = 0;
        if (am && c.stats)
            am_stats(&c, n, 0); /* reset */
        double t = bench_time(PROG, c.rank, &o, body, &c, bench_scaled((int)skip, &o, 2),
                              bench_scaled((int)nominal, &o, 5), 5);
        if (am && c.stats)
            am_stats(&c, n, 1); /* every timed and warm-up epoch of this size */
        c.full = 1;
        body(&c, 3, 1); /* an odd epoch, then an even one: every slot of both inputs */
        body(&c, 4, 1);
        if (!IS_SEARCH(w))
            check_results(&c);
        CHK(MPI_Barrier(MPI_COMM_WORLD));
        if (c.rank == 0) {
            printf("%zu %.6g\n", n, lat ? t * 1e6 : (double)c.norigins * (double)c.nreq / t / 1e6);
            fflush(stdout);
        }
        if (n == o.max_size)
            break;
        n = n * o.factor > o.max_size ? o.max_size : n * o.factor; /* the largest size always included */
    }
    bench_footer(c.rank);
    if (am)
        am_teardown(&c);
    CHK(MPI_Win_free(&c.win));
    if (is_origin(&c)) {
        free(c.in[0]);
        free(c.in[1]);
        free(c.out);
        free(c.counts);
        free(c.stage);
        free(c.req);
    }
    free(c.rq);
    free(c.rp);
    free(c.ubuf);
    MPI_Finalize();
    return 0;
}
