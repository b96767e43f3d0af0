/* SPDX-License-Identifier: BSD-3-Clause */
#include "sched/runwait.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/compiler.h"

/* Shared by the PEs, which calibrate it lazily, any of them: long_run is published last (release), so a PE
 * that finds it set finds the other limits too; relaxed loads are plain loads on x86-64. */
static struct {
    _Atomic unsigned long long min_run, long_run, stale; /* the limits in ticks (0: not calibrated yet) */
    _Atomic double first;               /* clock of the first question, to calibrate after 10 ms */
} R;
#define LIMIT(f) atomic_load_explicit(&R.f, memory_order_relaxed)

/* Nanoseconds the thread has waited for a core since it started, or -1. */
static long long read_ns(int fd)
{
    char buf[96];
    if (fd < 0)
        return -1;
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* "<time on the CPU> <time waiting for it> <timeslices>", nanoseconds */
    const char *p = buf;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p++ != ' ' || *p < '0' || *p > '9')
        return -1;
    long long v = 0;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (*p++ - '0');
    return v;
}

/* Ticks of the limits; ~0 (never) until the tick rate is known (the job's first 10 ms). */
static bool limits(void)
{
    if (VMPI_LIKELY(atomic_load_explicit(&R.long_run, memory_order_acquire)))
        return true;
    double now = vmpi_clock_now(), tick = vmpi_sched_tick_seconds(), first = 0;
    if (atomic_compare_exchange_strong(&R.first, &first, now))
        first = now;
    if (now - first < 0.01 || tick <= 0)
        return false;
    atomic_store_explicit(&R.stale, (unsigned long long)(1e-6 * VMPI_RUNWAIT_STALE_US / tick), memory_order_relaxed);
    atomic_store_explicit(&R.min_run, (unsigned long long)(1e-6 * VMPI_RUNWAIT_MIN_US / tick), memory_order_relaxed);
    atomic_store_explicit(&R.long_run, (unsigned long long)(1e-6 * VMPI_RUNWAIT_LONG_US / tick), memory_order_release);
    return true;
}

void vmpi_runwait_open(vmpi_pe *pe)
{
    /* thread-self is resolved at open: the descriptor keeps reading this thread's line */
    pe->runwait_fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (pe->runwait_fd >= 0 && read_ns(pe->runwait_fd) < 0) {
        close(pe->runwait_fd);
        pe->runwait_fd = -1;
    }
    vmpi_runwait_renew(pe, vmpi_ticks());
}

void vmpi_runwait_close(vmpi_pe *pe)
{
    if (pe->runwait_fd >= 0)
        close(pe->runwait_fd);
    pe->runwait_fd = -1;
}

void vmpi_runwait_renew(vmpi_pe *pe, unsigned long long now)
{
    pe->runwait_ref = read_ns(pe->runwait_fd);
    pe->runwait_at = now;
}

void vmpi_runwait_run_begin(vmpi_pe *pe, unsigned long long now)
{
    pe->run_mark = now;
    pe->run_waited = 0;
    if (VMPI_UNLIKELY(now - pe->runwait_at >= LIMIT(stale)) && limits())
        vmpi_runwait_renew(pe, now);
}

void vmpi_runwait_check(vmpi_pe *pe, unsigned long long now, unsigned long long prev)
{
    unsigned long long span = now - pe->run_mark;
    if (VMPI_LIKELY(span < LIMIT(min_run)) || pe->runwait_fd < 0 || !limits() || span < LIMIT(min_run))
        return;
    if (span < LIMIT(long_run) && !(prev && 2 * span > 3 * prev))
        return;
    long long ref = pe->runwait_ref;
    vmpi_runwait_renew(pe, now);
    pe->run_mark = now;
    double tick = vmpi_sched_tick_seconds();
    if (ref < 0 || pe->runwait_ref <= ref || tick <= 0)
        return;
    unsigned long long wait = (unsigned long long)(1e-9 * (double)(pe->runwait_ref - ref) / tick);
    unsigned long long k = wait < span ? wait : span;
    pe->run_waited += k;
    pe->waited += k;
}
