/* SPDX-License-Identifier: BSD-3-Clause */
/* Blocking collectives of a communicator whose ranks live in several processes (span.h): shared memory
 * inside each process, messages between one leader per process.  No process reads another's memory.
 *
 * Each rank keeps, in its communicator (coll_hier), a "node" communicator over the ranks of its own
 * process (same context, ranks in the order of the parent's), whose shared-memory object (shm.h) holds only
 * them.  A process's leader is its lowest rank.  Leaders exchange messages on the parent's collective
 * context with negative tags (as comm/ internals do): through the remote transport, as any message
 * between processes.
 * Every leader message starts with a header (step, size, error): sizes that differ (an erroneous program)
 * fail the ranks the one-process path fails, and an error travels on in the headers so that no rank waits
 * for data that will not come.
 *   - barrier: node barrier, a dissemination barrier among the leaders, node barrier;
 *   - bcast: the root sends to the other processes' leaders down a binomial tree over the processes (the
 *     root stands for its process's leader), then each process broadcasts on its node communicator;
 *   - reduce/allreduce: when the operation's bits do not depend on the grouping (vmpi_op_reassociable),
 *     each process reduces on its node communicator and the root folds the processes' partial results;
 *     otherwise each process's stand-in collects its ranks' operands (after a node reduction of no data,
 *     which compares kinds) and the root folds them all in rank order, right to left, as the shared-memory
 *     path does: results have the same bits whatever the placement.  Allreduce over up to 64 processes:
 *     the leaders gather every contribution by recursive doubling and each folds them in that same order
 *     (log2(processes) message latencies); over more, a reduce to rank 0 and a broadcast that carries the
 *     reduction's error.
 * Allgather and alltoall go through schedules (csched.h). */
#ifndef VMPI_MPI_COLL_HIER_H
#define VMPI_MPI_COLL_HIER_H

#include <mpi.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"

int vmpi_hier_barrier(vmpi_comm *c);
int vmpi_hier_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c);
/* root < 0: allreduce.  sbuf is never MPI_IN_PLACE here. */
int vmpi_hier_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                     MPI_Op op, int root, vmpi_comm *c);
/* The calling rank frees `c`: its node communicator and that one's shared state. */
void vmpi_hier_release(vmpi_comm *c);

#endif
