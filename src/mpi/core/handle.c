/* SPDX-License-Identifier: BSD-3-Clause */
/* Handle indices unique in the job (handle.h). */
#include "mpi/core/handle.h"

#include "xport/netjob.h"

int vmpi_handle_seq_take(vmpi_handle_seq *s, int limit)
{
    const vmpi_net_job *j = vmpi_xport_net_job(); /* real processes: the emulated mode's share one table */
    int k = j && j->nprocs > 1 ? j->nprocs : 1, p = k > 1 ? j->self : 0;
    long idx = (long)s->base + (long)s->next * k + p;
    if (idx >= limit)
        return -1;
    s->next++;
    vmpi_handle_seq_saw(s, (int)idx);
    return (int)idx;
}

void vmpi_handle_seq_rebase(vmpi_handle_seq *s, int above)
{
    if (above >= s->base)
        s->base = above + 1;
    s->next = 0;
    if (s->top < s->base - 1)
        s->top = s->base - 1;
}
