/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-datatype constructors: argument checks, then src/mpi/datatype/construct.c, then a new handle.  The
 * int form and the large-count form (MPI_X_c) of each share one function taking MPI_Count arrays: the int
 * form widens its arrays first. */
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
static int common(vmpi_chk *ck, MPI_Count count, MPI_Datatype old, vmpi_dtype **d, const MPI_Datatype *newtype)
{
    int err;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt_any(ck, old, d)) ||
        (err = vmpi_chk_ptr(ck, newtype, "newtype")))
        return err;
    return MPI_SUCCESS;
}

static int chk_blocklens(vmpi_chk *ck, MPI_Count count, const MPI_Count *bl)
{
    int err = vmpi_chk_array(ck, bl, count, "array_of_blocklengths");
    for (MPI_Count i = 0; i < count && !err; i++)
        err = vmpi_chk_count(ck, bl[i]); /* a block length is a count (MPICH's class too) */
    return err;
}

/* ---- the int forms' arrays as the shared implementations take them ---- */

/* A copy of the int array `a` of `n` elements as MPI_Count; `a` itself NULL gives NULL (the check reports it).
 * `*oom` is set when out of memory.  The caller frees the copy. */
static MPI_Count *widen(const int *a, int n, bool *oom)
{
    if (a == NULL || n < 0)
        return NULL;
    MPI_Count *w = malloc(sizeof *w * (size_t)(n ? n : 1));
    if (w == NULL) {
        *oom = true;
        return NULL;
    }
    for (int i = 0; i < n; i++)
        w[i] = a[i];
    return w;
}

/* The large-count form's byte displacements (MPI_Count) as the engine's MPI_Aint. */
static MPI_Aint *to_aint(const MPI_Count *a, MPI_Count n, bool *oom)
{
    if (a == NULL || n < 0)
        return NULL;
    MPI_Aint *w = malloc(sizeof *w * (size_t)(n ? n : 1));
    if (w == NULL) {
        *oom = true;
        return NULL;
    }
    for (MPI_Count i = 0; i < n; i++)
        w[i] = (MPI_Aint)a[i];
    return w;
}

static int no_mem(const char *fn)
{
    VMPI_CHK(ck);
    snprintf(ck.why, sizeof ck.why, "out of memory");
    return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, &ck);
}

/* ---- contiguous, vector, hvector ---- */

static int contiguous(MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err = common(&ck, count, old, &d, newtype);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return out(fn, vmpi_dt_contiguous(count, d, large), newtype);
}

VMPI_WEAK(Type_contiguous)
int PMPI_Type_contiguous(int count, MPI_Datatype old, MPI_Datatype *newtype)
{
    return contiguous(count, old, newtype, false, "MPI_Type_contiguous");
}

VMPI_WEAK(Type_contiguous_c)
int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype old, MPI_Datatype *newtype)
{
    return contiguous(count, old, newtype, true, "MPI_Type_contiguous_c");
}

/* vector (stride in extents of old) and hvector (in bytes) */
static int vector(MPI_Count count, MPI_Count blocklen, MPI_Count stride, bool bytes, MPI_Datatype old,
                  MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return out(fn, bytes ? vmpi_dt_hvector(count, blocklen, (MPI_Aint)stride, d, large)
                         : vmpi_dt_vector(count, blocklen, stride, d, large), newtype);
}

VMPI_WEAK(Type_vector)
int PMPI_Type_vector(int count, int blocklen, int stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector(count, blocklen, stride, false, old, newtype, false, "MPI_Type_vector");
}

VMPI_WEAK(Type_vector_c)
int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklen, MPI_Count stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector(count, blocklen, stride, false, old, newtype, true, "MPI_Type_vector_c");
}

VMPI_WEAK(Type_create_hvector)
int PMPI_Type_create_hvector(int count, int blocklen, MPI_Aint stride, MPI_Datatype old, MPI_Datatype *newtype)
{
    return vector(count, blocklen, stride, true, old, newtype, false, "MPI_Type_create_hvector");
}

