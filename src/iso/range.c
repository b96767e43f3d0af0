/* SPDX-License-Identifier: BSD-3-Clause */
/* The isomalloc range and its slots: one PROT_NONE reservation at a fixed address (never at an address the
 * kernel picks, never over an existing mapping), and each slot's layout inside it. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/log.h"
#include "base/tunables.h"
#include "iso/heap.h"
#if VMPI_ASAN
#include <sanitizer/asan_interface.h>
#endif

#define AUTO_MAX_SLOT ((size_t)64 << 30)   /* the largest slot chosen automatically */
/* All slots chosen automatically fit in this.  Slots far apart cost page tables: each slot an idle rank
 * touches needs a page-table page of its own (slots are 2 MiB or more apart), and one page-directory page
 * per GiB of range; 4 TiB gives 10,000 ranks slots of 256 MiB, four per directory page. */
#define AUTO_RANGE VMPI_ISO_AUTO_RANGE /* 4 TiB; 256 GiB under TSan (base/tunables.h) */
#define MAX_SLOT ((size_t)1 << 40)         /* page counts must fit the page map's 30 bits */
#define USER_TOP ((uintptr_t)1 << 47)      /* end of the user address space (4-level page tables) */
/* The top of the stack shares a page with the header (1.4 KiB) and the start of the page map, so a rank
 * touches no page for its heap until it allocates, and few after.  2 KiB: a rank of a small program blocked
 * in an MPI call uses 1.1 KiB of stack (measured); with 1 KiB here it touched one more page, 4 GB at a
 * million ranks. */
#define STACK_IN_HDR_PAGE 2048
/* The PROT_NONE guard below each stack: address space only, no memory.  A frame that moves the stack
 * pointer past the guard in one step, without touching the pages in between, would write into the previous
 * slot's heap; the wrappers compile programs with -fstack-clash-protection (every page of a large frame is
 * touched in order, so any frame faults in the guard), and code compiled without it (libraries) is caught
 * for frames up to the guard's size.  An eighth of the slot at most (slots of a million ranks are 4 MiB). */
#define GUARD_MAX ((size_t)1 << 20)
/* The job heap (job.c) holds the runtime objects ranks share, some of them O(ranks) per communicator (a
 * communicator's collective state is 128 bytes per member): it spans as many slots at the end of the range
 * as make 64 GiB of address space (its page map, 64 MiB of it, is touched only where used). */
#define JOB_MIN ((size_t)64 << 30)

VMPI_TLS vmpi_iso_heap *vmpi_iso_cur_;
VMPI_TLS vmpi_iso_heap *vmpi_iso_tls_from_;
iso_range vmpi_iso_range_;

static struct {
    size_t page;
    unsigned pshift;
    size_t guard;            /* the guard's bytes, below the stack */
    size_t stack;            /* the stack's bytes, guard excluded */
    size_t heap_off;         /* heap page 0's offset in a slot */
    size_t max_pages;
    size_t job_heap_off, job_max_pages; /* the same for the job heap, which spans several slots */
} L;

static void size_text(size_t n, char *buf, size_t len)
{
    static const char units[] = "kMGT";
    int u = -1;
    while (u < 3 && n >= 1024 && n % 1024 == 0) {
        n /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%zu", n);
    else
        snprintf(buf, len, "%zu%c", n, units[u]);
}

/* Each open slot is two mappings (its writable part and the PROT_NONE rest, which merges with the next slot's
 * guard): a job of more ranks than vm.max_map_count allows would stop at the rank that exceeds it. */
static void check_map_count(int nslots)
{
    long max = 65530;
    int fd = open("/proc/sys/vm/max_map_count", O_RDONLY);
    if (fd >= 0) {
        char buf[32];
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = '\0';
            max = strtol(buf, NULL, 10);
        }
        close(fd);
    }
    long need = 2L * nslots + 1000; /* and the process's own: libraries, threads' stacks, glibc's heaps */
    if (need > max)
        vmpi_fatal("%d ranks need about %ld memory mappings (2 for each rank's isomalloc slot), more than "
                   "vm.max_map_count (%ld) allows; raise it (sysctl -w vm.max_map_count=%ld) or run fewer ranks per "
                   "process", nslots - 1, need, max, need + need / 4); /* nslots: the ranks' and the job heap */
}

