/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the isomalloc layer (src/iso/), through the malloc-family entry points the start object
 * calls, with this thread playing a running rank (vmpi_iso_enter):
 *   - every size from 0 to 20 KiB and random ones up to 8 MiB: inside the slot, 16-byte aligned, usable
 *     size >= asked and < 1.25x + 16 for small blocks, no overlap (patterns survive), free in random order;
 *   - memalign / posix_memalign / aligned_alloc / valloc / pvalloc for alignments 1 B .. 1 MiB, bad
 *     alignments (EINVAL), usable size;
 *   - realloc growing from 1 B to 4 MiB and back keeps the contents; realloc(NULL), realloc(p, 0); calloc
 *     gives zeros on reused memory, overflow gives ENOMEM;
 *   - frees from another thread (remote frees) are taken back: the heap does not grow in a steady
 *     alloc / remote-free exchange, nor in a steady local alloc/free loop; large runs coalesce and the
 *     top comes back down;
 *   - outside any rank the system allocator answers; realloc of a slot's block from there moves it out;
 *   - a slot of 4 MiB runs out: NULL with ENOMEM, and allocation works again after a free;
 *   - the used extents cover the stack from sp, the header and the heap up to its top;
 *   - the slot layout: the stack lies in the slot above its guard (an eighth of the slot, 1 MiB at most). */
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/tunables.h"
#include "iso/heap.h"
#include "iso/iso.h"

#include "unit_check.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill(void *p, size_t n, unsigned seed)
{
    unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        c[i] = (unsigned char)(seed + i * 7);
}
static bool intact(const void *p, size_t n, unsigned seed)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != (unsigned char)(seed + i * 7))
            return false;
    return true;
}

static void check_block(const char *what, void *p, size_t n, size_t align, int slot)
{
    CHECK(p != NULL, "%s(%zu): NULL", what, n);
    if (p == NULL)
        return;
    CHECK(vmpi_iso_slot_of(p) == slot, "%s(%zu) = %p: in slot %d, expected %d", what, n, p, vmpi_iso_slot_of(p),
          slot);
    CHECK(((uintptr_t)p & (align - 1)) == 0, "%s(%zu) = %p: not aligned to %zu", what, n, p, align);
    size_t u = vmpi_iso_malloc_usable_size(p);
    CHECK(u >= n, "%s(%zu): usable size %zu", what, n, u);
}

static void sizes(int slot)
{
    enum { N = 20481 };
    void **v = malloc(sizeof(void *) * N);
    for (size_t n = 0; n < N; n++) {
        v[n] = vmpi_iso_malloc(n);
        check_block("malloc", v[n], n, 16, slot);
        size_t u = vmpi_iso_malloc_usable_size(v[n]);
        if (n <= 16384)
            CHECK(u <= n + n / 4 + 16, "malloc(%zu): usable size %zu is more than the next class", n, u);
        fill(v[n], n, (unsigned)n);
    }
    for (size_t n = 0; n < N; n++)
        CHECK(intact(v[n], n, (unsigned)n), "malloc(%zu): contents overwritten (overlap)", n);
    for (size_t i = N - 1; i > 0; i--) { /* free in random order */
        size_t j = rnd() % (i + 1);
        void *t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    for (size_t n = 0; n < N; n++)
        vmpi_iso_free(v[n]);
    /* random sizes up to 8 MiB, 200 live at a time */
    enum { L = 200 };
    void *live[L] = {0};
    size_t len[L] = {0};
    for (int k = 0; k < 3000; k++) {
        int i = (int)(rnd() % L);
        if (live[i]) {
            CHECK(intact(live[i], len[i], (unsigned)i), "random block of %zu bytes overwritten", len[i]);
            vmpi_iso_free(live[i]);
        }
        int shift = (int)(rnd() % 23);
        len[i] = rnd() % ((size_t)1 << shift) + 1;
        live[i] = vmpi_iso_malloc(len[i]);
        check_block("malloc", live[i], len[i], 16, slot);
        fill(live[i], len[i] < 4096 ? len[i] : 4096, (unsigned)i);
        if (len[i] > 4096)
            len[i] = 4096;
    }
    for (int i = 0; i < L; i++)
        vmpi_iso_free(live[i]);
    free(v);
}

static void aligned(int slot)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    static const size_t ns[] = {0, 1, 15, 100, 4095, 4096, 5000, 16384, 20000, 300000};
    for (size_t a = 1; a <= ((size_t)1 << 20); a *= 2)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            size_t n = ns[k];
            void *p = vmpi_iso_memalign(a, n);
            check_block("memalign", p, n, a, slot);
            fill(p, n, 3);
            void *q = NULL;
            int rc = vmpi_iso_posix_memalign(&q, a, n);
            if (a < sizeof(void *)) {
                CHECK(rc == EINVAL, "posix_memalign(%zu): %d, expected EINVAL", a, rc);
            } else {
                CHECK(rc == 0, "posix_memalign(%zu, %zu): %d", a, n, rc);
                check_block("posix_memalign", q, n, a, slot);
                vmpi_iso_free(q);
            }
            void *r = vmpi_iso_aligned_alloc(a, n);
            check_block("aligned_alloc", r, n, a, slot);
            CHECK(intact(p, n, 3), "memalign(%zu, %zu): contents overwritten", a, n);
            vmpi_iso_free(r);
            vmpi_iso_free(p);
        }
    void *q = NULL;
    CHECK(vmpi_iso_posix_memalign(&q, 24, 10) == EINVAL, "posix_memalign(24) should fail with EINVAL");
    void *p = vmpi_iso_memalign(24, 10); /* rounded up to 32, as glibc does */
    check_block("memalign(24)", p, 10, 32, slot);
    vmpi_iso_free(p);
    p = vmpi_iso_valloc(10);
    check_block("valloc", p, 10, page, slot);
    vmpi_iso_free(p);
    p = vmpi_iso_pvalloc(10);
    check_block("pvalloc", p, page, page, slot);
    vmpi_iso_free(p);
    p = vmpi_iso_pvalloc(0);
    check_block("pvalloc(0)", p, page, page, slot);
    vmpi_iso_free(p);
}

