/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate operations applied in place in a target window.
 *
 * MPI accumulates (Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap) are atomic as whole
 * operations with respect to each other at the target, as in MPICH and Open MPI: MPI-3.1 11.7.1 only promises
 * atomicity per basic element, but lock-free codes read and write 16-byte MPI_BYTE records with them.  One element
 * of 1, 2, 4 or 8 bytes at an aligned address, with an operation one instruction does (load, exchange, integer
 * fetch-add/and/or/xor, compare-and-swap), is that one hardware atomic: the PE announces it in its slot (a line of
 * its own) first.  Every other operation (several elements, other operations, 16-byte types, misaligned elements)
 * is a bulk operation: it takes the target's accumulate lock, raises the target's `bulk` flag, waits until no PE
 * announces a one-element update of that target, and runs the plain (vectorized) kernels; a one-element update that
 * sees the flag takes the lock too.  Under an exclusive lock no other origin can reach the target, and the plain
 * kernels run without any of this.
 *
 * vmpi_rma_apply (ARMCI's accumulates, atomic per element only) keeps the element-wise scheme: a hardware
 * atomic per element when one instruction does the operation, the kernel under the accumulate lock
 * otherwise. */
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
/* The same at any alignment (a misaligned target through an aligned copy): the body of one piece of a bulk
 * operation, between vmpi_rma_bulk_begin and vmpi_rma_bulk_end. */
void vmpi_rma_apply_plain_any(MPI_Op op, int basic, const void *in, void *target, void *old, MPI_Count n);
/* ARMCI: the update of vmpi_rma_acc_whole, atomic per element only. */
void vmpi_rma_apply(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                    MPI_Count n, bool exclusive);
/* Whole MPI accumulates: for `n` contiguous elements of builtin type `basic` at `target` (any alignment),
 * old[i] = target[i] (when old is not NULL), then target[i] = in[i] op target[i] (nothing for MPI_NO_OP;
 * in[i] for MPI_REPLACE), atomically as a whole.  `in` and `old` are contiguous, any alignment. */
void vmpi_rma_acc_whole(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                        MPI_Count n, bool exclusive);
/* The same for one element (Fetch_and_op). */
void vmpi_rma_acc_one(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                      bool exclusive);
/* A bulk operation's hold on target `t` (derived datatypes: the caller updates the target itself between
 * the two with plain loads and stores).  An accumulate whose target is several pieces (runs of a derived
 * type, a remote operation's runs) takes one hold over all of them: one hold per piece would let another
 * accumulate run between two pieces, and the operation would no longer be atomic as a whole. */
void vmpi_rma_bulk_begin(vmpi_win_target *t);
void vmpi_rma_bulk_end(vmpi_win_target *t);
/* Compare-and-swap of one element: old = *target; if old == *compare, *target = *origin. */
void vmpi_rma_cas_apply(vmpi_win_target *t, int basic, const void *origin, const void *compare, void *target,
                        void *old, bool exclusive);

#endif
