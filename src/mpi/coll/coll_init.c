/* SPDX-License-Identifier: BSD-3-Clause */
/* The collectives' per-communicator state (the shared-memory groups, shm.c; the per-process communicators
 * of the hierarchical collectives, hier.c) is released with the communicator through a hook of core's
 * (vmpi_comm_on_release). */
#include "mpi/coll/coll.h"
#include "mpi/coll/hier.h"
#include "mpi/coll/shm.h"

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
