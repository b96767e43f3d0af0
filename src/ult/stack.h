/* SPDX-License-Identifier: BSD-3-Clause */
/* Stacks of user-level threads, with a PROT_NONE guard below so that an overflow faults instead of
 * silently corrupting a neighbour (a page for standalone stacks, up to 1 MiB in isomalloc slots).  A rank's stack lies in its isomalloc slot (iso/iso.h describes it with
 * this structure); vmpi_stack_create maps a standalone one (benchmarks). */
#ifndef VMPI_ULT_STACK_H
#define VMPI_ULT_STACK_H

#include <stdbool.h>
#include <stddef.h>

typedef struct vmpi_stack {
    void *map;      /* start of the mapping = start of the guard */
    size_t guard;   /* guard bytes */
    size_t size;    /* usable bytes above the guard */
} vmpi_stack;

bool vmpi_stack_create(vmpi_stack *s, size_t size);
void vmpi_stack_destroy(vmpi_stack *s);
static inline void *vmpi_stack_top(const vmpi_stack *s) { return (char *)s->map + s->guard + s->size; }
static inline void *vmpi_stack_bottom(const vmpi_stack *s) { return (char *)s->map + s->guard; }
static inline bool vmpi_stack_in_guard(const vmpi_stack *s, const void *addr)
{
    return (const char *)addr >= (const char *)s->map && (const char *)addr < (const char *)s->map + s->guard;
}

#endif
