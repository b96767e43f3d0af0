/* SPDX-License-Identifier: BSD-3-Clause */
/* Wire-up through PMIx, the process-management interface every launcher of the field provides (vmpirun
 * --procs, Open MPI's mpirun, Slurm's srun --mpi=pmix): the job's layout, an all-gather of the transport's
 * addresses (put, commit, fence collecting the data, get: peers learn each other's addresses only this way),
 * a fence at the end, and abort. */
#include <pmix.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "net/net_int.h"

static pmix_proc_t me, all;

/* A number PMIx has for `proc`, of whichever integer type the launcher gave it; `def` when it has none. */
static long get_num(const pmix_proc_t *proc, const char *key, long def)
{
    pmix_value_t *v = NULL;
    if (PMIx_Get(proc, key, NULL, 0, &v) != PMIX_SUCCESS || v == NULL)
        return def;
    long r = def;
    switch (v->type) {
    case PMIX_UINT8: r = v->data.uint8; break;
    case PMIX_UINT16: r = v->data.uint16; break;
    case PMIX_UINT32: r = v->data.uint32; break;
    case PMIX_UINT64: r = (long)v->data.uint64; break;
    case PMIX_INT: r = v->data.integer; break;
    case PMIX_INT32: r = v->data.int32; break;
    case PMIX_PROC_RANK: r = (long)v->data.rank; break;
    default: break;
    }
    PMIX_VALUE_RELEASE(v);
    return r;
}

bool vmpi_wire_open(vmpi_net_job *job, char *why, size_t n)
{
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (rc != PMIX_SUCCESS) {
        snprintf(why, n, "PMIx_Init failed: %s (PMIX_NAMESPACE=%s: the launcher's PMIx server is not reachable)",
                 PMIx_Error_string(rc), getenv("PMIX_NAMESPACE") ? getenv("PMIX_NAMESPACE") : "");
        return false;
    }
    PMIX_LOAD_PROCID(&all, me.nspace, PMIX_RANK_WILDCARD);
    job->self = (int)me.rank;
    job->nprocs = (int)get_num(&all, PMIX_JOB_SIZE, -1);
    if (job->nprocs < 1 || job->self >= job->nprocs) {
        snprintf(why, n, "the PMIx launcher gave no job size (%s) for process %d", PMIX_JOB_SIZE, job->self);
        return false;
    }
    job->local_size = (int)get_num(&all, PMIX_LOCAL_SIZE, job->nprocs);
    job->local_rank = (int)get_num(&me, PMIX_LOCAL_RANK, job->self);
    pmix_value_t *v = NULL;
    job->host[0] = '\0';
    if (PMIx_Get(&me, PMIX_HOSTNAME, NULL, 0, &v) == PMIX_SUCCESS && v && v->type == PMIX_STRING && v->data.string)
        snprintf(job->host, sizeof job->host, "%s", v->data.string);
    if (v)
        PMIX_VALUE_RELEASE(v);
    if (job->host[0] == '\0' && gethostname(job->host, sizeof job->host) != 0)
        snprintf(job->host, sizeof job->host, "unknown");
    /* the node: the launcher's id; without one, processes with the same host name share a node (an id from
     * the name's hash, above the launchers' small indices) */
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *c = job->host; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    job->node = (int)get_num(&me, PMIX_NODEID, (long)(0x40000000u | (h & 0x3fffffffu)));
    return true;
}

static void put(const char *key, const void *blob, size_t len)
{
    pmix_value_t v = {.type = PMIX_BYTE_OBJECT};
    v.data.bo.bytes = (char *)blob;
    v.data.bo.size = len;
    pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key, &v);
    if (rc == PMIX_SUCCESS)
        rc = PMIx_Commit();
    if (rc != PMIX_SUCCESS)
        H->fatal("process %u: publishing '%s' through PMIx failed: %s", me.rank, key, PMIx_Error_string(rc));
}

