/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-datatype constructors: the implementations of the generated entry points (spec dt_construct.toml:
 * a local call, the rest checked here), then src/mpi/datatype/construct.c, then a new handle.  The int and
 * large-count forms share each one: block lengths and displacements come as a vmpi_ivec (the program's int,
 * MPI_Count or MPI_Aint array), which the engine gets as MPI_Count or MPI_Aint arrays (the program's own where
 * it already is one, else a copy), and `large` says which form was called. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include "binding/impl.h"
#include "mpi/datatype/construct.h"

/* Hands the new type out as a handle; the type may be NULL (out of memory). */
static int out(vmpi_chk *ck, vmpi_dtype *t, MPI_Datatype *newtype)
{
    MPI_Datatype h = t ? vmpi_dt_register(t) : MPI_DATATYPE_NULL;
    if (h == MPI_DATATYPE_NULL) {
        if (t)
            vmpi_dtype_release(t);
        snprintf(ck->why, sizeof ck->why, t ? "too many datatypes" : "out of memory");
        return MPI_ERR_OTHER;
    }
    *newtype = h;
    return MPI_SUCCESS;
}

/* The checks every constructor shares: count, old type, result pointer. */
static int common(vmpi_chk *ck, MPI_Count count, MPI_Datatype old, vmpi_dtype **d, const MPI_Datatype *newtype)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt_any(ck, old, d)) ||
        (err = vmpi_chk_ptr(ck, newtype, "newtype")))
        return err;
    return MPI_SUCCESS;
}

static int chk_array(vmpi_chk *ck, vmpi_ivec v, MPI_Count n, const char *what)
{
    return vmpi_chk_array(ck, vmpi_iv_null(v) ? NULL : "", n, what);
}

/* ---- the arrays as the engine takes them ---- */

/* `v`'s `n` elements as MPI_Count: the program's array itself when it is one (an empty one may be NULL), else
 * a copy in *copy (freed by the caller).  NULL when out of memory. */
static const MPI_Count *counts(vmpi_ivec v, MPI_Count n, MPI_Count **copy)
{
    static const MPI_Count none[1];
    *copy = NULL;
    if (v.kind == VMPI_IV_COUNT)
        return v.p ? v.p : none;
    MPI_Count *w = (uint64_t)n < SIZE_MAX / sizeof *w ? malloc(sizeof *w * (size_t)(n ? n : 1)) : NULL;
    for (int i = 0; w && i < n; i++) /* (an int form's array: n is an int) */
        w[i] = vmpi_iv_at(v, i);
    return *copy = w;
}

/* The same as MPI_Aint (byte displacements). */
static const MPI_Aint *aints(vmpi_ivec v, MPI_Count n, MPI_Aint **copy)
{
    static const MPI_Aint none[1];
    *copy = NULL;
    if (v.kind == VMPI_IV_AINT)
        return v.p ? v.p : none;
    MPI_Aint *w = (uint64_t)n < SIZE_MAX / sizeof *w ? malloc(sizeof *w * (size_t)(n ? n : 1)) : NULL;
    for (MPI_Count i = 0; w && i < n; i++)
        w[i] = (MPI_Aint)(v.kind == VMPI_IV_COUNT ? ((const MPI_Count *)v.p)[i] : vmpi_iv_at(v, (int)i));
    return *copy = w;
}

static int no_mem(vmpi_chk *ck)
{
    snprintf(ck->why, sizeof ck->why, "out of memory");
    return MPI_ERR_NO_MEM;
}

/* Block lengths: counts (MPICH's class too). */
static int chk_blocklens(vmpi_chk *ck, MPI_Count count, const MPI_Count *bl)
{
    int err = MPI_SUCCESS;
    for (MPI_Count i = 0; i < count && !err; i++)
        err = vmpi_chk_count(ck, bl[i]);
    return err;
}

/* ---- contiguous, vector, hvector ---- */

int vmpi_b_Type_contiguous(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err = common(ck, count, oldtype, &d, newtype);
    return err ? err : out(ck, vmpi_dt_contiguous(count, d, large), newtype);
}

int vmpi_b_Type_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = common(ck, count, oldtype, &d, newtype)) || (err = vmpi_chk_count(ck, blocklength)))
        return err;
    return out(ck, vmpi_dt_vector(count, blocklength, stride, d, large), newtype);
}

/* (stride in bytes) */
int vmpi_b_Type_create_hvector(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = common(ck, count, oldtype, &d, newtype)) || (err = vmpi_chk_count(ck, blocklength)))
        return err;
    return out(ck, vmpi_dt_hvector(count, blocklength, (MPI_Aint)stride, d, large), newtype);
}

/* ---- indexed and hindexed: displacements in extents of the old type, or in bytes ---- */

