/* SPDX-License-Identifier: BSD-3-Clause */
/* Handle conversion between C and Fortran: vmpi's handles are integers already, so MPI_X_c2f and MPI_X_f2c
 * are the identity; a status converts field by field to MPI_STATUS_SIZE Fortran integers, or to mpi_f08's
 * TYPE(MPI_Status) (MPI_F08_status), which holds the same integers.  Also
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
IDENTITY(Win, MPI_Win)

/* The Fortran layout of a status, an INTEGER array (mpif.h, the mpi module) or mpi_f08's TYPE(MPI_Status)
 * (MPI_F08_status, the same six INTEGERs): SOURCE, TAG, ERROR, cancelled, count (low, high 32 bits). */
static void to_fint(const MPI_Status *c, MPI_Fint *f)
{
    unsigned long long n = (unsigned long long)c->vmpi_count;
    f[0] = c->MPI_SOURCE;
    f[1] = c->MPI_TAG;
    f[2] = c->MPI_ERROR;
    f[3] = c->vmpi_cancelled;
    f[4] = (MPI_Fint)(n & 0xffffffffu);
    f[5] = (MPI_Fint)(n >> 32);
}

static void from_fint(const MPI_Fint *f, MPI_Status *c)
{
    c->MPI_SOURCE = f[0];
    c->MPI_TAG = f[1];
    c->MPI_ERROR = f[2];
    c->vmpi_cancelled = f[3];
    c->vmpi_count = (MPI_Count)((unsigned long long)(unsigned)f[4] | ((unsigned long long)(unsigned)f[5] << 32));
}

static void f08_to_fint(const MPI_F08_status *s, MPI_Fint *f)
{
    f[0] = s->MPI_SOURCE, f[1] = s->MPI_TAG, f[2] = s->MPI_ERROR;
    f[3] = s->vmpi_cancelled, f[4] = s->vmpi_count_lo, f[5] = s->vmpi_count_hi;
}

static void fint_to_f08(const MPI_Fint *f, MPI_F08_status *s)
{
    s->MPI_SOURCE = f[0], s->MPI_TAG = f[1], s->MPI_ERROR = f[2];
    s->vmpi_cancelled = f[3], s->vmpi_count_lo = f[4], s->vmpi_count_hi = f[5];
}

/* Both statuses present, neither MPI_STATUS_IGNORE (which is C's: no conversion of it exists). */
static int chk_pair(const void *in, const char *what_in, const void *out, const char *what_out, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    int err = vmpi_chk_ptr(&ck, in, what_in);
    if (!err)
        err = vmpi_chk_ptr(&ck, out, what_out);
    if (!err && (in == (const void *)MPI_STATUS_IGNORE || out == (const void *)MPI_STATUS_IGNORE)) {
        snprintf(ck.why, sizeof ck.why, "MPI_STATUS_IGNORE cannot be converted");
        err = MPI_ERR_ARG;
    }
    return err ? vmpi_fail(MPI_COMM_WORLD, err, fn, &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Status_c2f)
int PMPI_Status_c2f(const MPI_Status *c, MPI_Fint *f)
{
    int err = chk_pair(c, "C status", f, "Fortran status", "MPI_Status_c2f");
    if (err == MPI_SUCCESS)
        to_fint(c, f);
    return err;
}

VMPI_WEAK(Status_f2c)
int PMPI_Status_f2c(const MPI_Fint *f, MPI_Status *c)
{
    int err = chk_pair(f, "Fortran status", c, "C status", "MPI_Status_f2c");
    if (err == MPI_SUCCESS)
        from_fint(f, c);
    return err;
}

VMPI_WEAK(Status_c2f08)
int PMPI_Status_c2f08(const MPI_Status *c, MPI_F08_status *f08)
{
    int err = chk_pair(c, "C status", f08, "Fortran 2008 status", "MPI_Status_c2f08");
    MPI_Fint f[MPI_STATUS_SIZE];
    if (err == MPI_SUCCESS) {
        to_fint(c, f);
        fint_to_f08(f, f08);
    }
    return err;
}

VMPI_WEAK(Status_f082c)
int PMPI_Status_f082c(const MPI_F08_status *f08, MPI_Status *c)
{
    int err = chk_pair(f08, "Fortran 2008 status", c, "C status", "MPI_Status_f082c");
    MPI_Fint f[MPI_STATUS_SIZE];
    if (err == MPI_SUCCESS) {
        f08_to_fint(f08, f);
        from_fint(f, c);
    }
    return err;
}

VMPI_WEAK(Status_f2f08)
int PMPI_Status_f2f08(const MPI_Fint *f, MPI_F08_status *f08)
{
    int err = chk_pair(f, "Fortran status", f08, "Fortran 2008 status", "MPI_Status_f2f08");
    if (err == MPI_SUCCESS)
        fint_to_f08(f, f08);
    return err;
}

VMPI_WEAK(Status_f082f)
int PMPI_Status_f082f(const MPI_F08_status *f08, MPI_Fint *f)
{
    int err = chk_pair(f08, "Fortran 2008 status", f, "Fortran status", "MPI_Status_f082f");
    if (err == MPI_SUCCESS)
        f08_to_fint(f08, f);
    return err;
}

VMPI_WEAK(Pcontrol)
int PMPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
