/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives over point-to-point on the communicator's private context (ctx + 1).  Reductions combine in
 * rank order wherever the algorithm allows, so non-commutative operations can reuse them. */
#ifndef VMPI_MPI_COLL_H
#define VMPI_MPI_COLL_H

#include <mpi.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"

int vmpi_barrier(vmpi_comm *c);
int vmpi_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c);
/* `sbuf` is never MPI_IN_PLACE here: the binding layer resolves it. */
int vmpi_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Op op, int root,
                vmpi_comm *c);
int vmpi_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Op op, vmpi_comm *c);

#endif