static void reallocs(int slot)
{
    unsigned char *p = vmpi_iso_realloc(NULL, 1);
    check_block("realloc(NULL)", p, 1, 16, slot);
    p[0] = 0;
    size_t n = 1;
    while (n < ((size_t)4 << 20)) { /* grow: every byte written so far must follow */
        size_t m = n + n / 2 + 1;
        p = vmpi_iso_realloc(p, m);
        check_block("realloc grow", p, m, 16, slot);
        if (p == NULL)
            return;
        for (size_t i = n; i < m; i++)
            p[i] = (unsigned char)(i * 13);
        n = m;
    }
    bool ok = true;
    for (size_t i = 1; i < n && ok; i++)
        ok = p[i] == (unsigned char)(i * 13);
    CHECK(ok, "realloc growth lost contents");
    while (n > 1) { /* shrink */
        n = n / 3;
        p = vmpi_iso_realloc(p, n ? n : 1);
        check_block("realloc shrink", p, n, 16, slot);
        ok = true;
        for (size_t i = 1; i < n && ok; i++)
            ok = p[i] == (unsigned char)(i * 13);
        CHECK(ok, "realloc shrink to %zu lost contents", n);
    }
    errno = 0;
    CHECK(vmpi_iso_realloc(p, 0) == NULL, "realloc(p, 0) should free and return NULL");
    /* calloc on dirty memory */
    for (size_t sz = 16; sz <= ((size_t)2 << 20); sz *= 8) {
        void *d = vmpi_iso_malloc(sz);
        memset(d, 0xff, sz);
        vmpi_iso_free(d);
        unsigned char *z = vmpi_iso_calloc(1, sz);
        check_block("calloc", z, sz, 16, slot);
        ok = true;
        for (size_t i = 0; i < sz && ok; i++)
            ok = z[i] == 0;
        CHECK(ok, "calloc(%zu) gave non-zero bytes", sz);
        vmpi_iso_free(z);
    }
    errno = 0;
    CHECK(vmpi_iso_calloc(SIZE_MAX / 2, 3) == NULL && errno == ENOMEM, "calloc overflow: expected NULL/ENOMEM");
    errno = 0;
    CHECK(vmpi_iso_reallocarray(NULL, SIZE_MAX / 2, 3) == NULL && errno == ENOMEM,
          "reallocarray overflow: expected NULL/ENOMEM");
}

/* ---- remote frees ---- */

enum { RING = 256 };
static struct {
    _Atomic(void *) slot[RING];
    _Atomic int done;
} X;

static void *remote_freer(void *arg)
{
    (void)arg; /* this thread runs no rank: its frees of slot blocks are remote */
    unsigned i = 0;
    for (;;) {
        void *p = atomic_exchange(&X.slot[i % RING], NULL);
        if (p) {
            CHECK(*(unsigned *)p == 0xabcd, "remote block corrupted");
            vmpi_iso_free(p);
        } else if (atomic_load(&X.done)) {
            bool empty = true;
            for (int k = 0; k < RING; k++)
                empty = empty && atomic_load(&X.slot[k]) == NULL;
            if (empty)
                return NULL;
        }
        i++;
    }
}

