/* SPDX-License-Identifier: BSD-3-Clause */
/* The time a PE thread waited for its core while runnable (the kernel's run delay, from schedstat), taken
 * off the load of the rank that was running.
 *
 * Runs of VPs are timed with the TSC, which keeps counting while the OS runs something else on the PE's
 * core: one preemption of tens of milliseconds makes the rank that happened to run look many times heavier
 * than it is, and the balancer then places it, and others to make room, wrongly.  The run delay counts
 * exactly that time (runnable, not running); time the thread spends blocked in a system call of the rank's
 * own (I/O, sleep) is not in it and stays the rank's load, as the PE could run nobody else meanwhile.
 *
 * Reading it is a system call (1 us warm, 20-30 us cold on this project's virtual machines, which is what
 * a run that follows a millisecond of computing finds), so only a run that may have been preempted reads
 * it: one of VMPI_RUNWAIT_LONG_US or more, or of VMPI_RUNWAIT_MIN_US or more that took over 1.5 times the
 * VP's previous run (a preemption stretches a run; in a loop of similar runs nothing else does).  The wait
 * since the previous reading is taken off the run, at most the whole run; the reading is at most
 * VMPI_RUNWAIT_STALE_US old when the run starts, so little of that wait can be another run's.
 * The reading is renewed where it costs nothing (before a PE sleeps, after a stop of the world), at each
 * check, and at the start of a run when it is older than VMPI_RUNWAIT_STALE_US.  What escapes (waits within
 * short or unstretched runs) the balancing step spreads over the PE's ranks by the PE's CPU share. */
#ifndef VMPI_SCHED_RUNWAIT_H
#define VMPI_SCHED_RUNWAIT_H

#include "sched/sched.h"

enum { VMPI_RUNWAIT_MIN_US = 1000, VMPI_RUNWAIT_LONG_US = 10000, VMPI_RUNWAIT_STALE_US = 20000 };

/* The calling PE thread's reader (nothing is corrected when the kernel offers no schedstat). */
void vmpi_runwait_open(vmpi_pe *pe);
void vmpi_runwait_close(vmpi_pe *pe);
/* A new reading (cheap points: before sleeping, after a stop of the world). */
void vmpi_runwait_renew(vmpi_pe *pe, unsigned long long now);
/* A VP starts running at `now` (ticks). */
void vmpi_runwait_run_begin(vmpi_pe *pe, unsigned long long now);
/* The running VP has run until `now`; its previous run took `prev` ticks (0: unknown).  When the run may
 * have been preempted, adds the PE's wait during it to pe->run_waited. */
void vmpi_runwait_check(vmpi_pe *pe, unsigned long long now, unsigned long long prev);

#endif
