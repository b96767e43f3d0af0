/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handler and error string entry points. */
#include <string.h>
#include "binding/check.h"

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
    if (vmpi_errh_check(errhandler) != MPI_SUCCESS) {
        snprintf(ck.why, sizeof ck.why, "invalid error handler 0x%x", (unsigned)errhandler);
        return vmpi_fail(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler", &ck);
    }
    vmpi_errh_ref(errhandler);
    MPI_Errhandler old = c->errh;
    c->errh = errhandler;
    vmpi_errh_free(&old);
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
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, errhandler, "errhandler")))
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
    const char *name = vmpi_err_class_name(errorcode);
    if (name == NULL) {
        VMPI_CHK(ck);
        snprintf(ck.why, sizeof ck.why, "unknown error code %d", errorcode);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string", &ck);
    }
    *resultlen = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", name, vmpi_err_class_text(errorcode));
    return MPI_SUCCESS;
}

VMPI_WEAK(Error_class)
int PMPI_Error_class(int errorcode, int *errorclass)
{
    if (vmpi_err_class_name(errorcode) == NULL) {
        VMPI_CHK(ck);
        snprintf(ck.why, sizeof ck.why, "unknown error code %d", errorcode);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class", &ck);
    }
    *errorclass = errorcode;
    return MPI_SUCCESS;
}
