/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handler and error string entry points. */
#include <string.h>
#include "binding/abi_hooks.h"
#include "binding/check.h"
#include "mpi/core/errcode.h"

VMPI_WEAK(Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, (void *)fn, "function")) ||
        (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")) || (err = vmpi_errh_create(fn, errhandler)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Comm_create_errhandler", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)))
        return vmpi_fail(comm, err, "MPI_Comm_set_errhandler", &ck);
    if ((err = vmpi_errh_install(&c->errh, errhandler))) {
        snprintf(ck.why, sizeof ck.why, "invalid error handler 0x%x", (unsigned)errhandler);
        return vmpi_fail(comm, err, "MPI_Comm_set_errhandler", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) ||
        (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")))
        return vmpi_fail(comm, err, "MPI_Comm_get_errhandler", &ck);
    vmpi_errh_ref(c->errh); /* the caller owns a reference, freed with MPI_Errhandler_free */
    *errhandler = c->errh;
    return MPI_SUCCESS;
}

VMPI_WEAK(Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)))
        return vmpi_fail(comm, err, "MPI_Comm_call_errhandler", &ck);
    vmpi_err_raise(comm, errorcode, "MPI_Comm_call_errhandler", NULL);
    return MPI_SUCCESS;
}

VMPI_WEAK(Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    VMPI_CHK(ck);
    int err;
    /* allowed at any time (MPI-4.1 11.4.1): a session's handler may be freed before MPI_Session_init */
    if ((err = vmpi_chk_in_rank(&ck)) || (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Errhandler_free", &ck);
    if (vmpi_errh_check(*errhandler) != MPI_SUCCESS) {
        snprintf(ck.why, sizeof ck.why, "invalid error handler 0x%x", (unsigned)*errhandler);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Errhandler_free", &ck);
    }
    return vmpi_errh_free(errhandler);
}

VMPI_WEAK(Error_string)
int PMPI_Error_string(int errorcode, char *string, int *resultlen)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Error_string");
    int err;
    if ((err = vmpi_chk_ptr(&ck, string, "string")) || (err = vmpi_chk_ptr(&ck, resultlen, "resultlen")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Error_string", &ck);
    const char *name = vmpi_err_class_name(errorcode), *user = vmpi_errcode_user_string(errorcode);
    if (name)
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", name, vmpi_err_class_text(errorcode));
    else if (user)
        *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s", user); /* as given to MPI_Add_error_string */
    else {
        snprintf(ck.why, sizeof ck.why, "unknown error code %d", errorcode);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Error_class");
    int err, cls = vmpi_errcode_class(errorcode);
    if ((err = vmpi_chk_ptr(&ck, errorclass, "errorclass")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Error_class", &ck);
    if (cls < 0) {
        snprintf(ck.why, sizeof ck.why, "unknown error code %d", errorcode);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", &ck);
    }
    *errorclass = cls;
    return MPI_SUCCESS;
}

void vmpi_abi_set_errh_call(vmpi_abi_errh_call_fn *call) { vmpi_errh_abi_call = call; }
void vmpi_abi_errh_created(MPI_Errhandler h) { vmpi_errh_set_abi(h); }

int vmpi_abi_raise(MPI_Comm comm, int code, const char *fn, const char *why)
{
    return vmpi_err_raise(comm, code, fn, why ? "%s" : NULL, why ? why : "");
}

VMPI_WEAK(Add_error_class)
int PMPI_Add_error_class(int *errorclass)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, errorclass, "errorclass")) ||
        (err = vmpi_errcode_add_class(errorclass)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Add_error_class", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Add_error_code)
int PMPI_Add_error_code(int errorclass, int *errorcode)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, errorcode, "errorcode")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Add_error_code", &ck);
    if ((err = vmpi_errcode_add_code(errorclass, errorcode))) {
        if (err == MPI_ERR_ARG)
            snprintf(ck.why, sizeof ck.why, "%d is not an error class (other than MPI_SUCCESS)", errorclass);
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Add_error_code", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Add_error_string)
int PMPI_Add_error_string(int errorcode, const char *string)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, string, "string")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Add_error_string", &ck);
    if (strnlen(string, MPI_MAX_ERROR_STRING) >= MPI_MAX_ERROR_STRING) {
        snprintf(ck.why, sizeof ck.why, "string longer than MPI_MAX_ERROR_STRING - 1 (%d) characters",
                 MPI_MAX_ERROR_STRING - 1);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Add_error_string", &ck);
    }
    if ((err = vmpi_errcode_set_string(errorcode, string))) {
        if (err == MPI_ERR_ARG)
            snprintf(ck.why, sizeof ck.why, "%d is not a user error class or code (only those get strings)",
                     errorcode);
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Add_error_string", &ck);
    }
    return MPI_SUCCESS;
}

/* MPI-4.1's removals of user error classes, codes and strings: what is not the user's, or still has a
 * string or codes, is refused (MPI_ERR_ARG, saying which). */
static int removed(int code, int err, const char *fn, vmpi_chk *ck)
{
    if (err == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (err == VMPI_ERRCODE_HAS_STRING)
        snprintf(ck->why, sizeof ck->why, "%d still has an error string (MPI_Remove_error_string first)", code);
    else if (err == VMPI_ERRCODE_HAS_CODES)
        snprintf(ck->why, sizeof ck->why, "class %d still has error codes (MPI_Remove_error_code first)", code);
    else if (strcmp(fn, "MPI_Remove_error_string") == 0)
        snprintf(ck->why, sizeof ck->why, "%d is not a user error class or code with a string", code);
    else
        snprintf(ck->why, sizeof ck->why, "%d is not a user error %s", code,
                 strcmp(fn, "MPI_Remove_error_class") == 0 ? "class" : "code");
    return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, fn, ck);
}

VMPI_WEAK(Remove_error_class)
int PMPI_Remove_error_class(int errorclass)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Remove_error_class", &ck);
    return removed(errorclass, vmpi_errcode_remove(errorclass, true), "MPI_Remove_error_class", &ck);
}

VMPI_WEAK(Remove_error_code)
int PMPI_Remove_error_code(int errorcode)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Remove_error_code", &ck);
    return removed(errorcode, vmpi_errcode_remove(errorcode, false), "MPI_Remove_error_code", &ck);
}

VMPI_WEAK(Remove_error_string)
int PMPI_Remove_error_string(int errorcode)
{
    VMPI_CHK(ck);
    int err = vmpi_chk_ranked(&ck);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Remove_error_string", &ck);
    return removed(errorcode, vmpi_errcode_remove_string(errorcode), "MPI_Remove_error_string", &ck);
}
