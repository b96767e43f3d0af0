/* SPDX-License-Identifier: BSD-3-Clause */
/* A slot's allocator.  Small blocks (up to 16 KiB) come in 36 size classes, each carved from 64 KiB spans
 * of pages: a free list per class (intrusive, LIFO) and the unused rest of the class's current span.
 * Larger blocks are runs of whole pages, first fit within power-of-two bins of free runs, coalesced with
 * their neighbours through the page map; the heap's top moves down when the last run is freed.  Only the
 * owner touches this state; other threads' frees arrive on the remote stack (one CAS each) and are taken
 * back in one exchange. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "base/log.h"
#include "iso/heap.h"

/* 16..128 by 16, then four classes per doubling: every power of two is a class, so a block of a
 * power-of-two class up to a page is aligned to its size (spans start on a page) */
static const uint32_t class_size[ISO_NCLASS] = {
    16,   32,   48,   64,   80,   96,   112,  128,  160,  192,   224,   256,   320,   384,   448,   512,   640,   768,
    896,  1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192, 10240, 12288, 14336, 16384,
};

static inline unsigned class_of(size_t n)
{
    if (n <= 128)
        return n ? (unsigned)((n - 1) >> 4) : 0;
    size_t m = n - 1;
    unsigned l = 63u - (unsigned)__builtin_clzll(m); /* 7 .. 13 */
    return 8 + (l - 7) * 4 + (unsigned)((m >> (l - 2)) & 3);
}

#define COMMIT_CHUNK (2u << 20) /* the heap is made writable this much at a time */
#define ADVISE_MIN (32u << 20)  /* freed runs this large go back to the system (glibc unmaps them too) */

static inline char *page_addr(const vmpi_iso_heap *h, size_t i) { return h->heap_lo + (i << h->pshift); }
static inline size_t page_of(const vmpi_iso_heap *h, const void *p)
{
    return (size_t)((const char *)p - h->heap_lo) >> h->pshift;
}
static inline unsigned bin_of(size_t pages) { return 63u - (unsigned)__builtin_clzll(pages); }

void vmpi_iso_heap_reset(vmpi_iso_heap *h)
{
    h->top = h->hwm = 0;
    h->warned = 0;
    h->refused = 0;
    h->bins_used = 0;
    memset(h->free, 0, sizeof h->free);
    memset(h->bump, 0, sizeof h->bump);
    memset(h->bump_end, 0, sizeof h->bump_end);
    memset(h->bins, 0, sizeof h->bins);
    atomic_store_explicit(&h->remote, NULL, memory_order_relaxed);
    h->magic = ISO_MAGIC;
}

size_t vmpi_iso_heap_used(const vmpi_iso_heap *h) { return h->top << h->pshift; }

/* The bytes of the classes' current spans not handed out yet, [lo, hi) sorted by address: a checkpoint
 * leaves them out (a restart finds them zero, and nothing reads them before handing them out). */
typedef struct span_holes {
    const char *lo[ISO_NCLASS], *hi[ISO_NCLASS];
    int n;
} span_holes;

static void unused_spans(const vmpi_iso_heap *h, span_holes *H)
{
    H->n = 0;
    for (int c = 0; c < ISO_NCLASS; c++) {
        if (h->bump[c] == NULL || h->bump[c] >= h->bump_end[c])
            continue;
        int k = H->n++;
        for (; k > 0 && H->lo[k - 1] > h->bump[c]; k--) {
            H->lo[k] = H->lo[k - 1];
            H->hi[k] = H->hi[k - 1];
        }
        H->lo[k] = h->bump[c];
        H->hi[k] = h->bump_end[c];
    }
}

/* fn on [lo, hi) less the holes. */
static void emit(const span_holes *H, const char *lo, const char *hi, vmpi_iso_extent_fn fn, void *arg)
{
    for (int k = 0; k < H->n && lo < hi; k++) {
        if (H->hi[k] <= lo || H->lo[k] >= hi)
            continue;
        if (H->lo[k] > lo)
            fn(arg, (void *)lo, (size_t)(H->lo[k] - lo));
        lo = H->hi[k] > lo ? H->hi[k] : lo;
    }
    if (hi > lo)
        fn(arg, (void *)lo, (size_t)(hi - lo));
}

