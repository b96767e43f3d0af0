/* SPDX-License-Identifier: BSD-3-Clause */
/* Pinning PEs to cores with hwloc. */
#ifndef VMPI_SCHED_PIN_H
#define VMPI_SCHED_PIN_H

#include <stddef.h>

/* Number of cores of the machine (hwloc), at least 1. */
int vmpi_pin_ncores(void);
/* Bytes of the largest cache shared by the cores (hwloc), or 0 if unknown. */
size_t vmpi_pin_llc_bytes(void);
/* Binds the calling thread, the `i`-th of this process's `n` PE threads, to a core.  A process that its
 * launcher bound to some cores (mpirun's or srun's binding) pins its threads to those, the i-th to the i-th,
 * when they are enough; an unbound one takes core `node_first + i`, its place among the node's
 * `node_threads` PE threads, when they fit the machine.  Otherwise nothing is pinned. */
void vmpi_pin_thread(int i, int n, int node_first, int node_threads);

#endif
