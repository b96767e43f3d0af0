/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Type_match_size and MPI_Type_create_f90_*: the smallest predefined sized type that holds the asked
 * size, precision (decimal digits) or range (decimal exponent), with the limits of IEEE binary32/64/128
 * and two's-complement integers.  MPI_UNDEFINED for p or r leaves that constraint out.  Type_match_size
 * gives the named type; Type_create_f90_* a predefined type like it whose envelope records the F90
 * combiner and the arguments, the same handle for the same arguments (mpi/datatype/f90.c).  The entry points
 * are generated (spec/dt_f90.toml); these are their implementations (binding/impl.h). */
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/datatype/f90.h"

typedef struct sized {
    int size, p, r;
    MPI_Datatype real, complex;
} sized;

/* precision / range of IEEE single, double and quad (what Fortran's SELECTED_REAL_KIND uses) */
static const sized reals[] = {
    {4, 6, 37, MPI_REAL4, MPI_COMPLEX8},
    {8, 15, 307, MPI_REAL8, MPI_COMPLEX16},
    {16, 33, 4931, MPI_REAL16, MPI_COMPLEX32},
};
/* decimal range of 1-, 2-, 4-, 8- and 16-byte integers */
static const sized ints[] = {
    {1, 0, 2, MPI_INTEGER1, 0}, {2, 0, 4, MPI_INTEGER2, 0}, {4, 0, 9, MPI_INTEGER4, 0}, {8, 0, 18, MPI_INTEGER8, 0},
    {16, 0, 38, MPI_INTEGER16, 0},
};

int vmpi_b_Type_match_size(int typeclass, int size, MPI_Datatype *datatype, vmpi_chk *ck)
{
    int err = vmpi_chk_ptr(ck, datatype, "datatype");
    MPI_Datatype t = MPI_DATATYPE_NULL;
    for (size_t i = 0; !err && i < VMPI_ARRAY_LEN(reals); i++) {
        if (typeclass == MPI_TYPECLASS_REAL && reals[i].size == size)
            t = reals[i].real;
        if (typeclass == MPI_TYPECLASS_COMPLEX && 2 * reals[i].size == size)
            t = reals[i].complex;
    }
    for (size_t i = 0; !err && typeclass == MPI_TYPECLASS_INTEGER && i < VMPI_ARRAY_LEN(ints); i++)
        if (ints[i].size == size)
            t = ints[i].real;
    if (!err && t == MPI_DATATYPE_NULL) {
        snprintf(ck->why, sizeof ck->why, "no predefined type of class %d and size %d", typeclass, size);
        err = MPI_ERR_ARG;
    }
    if (!err)
        *datatype = t;
    return err;
}

/* The job's F90 type for (combiner, p, r) like the named `basic`, in *out. */
static int f90_type(vmpi_chk *ck, int combiner, int p, int r, MPI_Datatype basic, MPI_Datatype *out)
{
    MPI_Datatype h = vmpi_dt_f90_get(combiner, p, r, vmpi_dt_lookup(basic));
    if (h == MPI_DATATYPE_NULL) {
        snprintf(ck->why, sizeof ck->why, "out of memory, or more than 256 distinct F90 types in the job");
        return MPI_ERR_INTERN;
    }
    *out = h;
    return MPI_SUCCESS;
}

static int f90(vmpi_chk *ck, int p, int r, bool complex, MPI_Datatype *out)
{
    int err = vmpi_chk_ptr(ck, out, "newtype");
    for (size_t i = 0; !err && i < VMPI_ARRAY_LEN(reals); i++)
        if ((p == MPI_UNDEFINED || p <= reals[i].p) && (r == MPI_UNDEFINED || r <= reals[i].r))
            return f90_type(ck, complex ? MPI_COMBINER_F90_COMPLEX : MPI_COMBINER_F90_REAL, p, r,
                            complex ? reals[i].complex : reals[i].real, out);
    if (!err) {
        snprintf(ck->why, sizeof ck->why, "no real type with precision %d and range %d", p, r);
        err = MPI_ERR_ARG;
    }
    return err;
}

int vmpi_b_Type_create_f90_real(int p, int r, MPI_Datatype *newtype, vmpi_chk *ck)
{
    return f90(ck, p, r, false, newtype);
}

int vmpi_b_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype, vmpi_chk *ck)
{
    return f90(ck, p, r, true, newtype);
}

int vmpi_b_Type_create_f90_integer(int r, MPI_Datatype *newtype, vmpi_chk *ck)
{
    int err = vmpi_chk_ptr(ck, newtype, "newtype");
    for (size_t i = 0; !err && i < VMPI_ARRAY_LEN(ints); i++)
        if (r == MPI_UNDEFINED || r <= ints[i].r)
            return f90_type(ck, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, r, ints[i].real, newtype);
    if (!err) {
        snprintf(ck->why, sizeof ck->why, "no integer type with a decimal range of %d", r);
        err = MPI_ERR_ARG;
    }
    return err;
}
