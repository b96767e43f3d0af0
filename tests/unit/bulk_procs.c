/* SPDX-License-Identifier: BSD-3-Clause */
/* The bulk exchange of a job-wide step between processes (xport/netjob.h's vmpi_xport_net_bulk, the network
 * plugin's bulk), called as the migration of ranks between processes calls it: by one thread of every
 * process, here the first rank of each.  A rank program linked with the library's objects (as attr_hooks),
 * run as jobs of several processes (tests/CMakeLists.txt); in a one-process job it has nothing to check.
 *   1. every process sends to every process, itself included, six transfers: >1300 small pieces of 0 to 60
 *      bytes (some adjacent) into other cuts of up to 120; one piece of 5 MiB and some into the same layout;
 *      a mix around the length from which a run goes alone (16383, 16384; src/net/bulk.c), 64 KiB, 70001,
 *      200 KB, 3 MiB and small pieces, into cuts of up to 300 KB that split them; nothing, into two empty
 *      pieces; 20000 pieces of 1 to 3 bytes into 7000 of 1 to 10; about 300 pieces of 16 to 24 KiB into the
 *      same layout (many rendezvous at once).  Tags use all 64 bits; odd offsets; the network's handlers
 *      held meanwhile, as in a step.
 *   2. only the first and the last process exchange (the others, with ns = nr = 0, still call);
 *   3. nobody sends anything; 4. the first exchange again, with other bytes.
 * Every byte received is checked, and so are the bytes around every piece (the gaps must keep their fill).
 * BULK_MISMATCH=1: process 1 expects another tag than process 0 sends; the job must stop with its error. */
#include <stdint.h>
#include "xport/netjob.h"
#include "mtest.h"

enum { KINDS = 6, GAP = 0xA5 };

typedef struct layout {
    int n;
    vmpi_net_iov *iov;
    char *mem;        /* what the pieces lie in */
    size_t memlen;
} layout;

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t rnd(uint64_t *s) { return mix((*s)++); }

static uint64_t tag_of(int src, int dst, int kind)
{
    return 0x9e3779b97f4a7c15ull * (uint64_t)(src * 1000 + dst * 10 + kind + 1);
}

static unsigned char byte_at(int src, int dst, int kind, int round, size_t off)
{
    uint64_t h = mix(((uint64_t)src << 40) ^ ((uint64_t)dst << 24) ^ ((uint64_t)kind << 16) ^ (uint64_t)round);
    return (unsigned char)(h + off * 131 + (off >> 9) * 7);
}

static size_t total_of(int src, int dst, int kind)
{
    uint64_t s = mix((uint64_t)(src * 64 + dst) * 8 + (uint64_t)kind);
    switch (kind) {
    case 0: return 40000 + s % 20000;
    case 1: return (5u << 20) + 13 + (size_t)src * 7;
    case 2: return (3u << 20) + 5 + 70001 + 200000 + 16383 + 16384 + 65536 + 17 + 3 + 1 + 100000 + s % 1000;
    case 3: return 0;
    case 4: return 40000 + s % 1000;
    default: return 300 * 20480 + s % 1000;
    }
}

/* Piece lengths adding up to `total`: the sender's (send) or the receiver's cuts of transfer kind. */
static size_t *cuts(int kind, bool send, size_t total, uint64_t seed, int *n)
{
    size_t cap = 64, *len = malloc(sizeof *len * cap), sum = 0;
    int k = 0;
    uint64_t s = seed;
    if (kind == 1) {
        len[k++] = total;
    } else if (kind == 5) {
        while (sum < total) {
            if ((size_t)k == cap)
                len = realloc(len, sizeof *len * (cap *= 2));
            size_t l = 16384 + rnd(&s) % 8192;
            sum += len[k++] = l < total - sum ? l : total - sum;
        }
    } else if (kind == 2 && send) {
        size_t fixed[] = {0, 3, 70001, 1, 200000, 16383, 16384, 65536, 17, 0, (3u << 20) + 5};
        for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
            sum += len[k++] = fixed[i];
        while (sum < total) {
            if ((size_t)k == cap)
                len = realloc(len, sizeof *len * (cap *= 2));
            size_t l = 1 + rnd(&s) % 5000;
            sum += len[k++] = l < total - sum ? l : total - sum;
        }
    } else if (kind == 3) {
        if (!send)
            len[k++] = 0, len[k++] = 0;
    } else {
        size_t lo = kind == 0 ? 0 : 1, hi = kind == 0 ? (send ? 60 : 120) : kind == 2 ? 300000 : (send ? 3 : 10);
        while (sum < total) {
            if ((size_t)k == cap)
                len = realloc(len, sizeof *len * (cap *= 2));
            size_t l = lo + rnd(&s) % (hi - lo + 1);
            sum += len[k++] = l < total - sum ? l : total - sum;
        }
    }
    *n = k;
    return len;
}

/* The pieces in memory: gaps of 0 to 16 bytes between them (0: adjacent), at an odd offset. */
static layout place(const size_t *len, int n, uint64_t seed)
{
    layout L = {n, malloc(sizeof(vmpi_net_iov) * (size_t)(n > 0 ? n : 1)), NULL, 64};
    uint64_t s = seed;
    size_t *gap = malloc(sizeof *gap * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) {
        gap[i] = rnd(&s) % 3 == 0 ? 0 : 1 + rnd(&s) % 16;
        L.memlen += gap[i] + len[i];
    }
    L.mem = malloc(L.memlen);
    memset(L.mem, GAP, L.memlen);
    size_t at = 3 + (size_t)(seed % 5);
    for (int i = 0; i < n; i++) {
        at += gap[i];
        L.iov[i] = (vmpi_net_iov){L.mem + at, len[i]};
        at += len[i];
    }
    free(gap);
    return L;
}