static size_t job_slots(size_t slot_size) { return slot_size >= JOB_MIN ? 1 : JOB_MIN / slot_size; }

void vmpi_iso_init(int nslots, size_t stack_size, uintptr_t base, size_t slot_size)
{
    vmpi_iso_malloc_init();
    char sz[32], st[32];
    L.page = (size_t)sysconf(_SC_PAGESIZE);
    L.pshift = (unsigned)__builtin_ctzll(L.page);
    if (nslots < 1)
        nslots = 1;
    if (slot_size == 0) {
        slot_size = AUTO_MAX_SLOT;
        while (slot_size > L.page && slot_size * ((size_t)nslots + job_slots(slot_size)) > AUTO_RANGE)
            slot_size >>= 1;
    }
    int nranks = nslots;
    size_t njob = slot_size && !(slot_size & (slot_size - 1)) ? job_slots(slot_size) : 1;
    if ((size_t)nslots + njob > INT32_MAX)
        vmpi_fatal("--iso-slot-size is too small for %d ranks and the job heap (VMPI_ISO_SLOT_SIZE)", nranks);
    nslots += (int)njob; /* and the job heap's, last (job.c) */
    size_text(slot_size, sz, sizeof sz);
    if (slot_size & (slot_size - 1))
        vmpi_fatal("--iso-slot-size %s is not a power of two (VMPI_ISO_SLOT_SIZE)", sz);
    if (slot_size > MAX_SLOT)
        vmpi_fatal("--iso-slot-size %s is more than the largest slot, 1T (VMPI_ISO_SLOT_SIZE)", sz);
    if (base == 0 || base % L.page != 0)
        vmpi_fatal("--iso-base %#lx is not a page-aligned address (VMPI_ISO_BASE)", (unsigned long)base);
    L.stack = (stack_size + L.page - 1) & ~(L.page - 1);
    L.guard = slot_size / 8 < GUARD_MAX ? slot_size / 8 : GUARD_MAX;
    if (L.guard < L.page)
        L.guard = L.page;
    L.guard &= ~(L.page - 1);
    size_t hdr_off = L.guard + L.stack + STACK_IN_HDR_PAGE;
    size_t map_end = hdr_off + offsetof(vmpi_iso_heap, map) + (slot_size >> L.pshift) * sizeof(uint32_t);
    L.heap_off = (map_end + L.page - 1) & ~(L.page - 1);
    if (L.heap_off + ISO_SPAN > slot_size) {
        size_t need = L.heap_off + ISO_SPAN, p2 = L.page;
        while (p2 < need)
            p2 <<= 1;
        size_text(stack_size, st, sizeof st);
        char nd[32];
        size_text(p2, nd, sizeof nd);
        vmpi_fatal("--iso-slot-size %s is too small for --stack-size %s: a slot holds the stack, a header and "
                   "the heap; use --iso-slot-size %s or more (VMPI_ISO_SLOT_SIZE)", sz, st, nd);
    }
    L.max_pages = (slot_size - L.heap_off) >> L.pshift;
    size_t job_bytes = slot_size * njob;
    map_end = hdr_off + offsetof(vmpi_iso_heap, map) + (job_bytes >> L.pshift) * sizeof(uint32_t);
    L.job_heap_off = (map_end + L.page - 1) & ~(L.page - 1);
    L.job_max_pages = (job_bytes - L.job_heap_off) >> L.pshift;
    size_t bytes = slot_size * (size_t)nslots;
    if (bytes / (size_t)nslots != slot_size || base > USER_TOP || bytes > USER_TOP - base)
        vmpi_fatal("the isomalloc range (%d slots of %s at %#lx) does not fit in the address space; lower "
                   "--iso-slot-size (VMPI_ISO_SLOT_SIZE) or --iso-base (VMPI_ISO_BASE)", nslots, sz,
                   (unsigned long)base);
    check_map_count(nranks + 1);
    void *m = mmap((void *)base, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                   -1, 0);
    if (m != MAP_FAILED && m != (void *)base) { /* a kernel older than 4.17 took the address as a hint */
        munmap(m, bytes);
        m = MAP_FAILED;
        errno = EEXIST;
    }
    if (m == MAP_FAILED) {
        if (errno == EEXIST)
            vmpi_fatal("the isomalloc range [%#lx, %#lx) (%d slots of %s) overlaps memory already mapped in this "
                       "process; choose another address with --iso-base (VMPI_ISO_BASE)", (unsigned long)base,
                       (unsigned long)(base + bytes), nslots, sz);
        vmpi_fatal("cannot reserve the isomalloc range [%#lx, %#lx) (%d slots of %s): %s; lower --iso-slot-size "
                   "(VMPI_ISO_SLOT_SIZE) or raise the address-space limit (ulimit -v)", (unsigned long)base,
                   (unsigned long)(base + bytes), nslots, sz, strerror(errno));
    }
    vmpi_iso_range_ = (iso_range){.base = base, .bytes = bytes, .shift = (unsigned)__builtin_ctzll(slot_size),
                                  .nslots = nslots, .job = nranks, .hdr_off = hdr_off};
    vmpi_iso_job_open();
}

