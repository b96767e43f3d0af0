/* SPDX-License-Identifier: BSD-3-Clause */
/* The transports of a job: the active-message table they share, and which PEs form which process. */
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/tunables.h"
#include "xport/chan.h"
#include "xport/emul.h"
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
    vmpi_chan_init(npes, vmpi_cfg.channel_size);
    if (nprocs > 1)
        vmpi_xport_emul_init(nprocs);
}

void vmpi_xport_fini(void)
{
    vmpi_xport_emul_fini();
    vmpi_chan_fini();
    free(vmpi_xport_procs_.proc_of_pe);
    free(vmpi_xport_procs_.first_pe);
    vmpi_xport_procs_ = (vmpi_xport_procs){0};
    nam = 0;
}

vmpi_xport *vmpi_xport_remote(int pe)
{
    return vmpi_xport_procs_.nprocs > 1 ? vmpi_xport_emul() : NULL;
}
