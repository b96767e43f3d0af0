/* SPDX-License-Identifier: BSD-3-Clause */
/* What libvmpi gives libmpi_abi (src/abi/, the MPI-5.0 standard ABI over vmpi) beyond the MPI functions: the
 * calls of user functions whose arguments are the ABI's handles, and errors reported under the name of the
 * ABI function that failed.  Exported; nothing else calls them. */
#ifndef VMPI_BINDING_ABI_HOOKS_H
#define VMPI_BINDING_ABI_HOOKS_H

#include <mpi.h>
#include <stdbool.h>
#include "base/compiler.h"

/* The library's translator of user reduction functions (set once, when it loads): vmpi calls it with the ABI
 * function an MPI_Op_create through the ABI registered, `len` elements (at most INT_MAX unless `large`) and
 * vmpi's datatype handle. */
typedef void vmpi_abi_op_call_fn(MPI_User_function *fn, bool large, void *in, void *inout, MPI_Count len,
                                 MPI_Datatype dt);
VMPI_EXPORT void vmpi_abi_set_op_call(vmpi_abi_op_call_fn *call);
/* MPI_Op_create (MPI_Op_create_c when `large`) of an ABI function, with MPI_Op_create's checks and errors. */
VMPI_EXPORT int vmpi_abi_op_create(void (*fn)(void), int large, int commute, MPI_Op *op);
/* The library's caller of user error handlers (set once): their object's handle and error code are vmpi's,
 * `name` the failed function's. */
typedef void vmpi_abi_errh_call_fn(MPI_Comm_errhandler_function *fn, int *obj, int *code, const char *name);
VMPI_EXPORT void vmpi_abi_set_errh_call(vmpi_abi_errh_call_fn *call);
/* Marks the error handler the calling rank just made (MPI_Comm/Win/Session_create_errhandler of an ABI
 * function) as the ABI's. */
VMPI_EXPORT void vmpi_abi_errh_created(MPI_Errhandler h);
/* Raises error class `code` of ABI function `fn` on `comm` (its handler decides), `why` saying what. */
VMPI_EXPORT int vmpi_abi_raise(MPI_Comm comm, int code, const char *fn, const char *why);

#endif
