/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI's operations on memory of another process (remote.h's copies are the rest): blocking, and atomic per
 * element as ARMCI's are, with respect to the same operations from any process. */
#ifndef VMPI_MPI_RMA_FAR_H
#define VMPI_MPI_RMA_FAR_H

#include <mpi.h>
#include <stdint.h>
#include "mpi/rma/win.h"
#include "xport/xport.h"

void vmpi_rma_far_init(void);
/* dst[i] = in[i] op dst[i] for n elements of builtin type `basic` at `dst` in world rank `owner`'s process,
 * applied there by one of its PEs as vmpi_rma_apply does (`t`: the target's accumulate state, an address in
 * that process); returns once every element is applied. */
void vmpi_rma_far_apply(int owner, vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *dst, MPI_Count n);
/* One fetch-and-add or swap of `size` bytes at `remote` in world rank `owner`'s process, through the
 * transport's atomic: the old value. */
uint64_t vmpi_rma_far_rmw(int owner, vmpi_xport_aop op, void *remote, int size, uint64_t operand);

#endif
