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
    if (vmpi_dt_lookup(h) != NULL)
        snprintf(ck->why, sizeof ck->why, "datatype 0x%x is not committed", (unsigned)h);
    else
        snprintf(ck->why, sizeof ck->why,
                 h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "invalid or freed datatype handle 0x%x", (unsigned)h);
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

/* ---- point-to-point (the checks the kinds of src/binding/spec/pt2pt.toml's parameters do not give) ---- */

/* A message to receive (MPI_Mrecv, MPI_Imrecv): MPI_MESSAGE_NO_PROC or one that MPI_Mprobe gave this rank. */
static inline int vmpi_chk_msg(vmpi_chk *ck, const MPI_Message *m)
{
    int err = vmpi_chk_ptr(ck, m, "message");
    if (err != MPI_SUCCESS || *m == MPI_MESSAGE_NO_PROC || vmpi_msg_get(*m) != NULL)
        return err;
    snprintf(ck->why, sizeof ck->why, "invalid message handle 0x%x", (unsigned)*m);
    return MPI_ERR_REQUEST;
}

/* A request MPI_Start may start: persistent and not active.  `h` is a valid request (vmpi_chk_req); *comm
 * becomes its communicator, whose error handler reports what is wrong with it. */
static inline int vmpi_chk_startable(vmpi_chk *ck, MPI_Request h, MPI_Comm *comm)
{
    const vmpi_mreq *m = vmpi_mreq_get(h);
    *comm = m->comm;
    if (m->persistent && !m->active)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !m->persistent ? "request is not persistent" : "request is already active");
    return MPI_ERR_REQUEST;
}

/* A partitioned request of the calling rank (MPI_Pready*: a send, MPI_Parrived: a receive); *comm becomes its
 * communicator, whose error handler reports what is wrong with the call. */
static inline int vmpi_chk_part(vmpi_chk *ck, MPI_Request h, bool send, MPI_Comm *comm)
{
    const vmpi_mreq *m = vmpi_mreq_get(h);
    *comm = m->comm;
    if (m->type == VMPI_MREQ_PART && ((const vmpi_mreq_part_head *)m->ptr)->send == send)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "not a partitioned %s request", send ? "send" : "receive");
    return MPI_ERR_REQUEST;
}

/* A partitioned receive's source: a rank or MPI_PROC_NULL, not MPI_ANY_SOURCE (MPI-4.1 4.2.2). */
static inline int vmpi_chk_part_source(vmpi_chk *ck, int source)
{
    if (source != MPI_ANY_SOURCE)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "MPI_ANY_SOURCE is not allowed in partitioned communication");
    return MPI_ERR_RANK;
}

/* The buffer MPI_Buffer_attach is given: `size` bytes, not negative, at `buf` (NULL only with 0 bytes), or
 * MPI_BUFFER_AUTOMATIC (whose size is ignored). */
static inline int vmpi_chk_bsend_buf(vmpi_chk *ck, const void *buf, MPI_Count size)
{
    if (buf == MPI_BUFFER_AUTOMATIC || (size >= 0 && (buf != NULL || size == 0)))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "invalid buffer %p of size %lld", buf, (long long)size);
    return MPI_ERR_BUFFER;
}

/* A count or size the int form of a function returns (its _c form returns it as an MPI_Count): MPI_UNDEFINED
 * when it does not fit in an int, as MPI_Get_count does (MPICH does so for MPI_Buffer_detach too). */
static inline int vmpi_count_int(MPI_Count v)
{
    return v >= INT_MIN && v <= INT_MAX ? (int)v : MPI_UNDEFINED;
}

/* Reports a failed check or a failed operation through the communicator's error handler. */
static inline int vmpi_fail(MPI_Comm comm, int err, const char *fn, const vmpi_chk *ck)
{
    return vmpi_err_raise(comm, err, fn, ck && ck->why[0] ? "%s" : NULL, ck ? ck->why : "");
}

static inline int vmpi_raise_h_(MPI_Errhandler h, int obj, int err, const char *fn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vmpi_err_vraise(h, obj, err, fn, fmt, ap);
    va_end(ap);
    return r;
}

/* Reports a failure through error handler h, on object obj (a window, a session; MPI_COMM_NULL for a
 * communicator that was not made). */