void vmpi_iso_each_extent(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent_fn fn, void *arg)
{
    vmpi_iso_extent e[2];
    vmpi_iso_extents(h, sp ? sp : (const void *)((const char *)h + 128), e);
    fn(arg, e[0].addr, e[0].len);
    span_holes H;
    unused_spans(h, &H);
    size_t from = 0; /* the pending extent: pages [from, i) */
    for (size_t i = 0; i < h->top;) {
        uint32_t m = h->map[i];
        size_t n = iso_tag(m) == ISO_LARGE || iso_tag(m) == ISO_FREE ? iso_val(m) : 1;
        if (iso_tag(m) == ISO_FREE && n > 1) { /* a free run: its first page only (the run's links) */
            emit(&H, page_addr(h, from), page_addr(h, i + 1), fn, arg);
            from = i + n;
        }
        i += n;
    }
    if (from < h->top)
        emit(&H, page_addr(h, from), page_addr(h, h->top), fn, arg);
}
size_t vmpi_iso_heap_limit(const vmpi_iso_heap *h) { return h->max_pages << h->pshift; }

/* ---- page runs ---- */

static void run_push(vmpi_iso_heap *h, size_t i, size_t n)
{
    h->map[i] = h->map[i + n - 1] = iso_entry(ISO_FREE, (uint32_t)n);
    iso_run *r = (iso_run *)page_addr(h, i);
    unsigned b = bin_of(n);
    r->prev = NULL;
    r->next = h->bins[b];
    if (r->next)
        r->next->prev = r;
    h->bins[b] = r;
    h->bins_used |= 1ull << b;
}

static void run_unlink(vmpi_iso_heap *h, size_t i, size_t n)
{
    iso_run *r = (iso_run *)page_addr(h, i);
    unsigned b = bin_of(n);
    if (r->prev)
        r->prev->next = r->next;
    else
        h->bins[b] = r->next;
    if (r->next)
        r->next->prev = r->prev;
    if (h->bins[b] == NULL)
        h->bins_used &= ~(1ull << b);
}

/* Pages [i, i + n) are a large block from now on.  Its last entry is cleared: a stale free tag there would
 * make the next run's free coalesce into this block. */
static void set_large(vmpi_iso_heap *h, size_t i, size_t n)
{
    h->map[i] = iso_entry(ISO_LARGE, (uint32_t)n);
    if (n > 1)
        h->map[i + n - 1] = iso_entry(ISO_NONE, 0);
}

static bool commit_to(vmpi_iso_heap *h, size_t pages)
{
    size_t want = h->commit + (COMMIT_CHUNK >> h->pshift);
    if (want < pages)
        want = pages;
    if (want > h->max_pages)
        want = h->max_pages;
    if (mprotect(page_addr(h, h->commit), (want - h->commit) << h->pshift, PROT_READ | PROT_WRITE) != 0) {
        h->refused = errno;
        return false;
    }
    h->commit = want;
    return true;
}

/* n pages from a free run, first fit in n's bin, else the head of a bin of longer runs; SIZE_MAX: none. */
static size_t run_take(vmpi_iso_heap *h, size_t n)
{
    unsigned b = bin_of(n);
    size_t i = SIZE_MAX;
    for (iso_run *r = h->bins[b]; r && i == SIZE_MAX; r = r->next)
        if (iso_val(h->map[page_of(h, r)]) >= n)
            i = page_of(h, r);
    uint64_t above = h->bins_used & ~((2ull << b) - 1); /* bins of runs of 2^(b+1) pages or more */
    if (i == SIZE_MAX && above)
        i = page_of(h, h->bins[__builtin_ctzll(above)]);
    if (i == SIZE_MAX)
        return SIZE_MAX;
    size_t m = iso_val(h->map[i]);
    run_unlink(h, i, m);
    if (m > n)
        run_push(h, i + n, m - n);
    return i;
}

static bool drain_remote(vmpi_iso_heap *h);

/* n pages from a free run (blocks other threads freed included) or the top; *fresh = the first of them
 * never touched.  SIZE_MAX: the slot is full. */