static void remote(vmpi_iso_heap *h)
{
    pthread_t t;
    pthread_create(&t, NULL, remote_freer, NULL);
    size_t used_after_warmup = 0;
    for (long k = 0; k < 400000; k++) {
        size_t n = 16 + (size_t)(rnd() % 3000);
        if (k % 1000 == 999)
            n = 20000 + (size_t)(rnd() % 100000); /* now and then a large block */
        unsigned *p = vmpi_iso_malloc(n);
        CHECK(p != NULL && vmpi_iso_slot_of(p) == h->slot, "malloc during remote frees: %p", (void *)p);
        *p = 0xabcd;
        unsigned i = (unsigned)(rnd() % RING);
        void *expect = NULL;
        while (!atomic_compare_exchange_weak(&X.slot[i], &expect, p)) {
            expect = NULL;
            i = (i + 1) % RING;
        }
        if (k == 100000)
            used_after_warmup = vmpi_iso_heap_used(h);
    }
    atomic_store(&X.done, 1);
    pthread_join(t, NULL);
    size_t used = vmpi_iso_heap_used(h);
    /* the freer may lag by up to RING blocks, each up to 120 KB, and a span per class */
    CHECK(used <= used_after_warmup + (size_t)RING * 128 * 1024 + 36 * 65536,
          "heap grew with remote frees: %zu bytes after warm-up, %zu at the end", used_after_warmup, used);
    /* 3000 blocks freed by the other thread make room for the next 3000 the owner asks for */
    enum { K = 3000 };
    static void *blk[K];
    for (int k = 0; k < K; k++)
        blk[k] = vmpi_iso_malloc(k % 2 ? 100 : 50000);
    used = vmpi_iso_heap_used(h);
    atomic_store(&X.done, 0);
    pthread_create(&t, NULL, remote_freer, NULL);
    for (int k = 0; k < K; k++) {
        *(unsigned *)blk[k] = 0xabcd;
        void *expect = NULL;
        for (unsigned i = (unsigned)k % RING; !atomic_compare_exchange_weak(&X.slot[i], &expect, blk[k]);
             i = (i + 1) % RING)
            expect = NULL;
    }
    atomic_store(&X.done, 1);
    pthread_join(t, NULL);
    for (int k = 0; k < K; k++)
        blk[k] = vmpi_iso_malloc(k % 2 ? 100 : 50000);
    CHECK(vmpi_iso_heap_used(h) == used, "blocks freed by another thread not reused: heap %zu -> %zu bytes", used,
          vmpi_iso_heap_used(h));
    for (int k = 0; k < K; k++)
        vmpi_iso_free(blk[k]);
}

static void steady(vmpi_iso_heap *h)
{
    void *keep[64];
    for (int i = 0; i < 64; i++)
        keep[i] = vmpi_iso_malloc(100 + (size_t)i * 1000);
    size_t used0 = 0;
    for (long k = 0; k < 200000; k++) {
        size_t n = (size_t)(rnd() % 70000);
        void *p = vmpi_iso_malloc(n);
        vmpi_iso_free(p);
        if (k == 1000)
            used0 = vmpi_iso_heap_used(h);
    }
    CHECK(vmpi_iso_heap_used(h) == used0, "steady alloc/free loop grew the heap: %zu -> %zu", used0,
          vmpi_iso_heap_used(h));
    /* coalescing: three adjacent large blocks freed middle-last give the top back */
    size_t before = vmpi_iso_heap_used(h);
    void *a = vmpi_iso_malloc(100000), *b = vmpi_iso_malloc(200000), *c = vmpi_iso_malloc(300000);
    vmpi_iso_free(a);
    vmpi_iso_free(c);
    vmpi_iso_free(b);
    CHECK(vmpi_iso_heap_used(h) == before, "large blocks did not coalesce back: %zu -> %zu", before,
          vmpi_iso_heap_used(h));
    for (int i = 0; i < 64; i++)
        vmpi_iso_free(keep[i]);
}

static void outside(int slot)
{
    void *p = vmpi_iso_malloc(100); /* as a rank */
    strcpy(p, "moves out");
    vmpi_iso_leave();
    void *s = vmpi_iso_malloc(100);
    CHECK(s != NULL && vmpi_iso_slot_of(s) == -1, "malloc outside a rank: %p is in slot %d", s,
          vmpi_iso_slot_of(s));
    CHECK(vmpi_iso_malloc_usable_size(s) >= 100, "usable size of a system block");
    void *q = vmpi_iso_realloc(p, 5000);
    CHECK(q != NULL && vmpi_iso_slot_of(q) == -1 && !strcmp(q, "moves out"),
          "realloc of a slot block outside a rank: %p (slot %d)", q, vmpi_iso_slot_of(q));
    vmpi_iso_free(q);
    vmpi_iso_free(s);
    vmpi_iso_free(NULL);
    (void)slot;
}

