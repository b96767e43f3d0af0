/* SPDX-License-Identifier: BSD-3-Clause */
/* How long a PE thread waited for its core while runnable: the kernel's run delay (schedstat).
 *
 * Runs of VPs are timed with the TSC, which keeps counting while the OS runs something else on the PE's
 * core: one preemption of tens of milliseconds makes the rank that happened to run look many times heavier
 * than it is, and the balancer then places it, and others to make room, wrongly.  The run delay counts
 * exactly that time (runnable, not running); time the thread spends blocked in a system call of the rank's
 * own (I/O, sleep) is not in it and stays the rank's load, as the PE could run nobody else meanwhile. */
#ifndef VMPI_SCHED_RUNWAIT_H
#define VMPI_SCHED_RUNWAIT_H

/* The calling thread's reader (-1 when the kernel offers no schedstat: then nothing is corrected). */
int vmpi_runwait_open(void);
void vmpi_runwait_close(int fd);
/* Nanoseconds the thread has waited for a core since it started, or -1. */
long long vmpi_runwait_ns(int fd);

#endif
