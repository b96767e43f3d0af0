/* SPDX-License-Identifier: BSD-3-Clause */
/* Completion, request and status entry points. */
#include "binding/check.h"
#include "mpi/core/greq.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/pt2pt/wait.h"

static int check_array(vmpi_chk *ck, int n, MPI_Request *reqs)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_count(ck, n)) ||
        (n > 0 && (err = vmpi_chk_ptr(ck, reqs, "request array"))))
        return err;
    for (int i = 0; i < n; i++)
        if ((err = vmpi_chk_req(ck, reqs[i], true)) != MPI_SUCCESS)
            return err;
    return MPI_SUCCESS;
}

/* The communicator whose handler sees an error of request i: the request's own. */
static MPI_Comm comm_of(MPI_Request h)
{
    vmpi_mreq *m = h == MPI_REQUEST_NULL ? NULL : vmpi_mreq_get(h);
    return m ? m->comm : MPI_COMM_WORLD;
}

VMPI_WEAK(Wait)
int PMPI_Wait(MPI_Request *req, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_req(&ck, *req, true)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Wait", &ck);
    MPI_Comm comm = comm_of(*req);
    err = vmpi_wait(req, st);
    return err ? vmpi_fail(comm, err, "MPI_Wait", NULL) : MPI_SUCCESS;
}

VMPI_WEAK(Test)
int PMPI_Test(MPI_Request *req, int *flag, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_ptr(&ck, flag, "flag")) || (err = vmpi_chk_req(&ck, *req, true)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Test", &ck);
    MPI_Comm comm = comm_of(*req);
    err = vmpi_test(req, flag, st);
    return err ? vmpi_fail(comm, err, "MPI_Test", NULL) : MPI_SUCCESS;
}

VMPI_WEAK(Waitall)
int PMPI_Waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS)
        err = vmpi_waitall(n, reqs, sts);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Waitall", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Testall)
int PMPI_Testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS && (err = vmpi_chk_ptr(&ck, flag, "flag")) == MPI_SUCCESS)
        err = vmpi_testall(n, reqs, flag, sts);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Testall", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Waitany)
int PMPI_Waitany(int n, MPI_Request *reqs, int *index, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS && (err = vmpi_chk_ptr(&ck, index, "index")) == MPI_SUCCESS)
        err = vmpi_waitany(n, reqs, index, st);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Waitany", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Testany)
int PMPI_Testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS && !(err = vmpi_chk_ptr(&ck, index, "index")) && !(err = vmpi_chk_ptr(&ck, flag, "flag")))
        err = vmpi_testany(n, reqs, index, flag, st);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Testany", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Waitsome)
int PMPI_Waitsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *sts)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS && !(err = vmpi_chk_ptr(&ck, outcount, "outcount")) &&
        !(err = vmpi_chk_ptr(&ck, n ? indices : (int *)1, "indices")))
        err = vmpi_waitsome(n, reqs, outcount, indices, sts);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Waitsome", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Testsome)
int PMPI_Testsome(int n, MPI_Request *reqs, int *outcount, int *indices, MPI_Status *sts)
{
    VMPI_CHK(ck);
    int err = check_array(&ck, n, reqs);
    if (err == MPI_SUCCESS && !(err = vmpi_chk_ptr(&ck, outcount, "outcount")) &&
        !(err = vmpi_chk_ptr(&ck, n ? indices : (int *)1, "indices")))
        err = vmpi_testsome(n, reqs, outcount, indices, sts);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Testsome", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Request_free)
int PMPI_Request_free(MPI_Request *req)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_req(&ck, *req, false)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_free", &ck);
    return vmpi_request_free(req);
}

/* Whether request `req` (checked) is complete, its status into *st when it is; an inactive request (null, or
 * persistent and not started) is complete with an empty status.  No progress is made here. */