static int indexed(MPI_Count count, vmpi_ivec blocklens, vmpi_ivec disps, bool bytes, MPI_Datatype oldtype,
                   MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = common(ck, count, oldtype, &d, newtype)) ||
        (err = chk_array(ck, blocklens, count, "array_of_blocklengths")))
        return err;
    MPI_Count *blcopy, *dcopy = NULL;
    MPI_Aint *bcopy = NULL;
    const MPI_Count *bl = counts(blocklens, count, &blcopy);
    const MPI_Count *dp = NULL;
    const MPI_Aint *bdp = NULL;
    if (bl == NULL)
        err = no_mem(ck);
    else if (!(err = chk_blocklens(ck, count, bl)) &&
             !(err = chk_array(ck, disps, count, "array_of_displacements"))) {
        if (bytes)
            bdp = aints(disps, count, &bcopy);
        else
            dp = counts(disps, count, &dcopy);
        if (bytes ? bdp == NULL : dp == NULL)
            err = no_mem(ck);
        else
            err = out(ck, bytes ? vmpi_dt_hindexed(count, bl, bdp, d, large)
                                : vmpi_dt_indexed(count, bl, dp, d, large), newtype);
    }
    free(blcopy);
    free(dcopy);
    free(bcopy);
    return err;
}

int vmpi_b_Type_indexed(MPI_Count count, vmpi_ivec array_of_blocklengths, vmpi_ivec array_of_displacements,
                        MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    return indexed(count, array_of_blocklengths, array_of_displacements, false, oldtype, newtype, large, ck);
}

int vmpi_b_Type_create_hindexed(MPI_Count count, vmpi_ivec array_of_blocklengths, vmpi_ivec array_of_displacements,
                                MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    return indexed(count, array_of_blocklengths, array_of_displacements, true, oldtype, newtype, large, ck);
}

/* ---- indexed_block and hindexed_block ---- */

static int indexed_block(MPI_Count count, MPI_Count blocklen, vmpi_ivec disps, bool bytes, MPI_Datatype oldtype,
                         MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = common(ck, count, oldtype, &d, newtype)) || (err = vmpi_chk_count(ck, blocklen)) ||
        (err = chk_array(ck, disps, count, "array_of_displacements")))
        return err;
    MPI_Count *dcopy = NULL;
    MPI_Aint *bcopy = NULL;
    if (bytes) {
        const MPI_Aint *bdp = aints(disps, count, &bcopy);
        err = bdp ? out(ck, vmpi_dt_hindexed_block(count, blocklen, bdp, d, large), newtype) : no_mem(ck);
    } else {
        const MPI_Count *dp = counts(disps, count, &dcopy);
        err = dp ? out(ck, vmpi_dt_indexed_block(count, blocklen, dp, d, large), newtype) : no_mem(ck);
    }
    free(dcopy);
    free(bcopy);
    return err;
}

int vmpi_b_Type_create_indexed_block(MPI_Count count, MPI_Count blocklength, vmpi_ivec array_of_displacements,
                                     MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    return indexed_block(count, blocklength, array_of_displacements, false, oldtype, newtype, large, ck);
}

int vmpi_b_Type_create_hindexed_block(MPI_Count count, MPI_Count blocklength, vmpi_ivec array_of_displacements,
                                      MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    return indexed_block(count, blocklength, array_of_displacements, true, oldtype, newtype, large, ck);
}

/* ---- struct ---- */

int vmpi_b_Type_create_struct(MPI_Count count, vmpi_ivec array_of_blocklengths, vmpi_ivec array_of_displacements,
                              const MPI_Datatype array_of_types[], MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) ||
        (err = chk_array(ck, array_of_blocklengths, count, "array_of_blocklengths")))
        return err;
    MPI_Count *blcopy;
    MPI_Aint *dcopy = NULL;
    const MPI_Count *bl = counts(array_of_blocklengths, count, &blcopy);
    const MPI_Aint *dp = NULL;
    vmpi_dtype **d = NULL;
    if (bl == NULL)
        err = no_mem(ck);
    else if (!(err = chk_blocklens(ck, count, bl)) &&
             !(err = chk_array(ck, array_of_displacements, count, "array_of_displacements")) &&
             !(err = vmpi_chk_array(ck, array_of_types, count, "array_of_types")) &&
             !(err = vmpi_chk_ptr(ck, newtype, "newtype"))) {
        dp = aints(array_of_displacements, count, &dcopy);
        d = (uint64_t)count < SIZE_MAX / sizeof *d ? malloc(sizeof *d * (size_t)(count ? count : 1)) : NULL;
        if (dp == NULL || d == NULL)
            err = no_mem(ck);
    }
    for (MPI_Count i = 0; i < count && !err; i++)
        err = vmpi_chk_dt_any(ck, array_of_types[i], &d[i]);
    if (!err)
        err = out(ck, vmpi_dt_struct(count, bl, dp, d, large), newtype);
    free(d);
    free(blcopy);
    free(dcopy);
    return err;
}

/* ---- resized, dup ---- */

int vmpi_b_Type_create_resized(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype, bool large,
                               vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err = common(ck, 0, oldtype, &d, newtype);
    return err ? err : out(ck, vmpi_dt_resized(d, (MPI_Aint)lb, (MPI_Aint)extent, large), newtype);
}