static inline int vmpi_errh_fail(MPI_Errhandler h, int obj, int err, const char *fn, const vmpi_chk *ck)
{
    return vmpi_raise_h_(h, obj, err, fn, ck && ck->why[0] ? "%s" : NULL, ck ? ck->why : "");
}

/* A collective's failure: MPI_ERR_TRUNCATE there means that ranks' counts or types differ in size. */
static inline int vmpi_coll_fail(MPI_Comm comm, int err, const char *fn, const vmpi_chk *ck)
{
    if (err == MPI_ERR_TRUNCATE && !(ck && ck->why[0]))
        return vmpi_err_raise(comm, err, fn, "%s",
                              "the ranks' counts or datatypes differ in size (their type signatures must match)");
    return vmpi_fail(comm, err, fn, ck);
}

/* ---- communicators, groups, topologies ---- */

static inline int vmpi_chk_group(vmpi_chk *ck, MPI_Group h, vmpi_group **out)
{
    *out = vmpi_group_get(h);
    if (*out)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, h == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "invalid group handle 0x%x",
             (unsigned)h);
    return MPI_ERR_GROUP;
}

/* A group handle, left unresolved for the implementation (which needs the handle itself). */
static inline int vmpi_chk_group_valid(vmpi_chk *ck, MPI_Group h)
{
    vmpi_group *g;
    return vmpi_chk_group(ck, h, &g);
}

/* Operations defined on intracommunicators only. */
static inline int vmpi_chk_intra(vmpi_chk *ck, const vmpi_comm *c)
{
    if (!vmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "an intercommunicator where an intracommunicator is required");
    return MPI_ERR_COMM;
}

/* Operations defined on intercommunicators only (MPI_Comm_remote_size, MPI_Intercomm_merge). */
static inline int vmpi_chk_inter(vmpi_chk *ck, const vmpi_comm *c)
{
    if (vmpi_comm_is_inter(c))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "not an intercommunicator");
    return MPI_ERR_COMM;
}

/* The communicator MPI_Comm_free frees, through its pointer: valid and not predefined; *errcomm becomes it
 * (its handler reports what goes wrong freeing it). */
static inline int vmpi_chk_comm_free(vmpi_chk *ck, const MPI_Comm *p, MPI_Comm *errcomm)
{
    vmpi_comm *c;
    int err = vmpi_chk_ptr(ck, p, "comm");
    if (err || (err = vmpi_chk_comm(ck, *p, &c)))
        return err;
    *errcomm = *p;
    if (*p != MPI_COMM_WORLD && *p != MPI_COMM_SELF)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "a predefined communicator cannot be freed");
    return MPI_ERR_COMM;
}

/* MPI_Comm_split's color: not negative, or MPI_UNDEFINED (no new communicator). */
static inline int vmpi_chk_color(vmpi_chk *ck, int color)
{
    if (color >= 0 || color == MPI_UNDEFINED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "color %d is negative and not MPI_UNDEFINED", color);
    return MPI_ERR_ARG;
}

/* A non-negative integer whose error class depends on the call (MPI_ERR_DIMS for ndims, ...). */
static inline int vmpi_chk_nonneg_cls(vmpi_chk *ck, int v, const char *what, int cls)
{
    if (v >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "negative %s %d", what, v);
    return cls;
}

/* ---- process topologies (area: topo) ---- */

#include "mpi/comm/topo.h"

/* An intracommunicator (what a topology is made on). */
static inline int vmpi_chk_intra_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out)
{
    int err = vmpi_chk_comm(ck, h, out);
    return err ? err : vmpi_chk_intra(ck, *out);
}