void vmpi_iso_fini(void)
{
    vmpi_iso_job_close();
    if (vmpi_iso_range_.bytes)
        munmap((void *)vmpi_iso_range_.base, vmpi_iso_range_.bytes);
    memset(&vmpi_iso_range_, 0, sizeof vmpi_iso_range_);
}

size_t vmpi_iso_slot_size(void) { return vmpi_iso_range_.bytes ? (size_t)1 << vmpi_iso_range_.shift : 0; }

int vmpi_iso_slot_of(const void *p)
{
    int s = iso_in_range(p) ? (int)(((uintptr_t)p - vmpi_iso_range_.base) >> vmpi_iso_range_.shift) : -1;
    return s < vmpi_iso_range_.job ? s : -1; /* the last slots are the job heap's */
}

vmpi_iso_heap *vmpi_iso_slot_open(int id, vmpi_stack *stack)
{
    vmpi_assert(id >= 0 && id <= vmpi_iso_range_.job);
    char *slot = (char *)vmpi_iso_range_.base + ((size_t)id << vmpi_iso_range_.shift);
    bool job = id == vmpi_iso_range_.job;
    size_t heap_off = job ? L.job_heap_off : L.heap_off;
    char *stack_lo = slot + L.guard;
    vmpi_iso_heap *h = (vmpi_iso_heap *)(slot + vmpi_iso_range_.hdr_off);
    size_t fixed = heap_off - L.guard; /* stack, header and page map */
    if (mprotect(stack_lo, fixed, PROT_READ | PROT_WRITE) != 0)
        vmpi_fatal("cannot commit the stack of rank %d in its isomalloc slot: %s (the system refused: the process's "
                   "memory mappings reached vm.max_map_count, or its data-size limit, ulimit -d, was reached)", id,
                   strerror(errno));
    size_t commit = 0;
    if (h->magic == ISO_MAGIC) { /* opened before: start from zeros again */
        commit = h->commit;
        madvise(stack_lo, fixed + (commit << L.pshift), MADV_DONTNEED);
    }
#if VMPI_ASAN
    __asan_unpoison_memory_region(stack_lo, (size_t)((char *)h - stack_lo));
#endif
    h->slot = id;
    h->pshift = L.pshift;
    h->slot_lo = slot;
    h->slot_size = job ? vmpi_iso_range_.bytes - ((size_t)id << vmpi_iso_range_.shift)
                       : (size_t)1 << vmpi_iso_range_.shift;
    h->stack_lo = stack_lo;
    h->heap_lo = slot + heap_off;
    h->max_pages = job ? L.job_max_pages : L.max_pages;
    h->commit = commit;
    h->img = NULL;
    h->img_tls = NULL;
    vmpi_iso_heap_reset(h);
    stack->map = slot;
    stack->guard = L.guard;
    stack->size = (size_t)((char *)h - stack_lo);
    return h;
}

