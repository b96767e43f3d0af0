/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether a communicator's ranks live in more than one process.  Such a communicator's blocking collectives
 * may not share memory across its processes: they run hierarchically (hier.h) or as schedules (csched.h).
 * The answer is cached in the rank's communicator (ranks move only within their process, so it never
 * changes); a one-process job never looks. */
#ifndef VMPI_MPI_COLL_SPAN_H
#define VMPI_MPI_COLL_SPAN_H

#include <stdbool.h>
#include "base/compiler.h"
#include "mpi/core/comm.h"
#include "xport/procs.h"

enum { VMPI_SPAN_UNKNOWN = 0, VMPI_SPAN_ONE = 1, VMPI_SPAN_MANY = 2 };

/* Computes and caches c->coll_span. */
bool vmpi_coll_span_compute(vmpi_comm *c);

static inline bool vmpi_coll_spans(vmpi_comm *c)
{
    if (VMPI_LIKELY(vmpi_xport_nprocs() == 1))
        return false;
    if (VMPI_LIKELY(c->coll_span != VMPI_SPAN_UNKNOWN))
        return c->coll_span == VMPI_SPAN_MANY;
    return vmpi_coll_span_compute(c);
}

#endif