/* A communicator with a topology of `kind` (MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH). */
static inline int vmpi_chk_topo_comm(vmpi_chk *ck, MPI_Comm h, vmpi_comm **out, int kind)
{
    int err = vmpi_chk_comm(ck, h, out);
    if (err || ((*out)->topo && (*out)->topo->kind == kind))
        return err;
    snprintf(ck->why, sizeof ck->why, "the communicator has no %s topology",
             kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph");
    return MPI_ERR_TOPOLOGY;
}

/* A Cartesian grid of `ndims` (checked) dimensions that fits the communicator. */
static inline int vmpi_chk_grid(vmpi_chk *ck, int ndims, const int *dims, const int *periods, const vmpi_comm *c)
{
    int err = MPI_SUCCESS;
    if (ndims > 0 && (err = vmpi_chk_ptr(ck, dims, "dims")) == MPI_SUCCESS)
        err = vmpi_chk_ptr(ck, periods, "periods");
    long prod = 1;
    for (int i = 0; !err && i < ndims; i++) {
        if (dims[i] <= 0) {
            snprintf(ck->why, sizeof ck->why, "dims[%d] = %d is not positive", i, dims[i]);
            return MPI_ERR_DIMS;
        }
        if ((prod *= dims[i]) > c->size) {
            snprintf(ck->why, sizeof ck->why, "the grid needs more than the %d ranks of the communicator", c->size);
            return MPI_ERR_DIMS;
        }
    }
    return err;
}

/* A query's room for a Cartesian topology's dimensions. */
static inline int vmpi_chk_maxdims(vmpi_chk *ck, int maxdims, const vmpi_comm *c)
{
    if (maxdims >= c->topo->ndims)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "maxdims %d is less than the %d dimensions", maxdims, c->topo->ndims);
    return MPI_ERR_ARG;
}

/* An array of one entry per dimension of a Cartesian topology (MPI_Cart_rank's coords). */
static inline int vmpi_chk_per_dim(vmpi_chk *ck, const int *a, const vmpi_comm *c, const char *what)
{
    return c->topo->ndims > 0 ? vmpi_chk_ptr(ck, a, what) : MPI_SUCCESS;
}

/* A rank of the communicator (MPI_Cart_coords'). */
static inline int vmpi_chk_rank_in(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r >= 0 && r < c->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in the communicator of size %d", r, c->size);
    return MPI_ERR_RANK;
}

/* A dimension of a Cartesian topology (MPI_Cart_shift's direction). */
static inline int vmpi_chk_direction(vmpi_chk *ck, int direction, const vmpi_comm *c)
{
    if (direction >= 0 && direction < c->topo->ndims)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "direction %d is not a dimension (0..%d)", direction, c->topo->ndims - 1);
    return MPI_ERR_ARG;
}

/* A graph of `nnodes` nodes, at most the communicator's size: index non-decreasing, edges naming nodes. */
static inline int vmpi_chk_graph(vmpi_chk *ck, int nnodes, const int *index, const int *edges, const vmpi_comm *c)
{
    int err = vmpi_chk_nonneg_cls(ck, nnodes, "nnodes", MPI_ERR_ARG);
    if (!err && nnodes > c->size) {
        snprintf(ck->why, sizeof ck->why, "%d nodes but only %d ranks", nnodes, c->size);
        return MPI_ERR_ARG;
    }
    if (!err && nnodes > 0 && !(err = vmpi_chk_ptr(ck, index, "index")))
        err = index[nnodes - 1] > 0 ? vmpi_chk_ptr(ck, edges, "edges") : MPI_SUCCESS;
    for (int i = 0; !err && i < nnodes; i++)
        if (index[i] < (i ? index[i - 1] : 0)) {
            snprintf(ck->why, sizeof ck->why, "index[%d] = %d decreases", i, index[i]);
            return MPI_ERR_ARG;
        }
    for (int e = 0; !err && nnodes > 0 && e < index[nnodes - 1]; e++)
        if (edges[e] < 0 || edges[e] >= nnodes) {
            snprintf(ck->why, sizeof ck->why, "edges[%d] = %d is not a node", e, edges[e]);
            return MPI_ERR_ARG;
        }
    return err;
}

/* A node of a graph topology. */
static inline int vmpi_chk_node(vmpi_chk *ck, int rank, const vmpi_comm *c)
{
    if (rank >= 0 && rank < c->topo->nnodes)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not a node of the graph (%d nodes)", rank, c->topo->nnodes);
    return MPI_ERR_RANK;
}

/* ---- info objects, attributes, user error codes (area: attr) ---- */
#include "mpi/core/attr.h"
#include "mpi/core/info.h"

static inline int vmpi_chk_info(vmpi_chk *ck, MPI_Info h)
{
    if (vmpi_info_check(h) == MPI_SUCCESS)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, h == MPI_INFO_NULL ? "MPI_INFO_NULL" : "invalid info handle 0x%x", (unsigned)h);
    return MPI_ERR_INFO;
}

