/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatype query entry points (constructors come with the MPI-breadth issue). */
#include "binding/check.h"

static int get(const char *fn, MPI_Datatype dt, const void *out, const vmpi_dtype **d)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_dt(&ck, dt, d)) || (err = vmpi_chk_ptr(&ck, out, "output argument")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_size)
int PMPI_Type_size(MPI_Datatype dt, int *size)
{
    const vmpi_dtype *d;
    int err = get("MPI_Type_size", dt, size, &d);
    if (err == MPI_SUCCESS)
        *size = d->size > INT_MAX ? MPI_UNDEFINED : (int)d->size;
    return err;
}

VMPI_WEAK(Type_size_x)
int PMPI_Type_size_x(MPI_Datatype dt, MPI_Count *size)
{
    const vmpi_dtype *d;
    int err = get("MPI_Type_size_x", dt, size, &d);
    if (err == MPI_SUCCESS)
        *size = d->size;
    return err;
}

VMPI_WEAK(Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    const vmpi_dtype *d;
    int err = get("MPI_Type_get_extent", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->lb;
        *extent = d->extent;
    }
    return err;
}

VMPI_WEAK(Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    const vmpi_dtype *d;
    int err = get("MPI_Type_get_true_extent", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->true_lb;
        *extent = d->true_extent;
    }
    return err;
}
