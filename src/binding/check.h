/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer, chosen by parameter kind.  Each returns MPI_SUCCESS or an error
 * class, and writes what was wrong into ck->why for the error message. */
#ifndef VMPI_BINDING_CHECK_H
#define VMPI_BINDING_CHECK_H

#include <limits.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpi/core/comm.h"
#include "mpi/core/errhan.h"
#include "mpi/core/group.h"
#include "mpi/core/handle.h"
#include "mpi/core/ivec.h"
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

/* Why the calling thread may not call MPI now (cold path of vmpi_chk_ranked / vmpi_chk_in_rank). */
int vmpi_chk_unranked(vmpi_chk *ck, const vmpi_rank *rk, bool need_init) __attribute__((cold));

/* The calling thread is an MPI rank (what MPI_Init and MPI_Finalize need). */
static inline int vmpi_chk_in_rank(vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk != NULL ? MPI_SUCCESS : vmpi_chk_unranked(ck, rk, false);
}

/* The first check of every MPI function but the few MPI-3.1 8.7 allows at any time (MPI_Initialized,
 * MPI_Finalized, MPI_Get_version, MPI_Get_library_version, MPI_Init*; also MPI_Wtime, MPI_Wtick, MPI_Abort
 * and the handle conversions, which report no errors): the caller is a rank between MPI_Init and
 * MPI_Finalize.  MPI_ERR_OTHER otherwise, naming the reason. */
static inline int vmpi_chk_ranked(vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (__builtin_expect(rk != NULL && rk->live, 1))
        return MPI_SUCCESS;
    return vmpi_chk_unranked(ck, rk, true);
}

/* The check of the local calls (datatype queries and constructors, pack, groups, Op_*, error strings,
 * statuses...): a rank's call outside MPI_Init .. MPI_Finalize fails, as with vmpi_chk_ranked, but where no
 * rank is current in a running job they work, as they always did: a user operation or a generalized request
 * callback that vmpi runs on a PE on behalf of a rank (MPICH's coll/nonblocking2 queries the extent of its
 * datatype there), a thread a rank started. */
static inline int vmpi_chk_local(vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (__builtin_expect(rk != NULL ? rk->live : vmpi_world_size() != 0, 1))
        return MPI_SUCCESS;
    return vmpi_chk_unranked(ck, rk, true);
}

/* The first statement of a local call (vmpi_chk_local): returns the error of a call outside MPI_Init ..
 * MPI_Finalize through MPI_COMM_WORLD's handler. */
#define VMPI_CHK_LOCAL(ck, fn)                                                                             \
    do {                                                                                                    \
        int vmpi_e_ = vmpi_chk_local(&(ck));                                                               \
        if (vmpi_e_ != MPI_SUCCESS)                                                                         \
            return vmpi_fail(MPI_COMM_WORLD, vmpi_e_, fn, &(ck));                                           \
    } while (0)

/* Why handle `h` is none of its kind's objects (its null handle, named `null_name`, or an invalid one: "invalid
 * <kind> handle"); returns `cls`.  The cold end of every handle check. */
static inline __attribute__((cold)) int vmpi_chk_bad_handle(vmpi_chk *ck, int h, int null, const char *null_name,
                                                             const char *kind, int cls)
{
    if (h == null)
        snprintf(ck->why, sizeof ck->why, "%s", null_name);
    else
        snprintf(ck->why, sizeof ck->why, "invalid %s handle 0x%x", kind, (unsigned)h);
    return cls;
}

static inline int vmpi_chk_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out)
{
    return (*out = vmpi_comm_get(h)) != NULL ? MPI_SUCCESS
           : vmpi_chk_bad_handle(ck, h, MPI_COMM_NULL, "MPI_COMM_NULL", "communicator", MPI_ERR_COMM);
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
    if (vmpi_dt_lookup(h) == NULL)
        return vmpi_chk_bad_handle(ck, h, MPI_DATATYPE_NULL, "MPI_DATATYPE_NULL", "or freed datatype", MPI_ERR_TYPE);
    snprintf(ck->why, sizeof ck->why, "datatype 0x%x is not committed", (unsigned)h);
    return MPI_ERR_TYPE;
}