void vmpi_iso_stack_release(vmpi_iso_heap *h)
{
    /* the page the stack shares with the header stays */
    size_t len = ((size_t)((char *)h - h->stack_lo)) & ~(L.page - 1);
    madvise(h->stack_lo, len, MADV_DONTNEED);
}

void vmpi_iso_slot_vacate(int id)
{
    vmpi_assert(id >= 0 && id < vmpi_iso_range_.job);
    char *slot = (char *)vmpi_iso_range_.base + ((size_t)id << vmpi_iso_range_.shift);
    if (mmap(slot, (size_t)1 << vmpi_iso_range_.shift, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
             -1, 0) == MAP_FAILED)
        vmpi_fatal("cannot give back the isomalloc slot of rank %d, which moved to another process: %s", id,
                   strerror(errno));
}

void vmpi_iso_fill_soon(void *addr, size_t len)
{
    enum { HUGE = 2u << 20 };
    uintptr_t lo = ((uintptr_t)addr + HUGE - 1) & ~(uintptr_t)(HUGE - 1), hi = ((uintptr_t)addr + len) & ~(uintptr_t)(HUGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* (a hint: without THP, 4 KiB pages as before) */
}

bool vmpi_iso_make_writable(void *addr, size_t len)
{
    uintptr_t lo = (uintptr_t)addr & ~(uintptr_t)(L.page - 1), hi = ((uintptr_t)addr + len + L.page - 1) & ~(uintptr_t)(L.page - 1);
    if (lo < vmpi_iso_range_.base || hi > vmpi_iso_range_.base + vmpi_iso_range_.bytes || hi < lo)
        return false;
    return hi == lo || mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) == 0;
}

vmpi_iso_heap *vmpi_iso_slot_restored(int id)
{
    char *slot = (char *)vmpi_iso_range_.base + ((size_t)id << vmpi_iso_range_.shift);
    vmpi_iso_heap *h = (vmpi_iso_heap *)(slot + vmpi_iso_range_.hdr_off);
    bool job = id == vmpi_iso_range_.job;
    if (id < 0 || id > vmpi_iso_range_.job || h->magic != ISO_MAGIC || h->slot != id || h->slot_lo != slot ||
        h->heap_lo != slot + (job ? L.job_heap_off : L.heap_off) ||
        h->commit > (job ? L.job_max_pages : L.max_pages) || h->stack_lo != slot + L.guard)
        return NULL;
    return h;
}

vmpi_iso_extent vmpi_iso_slot_committed(const vmpi_iso_heap *h)
{
    return (vmpi_iso_extent){h->stack_lo, (size_t)(h->heap_lo - h->stack_lo) + (h->commit << h->pshift)};
}

int vmpi_iso_extents(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent out[2])
{
    const char *lo = (const char *)sp - 128;
    if (lo < h->stack_lo || lo > (const char *)h)
        lo = lo < h->stack_lo ? h->stack_lo : (const char *)h;
    const char *map_end = (const char *)&h->map[h->top];
    out[0] = (vmpi_iso_extent){(void *)lo, (size_t)(map_end - lo)};
    out[1] = (vmpi_iso_extent){h->heap_lo, vmpi_iso_heap_used(h)};
    return 2;
}
