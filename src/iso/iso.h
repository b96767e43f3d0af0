/* SPDX-License-Identifier: BSD-3-Clause */
/* Isomalloc: one virtual range reserved at a fixed address, cut into equal power-of-two slots, one per rank
 * (world rank r -> slot r).  A slot holds everything of its rank that must keep its address when the rank
 * moves to another process or is checkpointed:
 *
 *   [guard][stack, grows down][slot header | page map][heap pages, committed as they are used ...]
 *
 * The guard (PROT_NONE, no memory) is an eighth of the slot, 1 MiB at most (range.c says why).
 *
 * The header holds all the state of the slot's allocator (heap.c), so a slot describes itself: copying its
 * used extents (vmpi_iso_extents) to the same address elsewhere recreates the rank's memory with every
 * pointer valid.  Nothing in a slot is ever unmapped; freed memory goes back with madvise.
 *
 * Only the rank that owns a slot allocates from it (ranks never run on two PEs at once, so no lock); a free
 * from anywhere else goes onto the slot's lock-free remote-free stack.  The malloc family (malloc.c,
 * interposed by the start object) sends a call made while a rank runs to that rank's slot and any other
 * call to the system allocator. */
#ifndef VMPI_ISO_ISO_H
#define VMPI_ISO_ISO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/compiler.h"
#include "ult/stack.h"

typedef struct vmpi_iso_heap vmpi_iso_heap; /* a slot's header (heap.h) */

/* Reserves `nslots` slots of `slot_size` bytes (a power of two; 0: the largest up to 64 GiB that keeps all
 * slots within 4 TiB) at `base`, each with a stack of `stack_size` bytes, and after them the job heap's (64 GiB
 * of address space, or one slot if they are larger).  A range already in use, a size
 * that is not a power of two or too small for the stack, are fatal errors naming the tunable to change. */
void vmpi_iso_init(int nslots, size_t stack_size, uintptr_t base, size_t slot_size);
/* Unmaps the range: only for programs that re-initialize (unit tests, benchmarks), never with live blocks. */
void vmpi_iso_fini(void);
size_t vmpi_iso_slot_size(void);

/* Makes slot `id` ready for a new rank (stack committed, empty heap; a slot opened before is reset) and
 * describes its stack in `*stack`.  Returns the slot's heap. */
vmpi_iso_heap *vmpi_iso_slot_open(int id, vmpi_stack *stack);
/* The rank of the slot has ended: its stack pages go back to the system (its heap stays: other ranks may
 * still free blocks of it). */
void vmpi_iso_stack_release(vmpi_iso_heap *h);
/* The (rank's) slot holding `p`, or -1 when `p` is outside the ranks' slots. */
int vmpi_iso_slot_of(const void *p);

/* The job heap (job.c): the range's last slots, for runtime objects shared by ranks and saved with them.
 * vmpi_iso_init opens it; any thread may call these.  Blocks are freed with free().  Before vmpi_iso_init,
 * and in sanitizer builds, they are the system allocator's. */
void vmpi_iso_job_open(void);
void vmpi_iso_job_close(void);
vmpi_iso_heap *vmpi_iso_job_heap(void);
void *vmpi_iso_job_malloc(size_t n);
void *vmpi_iso_job_calloc(size_t n, size_t size);
void *vmpi_iso_job_memalign(size_t align, size_t n);
void *vmpi_iso_job_realloc(void *p, size_t n);
/* Objects a rank makes for itself (derived datatypes, info objects): in the running rank's slot, so that they
 * move and are saved with it, and a restart or a migration to another process carries them without a job
 * heap (docs/research/restart-procs.md); made outside any rank (a PE's handler, the boot) or while the job
 * heap is current (the tls copy's constructors), in the job heap.  realloc keeps a block where it is when it
 * can, else moves it there.  Blocks are freed with free(). */
void *vmpi_iso_own_malloc(size_t n);
void *vmpi_iso_own_calloc(size_t n, size_t size);
void *vmpi_iso_own_realloc(void *p, size_t n);

/* The heap that the calling thread's malloc uses, set by the scheduler around each run of a rank. */
extern VMPI_TLS vmpi_iso_heap *vmpi_iso_cur_;
/* Whose thread_local block the running code sees when it is not the current heap's: an active-message
 * handler runs the target rank's code on the origin's thread, allocating from the origin's heap (the
 * target's has no lock) but reading the target's thread_locals (-privatize=tls). */
extern VMPI_TLS vmpi_iso_heap *vmpi_iso_tls_from_;
static inline void vmpi_iso_enter(vmpi_iso_heap *h) { vmpi_iso_cur_ = h; }
static inline void vmpi_iso_leave(void) { vmpi_iso_cur_ = (vmpi_iso_heap *)0; }

/* The parts of a slot in use, for copying it to another process or a checkpoint: the live part of the
 * stack (from `sp`, the rank's saved stack pointer, less the 128-byte red zone) through the header and the
 * used part of the page map; then the heap up to its top.  Returns the number of extents (2). */
