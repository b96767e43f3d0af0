/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate operations applied in place in a target window, atomic per basic element (MPI-3.1 11.7.1):
 * concurrent accumulates on one location with the same basic type act as if in some serial order.  An
 * element of 1, 2, 4 or 8 bytes at an aligned address takes one hardware atomic when one instruction does
 * the operation (load, exchange, integer fetch-add/and/or/xor); any other operation, type (16-byte types)
 * or misaligned element is updated by the operation's kernel under the target's accumulate lock.  A location
 * has one basic type and, at a time, one operation (and MPI_NO_OP), so it is always updated the same way.
 * Under an exclusive lock no other origin can reach the target, and the plain kernels run without the lock. */
#ifndef VMPI_MPI_RMA_ATOMIC_H
#define VMPI_MPI_RMA_ATOMIC_H

#include <mpi.h>
#include <stdbool.h>
#include "mpi/rma/win.h"

/* Whether elements of builtin type `basic` can be updated by one hardware atomic (1, 2, 4 or 8 bytes, no
 * padding). */
bool vmpi_rma_hw_type(int basic);
/* The same update with plain loads and stores, for a caller that excludes every other accumulate;
 * `target` is aligned for the type. */
void vmpi_rma_apply_plain(MPI_Op op, int basic, const void *in, void *target, void *old, MPI_Count n);
/* For `n` contiguous elements of builtin type `basic` at `target`: old[i] = target[i] (when old is not
 * NULL), then target[i] = in[i] op target[i] (nothing for MPI_NO_OP; in[i] for MPI_REPLACE).  `in` and `old`
 * are contiguous and need no alignment. */
/* (A hardware-atomic type.) */
void vmpi_rma_apply(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                    MPI_Count n, bool exclusive);
/* Compare-and-swap of one element: old = *target; if old == *compare, *target = *origin. */
void vmpi_rma_cas_apply(vmpi_win_target *t, int basic, const void *origin, const void *compare, void *target,
                        void *old, bool exclusive);

#endif
