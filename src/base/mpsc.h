/* SPDX-License-Identifier: BSD-3-Clause */
/* Intrusive multi-producer single-consumer queue (D. Vyukov's design): a push is one atomic exchange and one
 * store, a pop touches no shared counter.  Not used by the runtime today (PEs talk through sched/chan.h); kept,
 * with its unit test, for a thread outside the PEs (an inter-process transport's receiver) to reach a PE. */
#ifndef VMPI_BASE_MPSC_H
#define VMPI_BASE_MPSC_H

#include <stdatomic.h>
#include <stdbool.h>
#include "base/compiler.h"

typedef struct vmpi_mpsc_node {
    _Atomic(struct vmpi_mpsc_node *) next;
} vmpi_mpsc_node;

typedef struct vmpi_mpsc {
    VMPI_ALIGNED_CL _Atomic(vmpi_mpsc_node *) tail; /* producers */
    VMPI_ALIGNED_CL vmpi_mpsc_node *head;           /* consumer only */
    vmpi_mpsc_node stub;
} vmpi_mpsc;

static inline void vmpi_mpsc_init(vmpi_mpsc *q)
{
    atomic_store_explicit(&q->stub.next, NULL, memory_order_relaxed);
    atomic_store_explicit(&q->tail, &q->stub, memory_order_relaxed);
    q->head = &q->stub;
}

/* Sequentially consistent exchange, so that a consumer going to sleep and a producer checking for that
 * cannot miss each other (the sleeping protocol of a receiver uses vmpi_mpsc_maybe_nonempty). */
static inline void vmpi_mpsc_push(vmpi_mpsc *q, vmpi_mpsc_node *n)
{
    atomic_store_explicit(&n->next, NULL, memory_order_relaxed);
    vmpi_mpsc_node *prev = atomic_exchange_explicit(&q->tail, n, memory_order_seq_cst);
    atomic_store_explicit(&prev->next, n, memory_order_release);
}

/* True when something was pushed or is being pushed; a racing push may not be poppable yet. */
static inline bool vmpi_mpsc_maybe_nonempty(vmpi_mpsc *q)
{
    /* head past the stub is itself a node not yet popped */
    return q->head != &q->stub || atomic_load_explicit(&q->tail, memory_order_seq_cst) != q->head ||
           atomic_load_explicit(&q->head->next, memory_order_acquire) != NULL;
}

/* Cheap check for spin loops: reads only lines the consumer already holds until a producer writes them, never
 * the producers' tail (reading it would pull that line away from the next push).  Misses a push that has not
 * linked its node yet; the sleep protocol uses vmpi_mpsc_maybe_nonempty. */
static inline bool vmpi_mpsc_peek(vmpi_mpsc *q)
{
    return q->head != &q->stub || atomic_load_explicit(&q->head->next, memory_order_acquire) != NULL;
}

/* Returns NULL when empty or when a producer is between its two steps (the caller polls again later). */
static inline vmpi_mpsc_node *vmpi_mpsc_pop(vmpi_mpsc *q)
{
    vmpi_mpsc_node *head = q->head;
    vmpi_mpsc_node *next = atomic_load_explicit(&head->next, memory_order_acquire);
    if (head == &q->stub) {
        if (next == NULL)
            return NULL;
        q->head = next;
        head = next;
        next = atomic_load_explicit(&next->next, memory_order_acquire);
    }
    if (next) {
        q->head = next;
        return head;
    }
    if (head != atomic_load_explicit(&q->tail, memory_order_acquire))
        return NULL; /* a push is in progress */
    vmpi_mpsc_push(q, &q->stub);
    next = atomic_load_explicit(&head->next, memory_order_acquire);
    if (next) {
        q->head = next;
        return head;
    }
    return NULL;
}

#endif