typedef struct vmpi_iso_extent {
    void *addr;
    size_t len;
} vmpi_iso_extent;
int vmpi_iso_extents(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent out[2]);
/* The same parts, finer, in address order, for a checkpoint: the heap without the pages of free runs (but
 * the first page of each, which holds the run's links).  `sp` NULL: from the header (the job heap). */
typedef void (*vmpi_iso_extent_fn)(void *arg, void *addr, size_t len);
void vmpi_iso_each_extent(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent_fn fn, void *arg);
/* The part of a slot that is committed (readable and writable): its stack, header, map and heap pages
 * made writable so far.  A restart makes the same part writable before putting the contents back. */
vmpi_iso_extent vmpi_iso_slot_committed(const vmpi_iso_heap *h);
/* Restart: slot `id`'s header once its contents are back (at the same addresses, its committed part made
 * writable with vmpi_iso_make_writable first), checked; NULL when it is not a slot header of this range. */
vmpi_iso_heap *vmpi_iso_slot_restored(int id);
/* A rank's slot whose rank moved to another process: its memory goes back to the system and its whole range
 * is reserved again, inaccessible (anything here still pointing into it faults instead of reading stale
 * data); a rank coming back later finds it as at the start. */
void vmpi_iso_slot_vacate(int id);
/* [addr, addr + len), writable, is about to be filled at once (a rank arriving from another process): its
 * whole 2 MiB pages are given transparent huge pages, so that the copy does not stop at every 4 KiB page for
 * the kernel to fault in and clear a fresh one (a 256 MiB rank moved at 1.4 GB/s with 4 KiB pages, at the
 * transport's 3.3 GB/s with huge ones; the leaving process frees them faster too). */
void vmpi_iso_fill_soon(void *addr, size_t len);
/* Makes [addr, addr + len) of the range readable and writable (pages rounded out); false outside it. */
bool vmpi_iso_make_writable(void *addr, size_t len);

/* The allocator on one heap, for its owner (the rank running on the calling thread). */
void *vmpi_iso_heap_malloc(vmpi_iso_heap *h, size_t n);
void *vmpi_iso_heap_calloc(vmpi_iso_heap *h, size_t n); /* n bytes of zeros */
/* `align` a power of two. */
void *vmpi_iso_heap_memalign(vmpi_iso_heap *h, size_t align, size_t n);
void *vmpi_iso_heap_realloc(vmpi_iso_heap *h, void *p, size_t n);
/* Frees `p` (a block of this heap) as its owner.  Blocks other threads freed are taken back when a class
 * runs out of blocks (and before the heap grows). */
void vmpi_iso_heap_free(vmpi_iso_heap *h, void *p);
/* From any thread: frees a block of any slot (the owner's own list, or its remote-free stack). */
void vmpi_iso_free_any(void *p);
/* From any thread: the usable size of a live block of any slot. */
size_t vmpi_iso_usable_size(const void *p);
/* A realloc of `p` (a block of any slot) into `q`, a new block of `n` bytes of another allocator: copies what
 * fits and frees `p`; with q NULL (out of memory) `p` stays.  Returns q. */
void *vmpi_iso_move(void *p, void *q, size_t n);
/* Bytes of heap pages in use (below the top) and the most the heap can have. */
size_t vmpi_iso_heap_used(const vmpi_iso_heap *h);
size_t vmpi_iso_heap_limit(const vmpi_iso_heap *h);

/* The malloc family as the start object calls it (malloc.c): the current rank's heap, else the system's.
 * Exported from libvmpi; nothing else calls them. */
VMPI_EXPORT void *vmpi_iso_malloc(size_t n);
/* The same, called from `caller` (the start object's malloc, calloc and realloc pass their return address):
 * a call from a library whose allocations are process-wide state (libgfortran) goes to the system allocator. */
VMPI_EXPORT void *vmpi_iso_malloc_from(size_t n, const void *caller);
VMPI_EXPORT void *vmpi_iso_calloc_from(size_t n, size_t size, const void *caller);
VMPI_EXPORT void *vmpi_iso_realloc_from(void *p, size_t n, const void *caller);
/* At start-up: finds those libraries. */
void vmpi_iso_malloc_init(void);
VMPI_EXPORT void vmpi_iso_free(void *p);
VMPI_EXPORT void *vmpi_iso_calloc(size_t n, size_t size);
VMPI_EXPORT void *vmpi_iso_realloc(void *p, size_t n);
VMPI_EXPORT void *vmpi_iso_reallocarray(void *p, size_t n, size_t size);
VMPI_EXPORT int vmpi_iso_posix_memalign(void **out, size_t align, size_t n);
VMPI_EXPORT void *vmpi_iso_aligned_alloc(size_t align, size_t n);
VMPI_EXPORT void *vmpi_iso_memalign(size_t align, size_t n);
VMPI_EXPORT void *vmpi_iso_valloc(size_t n);
VMPI_EXPORT void *vmpi_iso_pvalloc(size_t n);
VMPI_EXPORT size_t vmpi_iso_malloc_usable_size(void *p);

#endif