VMPI_WEAK(Type_create_hvector_c)
int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklen, MPI_Count stride, MPI_Datatype old,
                               MPI_Datatype *newtype)
{
    return vector(count, blocklen, stride, true, old, newtype, true, "MPI_Type_create_hvector_c");
}

/* ---- indexed and hindexed: displacements in extents of old (disps) or in bytes (bdisps) ---- */

static int indexed(MPI_Count count, const MPI_Count *blocklens, const MPI_Count *disps, const MPI_Aint *bdisps,
                   bool bytes, MPI_Datatype old, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = chk_blocklens(&ck, count, blocklens)) ||
        (err = vmpi_chk_array(&ck, bytes ? (const void *)bdisps : disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return out(fn, bytes ? vmpi_dt_hindexed(count, blocklens, bdisps, d, large)
                          : vmpi_dt_indexed(count, blocklens, disps, d, large), newtype);
}

VMPI_WEAK(Type_indexed)
int PMPI_Type_indexed(int count, const int blocklens[], const int disps[], MPI_Datatype old, MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *bl = widen(blocklens, count, &oom), *dp = widen(disps, count, &oom);
    int err = oom ? no_mem("MPI_Type_indexed")
                  : indexed(count, bl, dp, NULL, false, old, newtype, false, "MPI_Type_indexed");
    free(bl);
    free(dp);
    return err;
}

VMPI_WEAK(Type_indexed_c)
int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count blocklens[], const MPI_Count disps[], MPI_Datatype old,
                        MPI_Datatype *newtype)
{
    return indexed(count, blocklens, disps, NULL, false, old, newtype, true, "MPI_Type_indexed_c");
}

