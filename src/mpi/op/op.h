/* SPDX-License-Identifier: BSD-3-Clause */
/* Reduction operations, predefined and user-defined (MPI-3.1 5.9.5): one place that says whether an op is
 * valid on a datatype, whether it commutes, and applies it to buffers laid out as `count` instances of a
 * datatype (contiguous or not). */
#ifndef VMPI_MPI_OP_H
#define VMPI_MPI_OP_H

#include <mpi.h>
#include <stdbool.h>
#include "dtype/dtype.h"

/* User operations live in one process-wide table (any rank may create them); indexes start here. */
enum { VMPI_OP_USER_FIRST = 32, VMPI_OP_USER_MAX = 4096 };

/* User operations' slots are unique in the job and each has its owner, the rank that made it (its function
 * is in that rank's copy of the program; mpi/core/handle.h): a checkpoint writes each rank's entries, and a
 * restart that brings the rank into another process's table re-registers them (false when the slot is
 * taken).  The largest slot given, and a restart's new numbering above the job's largest. */
typedef struct vmpi_op_entry {
    int slot;
    unsigned gen;
    bool commute, freed;
    int holds;
    MPI_User_function *fn; /* an MPI_User_function_c when `large` */
    bool large, abi;
} vmpi_op_entry;
typedef void (*vmpi_op_entry_fn)(void *arg, const vmpi_op_entry *e);
int vmpi_op_each_owned(int owner, vmpi_op_entry_fn fn, void *arg);
bool vmpi_op_install(const vmpi_op_entry *e, int owner);
int vmpi_op_top(void);
void vmpi_op_forget_owned(int owner);
void vmpi_op_keep_only(bool (*here)(int owner));
void vmpi_op_rebase(int above);

/* `fn` is an MPI_User_function (int length: MPI_Op_create) or, with VMPI_OP_LARGE in `form`, an
 * MPI_User_function_c (MPI_Count length: MPI_Op_create_c); either reduces every count, in pieces of at most
 * INT_MAX elements for the int one.  With VMPI_OP_ABI it is the standard ABI's function (libmpi_abi, whose
 * datatype handles are not vmpi's), which vmpi calls through vmpi_op_abi_call, the library's translator. */
enum { VMPI_OP_LARGE = 1, VMPI_OP_ABI = 2 };
int vmpi_op_create(void (*fn)(void), int form, bool commute, MPI_Op *out);
extern void (*vmpi_op_abi_call)(MPI_User_function *fn, bool large, void *in, void *inout, MPI_Count len,
                                MPI_Datatype dt);
/* MPI_ERR_OP for a predefined or invalid op. */
int vmpi_op_free(MPI_Op *op);
/* Whether `op` is a valid predefined or live user operation. */
bool vmpi_op_valid(MPI_Op op);
bool vmpi_op_commutative(MPI_Op op);
/* Whether reducing `dt` with `op` gives the same bits however the operands are grouped (integer sums,
 * minima, logical ops...; not floating-point sums and products, nor user functions). */
bool vmpi_op_reassociable(MPI_Op op, const vmpi_dtype *dt);
/* A pending operation keeps a user op usable after MPI_Op_free (MPI-3.1 5.9.5) until it releases it. */
void vmpi_op_hold(MPI_Op op);
void vmpi_op_release(MPI_Op op);
/* MPI_SUCCESS when `op` may reduce `dt` (user ops take any type; predefined ones need a type made of one
 * allowed basic type), MPI_ERR_OP otherwise. */
int vmpi_op_check(MPI_Op op, const vmpi_dtype *dt);
/* inout = in op inout over `count` instances of `dt` (handle `dth`, passed to user functions). */
void vmpi_op_apply(MPI_Op op, MPI_Datatype dth, const vmpi_dtype *dt, const void *in, void *inout, MPI_Count count);

#endif