void vmpi_wire_allgather(const char *key, const void *blob, size_t len, void **out, size_t *lens)
{
    put(key, blob, len);
    pmix_info_t info;
    bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence(&all, 1, &info, 1);
    PMIX_INFO_DESTRUCT(&info);
    if (rc != PMIX_SUCCESS)
        H->fatal("process %u: a PMIx fence failed: %s", me.rank, PMIx_Error_string(rc));
    vmpi_wire_allgather_get(key, out, lens);
}

static void on_gathered(pmix_status_t status, void *cbdata)
{
    if (status != PMIX_SUCCESS)
        H->fatal("process %u: a PMIx fence failed: %s", me.rank, PMIx_Error_string(status));
    atomic_store((_Atomic int *)cbdata, 1);
}

void vmpi_wire_allgather_nb(const char *key, const void *blob, size_t len, _Atomic int *done)
{
    put(key, blob, len);
    static pmix_info_t info; /* must live until the fence completes */
    static bool collect = true;
    PMIX_INFO_LOAD(&info, PMIX_COLLECT_DATA, &collect, PMIX_BOOL);
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, &info, 1, on_gathered, (void *)done);
    if (rc == PMIX_OPERATION_SUCCEEDED)
        atomic_store(done, 1);
    else if (rc != PMIX_SUCCESS)
        H->fatal("process %u: a PMIx fence failed: %s", me.rank, PMIx_Error_string(rc));
}

void vmpi_wire_allgather_get(const char *key, void **out, size_t *lens)
{
    pmix_status_t rc;
    uint32_t nprocs = (uint32_t)get_num(&all, PMIX_JOB_SIZE, 0);
    for (uint32_t k = 0; k < nprocs; k++) {
        pmix_proc_t p;
        pmix_value_t *r = NULL;
        PMIX_LOAD_PROCID(&p, me.nspace, k);
        rc = PMIx_Get(&p, key, NULL, 0, &r);
        if (rc != PMIX_SUCCESS || r == NULL || r->type != PMIX_BYTE_OBJECT)
            H->fatal("process %u: no value of '%s' from process %u through PMIx: %s", me.rank, key, k,
                     PMIx_Error_string(rc));
        out[k] = malloc(r->data.bo.size ? r->data.bo.size : 1);
        if (out[k] == NULL)
            H->fatal("out of memory for the address of process %u", k);
        memcpy(out[k], r->data.bo.bytes, r->data.bo.size);
        lens[k] = r->data.bo.size;
        PMIX_VALUE_RELEASE(r);
    }
}

void vmpi_wire_barrier_nb(_Atomic int *done)
{
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, NULL, 0, on_gathered, (void *)done);
    if (rc == PMIX_OPERATION_SUCCEEDED)
        atomic_store(done, 1);
    else if (rc != PMIX_SUCCESS)
        H->fatal("process %u: a PMIx fence failed: %s", me.rank, PMIx_Error_string(rc));
}

static void (*fence_done)(void);

static void on_fence(pmix_status_t status, void *cbdata)
{
    (void)cbdata;
    if (status != PMIX_SUCCESS)
        H->fatal("process %u: the PMIx fence at the end of the job failed: %s", me.rank, PMIx_Error_string(status));
    fence_done();
}

void vmpi_wire_fence_nb(void (*done)(void))
{
    fence_done = done;
    pmix_status_t rc = PMIx_Fence_nb(&all, 1, NULL, 0, on_fence, NULL);
    if (rc == PMIX_OPERATION_SUCCEEDED)
        done();
    else if (rc != PMIX_SUCCESS)
        H->fatal("process %u: the PMIx fence at the end of the job failed: %s", me.rank, PMIx_Error_string(rc));
}

void vmpi_wire_abort(int status, const char *msg)
{
    PMIx_Abort(status, msg ? msg : "", NULL, 0);
}

void vmpi_wire_close(void) { PMIx_Finalize(NULL, 0); }