static size_t pages_take(vmpi_iso_heap *h, size_t n, size_t *fresh)
{
    h->refused = 0; /* out_of_slot tells a refusal by the system from a full slot by this */
    size_t i = run_take(h, n);
    if (i == SIZE_MAX && drain_remote(h))
        i = run_take(h, n);
    if (i != SIZE_MAX) {
        *fresh = i + n; /* none */
        return i;
    }
    if (n > h->max_pages - h->top || (h->top + n > h->commit && !commit_to(h, h->top + n)))
        return SIZE_MAX;
    i = h->top;
    h->top += n;
    *fresh = i > h->hwm ? i : h->hwm;
    if (h->top > h->hwm)
        h->hwm = h->top;
    return i;
}

/* Pages [i, i + n) are free: merged with free neighbours, or the top comes down. */
static void pages_release(vmpi_iso_heap *h, size_t i, size_t n)
{
    if (i + n < h->top && iso_tag(h->map[i + n]) == ISO_FREE) {
        size_t m = iso_val(h->map[i + n]);
        run_unlink(h, i + n, m);
        n += m;
    }
    if (i > 0 && iso_tag(h->map[i - 1]) == ISO_FREE) {
        size_t m = iso_val(h->map[i - 1]);
        run_unlink(h, i - m, m);
        i -= m;
        n += m;
    }
    if (i + n == h->top)
        h->top = i; /* no free run ever ends at the top */
    else
        run_push(h, i, n);
}

static void large_free(vmpi_iso_heap *h, size_t i, size_t n)
{
    pages_release(h, i, n);
    if ((n << h->pshift) >= ADVISE_MIN) {
        /* the first page may now hold a free run's links */
        int e = errno;
        madvise(page_addr(h, i + 1), (n - 1) << h->pshift, MADV_DONTNEED);
        errno = e;
    }
}

/* ---- failures ---- */

/* n bytes could not be had: the slot is full, or the system refused to commit more of it (a data-size limit,
 * ulimit -d, or the commit limit when vm.overcommit_memory is 2).  Each is reported once per rank. */
static void *out_of_slot(vmpi_iso_heap *h, size_t n)
{
    int refused = h->refused;
    h->refused = 0;
    unsigned kind = refused ? 2u : 1u;
    if (!(h->warned & kind)) {
        h->warned |= kind; /* before reporting: the report could allocate */
        char who[48];
        if (h->slot == vmpi_iso_range_.job)
            snprintf(who, sizeof who, "the job heap (shared runtime objects)");
        else
            snprintf(who, sizeof who, "rank %d", h->slot);
        if (refused) {
            struct rlimit rl;
            char lim[64] = "unlimited";
            if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
                snprintf(lim, sizeof lim, "%llu MiB", (unsigned long long)rl.rlim_cur >> 20);
            vmpi_warn("%s is out of memory allocating %zu bytes: the system refused more memory (%s); its "
                      "slot has room (heap %zu MiB in use of at most %zu MiB); the process's data-size limit "
                      "(ulimit -d) is %s, and with vm.overcommit_memory=2 the system's commit limit applies; "
                      "malloc returns NULL (ENOMEM)",
                      who, n, strerror(refused), vmpi_iso_heap_used(h) >> 20, vmpi_iso_heap_limit(h) >> 20, lim);
        } else {
            vmpi_warn("%s is out of memory allocating %zu bytes: its isomalloc slot of %zu MiB is full (stack "
                      "%zu KiB, heap %zu MiB in use of at most %zu MiB); malloc returns NULL (ENOMEM); raise "
                      "--iso-slot-size (VMPI_ISO_SLOT_SIZE)",
                      who, n, h->slot_size >> 20, (size_t)((char *)h - h->stack_lo) >> 10,
                      vmpi_iso_heap_used(h) >> 20, vmpi_iso_heap_limit(h) >> 20);
        }
    }
    errno = ENOMEM;
    return NULL;
}

static VMPI_NORETURN void bad_free(const vmpi_iso_heap *h, const void *p)
{
    vmpi_fatal("free(%p): not a block that malloc gave rank %d (a pointer inside a block, or freed twice)", p,
               h->slot);
}

/* ---- blocks ---- */

static void free_local(vmpi_iso_heap *h, void *p)
{
    size_t i = page_of(h, p);
    if (VMPI_UNLIKELY((char *)p < h->heap_lo || i >= h->top))
        bad_free(h, p);
    uint32_t e = h->map[i];
    if (VMPI_LIKELY(iso_tag(e) == ISO_SMALL)) {
        iso_block *b = p;
        b->next = h->free[iso_val(e)];
        h->free[iso_val(e)] = b;
    } else if (iso_tag(e) == ISO_LARGE && p == page_addr(h, i)) {
        large_free(h, i, iso_val(e));
    } else {
        bad_free(h, p);
    }
}

