/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatype queries, commit/free, names, addresses: the implementations (binding/impl.h) of the generated entry
 * points (spec/datatype.toml: a datatype committed or not, the result pointers); envelopes and contents:
 * dt_contents.c. */
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/datatype/f90.h"

int vmpi_b_Type_size(vmpi_dtype *d, MPI_Count *size, vmpi_chk *ck)
{
    (void)ck;
    *size = d->size;
    return MPI_SUCCESS;
}

int vmpi_b_Type_get_extent(vmpi_dtype *d, MPI_Count *lb, MPI_Count *extent, vmpi_chk *ck)
{
    (void)ck;
    *lb = d->lb;
    *extent = d->extent;
    return MPI_SUCCESS;
}

int vmpi_b_Type_get_true_extent(vmpi_dtype *d, MPI_Count *lb, MPI_Count *extent, vmpi_chk *ck)
{
    (void)ck;
    *lb = d->true_lb;
    *extent = d->true_extent;
    return MPI_SUCCESS;
}

int vmpi_b_Type_commit(MPI_Datatype *dt, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err = vmpi_chk_dt_any(ck, *dt, &d);
    if (err)
        return err;
    if (!d->builtin)
        d->committed = true; /* the block lists are final when built: nothing else to do */
    return MPI_SUCCESS;
}

int vmpi_b_Type_free(MPI_Datatype *dt, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err = vmpi_chk_dt_any(ck, *dt, &d);
    if (err)
        return err;
    if (d->builtin || vmpi_dt_is_f90(d)) {
        snprintf(ck->why, sizeof ck->why, "%s is a predefined datatype", d->builtin ? d->name : "an F90 type");
        return MPI_ERR_TYPE;
    }
    if ((err = vmpi_attr_delete_all(*dt)) != MPI_SUCCESS) { /* first, while the type is still valid */
        snprintf(ck->why, sizeof ck->why, "an attribute delete callback failed");
        return err;
    }
    if (!vmpi_dt_free(*dt)) { /* freed meanwhile (by another rank: an erroneous program) */
        snprintf(ck->why, sizeof ck->why, "datatype 0x%x was freed already", (unsigned)*dt);
        return MPI_ERR_TYPE;
    }
    *dt = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int vmpi_b_Type_set_name(vmpi_dtype *d, const char *name, vmpi_chk *ck)
{
    (void)ck;
    vmpi_dt_set_name(d, name); /* longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters */
    return MPI_SUCCESS;
}

int vmpi_b_Type_get_name(vmpi_dtype *d, char *name, int *len, vmpi_chk *ck)
{
    (void)ck;
    vmpi_dt_get_name(d, name, len);
    return MPI_SUCCESS;
}

int vmpi_b_Get_address(const void *location, MPI_Aint *address, vmpi_chk *ck)
{
    (void)ck;
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

MPI_Aint vmpi_b_Aint_add(MPI_Aint base, MPI_Aint disp) { return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp); }

MPI_Aint vmpi_b_Aint_diff(MPI_Aint a, MPI_Aint b) { return (MPI_Aint)((uintptr_t)a - (uintptr_t)b); }

/* MPI-4.1: the predefined (value, index) pair type of MINLOC/MAXLOC for a value type and an index type, or
 * MPI_DATATYPE_NULL when the standard has none (the C pairs index with int, the Fortran ones with the value's
 * own type). */
int vmpi_b_Type_get_value_index(vmpi_dtype *v, vmpi_dtype *i, MPI_Datatype *pair_type, vmpi_chk *ck)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    };
    (void)ck;
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (vmpi_dt_lookup(pairs[k][0]) == v && vmpi_dt_lookup(pairs[k][1]) == i)
            *pair_type = pairs[k][2];
    return MPI_SUCCESS;
}