int vmpi_b_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    (void)large; /* (no large-count form) */
    vmpi_dtype *d;
    int err;
    if ((err = common(ck, 0, oldtype, &d, newtype)) || (err = out(ck, vmpi_dt_dup(d), newtype)))
        return err;
    /* cached attributes follow a duplicate through their copy callbacks; a failing one fails the dup */
    if ((err = vmpi_attr_copy_all(oldtype, *newtype)) != MPI_SUCCESS) {
        vmpi_dt_free(*newtype);
        *newtype = MPI_DATATYPE_NULL;
        snprintf(ck->why, sizeof ck->why, "an attribute copy callback failed");
    }
    return err;
}

/* ---- subarray and darray ---- */

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

static int subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes, const MPI_Count *starts, int order,
                    vmpi_dtype *d, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    for (int i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i]) {
            snprintf(ck->why, sizeof ck->why, "dimension %d: size %lld, subsize %lld, start %lld do not fit", i,
                     (long long)sizes[i], (long long)subsizes[i], (long long)starts[i]);
            return MPI_ERR_ARG;
        }
    return out(ck, vmpi_dt_subarray(ndims, sizes, subsizes, starts, order, d, large), newtype);
}

int vmpi_b_Type_create_subarray(int ndims, vmpi_ivec array_of_sizes, vmpi_ivec array_of_subsizes,
                                vmpi_ivec array_of_starts, int order, MPI_Datatype oldtype, MPI_Datatype *newtype,
                                bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(ck, ndims)) || (err = chk_array(ck, array_of_sizes, ndims, "array_of_sizes")) ||
        (err = chk_array(ck, array_of_subsizes, ndims, "array_of_subsizes")) ||
        (err = chk_array(ck, array_of_starts, ndims, "array_of_starts")) || (err = chk_order(ck, order)) ||
        (err = common(ck, 0, oldtype, &d, newtype)))
        return err;
    MPI_Count *c1, *c2, *c3;
    const MPI_Count *sz = counts(array_of_sizes, ndims, &c1), *sub = counts(array_of_subsizes, ndims, &c2),
                    *st = counts(array_of_starts, ndims, &c3);
    err = sz && sub && st ? subarray(ndims, sz, sub, st, order, d, newtype, large, ck) : no_mem(ck);
    free(c1);
    free(c2);
    free(c3);
    return err;
}

static int darray(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs, const int *dargs,
                  const int *psizes, int order, vmpi_dtype *d, MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    long long procs = 1;
    for (int i = 0; i < ndims; i++) {
        if (gsizes[i] <= 0 || psizes[i] <= 0 ||
            (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
             distribs[i] != MPI_DISTRIBUTE_NONE) ||
            (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] <= 0)) {
            snprintf(ck->why, sizeof ck->why, "dimension %d: gsize %lld, distrib %d, darg %d, psize %d are invalid",
                     i, (long long)gsizes[i], distribs[i], dargs[i], psizes[i]);
            return MPI_ERR_ARG;
        }
        procs = procs * psizes[i] > INT_MAX ? INT_MAX + 1LL : procs * psizes[i]; /* (no overflow) */
    }
    if (size <= 0 || procs != size) {
        snprintf(ck->why, sizeof ck->why, "size %d is not the process grid's %lld", size, procs);
        return MPI_ERR_ARG;
    }
    if (rank < 0 || rank >= size) {
        snprintf(ck->why, sizeof ck->why, "rank %d is not in [0, %d)", rank, size);
        return MPI_ERR_RANK;
    }
    bool bad;
    vmpi_dtype *t = vmpi_dt_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, d, large, &bad);
    if (bad) {
        snprintf(ck->why, sizeof ck->why, "a distribution does not cover its dimension (block size x processes "
                                          "< size, or MPI_DISTRIBUTE_NONE over several processes)");
        return MPI_ERR_ARG;
    }
    return out(ck, t, newtype);
}

int vmpi_b_Type_create_darray(int size, int rank, int ndims, vmpi_ivec array_of_gsizes, const int array_of_distribs[],
                              const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
                              MPI_Datatype *newtype, bool large, vmpi_chk *ck)
{
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(ck, ndims)) || (err = chk_array(ck, array_of_gsizes, ndims, "array_of_gsizes")) ||
        (err = vmpi_chk_array(ck, array_of_distribs, ndims, "array_of_distribs")) ||
        (err = vmpi_chk_array(ck, array_of_dargs, ndims, "array_of_dargs")) ||
        (err = vmpi_chk_array(ck, array_of_psizes, ndims, "array_of_psizes")) || (err = chk_order(ck, order)) ||
        (err = common(ck, 0, oldtype, &d, newtype)))
        return err;
    MPI_Count *copy;
    const MPI_Count *gs = counts(array_of_gsizes, ndims, &copy);
    err = gs ? darray(size, rank, ndims, gs, array_of_distribs, array_of_dargs, array_of_psizes, order, d, newtype,
                      large, ck)
             : no_mem(ck);
    free(copy);
    return err;
}
