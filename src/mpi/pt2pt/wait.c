/* SPDX-License-Identifier: BSD-3-Clause */
/* Wait and Test in all their forms.  A rank that must wait blocks its user-level thread; any completion of
 * one of its requests wakes it and it checks again.  A Test that finds nothing done yields once, so that a
 * rank polling in a loop lets the others on its PE (and the channels) run. */
#include "mpi/core/rank.h"
#include "mpi/pt2pt/wait.h"

/* Live (non-null, active) request at position i, or NULL. */
static vmpi_mreq *live(MPI_Request *reqs, int i)
{
    if (reqs[i] == MPI_REQUEST_NULL)
        return NULL;
    vmpi_mreq *m = vmpi_mreq_get(reqs[i]);
    if (m->persistent && !m->active)
        return NULL;
    return m;
}

/* The first live message request not complete yet, for the deadlock report (NULL when there is none). */
static const vmpi_req *pending(int n, MPI_Request *reqs)
{
    for (int i = 0; i < n; i++) {
        vmpi_mreq *m = live(reqs, i);
        if (m && (m->type == VMPI_MREQ_SEND || m->type == VMPI_MREQ_RECV) && !m->r.complete)
            return &m->r;
    }
    return NULL;
}

int vmpi_wait(MPI_Request *h, MPI_Status *st)
{
    if (*h == MPI_REQUEST_NULL) {
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    vmpi_mreq *m = vmpi_mreq_get(*h);
    while (!vmpi_mreq_done(m))
        vmpi_vp_block_on("MPI_Wait", pending(1, h));
    return vmpi_mreq_finish(h, st);
}

int vmpi_test(MPI_Request *h, int *flag, MPI_Status *st)
{
    if (*h == MPI_REQUEST_NULL) {
        *flag = 1;
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    vmpi_mreq *m = vmpi_mreq_get(*h);
    if (!vmpi_mreq_done(m))
        vmpi_vp_yield();
    *flag = vmpi_mreq_done(m);
    return *flag ? vmpi_mreq_finish(h, st) : MPI_SUCCESS;
}

static bool all_done(int n, MPI_Request *reqs)
{
    for (int i = 0; i < n; i++) {
        vmpi_mreq *m = live(reqs, i);
        if (m && !vmpi_mreq_done(m))
            return false;
    }
    return true;
}

/* Records error `e` of the k-th status of an array: after the first error every status gets its MPI_ERROR
 * (the call returns MPI_ERR_IN_STATUS); before it, none is touched. */
static void status_err(MPI_Status *sts, int k, int e, int *err)
{
    if (e != MPI_SUCCESS && *err == MPI_SUCCESS) {
        *err = MPI_ERR_IN_STATUS;
        for (int j = 0; sts != MPI_STATUSES_IGNORE && j < k; j++)
            sts[j].MPI_ERROR = MPI_SUCCESS;
    }
    if (*err != MPI_SUCCESS && sts != MPI_STATUSES_IGNORE)
        sts[k].MPI_ERROR = e;
}

/* Finishes every request; errors go into the statuses and make the call return MPI_ERR_IN_STATUS. */
static int finish_all(int n, MPI_Request *reqs, MPI_Status *sts)
{
    int err = MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        MPI_Status *st = sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[i];
        int e = MPI_SUCCESS;
        if (reqs[i] == MPI_REQUEST_NULL)
            vmpi_status_empty(st);
        else
            e = vmpi_mreq_finish(&reqs[i], st);
        status_err(sts, i, e, &err);
    }
    return err;
}

int vmpi_waitall(int n, MPI_Request *reqs, MPI_Status *sts)
{
    while (!all_done(n, reqs))
        vmpi_vp_block_on("MPI_Waitall", pending(n, reqs));
    return finish_all(n, reqs, sts);
}

int vmpi_testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts)
{
    if (!all_done(n, reqs))
        vmpi_vp_yield();
    *flag = all_done(n, reqs);
    return *flag ? finish_all(n, reqs, sts) : MPI_SUCCESS;
}

/* Index of the first done request, MPI_UNDEFINED if none is live, -1 if live ones are pending. */
static int first_done(int n, MPI_Request *reqs)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        vmpi_mreq *m = live(reqs, i);
        if (m == NULL)
            continue;
        any = true;
        if (vmpi_mreq_done(m))
            return i;
    }
    return any ? -1 : MPI_UNDEFINED;
}

int vmpi_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *st)
{
    int i;
    while ((i = first_done(n, reqs)) == -1)
        vmpi_vp_block_on("MPI_Waitany", pending(n, reqs));
    *index = i;
    if (i == MPI_UNDEFINED) {
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    return vmpi_mreq_finish(&reqs[i], st);
}

int vmpi_testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *st)
{
    int i = first_done(n, reqs);
    if (i == -1) {
        vmpi_vp_yield();
        i = first_done(n, reqs);
    }
    *flag = i != -1;
    *index = i == -1 ? MPI_UNDEFINED : i;
    if (i == -1)
        return MPI_SUCCESS; /* nothing completed: the status is not the call's to touch */
    if (i == MPI_UNDEFINED) {
        vmpi_status_empty(st);
        return MPI_SUCCESS;
    }
    return vmpi_mreq_finish(&reqs[i], st);
}

/* Finishes every done request; *out is their number, or MPI_UNDEFINED when none is live. */
static int some(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts)
{
    int k = 0, err = MPI_SUCCESS;
    bool any = false;
    for (int i = 0; i < n; i++) {
        vmpi_mreq *m = live(reqs, i);
        if (m == NULL)
            continue;
        any = true;
        if (!vmpi_mreq_done(m))
            continue;
        int e = vmpi_mreq_finish(&reqs[i], sts == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &sts[k]);
        status_err(sts, k, e, &err);
        idx[k++] = i;
    }
    *out = any ? k : MPI_UNDEFINED;
    return err;
}

int vmpi_waitsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts)
{
    while (first_done(n, reqs) == -1)
        vmpi_vp_block_on("MPI_Waitsome", pending(n, reqs));
    return some(n, reqs, out, idx, sts);
}

int vmpi_testsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts)
{
    if (first_done(n, reqs) == -1)
        vmpi_vp_yield();
    return some(n, reqs, out, idx, sts);
}
