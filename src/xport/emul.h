/* SPDX-License-Identifier: BSD-3-Clause */
/* The emulated remote transport (--emulate-procs K): see emul.c. */
#ifndef VMPI_XPORT_EMUL_H
#define VMPI_XPORT_EMUL_H

#include "xport/xport.h"

void vmpi_xport_emul_init(int nprocs);
void vmpi_xport_emul_fini(void);
vmpi_xport *vmpi_xport_emul(void);
vmpi_xport_counts vmpi_xport_emul_counts(void);
/* One atomic read-modify-write in this address space (xport/inproc.c). */
uint64_t vmpi_xport_local_atomic(vmpi_xport_aop op, void *addr, int size, uint64_t operand, uint64_t compare);

#endif
