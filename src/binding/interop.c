/* SPDX-License-Identifier: BSD-3-Clause */
/* Handle conversion between C and Fortran: vmpi's handles are integers already, so MPI_X_c2f and MPI_X_f2c
 * are the identity; a status converts field by field to MPI_STATUS_SIZE Fortran integers.  Also
 * MPI_Pcontrol, which does nothing without a profiling library (a profiling library defines MPI_Pcontrol
 * itself and its level takes effect there). */
#include <string.h>
#include "binding/check.h"

#define IDENTITY(Kind, Type)                                                           \
    VMPI_WEAK(Kind##_c2f)                                                              \
    MPI_Fint PMPI_##Kind##_c2f(Type h) { return (MPI_Fint)h; }                         \
    VMPI_WEAK(Kind##_f2c)                                                              \
    Type PMPI_##Kind##_f2c(MPI_Fint f) { return (Type)f; }

IDENTITY(Comm, MPI_Comm)
IDENTITY(Group, MPI_Group)
IDENTITY(Type, MPI_Datatype)
IDENTITY(Request, MPI_Request)
IDENTITY(Op, MPI_Op)
IDENTITY(Errhandler, MPI_Errhandler)
IDENTITY(Info, MPI_Info)
IDENTITY(Message, MPI_Message)
IDENTITY(Session, MPI_Session)

/* Fortran layout: SOURCE, TAG, ERROR, cancelled, count (low, high 32 bits). */
VMPI_WEAK(Status_c2f)
int PMPI_Status_c2f(const MPI_Status *c, MPI_Fint *f)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Status_c2f");
    int err = vmpi_chk_ptr(&ck, c, "C status");
    if (!err)
        err = vmpi_chk_ptr(&ck, f, "Fortran status");
    if (!err && (c == MPI_STATUS_IGNORE || (const void *)f == (const void *)MPI_STATUS_IGNORE)) {
        snprintf(ck.why, sizeof ck.why, "MPI_STATUS_IGNORE cannot be converted");
        err = MPI_ERR_ARG;
    }
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_c2f", &ck);
    unsigned long long n = (unsigned long long)c->vmpi_count;
    f[0] = c->MPI_SOURCE;
    f[1] = c->MPI_TAG;
    f[2] = c->MPI_ERROR;
    f[3] = c->vmpi_cancelled;
    f[4] = (MPI_Fint)(n & 0xffffffffu);
    f[5] = (MPI_Fint)(n >> 32);
    return MPI_SUCCESS;
}

VMPI_WEAK(Status_f2c)
int PMPI_Status_f2c(const MPI_Fint *f, MPI_Status *c)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Status_f2c");
    int err = vmpi_chk_ptr(&ck, f, "Fortran status");
    if (!err)
        err = vmpi_chk_ptr(&ck, c, "C status");
    if (!err && (c == MPI_STATUS_IGNORE || (const void *)f == (const void *)MPI_STATUS_IGNORE)) {
        snprintf(ck.why, sizeof ck.why, "MPI_STATUS_IGNORE cannot be converted");
        err = MPI_ERR_ARG;
    }
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_f2c", &ck);
    c->MPI_SOURCE = f[0];
    c->MPI_TAG = f[1];
    c->MPI_ERROR = f[2];
    c->vmpi_cancelled = f[3];
    c->vmpi_count = (MPI_Count)((unsigned long long)(unsigned)f[4] | ((unsigned long long)(unsigned)f[5] << 32));
    return MPI_SUCCESS;
}

VMPI_WEAK(Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
