/* SPDX-License-Identifier: BSD-3-Clause */
/* The transports of a job: the active-message table they share, and which PEs form which process. */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/tunables.h"
#include "xport/chan.h"
#include "xport/emul.h"
#include "xport/netjob.h"
#include "xport/procs.h"
#include "xport/xport.h"

vmpi_xport_am_fn vmpi_xport_am_table[VMPI_XPORT_MAX_AM];
static uint32_t nam;

uint32_t vmpi_xport_am_register(vmpi_xport_am_fn fn)
{
    vmpi_assert(nam < VMPI_XPORT_MAX_AM);
    vmpi_xport_am_table[nam] = fn;
    return nam++;
}

vmpi_xport_procs vmpi_xport_procs_;

void vmpi_xport_pack_copy(void *dst, size_t len, void *arg) { memcpy(dst, arg, len); }

void vmpi_xport_pack_hdr_data(void *dst, size_t len, void *arg)
{
    const vmpi_xport_hdr_data *m = arg;
    memcpy(dst, m->hdr, m->hlen);
    if (len > m->hlen)
        memcpy((char *)dst + m->hlen, m->data, len - m->hlen);
}

static struct {
    void *bytes;
    size_t len;
} geometry;

void vmpi_xport_set_geometry(const void *bytes, size_t len)
{
    free(geometry.bytes);
    geometry.bytes = malloc(len);
    if (geometry.bytes == NULL)
        vmpi_fatal("out of memory");
    memcpy(geometry.bytes, bytes, len);
    geometry.len = len;
}

void vmpi_xport_init(int npes, int nprocs)
{
    vmpi_xport_procs *P = &vmpi_xport_procs_;
    P->nprocs = nprocs;
    P->npes = npes;
    P->proc_of_pe = malloc(sizeof(int) * (size_t)npes);
    P->first_pe = malloc(sizeof(int) * (size_t)(nprocs + 1));
    if (P->proc_of_pe == NULL || P->first_pe == NULL)
        vmpi_fatal("out of memory for the layout of %d PEs", npes);
    /* process k hosts PEs [k * npes / nprocs, (k + 1) * npes / nprocs) */
    for (int k = 0; k <= nprocs; k++)
        P->first_pe[k] = (int)((long)k * npes / nprocs);
    for (int k = 0; k < nprocs; k++)
        for (int p = P->first_pe[k]; p < P->first_pe[k + 1]; p++)
            P->proc_of_pe[p] = k;
    const vmpi_net_job *job = vmpi_xport_net_job();
    if (job && job->nprocs > 1) { /* this process's block of PEs, the others' over the network */
        int k = job->self, first = P->first_pe[k], n = P->first_pe[k + 1] - first;
        vmpi_chan_init(first, n, vmpi_cfg.channel_size);
        vmpi_xport_net_start(first, n, npes, geometry.bytes, geometry.len);
        return;
    }
    vmpi_chan_init(0, npes, vmpi_cfg.channel_size);
    if (nprocs > 1)
        vmpi_xport_emul_init(nprocs);
}

void vmpi_xport_fini(void)
{
    vmpi_xport_net_finish();
    vmpi_xport_emul_fini();
    vmpi_chan_fini();
    free(vmpi_xport_procs_.proc_of_pe);
    free(vmpi_xport_procs_.first_pe);
    vmpi_xport_procs_ = (vmpi_xport_procs){0};
    nam = 0;
}

vmpi_xport *vmpi_xport_remote(int pe)
{
    vmpi_xport *net = vmpi_xport_net();
    if (net)
        return net;
    return vmpi_xport_procs_.nprocs > 1 ? vmpi_xport_emul() : NULL;
}

vmpi_xport_counts vmpi_xport_remote_counts(void)
{
    if (vmpi_xport_net())
        return vmpi_xport_net_counts();
    return vmpi_xport_procs_.nprocs > 1 ? vmpi_xport_emul_counts() : (vmpi_xport_counts){0};
}