/* Takes back the blocks other threads freed; false if there were none. */
static bool drain_remote(vmpi_iso_heap *h)
{
    if (atomic_load_explicit(&h->remote, memory_order_relaxed) == NULL)
        return false;
    iso_block *b = atomic_exchange_explicit(&h->remote, NULL, memory_order_acquire);
    while (b) {
        iso_block *next = b->next;
        free_local(h, b);
        b = next;
    }
    return true;
}

/* n bytes (> 0) of whole pages aligned to `align` (0: a page); *zero: the block is known to be zeros. */
static void *large_alloc(vmpi_iso_heap *h, size_t n, size_t align, bool *zero)
{
    size_t np = (n >> h->pshift) + ((n & (((size_t)1 << h->pshift) - 1)) != 0);
    size_t extra = align > ((size_t)1 << h->pshift) ? (align >> h->pshift) - 1 : 0;
    size_t fresh = 0;
    if (np > h->max_pages || extra > h->max_pages - np)
        return out_of_slot(h, n);
    size_t i = pages_take(h, np + extra, &fresh);
    if (i == SIZE_MAX)
        return out_of_slot(h, n);
    size_t lead = 0;
    if (extra) {
        uintptr_t a = (uintptr_t)page_addr(h, i);
        lead = (((a + align - 1) & ~(uintptr_t)(align - 1)) - a) >> h->pshift;
    }
    set_large(h, i + lead, np);
    if (extra - lead) { /* give back what alignment did not need: the tail first, then the lead */
        set_large(h, i + lead + np, extra - lead);
        pages_release(h, i + lead + np, extra - lead);
    }
    if (lead) {
        set_large(h, i, lead);
        pages_release(h, i, lead);
    }
    *zero = fresh <= i + lead;
    return page_addr(h, i + lead);
}

static VMPI_NOINLINE void *small_slow(vmpi_iso_heap *h, unsigned c)
{
    if (drain_remote(h) && h->free[c]) {
        iso_block *b = h->free[c];
        h->free[c] = b->next;
        return b;
    }
    char *p = h->bump[c];
    if (p == NULL || (size_t)(h->bump_end[c] - p) < class_size[c]) { /* a new span */
        size_t np = ISO_SPAN >> h->pshift, fresh;
        if (np == 0)
            np = 1;
        size_t i = pages_take(h, np, &fresh);
        if (i == SIZE_MAX)
            return out_of_slot(h, class_size[c]);
        for (size_t k = 0; k < np; k++)
            h->map[i + k] = iso_entry(ISO_SMALL, c);
        p = page_addr(h, i);
        h->bump_end[c] = p + (np << h->pshift);
    }
    h->bump[c] = p + class_size[c];
    return p;
}

void *vmpi_iso_heap_malloc(vmpi_iso_heap *h, size_t n)
{
    if (VMPI_LIKELY(n <= ISO_SMALL_MAX)) {
        unsigned c = class_of(n);
        iso_block *b = h->free[c];
        if (VMPI_LIKELY(b != NULL)) {
            h->free[c] = b->next;
            return b;
        }
        char *p = h->bump[c];
        /* blocks other threads freed come back before the span is carved further */
        if (VMPI_LIKELY(p != NULL && (size_t)(h->bump_end[c] - p) >= class_size[c] &&
                        atomic_load_explicit(&h->remote, memory_order_relaxed) == NULL)) {
            h->bump[c] = p + class_size[c];
            return p;
        }
        return small_slow(h, c);
    }
    bool zero;
    return large_alloc(h, n, 0, &zero);
}

void *vmpi_iso_heap_calloc(vmpi_iso_heap *h, size_t n)
{
    if (n <= ISO_SMALL_MAX) {
        void *p = vmpi_iso_heap_malloc(h, n);
        if (p)
            memset(p, 0, n);
        return p;
    }
    bool zero;
    void *p = large_alloc(h, n, 0, &zero);
    if (p && !zero)
        memset(p, 0, n);
    return p;
}