/* The request behind `req` when it is active (not null, and started if persistent), else NULL. */
static vmpi_mreq *active_mreq(MPI_Request req)
{
    vmpi_mreq *m = req == MPI_REQUEST_NULL ? NULL : vmpi_mreq_get(req);
    return m && !(m->persistent && !m->active) ? m : NULL;
}

static int peek_status(MPI_Request req, int *flag, MPI_Status *st, bool *active)
{
    vmpi_mreq *m = active_mreq(req);
    *active = m != NULL;
    if (!*active) {
        *flag = 1;
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    *flag = vmpi_mreq_done(m);
    if (*flag && m->type == VMPI_MREQ_GREQ)
        return vmpi_greq_status(m, st);
    if (*flag && st != MPI_STATUS_IGNORE) {
        if (m->type == VMPI_MREQ_PROC_NULL)
            vmpi_status_nomsg(st, MPI_PROC_NULL);
        else if (m->r.kind == VMPI_REQ_RECV)
            vmpi_status_out(st, &m->r.status);
        else
            vmpi_status_send(st);
    }
    return MPI_SUCCESS;
}

/* Whether any of the active requests is complete, without progress. */
static bool any_done(int n, const MPI_Request *reqs)
{
    for (int i = 0; i < n; i++) {
        vmpi_mreq *m = active_mreq(reqs[i]);
        if (m && vmpi_mreq_done(m))
            return true;
    }
    return false;
}

VMPI_WEAK(Request_get_status)
int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err;
    bool active;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, flag, "flag")) ||
        (err = vmpi_chk_req(&ck, req, true)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status", &ck);
    if (!any_done(1, &req))
        vmpi_vp_yield();
    err = peek_status(req, flag, st, &active);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status", &ck) : MPI_SUCCESS;
}

/* The checks of the MPI-4.1 array forms: count, the array, each request (null allowed). */
static int check_reqs(vmpi_chk *ck, int n, const MPI_Request *reqs)
{
    int err;
    if ((err = vmpi_chk_ranked(ck)) || (err = vmpi_chk_count(ck, n)) ||
        (n > 0 && (err = vmpi_chk_ptr(ck, reqs, "array_of_requests"))))
        return err;
    for (int i = 0; i < n; i++)
        if ((err = vmpi_chk_req(ck, reqs[i], true)))
            return err;
    return MPI_SUCCESS;
}