VMPI_WEAK(Type_create_hindexed)
int PMPI_Type_create_hindexed(int count, const int blocklens[], const MPI_Aint disps[], MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *bl = widen(blocklens, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_hindexed")
                  : indexed(count, bl, NULL, disps, true, old, newtype, false, "MPI_Type_create_hindexed");
    free(bl);
    return err;
}

VMPI_WEAK(Type_create_hindexed_c)
int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count blocklens[], const MPI_Count disps[],
                                MPI_Datatype old, MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Aint *dp = to_aint(disps, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_hindexed_c")
                  : indexed(count, blocklens, NULL, dp, true, old, newtype, true, "MPI_Type_create_hindexed_c");
    free(dp);
    return err;
}

/* ---- indexed_block and hindexed_block ---- */

static int indexed_block(MPI_Count count, MPI_Count blocklen, const MPI_Count *disps, const MPI_Aint *bdisps,
                         bool bytes, MPI_Datatype old, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = common(&ck, count, old, &d, newtype)) || (err = vmpi_chk_count(&ck, blocklen)) ||
        (err = vmpi_chk_array(&ck, bytes ? (const void *)bdisps : disps, count, "array_of_displacements")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return out(fn, bytes ? vmpi_dt_hindexed_block(count, blocklen, bdisps, d, large)
                         : vmpi_dt_indexed_block(count, blocklen, disps, d, large), newtype);
}

VMPI_WEAK(Type_create_indexed_block)
int PMPI_Type_create_indexed_block(int count, int blocklen, const int disps[], MPI_Datatype old,
                                   MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *dp = widen(disps, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_indexed_block")
                  : indexed_block(count, blocklen, dp, NULL, false, old, newtype, false,
                                  "MPI_Type_create_indexed_block");
    free(dp);
    return err;
}

VMPI_WEAK(Type_create_indexed_block_c)
int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklen, const MPI_Count disps[], MPI_Datatype old,
                                     MPI_Datatype *newtype)
{
    return indexed_block(count, blocklen, disps, NULL, false, old, newtype, true, "MPI_Type_create_indexed_block_c");
}

VMPI_WEAK(Type_create_hindexed_block)
int PMPI_Type_create_hindexed_block(int count, int blocklen, const MPI_Aint disps[], MPI_Datatype old,
                                    MPI_Datatype *newtype)
{
    return indexed_block(count, blocklen, NULL, disps, true, old, newtype, false, "MPI_Type_create_hindexed_block");
}

VMPI_WEAK(Type_create_hindexed_block_c)
int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklen, const MPI_Count disps[], MPI_Datatype old,
                                      MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Aint *dp = to_aint(disps, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_hindexed_block_c")
                  : indexed_block(count, blocklen, NULL, dp, true, old, newtype, true,
                                  "MPI_Type_create_hindexed_block_c");
    free(dp);
    return err;
}

/* ---- struct ---- */

static int create_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps,
                         const MPI_Datatype *types, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    int err;
    if ((err = vmpi_chk_count(&ck, count)) || (err = chk_blocklens(&ck, count, blocklens)) ||
        (err = vmpi_chk_array(&ck, disps, count, "array_of_displacements")) ||
        (err = vmpi_chk_array(&ck, types, count, "array_of_types")) ||
        (err = vmpi_chk_ptr(&ck, newtype, "newtype")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    vmpi_dtype **d = malloc(sizeof *d * (size_t)(count ? count : 1));
    if (d == NULL)
        return out(fn, NULL, newtype);
    for (MPI_Count i = 0; i < count; i++)
        if ((err = vmpi_chk_dt_any(&ck, types[i], &d[i]))) {
            free(d);
            return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
        }
    vmpi_dtype *t = vmpi_dt_struct(count, blocklens, disps, d, large);
    free(d);
    return out(fn, t, newtype);
}

VMPI_WEAK(Type_create_struct)
int PMPI_Type_create_struct(int count, const int blocklens[], const MPI_Aint disps[], const MPI_Datatype types[],
                            MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *bl = widen(blocklens, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_struct")
                  : create_struct(count, bl, disps, types, newtype, false, "MPI_Type_create_struct");
    free(bl);
    return err;
}

VMPI_WEAK(Type_create_struct_c)
int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count blocklens[], const MPI_Count disps[],
                              const MPI_Datatype types[], MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Aint *dp = to_aint(disps, count, &oom);
    int err = oom ? no_mem("MPI_Type_create_struct_c")
                  : create_struct(count, blocklens, dp, types, newtype, true, "MPI_Type_create_struct_c");
    free(dp);
    return err;
}

/* ---- resized ---- */

static int resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype, bool large,
                   const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err = common(&ck, 0, old, &d, newtype);
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return out(fn, vmpi_dt_resized(d, lb, extent, large), newtype);
}

VMPI_WEAK(Type_create_resized)
int PMPI_Type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype)
{
    return resized(old, lb, extent, newtype, false, "MPI_Type_create_resized");
}

VMPI_WEAK(Type_create_resized_c)
int PMPI_Type_create_resized_c(MPI_Datatype old, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype)
{
    return resized(old, (MPI_Aint)lb, (MPI_Aint)extent, newtype, true, "MPI_Type_create_resized_c");
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

/* ---- subarray and darray ---- */

static int subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes, const MPI_Count *starts, int order,
                    MPI_Datatype old, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(&ck, ndims)) || (err = vmpi_chk_array(&ck, sizes, ndims, "array_of_sizes")) ||
        (err = vmpi_chk_array(&ck, subsizes, ndims, "array_of_subsizes")) ||
        (err = vmpi_chk_array(&ck, starts, ndims, "array_of_starts")) || (err = chk_order(&ck, order)) ||
        (err = common(&ck, 0, old, &d, newtype)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    for (int i = 0; i < ndims; i++)
        if (sizes[i] <= 0 || subsizes[i] <= 0 || subsizes[i] > sizes[i] || starts[i] < 0 ||
            starts[i] > sizes[i] - subsizes[i]) {
            snprintf(ck.why, sizeof ck.why, "dimension %d: size %lld, subsize %lld, start %lld do not fit", i,
                     (long long)sizes[i], (long long)subsizes[i], (long long)starts[i]);
            return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, fn, &ck);
        }
    return out(fn, vmpi_dt_subarray(ndims, sizes, subsizes, starts, order, d, large), newtype);
}

