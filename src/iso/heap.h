/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the iso layer: the range's geometry and the slot header, which is the whole state of a slot's
 * allocator.  Every pointer in it is absolute (a slot copied to the same address elsewhere stays valid).
 *
 * The heap is a run of pages from `heap_lo`.  A page map (one 32-bit entry per heap page, right after the
 * header) says what each page is: a page of a small-object span (and its size class), the first page of a
 * large block (and its length), or the first or last page of a free run (and its length), so a free finds
 * its class or length from the pointer alone and coalesces with its neighbours through the map. */
#ifndef VMPI_ISO_HEAP_H
#define VMPI_ISO_HEAP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"
#include "iso/iso.h"

#define ISO_NCLASS 36          /* 16..128 by 16, then 4 classes per doubling up to 16 KiB */
#define ISO_SMALL_MAX 16384
#define ISO_SPAN 65536         /* bytes of pages given to a small class at a time */
#define ISO_NBINS 31           /* free page runs by floor(log2(pages)) */

/* page map entries: a tag in the top two bits, a class or a length in pages below */
#define ISO_TAG_SHIFT 30
#define ISO_VAL_MASK ((1u << ISO_TAG_SHIFT) - 1)
enum { ISO_NONE = 0, ISO_SMALL = 1, ISO_LARGE = 2, ISO_FREE = 3 };
static inline uint32_t iso_entry(unsigned tag, uint32_t val) { return (uint32_t)tag << ISO_TAG_SHIFT | val; }
static inline unsigned iso_tag(uint32_t e) { return e >> ISO_TAG_SHIFT; }
static inline uint32_t iso_val(uint32_t e) { return e & ISO_VAL_MASK; }

typedef struct iso_block {
    struct iso_block *next;
} iso_block;

/* Written in the first page of a free run. */
typedef struct iso_run {
    struct iso_run *next, *prev;
} iso_run;

#define ISO_MAGIC 0x766d7069736f3032ull /* "vmpiso02" */

struct vmpi_iso_heap {
    uint64_t magic;
    int slot;                /* = the rank's world rank */
    unsigned pshift;         /* log2(page size) */
    char *slot_lo;           /* the slot: [slot_lo, slot_lo + slot_size) */
    size_t slot_size;
    char *stack_lo;          /* the stack: [stack_lo, this header), its guard below */
    char *heap_lo;           /* heap page 0 */
    size_t max_pages;        /* heap pages that fit in the slot */
    size_t top;              /* pages below are in use or on a free list; above, nothing */
    size_t hwm;              /* the highest top so far: pages above it were never touched (zero) */
    size_t commit;           /* pages made writable */
    unsigned char warned;    /* the rank was told once: its slot is full (1), the system refused memory (2) */
    int refused;             /* errno of the system's refusal to commit more heap, 0 if it did not refuse */
    void *img;               /* the rank's copy of the program (img layer), or NULL */
    char *img_tls;           /* its thread_local block: read by every thread_local access (tls method) */
    uint64_t bins_used;      /* bit b: bins[b] not empty */
    iso_block *free[ISO_NCLASS];
    char *bump[ISO_NCLASS], *bump_end[ISO_NCLASS]; /* the class's current span, not yet handed out */
    iso_run *bins[ISO_NBINS];
    VMPI_ALIGNED_CL _Atomic(iso_block *) remote; /* blocks freed by other threads */
    VMPI_ALIGNED_CL uint32_t map[];             /* one entry per heap page */
};

/* The range, set by vmpi_iso_init. */
typedef struct iso_range {
    uintptr_t base;
    size_t bytes;            /* nslots << shift */
    unsigned shift;          /* log2(slot size) */
    int nslots;              /* the ranks' slots, then the job heap's */
    int job;                 /* the job heap's first slot (= the number of ranks); it spans the rest */
    size_t hdr_off;          /* the header's offset in a slot */
} iso_range;
extern iso_range vmpi_iso_range_;

static inline bool iso_in_range(const void *p)
{
    return (uintptr_t)p - vmpi_iso_range_.base < vmpi_iso_range_.bytes;
}
/* The header of the slot holding `p` (which must be in the range): one shift (the job heap's slots all
 * have the header of its first). */
static inline vmpi_iso_heap *iso_heap_of(const void *p)
{
    uintptr_t slot = ((uintptr_t)p - vmpi_iso_range_.base) >> vmpi_iso_range_.shift;
    if (slot > (uintptr_t)vmpi_iso_range_.job)
        slot = (uintptr_t)vmpi_iso_range_.job;
    return (vmpi_iso_heap *)(vmpi_iso_range_.base + (slot << vmpi_iso_range_.shift) + vmpi_iso_range_.hdr_off);
}

/* Resets the header of a heap whose layout fields are set (range.c calls it when a slot is opened). */
void vmpi_iso_heap_reset(vmpi_iso_heap *h);

#endif
