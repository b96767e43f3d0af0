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

/* The hardware resources holding the CPU the calling thread runs on now, from the largest (a package) to the
 * PU: for each, its hwloc type name in lower case ("package", "numanode", "l3cache", "core", "pu"...), the
 * logical index of the one holding the CPU and how many the machine has.  Returns how many were written (at
 * most `max`); 0 when hwloc knows no topology or not the CPU. */
typedef struct vmpi_pin_level {
    char type[24];
    int index, count;
} vmpi_pin_level;
int vmpi_pin_levels(vmpi_pin_level *out, int max);

#endif
