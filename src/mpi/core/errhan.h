/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handling: the binding layer reports every error through vmpi_err_raise, which applies the error
 * handler of the communicator (MPI_ERRORS_ARE_FATAL by default). */
#ifndef VMPI_MPI_ERRHAN_H
#define VMPI_MPI_ERRHAN_H

#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include "base/compiler.h"

typedef struct vmpi_errh_user {
    MPI_Comm_errhandler_function *fn;
    int refs;
    bool abi; /* the standard ABI's function (libmpi_abi): called through vmpi_errh_abi_call */
} vmpi_errh_user;

/* libmpi_abi's caller of its handlers (their handles and error codes are the ABI's), set when it loads */
extern void (*vmpi_errh_abi_call)(MPI_Comm_errhandler_function *fn, int *obj, int *code, const char *name);
/* Marks the calling rank's handler `h`, just created, as an ABI function's. */
void vmpi_errh_set_abi(MPI_Errhandler h);

/* Raises error `code` of MPI function `fn` on `comm` (MPI_COMM_NULL or an invalid handle: MPI_COMM_WORLD's
 * handler).  Returns the code when the handler returns. */
int vmpi_err_raise(MPI_Comm comm, int code, const char *fn, const char *fmt, ...) VMPI_PRINTF(4, 5);
/* The same with handler `h` of object `obj` (a window's, say). */
int vmpi_err_vraise(MPI_Errhandler h, int obj, int code, const char *fn, const char *fmt, va_list ap);
const char *vmpi_err_class_name(int cls);
const char *vmpi_err_class_text(int cls);
int vmpi_errh_check(MPI_Errhandler h);
int vmpi_errh_create(MPI_Comm_errhandler_function *fn, MPI_Errhandler *out);
int vmpi_errh_free(MPI_Errhandler *h);
void vmpi_errh_ref(MPI_Errhandler h);
/* Sets an object's handler (*slot: a communicator's or a window's), moving the reference from the one it
 * replaces; MPI_ERR_ARG when `h` is not a live handler of the calling rank. */
int vmpi_errh_install(MPI_Errhandler *slot, MPI_Errhandler h);

#endif
