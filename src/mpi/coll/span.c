/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/coll/span.h"

#include "msg/loc.h"

/* O(size) once per communicator and rank, and only in a job of several processes. */
bool vmpi_coll_span_compute(vmpi_comm *c)
{
    int w0 = vmpi_comm_world_rank(c, 0);
    bool many = false;
    for (int r = 1; r < c->size && !many; r++)
        many = !vmpi_loc_same_proc(w0, vmpi_comm_world_rank(c, r));
    c->coll_span = many ? VMPI_SPAN_MANY : VMPI_SPAN_ONE;
    return many;
}