VMPI_WEAK(Request_get_status_any)
int PMPI_Request_get_status_any(int n, const MPI_Request reqs[], int *index, int *flag, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err;
    if ((err = check_reqs(&ck, n, reqs)) || (err = vmpi_chk_ptr(&ck, index, "index")) ||
        (err = vmpi_chk_ptr(&ck, flag, "flag")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_any", &ck);
    if (!any_done(n, reqs))
        vmpi_vp_yield();
    bool active, some = false;
    *index = MPI_UNDEFINED;
    *flag = 0;
    for (int i = 0; i < n; i++) {
        int f;
        MPI_Status tmp;
        if ((err = peek_status(reqs[i], &f, &tmp, &active)))
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_any", &ck);
        some |= active;
        if (active && f) {
            *index = i;
            *flag = 1;
            if (st != MPI_STATUS_IGNORE)
                *st = tmp;
            return MPI_SUCCESS;
        }
    }
    if (!some) { /* no active request: flag true, index undefined, an empty status */
        *flag = 1;
        vmpi_status_empty(st);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Request_get_status_all)
int PMPI_Request_get_status_all(int n, const MPI_Request reqs[], int *flag, MPI_Status sts[])
{
    VMPI_CHK(ck);
    int err;
    if ((err = check_reqs(&ck, n, reqs)) || (err = vmpi_chk_ptr(&ck, flag, "flag")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_all", &ck);
    vmpi_vp_yield();
    bool active;
    *flag = 1;
    for (int i = 0; i < n && *flag; i++) {
        vmpi_mreq *m = active_mreq(reqs[i]);
        if (m && !vmpi_mreq_done(m))
            *flag = 0;
    }
    for (int i = 0; i < n && *flag; i++) {
        int f;
        if ((err = peek_status(reqs[i], &f, sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i], &active)))
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_all", &ck);
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Request_get_status_some)
int PMPI_Request_get_status_some(int n, const MPI_Request reqs[], int *outcount, int indices[], MPI_Status sts[])
{
    VMPI_CHK(ck);
    int err;
    if ((err = check_reqs(&ck, n, reqs)) || (err = vmpi_chk_ptr(&ck, outcount, "outcount")) ||
        (n > 0 && (err = vmpi_chk_ptr(&ck, indices, "array_of_indices"))))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_some", &ck);
    if (!any_done(n, reqs))
        vmpi_vp_yield();
    bool active, some = false;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int f;
        MPI_Status tmp;
        if ((err = peek_status(reqs[i], &f, &tmp, &active)))
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status_some", &ck);
        some |= active;
        if (active && f) {
            if (sts != MPI_STATUSES_IGNORE)
                sts[k] = tmp;
            indices[k++] = i;
        }
    }
    *outcount = some ? k : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* MPI-4.1's status accessors (the fields are public in C as well: these are for the other languages and for
 * symmetry, and check their arguments). */
#define STATUS_GET(Name, field)                                                                               \
    VMPI_WEAK(Status_get_##Name)                                                                              \
    int PMPI_Status_get_##Name(const MPI_Status *st, int *out)                                                \
    {                                                                                                         \
        VMPI_CHK(ck);                                                                                         \
        VMPI_CHK_LOCAL(ck, "MPI_Status_get_" #Name);                                                          \
        int err;                                                                                              \
        if ((err = vmpi_chk_ptr(&ck, st == MPI_STATUS_IGNORE ? NULL : st, "status")) ||                      \
            (err = vmpi_chk_ptr(&ck, out, #Name)))                                                            \
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_get_" #Name, &ck);                              \
        *out = st->field;                                                                                     \
        return MPI_SUCCESS;                                                                                   \
    }
#define STATUS_SET(Name, field)                                                                               \
    VMPI_WEAK(Status_set_##Name)                                                                              \
    int PMPI_Status_set_##Name(MPI_Status *st, int value)                                                     \
    {                                                                                                         \
        VMPI_CHK(ck);                                                                                         \
        VMPI_CHK_LOCAL(ck, "MPI_Status_set_" #Name);                                                          \
        int err;                                                                                              \
        if ((err = vmpi_chk_ptr(&ck, st == MPI_STATUS_IGNORE ? NULL : st, "status")))                        \
            return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_set_" #Name, &ck);                              \
        st->field = value;                                                                                    \
        return MPI_SUCCESS;                                                                                   \
    }
STATUS_GET(source, MPI_SOURCE)
STATUS_GET(tag, MPI_TAG)
STATUS_GET(error, MPI_ERROR)
STATUS_SET(source, MPI_SOURCE)
STATUS_SET(tag, MPI_TAG)
STATUS_SET(error, MPI_ERROR)

VMPI_WEAK(Cancel)
int PMPI_Cancel(MPI_Request *req)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_req(&ck, *req, false)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Cancel", &ck);
    const vmpi_mreq *m = vmpi_mreq_get(*req);
    if (m->type == VMPI_MREQ_COLL) { /* MPI-4.1 6.13: erroneous */
        snprintf(ck.why, sizeof ck.why, "a persistent collective request cannot be cancelled");
        return vmpi_fail(m->comm, MPI_ERR_REQUEST, "MPI_Cancel", &ck);
    }
    return vmpi_cancel(*req);
}

VMPI_WEAK(Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status *st, int *flag)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Test_cancelled");
    int err;
    if ((err = vmpi_chk_ptr(&ck, st, "status")) || (err = vmpi_chk_ptr(&ck, flag, "flag")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Test_cancelled", &ck);
    *flag = st->vmpi_cancelled;
    return MPI_SUCCESS;
}

static int status_type(vmpi_chk *ck, const MPI_Status *st, MPI_Datatype dt, const vmpi_dtype **d)
{
    int err;
    if ((err = vmpi_chk_ptr(ck, st == MPI_STATUS_IGNORE ? NULL : st, "status")) || (err = vmpi_chk_dt(ck, dt, d)))
        return err;
    return MPI_SUCCESS;
}

/* The count of a status in units of `dt` (MPI_UNDEFINED when it is not a whole number of them): the int and
 * _c forms of MPI_Get_count share it, the int one giving MPI_UNDEFINED beyond an int too. */
static int get_count(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count, const void *out, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_ptr(&ck, out, "count")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if (d->size == 0)
        *count = 0;
    else if (st->vmpi_count % d->size != 0)
        *count = MPI_UNDEFINED;
    else
        *count = st->vmpi_count / d->size;
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_count)
int PMPI_Get_count(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    MPI_Count c;
    int err = get_count(st, dt, &c, count, "MPI_Get_count");
    if (err == MPI_SUCCESS)
        *count = vmpi_count_int(c);
    return err;
}

VMPI_WEAK(Get_count_c)
int PMPI_Get_count_c(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count)
{
    return get_count(st, dt, count, count, "MPI_Get_count_c");
}

/* Basic elements of a status (MPI_Get_elements, _x and _c). */
static int get_elements(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count, const void *out, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_ptr(&ck, out, "count")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    *count = vmpi_dtype_elements(d, st->vmpi_count);
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count)
{
    return get_elements(st, dt, count, count, "MPI_Get_elements_x");
}

VMPI_WEAK(Get_elements_c)
int PMPI_Get_elements_c(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count)
{
    return get_elements(st, dt, count, count, "MPI_Get_elements_c");
}

VMPI_WEAK(Get_elements)
int PMPI_Get_elements(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    MPI_Count c;
    int err = get_elements(st, dt, &c, count, "MPI_Get_elements");
    if (err == MPI_SUCCESS)
        *count = vmpi_count_int(c);
    return err;
}

/* Sets a status's count to `count` basic elements of `dt` (what Get_elements counts back). */
static int set_elements(MPI_Status *st, MPI_Datatype dt, MPI_Count count, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_count(&ck, count)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    st->vmpi_count = vmpi_dtype_elements_bytes(d, count);
    return MPI_SUCCESS;
}

VMPI_WEAK(Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *st, MPI_Datatype dt, int count)
{
    return set_elements(st, dt, count, "MPI_Status_set_elements");
}

VMPI_WEAK(Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *st, MPI_Datatype dt, MPI_Count count)
{
    return set_elements(st, dt, count, "MPI_Status_set_elements_x");
}

VMPI_WEAK(Status_set_elements_c)
int PMPI_Status_set_elements_c(MPI_Status *st, MPI_Datatype dt, MPI_Count count)
{
    return set_elements(st, dt, count, "MPI_Status_set_elements_c");
}

VMPI_WEAK(Status_set_cancelled)
int PMPI_Status_set_cancelled(MPI_Status *st, int flag)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Status_set_cancelled");
    int err = vmpi_chk_ptr(&ck, st == MPI_STATUS_IGNORE ? NULL : st, "status");
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_set_cancelled", &ck);
    st->vmpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}

VMPI_WEAK(Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                        MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, request, "request")) ||
        (err = vmpi_greq_start(query_fn, free_fn, cancel_fn, extra_state, request)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Grequest_start", &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request)
{
    VMPI_CHK(ck);
    int err;
    vmpi_mreq *m = NULL;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_req(&ck, request, false))) {
        m = vmpi_mreq_get(request);
        if (m->type != VMPI_MREQ_GREQ || m->r.complete) {
            snprintf(ck.why, sizeof ck.why, "not an incomplete generalized request of this rank");
            err = MPI_ERR_REQUEST;
        }
    }
    if (!err)
        err = vmpi_greq_complete(m);
    return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Grequest_complete", &ck) : MPI_SUCCESS;
}
