/* SPDX-License-Identifier: BSD-3-Clause */
/* The network plugin's entry: the table libvmpi loads (xport/net.h). */
#include "net/net_int.h"

const vmpi_net_host *vmpi_net_host_;

static void start(int first, int npes, int job_npes, const void *geometry, size_t glen);
static vmpi_net_job the_job;

static bool open_job(vmpi_net_job *job, char *why, size_t n)
{
    if (!vmpi_wire_open(job, why, n))
        return false;
    the_job = *job;
    return true;
}

static void start(int first, int npes, int job_npes, const void *geometry, size_t glen)
{
    vmpi_ucx_start(first, npes, job_npes, &the_job, geometry, glen);
}

static void finish(void)
{
    vmpi_ucx_finish();
    vmpi_wire_close();
}

static const vmpi_net net = {
    .abi = VMPI_NET_ABI,
    .open = open_job,
    .start = start,
    .xport = &vmpi_ucx_xport,
    .node_of = vmpi_ucx_node_of,
    .poll = vmpi_ucx_poll,
    .ready = vmpi_ucx_ready,
    .backlog = vmpi_ucx_backlog,
    .work = vmpi_ucx_work,
    .in_flight = vmpi_ucx_in_flight,
    .idle = vmpi_ucx_idle,
    .sleep = vmpi_ucx_sleep,
    .wake = vmpi_ucx_wake,
    .local_done = vmpi_ucx_local_done,
    .finish = finish,
    .abort = vmpi_wire_abort,
    .counts = vmpi_ucx_counts,
    .traffic = vmpi_ucx_traffic,
    .allgather = vmpi_wire_allgather,
    .allgather_nb = vmpi_wire_allgather_nb,
    .allgather_get = vmpi_wire_allgather_get,
    .hold = vmpi_ucx_hold,
    .bulk = vmpi_bulk,
};

__attribute__((visibility("default"))) const vmpi_net *vmpi_net_plugin(const vmpi_net_host *host)
{
    if (host->abi != VMPI_NET_ABI)
        return NULL;
    vmpi_net_host_ = host;
    return &net;
}
