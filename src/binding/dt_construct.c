/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-datatype constructors: argument checks, then src/mpi/datatype/construct.c, then a new handle. */
#include <stdlib.h>
#include "binding/check.h"
#include "mpi/datatype/construct.h"

/* Hands the new type out as a handle; the type may be NULL (out of memory). */
static int out(const char *fn, vmpi_dtype *t, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    MPI_Datatype h = t ? vmpi_dt_register(t) : MPI_DATATYPE_NULL;
    if (h == MPI_DATATYPE_NULL) {
        if (t)
            vmpi_dtype_release(t);
        snprintf(ck.why, sizeof ck.why, t ? "too many datatypes" : "out of memory");
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_OTHER, fn, &ck);
    }
    *newtype = h;
    return MPI_SUCCESS;
}

/* The checks every constructor shares: count, old type, result pointer. */
static int common(vmpi_chk *ck, int count, MPI_Datatype old, vmpi_dtype **d, const MPI_Datatype *newtype)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt_any(ck, old, d)) ||
        (err = vmpi_chk_ptr(ck, newtype, "newtype")))
        return err;
    return MPI_SUCCESS;
}

static int chk_blocklens(vmpi_chk *ck, int count, const int *bl)
{
    int err = vmpi_chk_array(ck, bl, count, "array_of_blocklengths");
    for (int i = 0; i < count && !err; i++)
        err = vmpi_chk_count(ck, bl[i]); /* a block length is a count (MPICH's class too) */
    return err;
}

VMPI_WEAK(Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_contiguous");
    vmpi_dtype *d;
    int err = common(&ck, count, old, &d, newtype);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_contiguous", &ck);
    return out("MPI_Type_contiguous", vmpi_dt_contiguous(count, d), newtype);
}

VMPI_WEAK(Type_vector)
int PMPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_vector");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_vector", &ck);
    return out("MPI_Type_vector", vmpi_dt_vector(count, blocklen, stride, d), newtype);
}

VMPI_WEAK(Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_hvector");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_hvector", &ck);
    return out("MPI_Type_create_hvector", vmpi_dt_hvector(count, blocklen, stride, d), newtype);
}

VMPI_WEAK(Type_indexed)
int PMPI_Type_indexed(int count, const int blocklens[], const int disps[], MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_indexed");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = chk_blocklens(&ck, count, blocklens)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_indexed", &ck);
    return out("MPI_Type_indexed", vmpi_dt_indexed(count, blocklens, disps, d), newtype);
}

VMPI_WEAK(Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint disps[], MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_hindexed");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = chk_blocklens(&ck, count, blocklens)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_hindexed", &ck);
    return out("MPI_Type_create_hindexed", vmpi_dt_hindexed(count, blocklens, disps, d), newtype);
}

VMPI_WEAK(Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklen, const int disps[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_indexed_block");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_indexed_block", &ck);
    return out("MPI_Type_create_indexed_block", vmpi_dt_indexed_block(count, blocklen, disps, d), newtype);
}

VMPI_WEAK(Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint disps[], MPI_Datatype old,
                                    MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_hindexed_block");
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_hindexed_block", &ck);
    return out("MPI_Type_create_hindexed_block", vmpi_dt_hindexed_block(count, blocklen, disps, d), newtype);
}

