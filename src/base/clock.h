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

/* A cheap cycle counter for measuring how long VPs run (a few ns; on x86 the invariant TSC): ticks, whose
 * rate the caller calibrates against vmpi_clock_now over a long interval. */
static inline unsigned long long vmpi_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
#endif
}

#endif
