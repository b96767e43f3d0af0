/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include "base/log.h"
#include "base/pool.h"
#include "base/sysmem.h"

typedef struct slab {
    struct slab *next;
    max_align_t pad[];
} slab;

void vmpi_pool_init(vmpi_pool *p, size_t payload_size, size_t slab_objs)
{
    size_t sz = sizeof(vmpi_pool_obj) + payload_size;
    p->obj_size = (sz + 15) & ~(size_t)15;
    p->slab_objs = slab_objs ? slab_objs : 64;
    p->local = NULL;
    p->slabs = NULL;
    atomic_store_explicit(&p->remote, NULL, memory_order_relaxed);
}

void vmpi_pool_destroy(vmpi_pool *p)
{
    slab *s = p->slabs;
    while (s) {
        slab *n = s->next;
        vmpi_sys_free(s);
        s = n;
    }
    p->slabs = NULL;
    p->local = NULL;
}

void *vmpi_pool_refill(vmpi_pool *p)
{
    /* objects freed by other PEs come back first; a new slab only when there are none */
    vmpi_pool_obj *o = atomic_exchange_explicit(&p->remote, NULL, memory_order_acquire);
    if (o == NULL) {
        /* the pool belongs to a PE, not to the rank that happens to run: not from the rank's slot */
        slab *s = vmpi_sys_malloc(sizeof(slab) + p->obj_size * p->slab_objs);
        if (s == NULL)
            vmpi_fatal("out of memory allocating a pool slab of %zu bytes", p->obj_size * p->slab_objs);
        s->next = p->slabs;
        p->slabs = s;
        char *base = (char *)s->pad;
        for (size_t i = 0; i < p->slab_objs; i++) {
            vmpi_pool_obj *n = (vmpi_pool_obj *)(base + i * p->obj_size);
            n->owner = p;
            n->next = o;
            o = n;
        }
    }
    p->local = o->next;
    return o + 1;
}
