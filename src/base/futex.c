/* SPDX-License-Identifier: BSD-3-Clause */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/futex.h"

void vmpi_futex_wait(_Atomic uint32_t *word, uint32_t expected)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

void vmpi_futex_wake(_Atomic uint32_t *word, int nwaiters)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, nwaiters, NULL, NULL, 0);
}
