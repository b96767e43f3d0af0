/* SPDX-License-Identifier: BSD-3-Clause */
/* Locality-aware blocking collectives.  All ranks share one address space, so a communicator gets one
 * process-wide object (looked up by its context and membership) in which each rank publishes its buffer
 * pointers.  A collective is an arrival and a release:
 *   - ranks on one PE never run at once, so they arrive on a plain per-PE counter; all but the last block;
 *     the last one (the PE's leader) combines the PE's data straight from the other ranks' buffers;
 *   - the PE leaders arrive on one atomic counter; the last combines the PEs' partial results and sends
 *     each other leader a zero-byte release message (so a waiting leader blocks like any receive: its PE
 *     may sleep and the deadlock detector still sees it);
 *   - each leader wakes the ranks of its PE, and every rank copies out what it needs.
 * An 8-byte allreduce over 64 ranks on 2 PEs thus costs 64 context switches, one atomic and one message.
 * A waiting leader first spins on the generation for a while (the release message is sent only if it
 * stopped spinning).  From 32 KiB, reductions are sliced instead: after the arrival every rank reduces
 * one slice of the elements over all ranks' buffers and writes it to its destinations, then a second
 * synchronization; small alltoall/allgather data is staged so that one synchronization suffices.
 * Broadcasts up to 2 KiB do not synchronize: the root fills the next of 64 mailboxes and leaves.  From
 * 32 KiB, each PE's leader copies its share of the bytes from the root to every rank, streaming the part
 * that cannot stay in the cache.
 * The combination order depends only on (ranks, PEs): results are reproducible.  Operands combine in rank
 * order (right to left, so no copies) when each PE holds a contiguous range of ranks or the op commutes;
 * otherwise the last leader folds every rank's buffer in rank order itself.
 * Ranks publish the size of their data with their buffers; sizes that differ (an erroneous program) make the
 * collective fail with MPI_ERR_TRUNCATE on the ranks that can tell, without reading past anyone's buffer.
 *
 * Limit: the rank-to-PE map is read when the communicator is first used (ranks do not migrate yet). */
#ifndef VMPI_MPI_COLL_SHM_H
#define VMPI_MPI_COLL_SHM_H

#include <mpi.h>
#include <stdbool.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"

/* Tags of the release messages, above every schedule tag (schedule tags are below 2^30). */
enum { VMPI_SHM_TAG = 1 << 30 };

int vmpi_shm_barrier(vmpi_comm *c);
/* The calling rank frees `c`: its shared state goes when every rank has. */
void vmpi_shm_release(vmpi_comm *c);
int vmpi_shm_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c);
/* root < 0: allreduce.  sbuf is never MPI_IN_PLACE here. */
int vmpi_shm_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                    MPI_Op op, int root, vmpi_comm *c);
/* Every rank copies its blocks straight from the others' send buffers (no MPI_IN_PLACE). */
int vmpi_shm_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, vmpi_comm *c);
/* sbuf may be MPI_IN_PLACE. */
int vmpi_shm_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, vmpi_comm *c);

/* Migration, while the world is stopped and no rank is inside a shared-memory collective: regroups every
 * communicator's ranks by the PE they live on now. */
void vmpi_shm_relocate(void);
/* A restart on another number of processes: the checkpoint's process's objects are forgotten (each
 * communicator makes its own again; vmpi_coll_forget_places drops what the ranks cached of them). */
void vmpi_shm_forget_all(void);

#endif
