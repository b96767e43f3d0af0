/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handlers, classes, codes and strings: the implementations behind the generated entry points
 * (<build>/gen/binding/errhan_entry.c, from src/binding/spec/errhan.toml), which check the arguments and
 * report the errors these return; and the hooks libmpi_abi calls (binding/abi_hooks.h). */
#include <string.h>
#include "binding/abi_hooks.h"
#include "binding/impl.h"
#include "mpi/core/errcode.h"

int vmpi_b_Comm_create_errhandler(MPI_Comm_errhandler_function *comm_errhandler_fn, MPI_Errhandler *errhandler)
{
    return vmpi_errh_create(comm_errhandler_fn, errhandler);
}

int vmpi_b_Comm_set_errhandler(vmpi_comm *comm, MPI_Errhandler errhandler)
{
    return vmpi_errh_install(&comm->errh, errhandler);
}

int vmpi_b_Comm_get_errhandler(vmpi_comm *comm, MPI_Errhandler *errhandler)
{
    vmpi_errh_ref(comm->errh); /* the caller owns a reference, freed with MPI_Errhandler_free */
    *errhandler = comm->errh;
    return MPI_SUCCESS;
}

int vmpi_b_Comm_call_errhandler(vmpi_comm *comm, int errorcode)
{
    vmpi_err_raise(comm->handle, errorcode, "MPI_Comm_call_errhandler", NULL);
    return MPI_SUCCESS;
}

int vmpi_b_Errhandler_free(MPI_Errhandler *errhandler) { return vmpi_errh_free(errhandler); }

static int unknown_code(int errorcode, vmpi_chk *ck)
{
    snprintf(ck->why, sizeof ck->why, "unknown error code %d", errorcode);
    return MPI_ERR_ARG;
}

int vmpi_b_Error_string(int errorcode, char *string, int *resultlen, vmpi_chk *ck)
{
    const char *name = vmpi_err_class_name(errorcode), *user = vmpi_errcode_user_string(errorcode);
    if (name)
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", name, vmpi_err_class_text(errorcode));
    else if (user)
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", user); /* as given to MPI_Add_error_string */
    else
        return unknown_code(errorcode, ck);
    return MPI_SUCCESS;
}

int vmpi_b_Error_class(int errorcode, int *errorclass, vmpi_chk *ck)
{
    int cls = vmpi_errcode_class(errorcode);
    if (cls < 0)
        return unknown_code(errorcode, ck);
    *errorclass = cls;
    return MPI_SUCCESS;
}

int vmpi_b_Add_error_class(int *errorclass) { return vmpi_errcode_add_class(errorclass); }

int vmpi_b_Add_error_code(int errorclass, int *errorcode, vmpi_chk *ck)
{
    int err = vmpi_errcode_add_code(errorclass, errorcode);
    if (err == MPI_ERR_ARG)
        snprintf(ck->why, sizeof ck->why, "%d is not an error class (other than MPI_SUCCESS)", errorclass);
    return err;
}

int vmpi_b_Add_error_string(int errorcode, const char *string, vmpi_chk *ck)
{
    int err = vmpi_errcode_set_string(errorcode, string);
    if (err == MPI_ERR_ARG)
        snprintf(ck->why, sizeof ck->why, "%d is not a user error class or code (only those get strings)",
                 errorcode);
    return err;
}

/* A removal's refusal (err, of vmpi_errcode_remove*) as MPI_ERR_ARG, saying why; `what` is what the code
 * should have been. */
static int removed(int code, int err, const char *what, vmpi_chk *ck)
{
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (err == VMPI_ERRCODE_HAS_STRING)
        snprintf(ck->why, sizeof ck->why, "%d still has an error string (MPI_Remove_error_string first)", code);
    else if (err == VMPI_ERRCODE_HAS_CODES)
        snprintf(ck->why, sizeof ck->why, "class %d still has error codes (MPI_Remove_error_code first)", code);
    else
        snprintf(ck->why, sizeof ck->why, "%d is not a user error %s", code, what);
    return MPI_ERR_ARG;
}

int vmpi_b_Remove_error_class(int errorclass, vmpi_chk *ck)
{
    return removed(errorclass, vmpi_errcode_remove(errorclass, true), "class", ck);
}

int vmpi_b_Remove_error_code(int errorcode, vmpi_chk *ck)
{
    return removed(errorcode, vmpi_errcode_remove(errorcode, false), "code", ck);
}

int vmpi_b_Remove_error_string(int errorcode, vmpi_chk *ck)
{
    return removed(errorcode, vmpi_errcode_remove_string(errorcode), "class or code with a string", ck);
}

/* ---- libmpi_abi's hooks ---- */

void vmpi_abi_set_errh_call(vmpi_abi_errh_call_fn *call) { vmpi_errh_abi_call = call; }
void vmpi_abi_errh_created(MPI_Errhandler h) { vmpi_errh_set_abi(h); }

int vmpi_abi_raise(MPI_Comm comm, int code, const char *fn, const char *why)
{
    return vmpi_err_raise(comm, code, fn, why ? "%s" : NULL, why ? why : "");
}
