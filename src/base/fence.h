/* SPDX-License-Identifier: BSD-3-Clause */
/* Asymmetric fences, for a store-then-load handshake (Dekker) between a fast path that runs all the time
 * and a slow path that runs before someone goes to sleep: the fast path's light fence costs nothing (a
 * compiler barrier) and the slow path's heavy fence makes every running thread of the process execute a
 * full barrier (membarrier(2), private expedited).  Where membarrier is not available both are full
 * fences.  A light fence pairs only with a heavy one: two fast paths still need full fences between them. */
#ifndef VMPI_BASE_FENCE_H
#define VMPI_BASE_FENCE_H

#include <stdatomic.h>
#include <stdbool.h>

extern bool vmpi_fence_asymmetric;

/* Registers the process for expedited membarrier; call once before other threads use the fences. */
void vmpi_fence_init(void);
/* Makes both fences full ones, before other threads use them: where the slow path is the common one (PE
 * threads that outnumber the cores sleep at every wait), a membarrier per sleep costs far more (an IPI to
 * every CPU running the process, serialized system-wide) than a full fence on the fast path. */
void vmpi_fence_set_symmetric(void);

static inline void vmpi_fence_light(void)
{
    if (vmpi_fence_asymmetric)
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

void vmpi_fence_heavy(void);

#endif