static void unplace(layout *L)
{
    free(L->iov);
    free(L->mem);
}

/* (kind 5: both sides have the same layout) */
static uint64_t seed_of(int src, int dst, int kind, bool send)
{
    return mix((uint64_t)(src * 131 + dst * 17 + kind) * 2 + (send && kind != 5));
}

static layout make(int src, int dst, int kind, bool send)
{
    int n;
    uint64_t seed = seed_of(src, dst, kind, send);
    size_t *len = cuts(kind, send, total_of(src, dst, kind), seed, &n);
    layout L = place(len, n, seed ^ 0x55);
    free(len);
    return L;
}

static void fill(layout *L, int src, int dst, int kind, int round)
{
    size_t off = 0;
    for (int i = 0; i < L->n; i++)
        for (size_t j = 0; j < L->iov[i].len; j++)
            ((unsigned char *)L->iov[i].addr)[j] = byte_at(src, dst, kind, round, off++);
}

static int check(const layout *L, int src, int dst, int kind, int round)
{
    int errs = 0;
    size_t off = 0;
    unsigned char *m = (unsigned char *)L->mem, *in = calloc(L->memlen, 1);
    for (int i = 0; i < L->n; i++) {
        unsigned char *p = L->iov[i].addr;
        for (size_t j = 0; j < L->iov[i].len; j++, off++) {
            in[p - m + j] = 1;
            if (p[j] != byte_at(src, dst, kind, round, off))
                MT_ERR(errs, "round %d, transfer %d of process %d to %d: byte %zu (piece %d of %d) is %#x, expected "
                       "%#x", round, kind, src, dst, off, i, L->n, p[j], byte_at(src, dst, kind, round, off));
        }
    }
    for (size_t j = 0; j < L->memlen; j++)
        if (!in[j] && m[j] != GAP)
            MT_ERR(errs, "round %d, transfer %d of process %d to %d: byte %zu of the memory around the pieces "
                   "was written (%#x)", round, kind, src, dst, j, m[j]);
    free(in);
    return errs;
}

/* Exchange `round`: pattern 0 every process to every process (itself too), 1 only the first and the last
 * process, 2 nothing. */
static int exchange(int round, int pattern, int K, int self, bool hold)
{
    int errs = 0, ns = 0, nr = 0;
    vmpi_net_bulk *sends = malloc(sizeof *sends * (size_t)K * KINDS);
    vmpi_net_bulk *recvs = malloc(sizeof *recvs * (size_t)K * KINDS);
    layout *sl = malloc(sizeof *sl * (size_t)K * KINDS), *rl = malloc(sizeof *rl * (size_t)K * KINDS);
    bool mismatch = getenv("BULK_MISMATCH") && atoi(getenv("BULK_MISMATCH"));
    for (int q = 0; q < K; q++)
        for (int kind = 0; kind < KINDS; kind++) {
            bool to = pattern == 0 || (pattern == 1 && ((self == 0 && q == K - 1 && kind == 2) ||
                                                        (self == K - 1 && q == 0 && kind == 1)));
            bool from = pattern == 0 || (pattern == 1 && ((q == 0 && self == K - 1 && kind == 2) ||
                                                          (q == K - 1 && self == 0 && kind == 1)));
            if (to) {
                sl[ns] = make(self, q, kind, true);
                fill(&sl[ns], self, q, kind, round);
                sends[ns] = (vmpi_net_bulk){q, tag_of(self, q, kind), sl[ns].iov, sl[ns].n};
                ns++;
            }
            if (from) {
                rl[nr] = make(q, self, kind, false);
                uint64_t tag = tag_of(q, self, kind);
                if (mismatch && self == 1 && q == 0 && kind == 1)
                    tag ^= 1;
                recvs[nr] = (vmpi_net_bulk){q, tag, rl[nr].iov, rl[nr].n};
                nr++;
            }
        }
    if (hold)
        vmpi_xport_net_hold(true);
    vmpi_xport_net_bulk(sends, ns, recvs, nr);
    if (hold)
        vmpi_xport_net_hold(false);
    for (int i = 0; i < nr; i++) {
        int kind = 0;
        while (tag_of(recvs[i].proc, self, kind) != recvs[i].tag)
            kind++;
        errs += check(&rl[i], recvs[i].proc, self, kind, round);
        unplace(&rl[i]);
    }
    for (int i = 0; i < ns; i++) {
        int kind = 0;
        while (tag_of(self, sends[i].proc, kind) != sends[i].tag)
            kind++;
        errs += check(&sl[i], self, sends[i].proc, kind, round); /* (a send leaves its pieces as they were) */
        unplace(&sl[i]);
    }
    free(sends);
    free(recvs);
    free(sl);
    free(rl);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, lrank;
    MPI_Comm proc;
    MPI_Init(&argc, &argv);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &proc);
    MPI_Comm_rank(proc, &lrank);
    const vmpi_net_job *job = vmpi_xport_net_job();
    if (job && job->nprocs > 1) {
        const int pattern[] = {0, 1, 2, 0};
        for (int round = 0; round < 4; round++) {
            if (lrank == 0)
                errs += exchange(round, pattern[round], job->nprocs, job->self, round == 0);
            MPI_Barrier(MPI_COMM_WORLD);
        }
    }
    MPI_Comm_free(&proc);
    return mt_finish(errs);
}
