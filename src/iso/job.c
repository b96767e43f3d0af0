/* SPDX-License-Identifier: BSD-3-Clause */
/* The job heap: the last slots of the isomalloc range (64 GiB, range.c), for the runtime objects ranks share
 * and refer to by address (groups, derived datatypes, info objects, the shared collective state, and the
 * tables indexing them).  At a fixed address like the ranks' slots, it is written with a checkpoint and mapped back at the
 * same place on restart, so every pointer a rank holds to such an object stays valid.  Any thread may
 * allocate from it, under a lock: these objects are made and freed at MPI calls, never per message.  A
 * block is freed with plain free() (iso/malloc.c sends it to the slot's remote-free stack). */
#include <pthread.h>
#include <string.h>
#include "base/log.h"
#include "base/sanitizer.h"
#include "base/sysmem.h"
#include "iso/heap.h"
#include "iso/iso.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static vmpi_iso_heap *job;

void vmpi_iso_job_open(void)
{
    vmpi_stack st;
    job = vmpi_iso_slot_open(vmpi_iso_range_.job, &st);
}

void vmpi_iso_job_close(void) { job = NULL; }

vmpi_iso_heap *vmpi_iso_job_heap(void) { return job; }

/* Sanitizer builds keep these objects in the sanitizer's heap, where it checks them (a checkpoint to a
 * file is refused there anyway: the ranks' own blocks are not in their slots).  Before the range exists
 * (unit tests of the layers above), the system's. */
#define JOB_CALL(sys, call)                                                                                 \
    do {                                                                                                    \
        if (VMPI_SANITIZER || job == NULL)                                                                       \
            return sys;                                                                                     \
        pthread_mutex_lock(&lock);                                                                          \
        void *p_ = call;                                                                                    \
        pthread_mutex_unlock(&lock);                                                                        \
        return p_;                                                                                          \
    } while (0)

void *vmpi_iso_job_malloc(size_t n) { JOB_CALL(vmpi_sys_malloc(n), vmpi_iso_heap_malloc(job, n)); }

void *vmpi_iso_job_calloc(size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    JOB_CALL(vmpi_sys_calloc(n, size), vmpi_iso_heap_calloc(job, bytes));
}

void *vmpi_iso_job_memalign(size_t align, size_t n)
{
    JOB_CALL(vmpi_sys_memalign(align, n), vmpi_iso_heap_memalign(job, align, n));
}

static vmpi_iso_heap *own(void)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    return VMPI_SANITIZER || h == NULL || h == job ? NULL : h;
}

void *vmpi_iso_own_malloc(size_t n)
{
    vmpi_iso_heap *h = own();
    return h ? vmpi_iso_heap_malloc(h, n) : vmpi_iso_job_malloc(n);
}

void *vmpi_iso_own_calloc(size_t n, size_t size)
{
    size_t bytes;
    vmpi_iso_heap *h = own();
    if (h == NULL)
        return vmpi_iso_job_calloc(n, size);
    if (__builtin_mul_overflow(n, size, &bytes))
        return NULL;
    return vmpi_iso_heap_calloc(h, bytes);
}

void *vmpi_iso_own_realloc(void *p, size_t n)
{
    vmpi_iso_heap *h = own();
    if (p == NULL)
        return vmpi_iso_own_malloc(n);
    if (VMPI_SANITIZER || job == NULL || !iso_in_range(p))
        return vmpi_sys_realloc(p, n); /* the system's, as the job heap's are then */
    vmpi_iso_heap *of = iso_heap_of(p);
    if (of == (h ? h : job))
        return h ? vmpi_iso_heap_realloc(h, p, n) : vmpi_iso_job_realloc(p, n);
    return vmpi_iso_move(p, vmpi_iso_own_malloc(n), n);
}

/* `p` must be a block of this heap (or NULL). */
void *vmpi_iso_job_realloc(void *p, size_t n)
{
    if (p == NULL)
        return vmpi_iso_job_malloc(n);
    if (!VMPI_SANITIZER && job != NULL && (!iso_in_range(p) || iso_heap_of(p) != job))
        vmpi_fatal("internal error: vmpi_iso_job_realloc(%p): not a block of the job heap", p);
    JOB_CALL(vmpi_sys_realloc(p, n), vmpi_iso_heap_realloc(job, p, n));
}