/* An info object the caller may change or free: not MPI_INFO_ENV. */
static inline int vmpi_chk_info_writable(vmpi_chk *ck, MPI_Info h)
{
    int err = vmpi_chk_info(ck, h);
    if (err == MPI_SUCCESS && vmpi_info_is_readonly(h)) {
        snprintf(ck->why, sizeof ck->why, "MPI_INFO_ENV is predefined and read-only");
        err = MPI_ERR_INFO;
    }
    return err;
}

/* The info object MPI_Info_free frees, through its pointer. */
static inline int vmpi_chk_info_at(vmpi_chk *ck, const MPI_Info *p)
{
    int err = vmpi_chk_ptr(ck, p, "info");
    return err ? err : vmpi_chk_info_writable(ck, *p);
}

/* MPI_Info_get_string's buffer length, through its pointer: not negative. */
static inline int vmpi_chk_info_buflen(vmpi_chk *ck, const int *buflen)
{
    int err = vmpi_chk_ptr(ck, buflen, "buflen");
    return err ? err : vmpi_chk_nonneg_cls(ck, *buflen, "buflen", MPI_ERR_ARG);
}

/* A key of 1 to MPI_MAX_INFO_KEY - 1 characters. */
static inline int vmpi_chk_info_key(vmpi_chk *ck, const char *key)
{
    size_t n = key ? strnlen(key, MPI_MAX_INFO_KEY) : 0;
    if (key && n > 0 && n < MPI_MAX_INFO_KEY)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !key ? "key is NULL" : n == 0 ? "empty key"
             : "key longer than MPI_MAX_INFO_KEY - 1 (%d) characters", MPI_MAX_INFO_KEY - 1);
    return MPI_ERR_INFO_KEY;
}

/* A value of at most MPI_MAX_INFO_VAL - 1 characters. */
static inline int vmpi_chk_info_value(vmpi_chk *ck, const char *value)
{
    if (value && strnlen(value, MPI_MAX_INFO_VAL) < MPI_MAX_INFO_VAL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, !value ? "value is NULL"
             : "value longer than MPI_MAX_INFO_VAL - 1 (%d) characters", MPI_MAX_INFO_VAL - 1);
    return MPI_ERR_INFO_VALUE;
}

/* A keyval for objects of handle kind `objkind`; predefined keys only when `predef_ok` (reading); one the
 * program freed while attributes use it only when `freed_ok` (reading, deleting, freeing). */
static inline int vmpi_chk_keyval(vmpi_chk *ck, int keyval, int objkind, bool predef_ok, bool freed_ok)
{
    if (vmpi_keyval_check(keyval, objkind, predef_ok, freed_ok) == MPI_SUCCESS)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why,
             keyval == MPI_KEYVAL_INVALID ? "MPI_KEYVAL_INVALID"
             : VMPI_HANDLE_INDEX(keyval) <= 15 && VMPI_HANDLE_KIND(keyval) == VMPI_KIND_KEYVAL
                 ? "keyval 0x%x is predefined (read-only) or not for this kind of object"
                 : "invalid keyval 0x%x (freed, not created by this rank, or for another kind of object)",
             (unsigned)keyval);
    return MPI_ERR_KEYVAL;
}

/* ---- datatypes (derived-type constructors and queries) ---- */

/* A datatype, committed or not (constructors and queries take both). */
static inline int vmpi_chk_dt_any(vmpi_chk *ck, MPI_Datatype h, vmpi_dtype **out)
{
    *out = vmpi_dt_lookup(h);
    if (*out)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why,
             h == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "invalid or freed datatype handle 0x%x", (unsigned)h);
    return MPI_ERR_TYPE;
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

#include "mpi/op/op.h"

/* A reduction operation valid on `dt`. */
/* An operation handle, predefined or the program's (MPI_Accumulate's: the target's type decides the rest). */
static inline int vmpi_chk_op_valid(vmpi_chk *ck, MPI_Op op)
{
    if (vmpi_op_valid(op))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, op == MPI_OP_NULL ? "MPI_OP_NULL" : "invalid operation handle 0x%x",
             (unsigned)op);
    return MPI_ERR_OP;
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

/* ---- windows (one-sided communication) ---- */

#include "mpi/rma/win.h"

static inline int vmpi_chk_win(vmpi_chk *ck, MPI_Win h, vmpi_win **out)
{
    int err = vmpi_chk_ranked(ck);
    if (err)
        return err;
    if ((*out = vmpi_win_get(h)) != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, h == MPI_WIN_NULL ? "MPI_WIN_NULL" : "invalid or freed window handle 0x%x",
             (unsigned)h);
    return MPI_ERR_WIN;
}


