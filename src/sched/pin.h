/* SPDX-License-Identifier: BSD-3-Clause */
/* Pinning PEs to cores with hwloc. */
#ifndef VMPI_SCHED_PIN_H
#define VMPI_SCHED_PIN_H

#include <stddef.h>

/* Number of cores of the machine (hwloc), at least 1. */
int vmpi_pin_ncores(void);
/* Bytes of the largest cache shared by the cores (hwloc), or 0 if unknown. */
size_t vmpi_pin_llc_bytes(void);
/* Binds the calling thread to a core for PE `pe` of `npes`; does nothing when PEs outnumber cores. */
void vmpi_pin_thread(int pe, int npes);

#endif
