/* SPDX-License-Identifier: BSD-3-Clause */
/* Completion, request and status functions: the implementations behind the generated entry points
 * (<build>/gen/binding/request_entry.c, from src/binding/spec/request.toml), which check the arguments (each
 * request of an array MPI_REQUEST_NULL or valid), resolve the handles and report the errors these return. */
#include "binding/impl.h"
#include "mpi/core/greq.h"
#include "mpi/pt2pt/pt2pt.h"
#include "mpi/pt2pt/wait.h"

int vmpi_b_Wait(MPI_Request *request, MPI_Status *status) { return vmpi_wait(request, status); }

int vmpi_b_Test(MPI_Request *request, int *flag, MPI_Status *status) { return vmpi_test(request, flag, status); }

int vmpi_b_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    return vmpi_waitall(count, array_of_requests, array_of_statuses);
}

int vmpi_b_Testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[])
{
    return vmpi_testall(count, array_of_requests, flag, array_of_statuses);
}

int vmpi_b_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    return vmpi_waitany(count, array_of_requests, index, status);
}

int vmpi_b_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status)
{
    return vmpi_testany(count, array_of_requests, index, flag, status);
}

int vmpi_b_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                    MPI_Status array_of_statuses[])
{
    return vmpi_waitsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int vmpi_b_Testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
                    MPI_Status array_of_statuses[])
{
    return vmpi_testsome(incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int vmpi_b_Request_free(MPI_Request *request) { return vmpi_request_free(request); }

int vmpi_b_Cancel(MPI_Request *request, vmpi_chk *ck)
{
    const vmpi_mreq *m = vmpi_mreq_get(*request);
    if (m->type == VMPI_MREQ_COLL) { /* MPI-4.1 6.13: erroneous */
        snprintf(ck->why, sizeof ck->why, "a persistent collective request cannot be cancelled");
        return vmpi_fail(m->comm, MPI_ERR_REQUEST, "MPI_Cancel", ck);
    }
    return vmpi_cancel(*request);
}

int vmpi_b_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                          MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request)
{
    return vmpi_greq_start(query_fn, free_fn, cancel_fn, extra_state, request);
}

int vmpi_b_Grequest_complete(MPI_Request request, vmpi_chk *ck)
{
    vmpi_mreq *m = vmpi_mreq_get(request);
    if (m->type != VMPI_MREQ_GREQ || m->r.complete) {
        snprintf(ck->why, sizeof ck->why, "not an incomplete generalized request of this rank");
        return MPI_ERR_REQUEST;
    }
    return vmpi_greq_complete(m);
}

/* ---- MPI_Request_get_status*: completion without freeing ---- */

/* The request behind `req` when it is active (not null, and started if persistent), else NULL. */
static vmpi_mreq *active_mreq(MPI_Request req)
{
    vmpi_mreq *m = req == MPI_REQUEST_NULL ? NULL : vmpi_mreq_get(req);
    return m && !(m->persistent && !m->active) ? m : NULL;
}

/* Whether request `req` (checked) is complete, its status into *st when it is; an inactive request (null, or
 * persistent and not started) is complete with an empty status.  No progress is made here. */
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

int vmpi_b_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    bool active;
    if (!any_done(1, &request))
        vmpi_vp_yield();
    return peek_status(request, flag, status, &active);
}

int vmpi_b_Request_get_status_any(int count, const MPI_Request array_of_requests[], int *index, int *flag,
                                  MPI_Status *status)
{
    if (!any_done(count, array_of_requests))
        vmpi_vp_yield();
    bool active, some = false;
    *index = MPI_UNDEFINED;
    *flag = 0;
    for (int i = 0; i < count; i++) {
        int f, err;
        MPI_Status tmp;
        if ((err = peek_status(array_of_requests[i], &f, &tmp, &active)))
            return err;
        some |= active;
        if (active && f) {
            *index = i;
            *flag = 1;
            if (status != MPI_STATUS_IGNORE)
                *status = tmp;
            return MPI_SUCCESS;
        }
    }
    if (!some) { /* no active request: flag true, index undefined, an empty status */
        *flag = 1;
        vmpi_status_empty(status);
    }
    return MPI_SUCCESS;
}

