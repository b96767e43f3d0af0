/* SPDX-License-Identifier: BSD-3-Clause */
/* The persistent collectives' entry points (MPI_Bcast_init...: MPI-4.1 6.13, 7.8) are their nonblocking
 * forms' checks and schedule builders run with vmpi_cs_persist on (mpi/coll/csched.h): the schedule is built
 * once, here, and each MPI_Start runs it again.  MPI_Start, MPI_Startall, MPI_Wait/Test and MPI_Request_free
 * take the request like any persistent request. */
#ifndef VMPI_BINDING_PERSIST_H
#define VMPI_BINDING_PERSIST_H

#include "base/log.h"
#include "binding/check.h"
#include "mpi/coll/csched.h"

/* Before the nonblocking form: the caller is a rank and `info` is MPI_INFO_NULL or an info object (vmpi takes
 * no hint from it).  MPI_SUCCESS, or the error as the communicator's handler reports it. */
static inline int vmpi_persist_begin(MPI_Comm comm, MPI_Info info, const char *fn)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (info != MPI_INFO_NULL && (err = vmpi_chk_info(&ck, info))))
        return vmpi_fail(comm, err, fn, &ck);
    vmpi_cs_persist(true);
    return MPI_SUCCESS;
}

/* After it, with its result: the flag is off again (the form failed before building), and a success must
 * have taken it (every nonblocking collective's request is a schedule's). */
static inline int vmpi_persist_end(int err, const char *fn)
{
    if (vmpi_cs_persist(false) && err == MPI_SUCCESS)
        vmpi_fatal("%s: internal error: the collective made no schedule", fn);
    return err;
}

/* The persistent entry point's body: `call` is the nonblocking form's checking function. */
#define VMPI_PERSIST(comm, info, fn, call)                                                                    \
    do {                                                                                                      \
        int err_ = vmpi_persist_begin(comm, info, fn);                                                        \
        return err_ ? err_ : vmpi_persist_end(call, fn);                                                      \
    } while (0)

#endif