static inline int vmpi_chk_buf(vmpi_chk *ck, const void *buf, MPI_Count count, const vmpi_dtype *dt)
{
    /* MPI_BOTTOM (NULL) is a buffer for derived types: their displacements may be absolute addresses */
    if (buf != NULL || count == 0 || dt->size == 0 || !dt->builtin)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "NULL buffer with count %lld", (long long)count);
    return MPI_ERR_BUFFER;
}

/* A destination: a rank of the communicator or MPI_PROC_NULL. */
static inline int vmpi_chk_dest(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r == MPI_PROC_NULL || (r >= 0 && r < c->peer_size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in %s%s of size %d", r,
             vmpi_comm_is_inter(c) ? "the remote group of " : "", c->name[0] ? c->name : "the communicator",
             c->peer_size);
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
    snprintf(ck->why, sizeof ck->why, "root %d is not in %s of size %d", r, c->name[0] ? c->name : "the communicator",
             c->size);
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

/* An error handler: predefined or one of the calling rank's (MPI_ERR_ARG: MPI has no class for it). */
static inline int vmpi_chk_errh(vmpi_chk *ck, MPI_Errhandler h)
{
    if (vmpi_errh_check(h) == MPI_SUCCESS)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "invalid error handler 0x%x", (unsigned)h);
    return MPI_ERR_ARG;
}

/* The error handler MPI_Errhandler_free frees, through its pointer. */
static inline int vmpi_chk_errh_at(vmpi_chk *ck, const MPI_Errhandler *p)
{
    int err = vmpi_chk_ptr(ck, p, "errhandler");
    return err ? err : vmpi_chk_errh(ck, *p);
}

/* A string of at most `max` - 1 characters (MPI_Add_error_string's: max MPI_MAX_ERROR_STRING, named by
 * `max_name`). */
static inline int vmpi_chk_string(vmpi_chk *ck, const char *s, const char *what, int max, const char *max_name)
{
    int err = vmpi_chk_ptr(ck, s, what);
    if (err || strnlen(s, (size_t)max) < (size_t)max)
        return err;
    snprintf(ck->why, sizeof ck->why, "%s longer than %s - 1 (%d) characters", what, max_name, max - 1);
    return MPI_ERR_ARG;
}

/* A request through its pointer: the pointer, then the handle (MPI_REQUEST_NULL when null_ok: MPI_Wait's). */
static inline int vmpi_chk_req_at(vmpi_chk *ck, const MPI_Request *p, bool null_ok)
{
    int err = vmpi_chk_ptr(ck, p, "request pointer");
    return err ? err : vmpi_chk_req(ck, *p, null_ok);
}

/* An array of n requests, each MPI_REQUEST_NULL or valid (MPI_Waitall's, MPI_Startall's). */
static inline int vmpi_chk_reqs(vmpi_chk *ck, int n, const MPI_Request *reqs)
{
    int err;
    if (n > 0 && (err = vmpi_chk_ptr(ck, reqs, "request array")))
        return err;
    for (int i = 0; i < n; i++)
        if ((err = vmpi_chk_req(ck, reqs[i], true)))
            return err;
    return MPI_SUCCESS;
}

/* A status to read or to set (MPI_Get_count's, MPI_Status_set_tag's): not NULL, not MPI_STATUS_IGNORE. */
static inline int vmpi_chk_status(vmpi_chk *ck, const MPI_Status *st)
{
    return vmpi_chk_ptr(ck, st == MPI_STATUS_IGNORE ? NULL : st, "status");
}

/* The communicator whose handler reports what goes wrong completing request h (checked, maybe null): the
 * request's own.  No check: always MPI_SUCCESS. */
static inline int vmpi_chk_req_comm(MPI_Request h, MPI_Comm *comm)
{
    const vmpi_mreq *m = h == MPI_REQUEST_NULL ? NULL : vmpi_mreq_get(h);
    *comm = m ? m->comm : MPI_COMM_WORLD;
    return MPI_SUCCESS;
}

/* The checks of each area, in this order (a later part may use an earlier one's) */
#include "binding/check_pt2pt.h"
#include "binding/check_comm.h"
#include "binding/check_attr.h"
#include "binding/check_data.h"
#include "binding/check_win.h"
#include "binding/check_session.h"

#endif