int vmpi_b_Request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                                  MPI_Status array_of_statuses[])
{
    vmpi_vp_yield();
    bool active;
    *flag = 1;
    for (int i = 0; i < count && *flag; i++) {
        vmpi_mreq *m = active_mreq(array_of_requests[i]);
        if (m && !vmpi_mreq_done(m))
            *flag = 0;
    }
    for (int i = 0; i < count && *flag; i++) {
        int f, err;
        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
        if ((err = peek_status(array_of_requests[i], &f, st, &active)))
            return err;
    }
    return MPI_SUCCESS;
}

int vmpi_b_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                                   int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (!any_done(incount, array_of_requests))
        vmpi_vp_yield();
    bool active, some = false;
    int k = 0;
    for (int i = 0; i < incount; i++) {
        int f, err;
        MPI_Status tmp;
        if ((err = peek_status(array_of_requests[i], &f, &tmp, &active)))
            return err;
        some |= active;
        if (active && f) {
            if (array_of_statuses != MPI_STATUSES_IGNORE)
                array_of_statuses[k] = tmp;
            array_of_indices[k++] = i;
        }
    }
    *outcount = some ? k : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---- statuses ---- */

/* MPI-4.1's status accessors (the fields are public in C as well: these are for the other languages and for
 * symmetry). */
int vmpi_b_Status_get_source(const MPI_Status *status, int *source)
{
    *source = status->MPI_SOURCE;
    return MPI_SUCCESS;
}

int vmpi_b_Status_get_tag(const MPI_Status *status, int *tag)
{
    *tag = status->MPI_TAG;
    return MPI_SUCCESS;
}

int vmpi_b_Status_get_error(const MPI_Status *status, int *err)
{
    *err = status->MPI_ERROR;
    return MPI_SUCCESS;
}

int vmpi_b_Status_set_source(MPI_Status *status, int source)
{
    status->MPI_SOURCE = source;
    return MPI_SUCCESS;
}

int vmpi_b_Status_set_tag(MPI_Status *status, int tag)
{
    status->MPI_TAG = tag;
    return MPI_SUCCESS;
}

int vmpi_b_Status_set_error(MPI_Status *status, int err)
{
    status->MPI_ERROR = err;
    return MPI_SUCCESS;
}

int vmpi_b_Test_cancelled(const MPI_Status *status, int *flag)
{
    *flag = status->vmpi_cancelled;
    return MPI_SUCCESS;
}

int vmpi_b_Status_set_cancelled(MPI_Status *status, int flag)
{
    status->vmpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/* The count of a status in units of `datatype` (MPI_UNDEFINED when it is not a whole number of them; the int
 * form's entry point gives MPI_UNDEFINED beyond an int too). */
int vmpi_b_Get_count(const MPI_Status *status, const vmpi_dtype *datatype, MPI_Count *count)
{
    if (datatype->size == 0)
        *count = 0;
    else if (status->vmpi_count % datatype->size != 0)
        *count = MPI_UNDEFINED;
    else
        *count = status->vmpi_count / datatype->size;
    return MPI_SUCCESS;
}

/* Basic elements of a status (MPI_Get_elements, _x and _c). */
int vmpi_b_Get_elements(const MPI_Status *status, const vmpi_dtype *datatype, MPI_Count *count)
{
    *count = vmpi_dtype_elements(datatype, status->vmpi_count);
    return MPI_SUCCESS;
}

int vmpi_b_Get_elements_x(const MPI_Status *status, const vmpi_dtype *datatype, MPI_Count *count)
{
    return vmpi_b_Get_elements(status, datatype, count);
}

/* Sets a status's count to `count` basic elements of `datatype` (what MPI_Get_elements counts back). */
int vmpi_b_Status_set_elements(MPI_Status *status, const vmpi_dtype *datatype, MPI_Count count)
{
    status->vmpi_count = vmpi_dtype_elements_bytes(datatype, count);
    return MPI_SUCCESS;
}

int vmpi_b_Status_set_elements_x(MPI_Status *status, const vmpi_dtype *datatype, MPI_Count count)
{
    return vmpi_b_Status_set_elements(status, datatype, count);
}
