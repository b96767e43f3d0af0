/* SPDX-License-Identifier: BSD-3-Clause */
/* Which PEs form which process.  PEs are numbered across the job; process k hosts a contiguous block of
 * them.  One process today, or the groups of the emulated multi-process mode (--emulate-procs). */
#ifndef VMPI_XPORT_PROCS_H
#define VMPI_XPORT_PROCS_H

#include "sched/sched.h"

typedef struct vmpi_xport_procs {
    int nprocs, npes;
    int *proc_of_pe;         /* [npes] */
    int *first_pe;           /* [nprocs + 1]: process k hosts PEs first_pe[k] .. first_pe[k + 1] - 1 */
} vmpi_xport_procs;
extern vmpi_xport_procs vmpi_xport_procs_;

static inline int vmpi_xport_nprocs(void) { return vmpi_xport_procs_.nprocs; }
static inline int vmpi_xport_proc_of_pe(int pe) { return vmpi_xport_procs_.proc_of_pe[pe]; }
static inline int vmpi_xport_first_pe(int proc) { return vmpi_xport_procs_.first_pe[proc]; }
static inline int vmpi_xport_proc_npes(int proc)
{
    return vmpi_xport_procs_.first_pe[proc + 1] - vmpi_xport_procs_.first_pe[proc];
}
/* The process of the calling PE. */
static inline int vmpi_xport_self_proc(void) { return vmpi_xport_procs_.proc_of_pe[vmpi_pe_self()->id]; }

#endif