/* Reports a failure through the window's error handler (MPI_COMM_WORLD's when the handle is not a window, or
 * the caller is outside MPI, as every call's outside MPI is). */
static inline int vmpi_win_fail(MPI_Win h, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_win *w = rk && rk->live ? vmpi_win_get(h) : NULL;
    if (w == NULL)
        return vmpi_fail(MPI_COMM_WORLD, err, fn, ck);
    return vmpi_errh_fail(w->errh, h, err, fn, ck);
}

/* A size in bytes of memory (a window's, MPI_Alloc_mem's): not negative. */
static inline int vmpi_chk_size(vmpi_chk *ck, MPI_Aint size)
{
    if (size >= 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "negative size %td", size);
    return MPI_ERR_SIZE;
}

/* Memory to attach to a dynamic window: no NULL base for a positive size. */
static inline int vmpi_chk_base(vmpi_chk *ck, const void *base, MPI_Aint size)
{
    if (base != NULL || size == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "NULL base for %td bytes", size);
    return MPI_ERR_BASE;
}

/* A window's displacement unit: positive. */
static inline int vmpi_chk_disp_unit(vmpi_chk *ck, MPI_Aint disp_unit)
{
    if (disp_unit > 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "disp_unit %td is not positive", disp_unit);
    return MPI_ERR_DISP;
}

/* A window made by `what` (its flavor `flavor`: MPI_Win_attach's must be dynamic). */
static inline int vmpi_chk_flavor(vmpi_chk *ck, const vmpi_win *w, int flavor, const char *what)
{
    if (w->flavor == flavor)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the window was not made by %s", what);
    return MPI_ERR_RMA_FLAVOR;
}

/* The window MPI_Win_free frees, through its pointer: no epoch of it open on this rank. */
static inline int vmpi_chk_win_free(vmpi_chk *ck, const MPI_Win *p)
{
    vmpi_win *w;
    int err = vmpi_chk_ptr(ck, p, "win");
    if (err || (err = vmpi_chk_win(ck, *p, &w)))
        return err;
    if ((w->epoch == VMPI_EPOCH_NONE || (w->epoch == VMPI_EPOCH_FENCE && w->fence_ops == 0)) && !w->post_group)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "an epoch of the window is still open on this rank");
    return MPI_ERR_RMA_SYNC;
}

/* A target (or lock) rank: a rank of the window's group or MPI_PROC_NULL. */
static inline int vmpi_chk_win_rank(vmpi_chk *ck, int r, const vmpi_win *w)
{
    if (r == MPI_PROC_NULL || (r >= 0 && r < w->size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "rank %d is not in the window's group of size %d", r, w->size);
    return MPI_ERR_RANK;
}

static inline int vmpi_chk_lock_type(vmpi_chk *ck, int lock_type)
{
    if (lock_type == MPI_LOCK_EXCLUSIVE || lock_type == MPI_LOCK_SHARED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "lock type %d is neither MPI_LOCK_EXCLUSIVE nor MPI_LOCK_SHARED", lock_type);
    return MPI_ERR_LOCKTYPE;
}

/* The origin side of an accumulate: a buffer, unless the operation is MPI_NO_OP (which ignores it). */
static inline int vmpi_chk_acc_origin(vmpi_chk *ck, MPI_Op op, const void *buf, MPI_Count count, MPI_Datatype h)
{
    const vmpi_dtype *dt;
    int err;
    if (op == MPI_NO_OP)
        return MPI_SUCCESS;
    if ((err = vmpi_chk_count(ck, count)) || (err = vmpi_chk_dt(ck, h, &dt)))
        return err;
    return vmpi_chk_buf(ck, buf, count, dt);
}

/* The one element of MPI_Fetch_and_op and MPI_Compare_and_swap: of a predefined type. */
static inline int vmpi_chk_dt_builtin(vmpi_chk *ck, const vmpi_dtype *dt)
{
    if (dt->builtin)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the datatype must be a predefined one");
    return MPI_ERR_TYPE;
}

static inline int vmpi_chk_assert(vmpi_chk *ck, int assert)
{
    const int all = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;
    if ((assert & ~all) == 0)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "assert 0x%x has bits that are no MPI_MODE_ constant", (unsigned)assert);
    return MPI_ERR_ASSERT;
}