VMPI_WEAK(Type_create_struct)
int PMPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint disps[], const MPI_Datatype types[],
                            MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_struct");
    int err;
    if ((err = vmpi_chk_count(&ck, count)) || (err = chk_blocklens(&ck, count, blocklens)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")) ||
        (err = vmpi_chk_array(&ck, types, count, "array_of_types")) ||
        (err = vmpi_chk_ptr(&ck, newtype, "newtype")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_struct", &ck);
    vmpi_dtype **d = malloc(sizeof *d * (size_t)(count ? count : 1));
    if (d == NULL)
        return out("MPI_Type_create_struct", NULL, newtype);
    for (int i = 0; i < count; i++)
        if ((err = vmpi_chk_dt_any(&ck, types[i], &d[i]))) {
            free(d);
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_struct", &ck);
        }
    vmpi_dtype *t = vmpi_dt_struct(count, blocklens, disps, d);
    free(d);
    return out("MPI_Type_create_struct", t, newtype);
}

VMPI_WEAK(Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_resized");
    vmpi_dtype *d;
    int err = common(&ck, 0, old, &d, newtype);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_resized", &ck);
    return out("MPI_Type_create_resized", vmpi_dt_resized(d, lb, extent), newtype);
}

VMPI_WEAK(Type_dup)
int PMPI_Type_dup(MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_dup");
    vmpi_dtype *d;
    int err = common(&ck, 0, old, &d, newtype);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_dup", &ck);
    if ((err = out("MPI_Type_dup", vmpi_dt_dup(d), newtype)) != MPI_SUCCESS)
        return err;
    /* cached attributes follow a duplicate through their copy callbacks; a failing one fails the dup */
    if ((err = vmpi_attr_copy_all(old, *newtype)) != MPI_SUCCESS) {
        vmpi_dt_free(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        snprintf(ck.why, sizeof ck.why, "an attribute copy callback failed");
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_dup", &ck);
    }
    return MPI_SUCCESS;
}

static int chk_order(vmpi_chk *ck, int order)
{
    if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "order %d is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN", order);
    return MPI_ERR_ARG;
}

static int chk_ndims(vmpi_chk *ck, int ndims)
{
    if (ndims > 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "ndims %d is not positive", ndims);
    return MPI_ERR_ARG;
}

VMPI_WEAK(Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_subarray");
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(&ck, ndims)) || (err = vmpi_chk_array(&ck, sizes, ndims, "array_of_sizes")) ||
        (err = vmpi_chk_array(&ck, subsizes, ndims, "array_of_subsizes")) ||
        (err = vmpi_chk_array(&ck, starts, ndims, "array_of_starts")) || (err = chk_order(&ck, order)) ||
        (err = common(&ck, 0, old, &d, newtype)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_subarray", &ck);
    for (int i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i]) {
            snprintf(ck.why, sizeof ck.why, "dimension %d: size %d, subsize %d, start %d do not fit", i, sizes[i],
                     subsizes[i], starts[i]);
            return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_subarray", &ck);
        }
    return out("MPI_Type_create_subarray", vmpi_dt_subarray(ndims, sizes, subsizes, starts, order, d), newtype);
}

VMPI_WEAK(Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_create_darray");
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(&ck, ndims)) || (err = vmpi_chk_array(&ck, gsizes, ndims, "array_of_gsizes")) ||
        (err = vmpi_chk_array(&ck, distribs, ndims, "array_of_distribs")) ||
        (err = vmpi_chk_array(&ck, dargs, ndims, "array_of_dargs")) ||
        (err = vmpi_chk_array(&ck, psizes, ndims, "array_of_psizes")) || (err = chk_order(&ck, order)) ||
        (err = common(&ck, 0, old, &d, newtype)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_darray", &ck);
    long long procs = 1;
    for (int i = 0; i < ndims && !err; i++) {
        if (gsizes[i] <= 0 || psizes[i] <= 0 ||
            (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
             distribs[i] != MPI_DISTRIBUTE_NONE) ||
            (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] <= 0)) {
            snprintf(ck.why, sizeof ck.why, "dimension %d: gsize %d, distrib %d, darg %d, psize %d are invalid", i,
                     gsizes[i], distribs[i], dargs[i], psizes[i]);
            err = MPI_ERR_ARG;
        }
        procs *= psizes[i] > 0 ? psizes[i] : 1;
    }
    if (!err && (size <= 0 || procs != size)) {
        snprintf(ck.why, sizeof ck.why, "size %d is not the process grid's %lld", size, procs);
        err = MPI_ERR_ARG;
    }
    if (!err && (rank < 0 || rank >= size)) {
        snprintf(ck.why, sizeof ck.why, "rank %d is not in [0, %d)", rank, size);
        err = MPI_ERR_RANK;
    }
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_create_darray", &ck);
    bool bad;
    vmpi_dtype *t = vmpi_dt_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, d, &bad);
    if (bad) {
        snprintf(ck.why, sizeof ck.why, "a distribution does not cover its dimension (block size x processes < "
                                        "size, or MPI_DISTRIBUTE_NONE over several processes)");
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_darray", &ck);
    }
    return out("MPI_Type_create_darray", t, newtype);
}
