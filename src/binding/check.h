/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer, chosen by parameter kind.  Each returns MPI_SUCCESS or an error
 * class, and writes what was wrong into ck->why for the error message. */
#ifndef VMPI_BINDING_CHECK_H
#define VMPI_BINDING_CHECK_H

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include "mpi/core/comm.h"
#include "mpi/core/errhan.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/core/request.h"
#include "mpi/datatype/datatype.h"

#define VMPI_PRAGMA(x) _Pragma(#x)
/* MPI_X is a weak alias of PMPI_X: a profiling library may define MPI_X and call PMPI_X. */
#define VMPI_WEAK(name) VMPI_PRAGMA(weak MPI_##name = PMPI_##name)

typedef struct vmpi_chk {
    char why[160];
} vmpi_chk;

/* Declares an empty check record; not "= {0}", whose 160-byte zeroing showed in the message latency. */
#define VMPI_CHK(ck) \
    vmpi_chk ck;    \
    ck.why[0] = '\0'

#define VMPI_TAG_UB INT_MAX

static inline int vmpi_chk_ranked(vmpi_chk *ck)
{
    if (vmpi_rank_self() != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "called outside an MPI rank (from a thread vmpi did not start)");
    return MPI_ERR_OTHER;
}

static inline int vmpi_chk_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out)
{
    *out = vmpi_comm_get(h);
    if (*out)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, h == MPI_COMM_NULL ? "MPI_COMM_NULL" : "invalid communicator handle 0x%x",
             (unsigned)h);
    return MPI_ERR_COMM;
}

static inline int vmpi_chk_count(vmpi_chk *ck, MPI_Count count)
{
    if (count >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "negative count %lld", (long long)count);
    return MPI_ERR_COUNT;
}

static inline int vmpi_chk_dt(vmpi_chk *ck, MPI_Datatype h, const vmpi_dtype **out)
{
    *out = vmpi_dt_get(h);
    if (*out)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "invalid datatype handle 0x%x",
             (unsigned)h);
    return MPI_ERR_TYPE;
}

static inline int vmpi_chk_buf(vmpi_chk *ck, const void *buf, MPI_Count count, const vmpi_dtype *dt)
{
    if (buf != NULL || count == 0 || dt->size == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "NULL buffer with count %lld", (long long)count);
    return MPI_ERR_BUFFER;
}

/* A destination: a rank of the communicator or MPI_PROC_NULL. */
static inline int vmpi_chk_dest(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r == MPI_PROC_NULL || (r >= 0 && r < c->size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in %s of size %d", r, c->name, c->size);
    return MPI_ERR_RANK;
}

/* A source: also MPI_ANY_SOURCE. */
static inline int vmpi_chk_source(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    return r == MPI_ANY_SOURCE ? MPI_SUCCESS : vmpi_chk_dest(ck, r, c);
}

static inline int vmpi_chk_root(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r >= 0 && r < c->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "root %d is not in %s of size %d", r, c->name, c->size);
    return MPI_ERR_ROOT;
}

static inline int vmpi_chk_send_tag(vmpi_chk *ck, int tag)
{
    if (tag >= 0 && tag <= VMPI_TAG_UB)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "tag %d is not in [0, MPI_TAG_UB]", tag);
    return MPI_ERR_TAG;
}

static inline int vmpi_chk_recv_tag(vmpi_chk *ck, int tag)
{
    return tag == MPI_ANY_TAG ? MPI_SUCCESS : vmpi_chk_send_tag(ck, tag);
}

static inline int vmpi_chk_req(vmpi_chk *ck, MPI_Request h, bool null_ok)
{
    if ((null_ok && h == MPI_REQUEST_NULL) || vmpi_mreq_get(h) != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "invalid request handle 0x%x", (unsigned)h);
    return MPI_ERR_REQUEST;
}

static inline int vmpi_chk_ptr(vmpi_chk *ck, const void *p, const char *what)
{
    if (p != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s is NULL", what);
    return MPI_ERR_ARG;
}

/* Reports a failed check or a failed operation through the communicator's error handler. */
static inline int vmpi_fail(MPI_Comm comm, int err, const char *fn, const vmpi_chk *ck)
{
    return vmpi_err_raise(comm, err, fn, ck && ck->why[0] ? "%s" : NULL, ck ? ck->why : "");
}


/* ---- collectives and operations (coll area) ---- */

#include "mpi/op/op.h"

/* A reduction operation valid on `dt`. */
static inline int vmpi_chk_op(vmpi_chk *ck, MPI_Op op, const vmpi_dtype *dt)
{
    if (!vmpi_op_valid(op)) {
        snprintf(ck->why, sizeof ck->why, op == MPI_OP_NULL ? "MPI_OP_NULL" : "invalid operation handle 0x%x",
                 (unsigned)op);
        return MPI_ERR_OP;
    }
    if (vmpi_op_check(op, dt) != MPI_SUCCESS) {
        snprintf(ck->why, sizeof ck->why, "the operation is not defined on %s", dt->name ? dt->name : "this type");
        return MPI_ERR_OP;
    }
    return MPI_SUCCESS;
}

/* `n` counts, none negative, and the array itself present. */
static inline int vmpi_chk_counts(vmpi_chk *ck, const int *counts, int n)
{
    if (counts == NULL && n > 0) {
        snprintf(ck->why, sizeof ck->why, "NULL count array");
        return MPI_ERR_COUNT;
    }
    for (int i = 0; i < n; i++)
        if (counts[i] < 0) {
            snprintf(ck->why, sizeof ck->why, "negative count %d at index %d", counts[i], i);
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
