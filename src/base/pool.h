/* SPDX-License-Identifier: BSD-3-Clause */
/* Fixed-size object pool owned by one PE.  The owner allocates and frees without atomics; another PE frees
 * an object by pushing it onto the owner's remote stack (one CAS), which the owner takes back in one exchange
 * when its local list runs dry.  Objects come from slabs that are never returned, so steady-state messaging
 * does no malloc, lock or system call. */
#ifndef VMPI_BASE_POOL_H
#define VMPI_BASE_POOL_H

#include <stdatomic.h>
#include <stddef.h>
#include "base/compiler.h"

typedef struct vmpi_pool_obj {
    struct vmpi_pool *owner;
    struct vmpi_pool_obj *next;
} vmpi_pool_obj;

typedef struct vmpi_pool {
    size_t obj_size;        /* including the header */
    size_t slab_objs;
    vmpi_pool_obj *local;   /* owner only */
    void *slabs;            /* chain of slabs, for destruction */
    VMPI_ALIGNED_CL _Atomic(vmpi_pool_obj *) remote;
} vmpi_pool;

void vmpi_pool_init(vmpi_pool *p, size_t payload_size, size_t slab_objs);
void vmpi_pool_destroy(vmpi_pool *p);
void *vmpi_pool_refill(vmpi_pool *p);

/* Allocation must happen on the owner's thread. */
static inline void *vmpi_pool_alloc(vmpi_pool *p)
{
    vmpi_pool_obj *o = p->local;
    if (VMPI_LIKELY(o != NULL)) {
        p->local = o->next;
        return o + 1;
    }
    return vmpi_pool_refill(p);
}

/* `self` is the pool of the calling PE for this size class: same owner means no atomics. */
static inline void vmpi_pool_free(void *ptr, const vmpi_pool *self)
{
    vmpi_pool_obj *o = (vmpi_pool_obj *)ptr - 1;
    vmpi_pool *owner = o->owner;
    if (owner == self) {
        o->next = owner->local;
        owner->local = o;
        return;
    }
    vmpi_pool_obj *top = atomic_load_explicit(&owner->remote, memory_order_relaxed);
    do {
        o->next = top;
    } while (!atomic_compare_exchange_weak_explicit(&owner->remote, &top, o, memory_order_release,
                                                    memory_order_relaxed));
}

#endif