VMPI_WEAK(Type_create_subarray)
int PMPI_Type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                              MPI_Datatype old, MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *sz = widen(sizes, ndims, &oom), *sub = widen(subsizes, ndims, &oom), *st = widen(starts, ndims, &oom);
    int err = oom ? no_mem("MPI_Type_create_subarray")
                  : subarray(ndims, sz, sub, st, order, old, newtype, false, "MPI_Type_create_subarray");
    free(sz);
    free(sub);
    free(st);
    return err;
}

VMPI_WEAK(Type_create_subarray_c)
int PMPI_Type_create_subarray_c(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[],
                                const MPI_Count starts[], int order, MPI_Datatype old, MPI_Datatype *newtype)
{
    return subarray(ndims, sizes, subsizes, starts, order, old, newtype, true, "MPI_Type_create_subarray_c");
}

static int darray(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs, const int *dargs,
                  const int *psizes, int order, MPI_Datatype old, MPI_Datatype *newtype, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = chk_ndims(&ck, ndims)) || (err = vmpi_chk_array(&ck, gsizes, ndims, "array_of_gsizes")) ||
        (err = vmpi_chk_array(&ck, distribs, ndims, "array_of_distribs")) ||
        (err = vmpi_chk_array(&ck, dargs, ndims, "array_of_dargs")) ||
        (err = vmpi_chk_array(&ck, psizes, ndims, "array_of_psizes")) || (err = chk_order(&ck, order)) ||
        (err = common(&ck, 0, old, &d, newtype)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    long long procs = 1;
    for (int i = 0; i < ndims && !err; i++) {
        if (gsizes[i] <= 0 || psizes[i] <= 0 ||
            (distribs[i] != MPI_DISTRIBUTE_BLOCK && distribs[i] != MPI_DISTRIBUTE_CYCLIC &&
             distribs[i] != MPI_DISTRIBUTE_NONE) ||
            (dargs[i] != MPI_DISTRIBUTE_DFLT_DARG && dargs[i] <= 0)) {
            snprintf(ck.why, sizeof ck.why, "dimension %d: gsize %lld, distrib %d, darg %d, psize %d are invalid", i,
                     (long long)gsizes[i], distribs[i], dargs[i], psizes[i]);
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
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    bool bad;
    vmpi_dtype *t = vmpi_dt_darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, d, large, &bad);
    if (bad) {
        snprintf(ck.why, sizeof ck.why, "a distribution does not cover its dimension (block size x processes < "
                                        "size, or MPI_DISTRIBUTE_NONE over several processes)");
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, fn, &ck);
    }
    return out(fn, t, newtype);
}

VMPI_WEAK(Type_create_darray)
int PMPI_Type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[],
                            const int dargs[], const int psizes[], int order, MPI_Datatype old,
                            MPI_Datatype *newtype)
{
    bool oom = false;
    MPI_Count *gs = widen(gsizes, ndims, &oom);
    int err = oom ? no_mem("MPI_Type_create_darray")
                  : darray(size, rank, ndims, gs, distribs, dargs, psizes, order, old, newtype, false,
                           "MPI_Type_create_darray");
    free(gs);
    return err;
}

VMPI_WEAK(Type_create_darray_c)
int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                              const int dargs[], const int psizes[], int order, MPI_Datatype old,
                              MPI_Datatype *newtype)
{
    return darray(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, newtype, true,
                  "MPI_Type_create_darray_c");
}
