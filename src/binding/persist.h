/* SPDX-License-Identifier: BSD-3-Clause */
/* The persistent collectives' entry points (MPI_Bcast_init...: MPI-4.1 6.13, 7.8), generated (spec `persistent`),
 * call their operation's implementation with vmpi_cs_persist on (mpi/coll/csched.h): the schedule the
 * nonblocking form builds is built once, here, and each MPI_Start runs it again.  MPI_Start, MPI_Startall,
 * MPI_Wait/Test and MPI_Request_free take the request like any persistent request. */
#ifndef VMPI_BINDING_PERSIST_H
#define VMPI_BINDING_PERSIST_H

#include "base/log.h"
#include "mpi/coll/csched.h"

/* After the call, with its result: the flag is off again (the call failed before building), and a success must
 * have taken it (every nonblocking collective's request is a schedule's). */
static inline int vmpi_persist_end(int err, const char *fn)
{
    if (vmpi_cs_persist(false) && err == MPI_SUCCESS)
        vmpi_fatal("%s: internal error: the collective made no schedule", fn);
    return err;
}

/* The persistent entry point's call of the implementation (`call`, evaluated after the flag is set). */
#define VMPI_PERSISTENT(call, fn) vmpi_persist_end((vmpi_cs_persist(true), (call)), fn)

#endif
