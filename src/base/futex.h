/* SPDX-License-Identifier: BSD-3-Clause */
/* Sleeping and waking a thread on a 32-bit word (Linux futex): how idle PEs sleep instead of spinning. */
#ifndef VMPI_BASE_FUTEX_H
#define VMPI_BASE_FUTEX_H

#include <stdatomic.h>
#include <stdint.h>

/* Sleeps while *word == expected (returns at once otherwise, or on a spurious wake-up). */
void vmpi_futex_wait(_Atomic uint32_t *word, uint32_t expected);
void vmpi_futex_wake(_Atomic uint32_t *word, int nwaiters);

#endif
