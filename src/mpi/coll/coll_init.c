/* SPDX-License-Identifier: BSD-3-Clause */
/* The collectives' per-communicator state (the shared-memory groups, shm.c; the per-process communicators
 * of the hierarchical collectives, hier.c) is released with the communicator through a hook of core's
 * (vmpi_comm_on_release). */
#include "mpi/coll/coll.h"
#include "mpi/coll/hier.h"
#include "mpi/coll/shm.h"
#include "mpi/coll/span.h"

static void comm_released(vmpi_comm *c)
{
    if (c->local) {
        vmpi_hier_release(c->local);
        vmpi_shm_release(c->local);
    }
    vmpi_hier_release(c);
    vmpi_shm_release(c);
}

void vmpi_coll_init(void) { vmpi_comm_on_release(comm_released); }

void vmpi_coll_forget_places(vmpi_comm *c)
{
    comm_released(c); /* the registry is empty: only the rank's own caches go */
    c->coll_span = VMPI_SPAN_UNKNOWN;
    if (c->local)
        c->local->coll_span = VMPI_SPAN_UNKNOWN;
}