void *vmpi_iso_heap_memalign(vmpi_iso_heap *h, size_t align, size_t n)
{
    size_t page = (size_t)1 << h->pshift;
    if (align <= 16)
        return vmpi_iso_heap_malloc(h, n);
    if (align <= page) {
        size_t s = n > align ? n : align;
        s = (size_t)1 << (64 - __builtin_clzll(s - 1)); /* a power-of-two class: aligned to its size */
        if (s <= ISO_SMALL_MAX && s <= page)
            return vmpi_iso_heap_malloc(h, s);
        align = 0; /* whole pages are aligned enough */
    }
    bool zero;
    return large_alloc(h, n ? n : 1, align, &zero);
}

void vmpi_iso_heap_free(vmpi_iso_heap *h, void *p) { free_local(h, p); }

void vmpi_iso_free_any(void *p)
{
    vmpi_iso_heap *h = iso_heap_of(p);
    if (h == vmpi_iso_cur_) {
        free_local(h, p);
        return;
    }
    if (VMPI_UNLIKELY((char *)p < h->heap_lo))
        bad_free(h, p);
    iso_block *b = p;
    iso_block *top = atomic_load_explicit(&h->remote, memory_order_relaxed);
    do {
        b->next = top;
    } while (!atomic_compare_exchange_weak_explicit(&h->remote, &top, b, memory_order_release,
                                                    memory_order_relaxed));
}

void *vmpi_iso_move(void *p, void *q, size_t n)
{
    if (q) {
        size_t old = vmpi_iso_usable_size(p);
        memcpy(q, p, old < n ? old : n);
        vmpi_iso_free_any(p);
    }
    return q;
}

size_t vmpi_iso_usable_size(const void *p)
{
    const vmpi_iso_heap *h = iso_heap_of(p);
    if ((const char *)p < h->heap_lo)
        return 0;
    size_t i = page_of(h, p);
    uint32_t e = h->map[i];
    if (iso_tag(e) == ISO_SMALL)
        return class_size[iso_val(e)];
    if (iso_tag(e) == ISO_LARGE)
        return ((size_t)iso_val(e) << h->pshift) - (size_t)((const char *)p - page_addr(h, i));
    return 0;
}

/* A large block grows in place into the top or a free run right after it. */
static bool grow_in_place(vmpi_iso_heap *h, size_t i, size_t np, size_t want)
{
    size_t end = i + np;
    if (end == h->top) {
        size_t more = want - np;
        if (more > h->max_pages - h->top || (h->top + more > h->commit && !commit_to(h, h->top + more)))
            return false;
        h->top += more;
        if (h->top > h->hwm)
            h->hwm = h->top;
    } else if (iso_tag(h->map[end]) == ISO_FREE && np + iso_val(h->map[end]) >= want) {
        size_t m = iso_val(h->map[end]);
        run_unlink(h, end, m);
        if (np + m > want)
            run_push(h, i + want, np + m - want);
    } else {
        return false;
    }
    set_large(h, i, want);
    return true;
}

void *vmpi_iso_heap_realloc(vmpi_iso_heap *h, void *p, size_t n)
{
    size_t i = page_of(h, p);
    if ((char *)p < h->heap_lo || i >= h->top)
        bad_free(h, p);
    uint32_t e = h->map[i];
    size_t old;
    if (iso_tag(e) == ISO_SMALL) {
        old = class_size[iso_val(e)];
        if (n <= old && (old <= 64 || n >= old / 4))
            return p;
    } else if (iso_tag(e) == ISO_LARGE && p == page_addr(h, i)) {
        size_t np = iso_val(e);
        old = np << h->pshift;
        size_t want = (n >> h->pshift) + ((n & (((size_t)1 << h->pshift) - 1)) != 0);
        if (n > ISO_SMALL_MAX && want <= np) {
            if (want < np) {
                set_large(h, i, want);
                set_large(h, i + want, np - want);
                large_free(h, i + want, np - want);
            }
            return p;
        }
        if (n > ISO_SMALL_MAX && grow_in_place(h, i, np, want))
            return p;
    } else {
        bad_free(h, p);
    }
    void *q = vmpi_iso_heap_malloc(h, n);
    if (q == NULL)
        return NULL;
    memcpy(q, p, old < n ? old : n);
    free_local(h, p);
    return q;
}
