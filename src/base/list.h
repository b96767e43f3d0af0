/* SPDX-License-Identifier: BSD-3-Clause */
/* Intrusive circular doubly linked list: O(1) insert/remove, no allocation.  Used for run queues and the
 * matching queues, which are touched only by their owner PE (no atomics). */
#ifndef VMPI_BASE_LIST_H
#define VMPI_BASE_LIST_H

#include <stdbool.h>
#include "base/compiler.h"

typedef struct vmpi_list {
    struct vmpi_list *next, *prev;
} vmpi_list;

static inline void vmpi_list_init(vmpi_list *l) { l->next = l->prev = l; }
static inline bool vmpi_list_empty(const vmpi_list *l) { return l->next == l; }

static inline void vmpi_list_insert_before(vmpi_list *pos, vmpi_list *n)
{
    n->next = pos;
    n->prev = pos->prev;
    pos->prev->next = n;
    pos->prev = n;
}

static inline void vmpi_list_push_back(vmpi_list *l, vmpi_list *n) { vmpi_list_insert_before(l, n); }
static inline void vmpi_list_push_front(vmpi_list *l, vmpi_list *n) { vmpi_list_insert_before(l->next, n); }

static inline void vmpi_list_remove(vmpi_list *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->next = n->prev = n;
}

static inline vmpi_list *vmpi_list_pop_front(vmpi_list *l)
{
    vmpi_list *n = l->next;
    if (n == l)
        return NULL;
    vmpi_list_remove(n);
    return n;
}

#define vmpi_list_foreach(it, head) for (vmpi_list *it = (head)->next; it != (head); it = it->next)
#define vmpi_list_foreach_safe(it, tmp, head)                                                                 \
    for (vmpi_list *it = (head)->next, *tmp = it->next; it != (head); it = tmp, tmp = it->next)

#endif
