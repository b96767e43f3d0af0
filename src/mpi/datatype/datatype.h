/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatype handles -> engine descriptions (src/dtype).  Predefined types are VMPI_DT(i), i below
 * VMPI_DT_BUILTIN_COUNT.  Derived types live in one process-wide table (ranks on every PE create and free
 * types concurrently): a handle's index is (generation << 20) | slot, so a freed handle stays invalid after
 * its slot is reused; each slot holds one reference to its type, so a type freed while an operation still
 * uses it lives on until that operation releases it. */
#ifndef VMPI_MPI_DATATYPE_H
#define VMPI_MPI_DATATYPE_H

#include <mpi.h>
#include "dtype/dtype.h"

/* NULL when `h` is not a valid committed datatype (what communication takes). */
const vmpi_dtype *vmpi_dt_get(MPI_Datatype h);
/* Any valid datatype, committed or not (what constructors and queries take); NULL if invalid or freed. */
vmpi_dtype *vmpi_dt_lookup(MPI_Datatype h);

/* A new handle for `dt`, taking over one reference (the caller's); MPI_DATATYPE_NULL if the table is full. */
MPI_Datatype vmpi_dt_register(vmpi_dtype *dt);
/* A handle for `dt` as MPI_Type_get_contents returns it: the predefined handle, or a new handle holding a
 * new reference. */
MPI_Datatype vmpi_dt_handle_for(vmpi_dtype *dt);
/* The same for a type every rank of the process shares (f90.c): no rank owns the handle. */
MPI_Datatype vmpi_dt_register_shared(vmpi_dtype *dt);
/* Handles are unique in the job and each has its owner, the rank that made it (mpi/core/handle.h): a
 * checkpoint writes each rank's entries (slot, state, type), and a restart that brings the rank into
 * another process's table re-registers them (false when the slot is taken or the entry malformed).  The
 * largest slot given, and a restart's new numbering above the job's largest. */
typedef void (*vmpi_dt_entry_fn)(void *arg, unsigned slot, unsigned state, vmpi_dtype *dt);
int vmpi_dt_each_owned(int owner, vmpi_dt_entry_fn fn, void *arg);
bool vmpi_dt_install(unsigned slot, unsigned state, vmpi_dtype *dt, int owner);
int vmpi_dt_top(void);
/* Drops the entries of `owner` (a restart, before re-registering them: copies of them may be here). */
void vmpi_dt_forget_owned(int owner);
/* Drops the entries whose owner is not `here` (a restart on another number of processes: the checkpoint's
 * process's table, put back whole, has the entries of its ranks now in other processes). */
void vmpi_dt_keep_only(bool (*here)(int owner));
void vmpi_dt_rebase(int above);
/* Frees a derived handle; false if `h` is not one. */
bool vmpi_dt_free(MPI_Datatype h);

/* Sets what Type_get_contents reports; takes `types` references of its own.  False when out of memory. */
bool vmpi_dt_set_contents(vmpi_dtype *dt, int combiner, int ni, const int *ints, int na, const MPI_Aint *aints,
                          int nl, const MPI_Count *counts, int nd, vmpi_dtype *const *types);

/* Names (MPI_Type_set_name / get_name), under the table's lock: predefined names can be changed too. */
void vmpi_dt_set_name(vmpi_dtype *dt, const char *name);
void vmpi_dt_get_name(const vmpi_dtype *dt, char *name, int *len);

#endif