static void exhaustion(void)
{
    vmpi_iso_fini();
    vmpi_iso_init(2, 64 * 1024, vmpi_cfg.iso_base, (size_t)4 << 20);
    vmpi_stack st;
    vmpi_iso_heap *h = vmpi_iso_slot_open(1, &st);
    vmpi_iso_enter(h);
    void *blocks[200];
    int n = 0;
    errno = 0;
    while (n < 200 && (blocks[n] = vmpi_iso_malloc(65536)) != NULL)
        n++;
    CHECK(n > 20 && n < 64, "a 4 MiB slot held %d blocks of 64 KiB", n);
    CHECK(errno == ENOMEM, "exhausted slot: errno %d, expected ENOMEM", errno);
    errno = 0;
    CHECK(vmpi_iso_malloc((size_t)8 << 20) == NULL && errno == ENOMEM, "8 MiB in a 4 MiB slot");
    vmpi_iso_free(blocks[n / 2]);
    void *again = vmpi_iso_malloc(65536);
    CHECK(again == blocks[n / 2], "a freed block is not reused in a full slot: %p, expected %p", again,
          blocks[n / 2]);
    CHECK(h->warned, "no warning on exhaustion");
    vmpi_iso_leave();
}

static void layout(vmpi_iso_heap *h, const vmpi_stack *st)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CHECK(vmpi_iso_slot_of(st->map) == h->slot && (char *)st->map == h->slot_lo, "the stack's guard is not the slot's start");
    size_t want = h->slot_size / 8 < ((size_t)1 << 20) ? h->slot_size / 8 : (size_t)1 << 20; /* range.c */
    CHECK(st->guard == (want > page ? want : page) && st->size >= 64 * 1024, "stack: guard %zu, size %zu",
          st->guard, st->size);
    CHECK((char *)vmpi_stack_top(st) == (char *)h, "the stack's top is not the header");
    int local;
    void *p = vmpi_iso_malloc(1000);
    vmpi_iso_extent e[2];
    /* pretend the rank's stack pointer is 1000 bytes below its top */
    char *sp = (char *)vmpi_stack_top(st) - 1000;
    CHECK(vmpi_iso_extents(h, sp, e) == 2, "two extents");
    CHECK((char *)e[0].addr == sp - 128 && (char *)e[0].addr + e[0].len > (char *)h + sizeof *h,
          "extent 0 [%p, +%zu) does not run from sp - 128 through the header", e[0].addr, e[0].len);
    CHECK((char *)p >= (char *)e[1].addr && (char *)p + 1000 <= (char *)e[1].addr + e[1].len,
          "block %p not in the heap extent [%p, +%zu)", p, e[1].addr, e[1].len);
    CHECK(e[1].len == vmpi_iso_heap_used(h), "heap extent %zu != used %zu", e[1].len, vmpi_iso_heap_used(h));
    vmpi_iso_free(p);
    (void)local;
}

int main(void)
{
    vmpi_tunables_load();
    vmpi_iso_init(3, 64 * 1024, vmpi_cfg.iso_base, (size_t)256 << 20);
    CHECK(vmpi_iso_slot_size() == (size_t)256 << 20, "slot size %zu", vmpi_iso_slot_size());
    vmpi_stack st[3];
    vmpi_iso_heap *h[3];
    for (int i = 0; i < 3; i++)
        h[i] = vmpi_iso_slot_open(i, &st[i]);
    vmpi_iso_enter(h[1]);
    sizes(1);
    aligned(1);
    reallocs(1);
    steady(h[1]);
    layout(h[1], &st[1]);
    vmpi_iso_enter(h[2]);
    void *p = vmpi_iso_malloc(10);
    check_block("malloc in slot 2", p, 10, 16, 2);
    vmpi_iso_enter(h[0]);
    remote(h[0]);
    vmpi_iso_free(p); /* slot 2's block, freed by the rank of slot 0: onto slot 2's remote stack */
    vmpi_iso_enter(h[2]);
    void *q = vmpi_iso_malloc(10);
    CHECK(q == p, "a block freed by another rank is not reused by its owner (%p, then %p)", p, q);
    outside(2);
    /* reopening a slot starts it afresh */
    h[2] = vmpi_iso_slot_open(2, &st[2]);
    CHECK(vmpi_iso_heap_used(h[2]) == 0, "a reopened slot has %zu bytes in use", vmpi_iso_heap_used(h[2]));
    exhaustion();
    vmpi_iso_fini();
    if (errs) {
        printf(" Found %d errors\n", errs);
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
