/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef VMPI_BASE_CLOCK_H
#define VMPI_BASE_CLOCK_H

#include <time.h>

/* Seconds on the monotonic clock (vDSO: no system call). */
static inline double vmpi_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
