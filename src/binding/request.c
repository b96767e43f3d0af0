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

VMPI_WEAK(Request_get_status)
int PMPI_Request_get_status(MPI_Request req, int *flag, MPI_Status *st)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, flag, "flag")) ||
        (err = vmpi_chk_req(&ck, req, true)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status", &ck);
    if (req == MPI_REQUEST_NULL) {
        *flag = 1;
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    vmpi_mreq *m = vmpi_mreq_get(req);
    if (!vmpi_mreq_done(m))
        vmpi_vp_yield();
    *flag = vmpi_mreq_done(m);
    if (*flag && m->type == VMPI_MREQ_GREQ) {
        err = vmpi_greq_status(m, st);
        return err ? vmpi_fail(MPI_COMM_WORLD, err, "MPI_Request_get_status", &ck) : MPI_SUCCESS;
    }
    if (*flag && st != MPI_STATUS_IGNORE) {
        if (m->type == VMPI_MREQ_PROC_NULL) {
            vmpi_status_nomsg(st, MPI_PROC_NULL);
        } else if (m->persistent && !m->active) {
            vmpi_status_empty(st);
        } else if (m->r.kind == VMPI_REQ_RECV) {
            vmpi_status_out(st, &m->r.status);
        } else {
            vmpi_status_nomsg(st, MPI_ANY_SOURCE); /* a send */
        }
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Cancel)
int PMPI_Cancel(MPI_Request *req)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, req, "request pointer")) ||
        (err = vmpi_chk_req(&ck, *req, false)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Cancel", &ck);
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

VMPI_WEAK(Get_count)
int PMPI_Get_count(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Get_count");
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_ptr(&ck, count, "count")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Get_count", &ck);
    if (d->size == 0)
        *count = 0;
    else if (st->vmpi_count % d->size != 0 || st->vmpi_count / d->size > INT_MAX)
        *count = MPI_UNDEFINED;
    else
        *count = (int)(st->vmpi_count / d->size);
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_elements_x)
int PMPI_Get_elements_x(const MPI_Status *st, MPI_Datatype dt, MPI_Count *count)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Get_elements_x");
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_ptr(&ck, count, "count")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Get_elements_x", &ck);
    *count = vmpi_dtype_elements(d, st->vmpi_count);
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_elements)
int PMPI_Get_elements(const MPI_Status *st, MPI_Datatype dt, int *count)
{
    MPI_Count c;
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Get_elements");
    int err = vmpi_chk_ptr(&ck, count, "count");
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Get_elements", &ck);
    if ((err = PMPI_Get_elements_x(st, dt, &c)) != MPI_SUCCESS)
        return err;
    *count = c > INT_MAX ? MPI_UNDEFINED : (int)c;
    return MPI_SUCCESS;
}

VMPI_WEAK(Status_set_elements)
int PMPI_Status_set_elements(MPI_Status *st, MPI_Datatype dt, int count)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Status_set_elements");
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_count(&ck, count)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_set_elements", &ck);
    st->vmpi_count = vmpi_dtype_elements_bytes(d, count); /* what Get_elements will count back */
    return MPI_SUCCESS;
}

VMPI_WEAK(Status_set_elements_x)
int PMPI_Status_set_elements_x(MPI_Status *st, MPI_Datatype dt, MPI_Count count)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Status_set_elements_x");
    const vmpi_dtype *d;
    int err;
    if ((err = status_type(&ck, st, dt, &d)) || (err = vmpi_chk_count(&ck, count)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Status_set_elements_x", &ck);
    st->vmpi_count = vmpi_dtype_elements_bytes(d, count);
    return MPI_SUCCESS;
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
