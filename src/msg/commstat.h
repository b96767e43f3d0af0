/* SPDX-License-Identifier: BSD-3-Clause */
/* The communication graph for load balancing: per sending rank, messages and bytes to each destination
 * rank since the last reset.  Counted in the send path only while tracking is on (a communication-aware
 * balancer is chosen), by the sender on its own PE: an open-addressed table in the sender's endpoint, no
 * atomics. */
#ifndef VMPI_MSG_COMMSTAT_H
#define VMPI_MSG_COMMSTAT_H

#include <stdbool.h>

typedef struct vmpi_commstat {
    int *dst;                /* world rank + 1; 0: empty entry */
    double *bytes;
    unsigned *msgs;
    int cap, n;              /* cap: a power of two */
} vmpi_commstat;

void vmpi_commstat_track(bool on);
/* Read on every send: a plain flag, set once before the ranks run. */
extern bool vmpi_commstat_on_;
static inline bool vmpi_commstat_tracking(void) { return vmpi_commstat_on_; }
/* Counts one message of `bytes` to world rank `dst` in `st` (out of memory: the message is not counted). */
void vmpi_commstat_add(vmpi_commstat *st, int dst, double bytes);
/* Calls fn for every destination counted in `st`. */
void vmpi_commstat_each(const vmpi_commstat *st, void (*fn)(void *arg, int dst, double bytes, unsigned msgs),
                        void *arg);
void vmpi_commstat_reset(vmpi_commstat *st);
void vmpi_commstat_free(vmpi_commstat *st);

#endif