/* ---- intercommunicator collectives ---- */

/* A root argument on an intercommunicator: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group. */
static inline int vmpi_chk_inter_root(vmpi_chk *ck, int r, const vmpi_comm *c)
{
    if (r == MPI_ROOT || r == MPI_PROC_NULL || (r >= 0 && r < c->peer_size))
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "root %d is not MPI_ROOT, MPI_PROC_NULL or a rank of the remote group (size %d)",
             r, c->peer_size);
    return MPI_ERR_ROOT;
}

/* ---- sessions (area: session) ---- */

#include "mpi/core/session.h"

/* Where an error with no object goes: MPI_COMM_SELF (MPI-4.1 9.3); outside MPI, MPI_COMM_WORLD, as every
 * call's outside MPI. */
static inline MPI_Comm vmpi_no_object(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && rk->live ? MPI_COMM_SELF : MPI_COMM_WORLD;
}

/* A session of the calling rank, live (not finalized). */
static inline int vmpi_chk_session(vmpi_chk *ck, MPI_Session h, vmpi_session **out)
{
    if ((*out = vmpi_session_get(h)) != NULL)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why,
             h == MPI_SESSION_NULL ? "MPI_SESSION_NULL" : "invalid or finalized session handle 0x%x", (unsigned)h);
    return MPI_ERR_SESSION;
}

/* The session MPI_Session_finalize finalizes, through its pointer. */
static inline int vmpi_chk_session_at(vmpi_chk *ck, const MPI_Session *p)
{
    vmpi_session *s;
    int err = vmpi_chk_ptr(ck, p, "session");
    return err ? err : vmpi_chk_session(ck, *p, &s);
}

/* A process set's name: one of the sets. */
static inline int vmpi_chk_pset(vmpi_chk *ck, const char *name)
{
    int err = vmpi_chk_ptr(ck, name, "pset_name");
    if (err || vmpi_pset_find(name) >= 0)
        return err;
    snprintf(ck->why, sizeof ck->why, "no process set is named \"%.64s\" (vmpi has mpi://WORLD and mpi://SELF)", name);
    return MPI_ERR_ARG;
}

/* The caller is a member of `g` (`what`: which group). */
static inline int vmpi_chk_member(vmpi_chk *ck, const vmpi_group *g, const char *what)
{
    if (vmpi_group_rank_of(g, vmpi_rank_self()->world_rank) != MPI_UNDEFINED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the calling rank is not in %s", what);
    return MPI_ERR_GROUP;
}

/* A leader: a rank of its group. */
static inline int vmpi_chk_leader(vmpi_chk *ck, int r, const vmpi_group *g, const char *what)
{
    if (r >= 0 && r < g->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s %d is not a rank of its group of size %d", what, r, g->size);
    return MPI_ERR_RANK;
}

/* Two groups with no rank in common (an intercommunicator's). */
static inline int vmpi_chk_disjoint(vmpi_chk *ck, const vmpi_group *a, const vmpi_group *b)
{
    for (int i = 0; i < a->size; i++)
        if (vmpi_group_rank_of(b, a->world[i]) != MPI_UNDEFINED) {
            snprintf(ck->why, sizeof ck->why, "rank %d of MPI_COMM_WORLD is in both groups", a->world[i]);
            return MPI_ERR_GROUP;
        }
    return MPI_SUCCESS;
}

/* Reports a failure through the session's handler (vmpi_no_object's when h is no live session of the caller). */
static inline int vmpi_session_fail(MPI_Session h, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_session *s = vmpi_session_get(h);
    return s ? vmpi_errh_fail(s->errh, h, err, fn, ck) : vmpi_fail(vmpi_no_object(), err, fn, ck);
}

/* The failure of a call given the error handler of what it makes (MPI_Session_init, the communicator
 * constructors from groups): through it when it is valid (and, when `live`, the caller is inside MPI), else
 * vmpi_no_object's. */
static inline int vmpi_errh_arg_fail(MPI_Errhandler h, int obj, bool live, int err, const char *fn,
                                     const vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || (live && !rk->live) || vmpi_errh_check(h) != MPI_SUCCESS)
        return vmpi_fail(vmpi_no_object(), err, fn, ck);
    return vmpi_errh_fail(h, obj, err, fn, ck);
}

#endif
