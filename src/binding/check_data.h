/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): datatypes, count arrays, reduction operations. */
#ifndef VMPI_BINDING_CHECK_DATA_H
#define VMPI_BINDING_CHECK_DATA_H

#include "mpi/op/op.h"

/* ---- datatypes (derived-type constructors and queries) ---- */

/* A datatype, committed or not (constructors and queries take both). */
static inline int vmpi_chk_dt_any(vmpi_chk *ck, MPI_Datatype h, vmpi_dtype **out)
{
    return (*out = vmpi_dt_lookup(h)) != NULL ? MPI_SUCCESS
           : vmpi_chk_bad_handle(ck, h, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL", "or freed datatype", MPI_ERR_TYPE);
}

/* An int or MPI_Aint the call reads and updates (MPI_Pack's position), read into the MPI_Count *out: the pointer
 * must not be NULL. */
#define vmpi_chk_load(ck, p, out, what) ((p) != NULL ? (*(out) = *(p), MPI_SUCCESS) : vmpi_chk_ptr(ck, p, what))

/* The data representation of MPI_Pack_external and friends: "external32", the one MPI defines. */
static inline int vmpi_chk_datarep(vmpi_chk *ck, const char *rep)
{
    if (rep != NULL && strcmp(rep, "external32") == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "data representation \"%s\" is not \"external32\"", rep ? rep : "(NULL)");
    return MPI_ERR_ARG;
}

/* An array argument: may be NULL only when it has no entries. */
static inline int vmpi_chk_array(vmpi_chk *ck, const void *p, MPI_Count n, const char *what)
{
    if (p != NULL || n == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s is NULL with %lld entries", what, (long long)n);
    return MPI_ERR_ARG;
}

/* A non-negative integer argument that is not a count (a buffer size): MPI_ERR_ARG. */
static inline int vmpi_chk_nonneg(vmpi_chk *ck, MPI_Count v, const char *what)
{
    if (v >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s is negative (%lld)", what, (long long)v);
    return MPI_ERR_ARG;
}

/* ---- collectives and operations (coll area) ---- */

/* An operation handle, predefined or the program's (MPI_Accumulate's: the target's type decides the rest). */
static inline int vmpi_chk_op_valid(vmpi_chk *ck, MPI_Op op)
{
    if (vmpi_op_valid(op))
        return MPI_SUCCESS;
    return vmpi_chk_bad_handle(ck, op, MPI_OP_NULL, "MPI_OP_NULL", "operation", MPI_ERR_OP);
}

/* An operation defined on datatype dt. */
static inline int vmpi_chk_op(vmpi_chk *ck, MPI_Op op, const vmpi_dtype *dt)
{
    int err = vmpi_chk_op_valid(ck, op);
    if (err)
        return err;
    if (vmpi_op_check(op, dt) != MPI_SUCCESS) {
        snprintf(ck->why, sizeof ck->why, "the operation is not defined on %s", dt->name[0] ? dt->name : "this type");
        return MPI_ERR_OP;
    }
    return MPI_SUCCESS;
}

/* `n` counts (int or MPI_Count: mpi/core/ivec.h), none negative, and the array itself present. */
static inline int vmpi_chk_counts(vmpi_chk *ck, vmpi_ivec counts, int n)
{
    if (vmpi_iv_null(counts) && n > 0) {
        snprintf(ck->why, sizeof ck->why, "NULL count array");
        return MPI_ERR_COUNT;
    }
    for (int i = 0; i < n; i++)
        if (vmpi_iv_at(counts, i) < 0) {
            snprintf(ck->why, sizeof ck->why, "negative count %lld at index %d", (long long)vmpi_iv_at(counts, i), i);
            return MPI_ERR_COUNT;
        }
    return MPI_SUCCESS;
}

/* A buffer where MPI_IN_PLACE is not allowed. */
static inline int vmpi_chk_not_in_place(vmpi_chk *ck, const void *buf)
{
    if (buf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "MPI_IN_PLACE is not allowed for this buffer here");
    return MPI_ERR_BUFFER;
}

/* Send and receive buffers that must not be the same storage (MPI_IN_PLACE is the way to say that). */
static inline int vmpi_chk_alias(vmpi_chk *ck, const void *sbuf, const void *rbuf, bool nonempty)
{
    if (sbuf != rbuf || sbuf == NULL || sbuf == MPI_IN_PLACE || !nonempty)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "send and receive buffers alias (use MPI_IN_PLACE)");
    return MPI_ERR_BUFFER;
}

#endif
