/* SPDX-License-Identifier: BSD-3-Clause */
/* A test-and-set spin lock, for sections of a few instructions that never switch the running VP out (so a
 * holder on the same PE cannot be waited for). */
#ifndef VMPI_BASE_SPIN_H
#define VMPI_BASE_SPIN_H

#include <stdatomic.h>

static inline void vmpi_spin_lock(atomic_flag *f)
{
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        __builtin_ia32_pause();
}

static inline void vmpi_spin_unlock(atomic_flag *f) { atomic_flag_clear_explicit(f, memory_order_release); }

#endif
