/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective operations on intracommunicators, arguments already checked by the binding.  Nonblocking
 * ones (req != NULL) build a schedule (csched.h) and return it as a request in *req; blocking barrier,
 * bcast, reduce, allreduce, allgather and alltoall (not in place) take the shared-memory path (shm.h), the
 * other blocking ones build a schedule and wait for it.  Send
 * buffers may be MPI_IN_PLACE where MPI-3.1 allows it.  Reductions combine in rank order (operand of the
 * lower rank first) whatever the root, so non-commutative operations get the order the standard requires;
 * for a given communicator size the combination order is fixed, so results are reproducible. */
#ifndef VMPI_MPI_COLL_H
#define VMPI_MPI_COLL_H

#include <mpi.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"
#include "mpi/core/ivec.h"

/* At boot: registers the release of a communicator's collective state with core. */
void vmpi_coll_init(void);
/* A restart on another number of processes: what a communicator cached of the processes of the checkpoint
 * (its shared-memory object, whether it spans processes, its node communicator) is dropped, to be made again
 * for this job's at its next collective; after vmpi_shm_forget_all. */
void vmpi_coll_forget_places(vmpi_comm *c);

int vmpi_coll_barrier(vmpi_comm *c, MPI_Request *req);
int vmpi_coll_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c, MPI_Request *req);

int vmpi_coll_gather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                     const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_gatherv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, vmpi_ivec rcounts,
                      vmpi_ivec displs, const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_scatter(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_scatterv(const void *sbuf, vmpi_ivec scounts, vmpi_ivec displs, const vmpi_dtype *sdt, void *rbuf,
                       MPI_Count rcount, const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_allgatherv(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, vmpi_ivec rcounts,
                         vmpi_ivec displs, const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req);
/* Alltoallw in general: per-peer counts, byte displacements and types (the other forms map onto it). */
int vmpi_coll_alltoallw(const void *sbuf, vmpi_ivec scounts, const MPI_Aint *sdispls, const vmpi_dtype *const *sdts,
                        void *rbuf, vmpi_ivec rcounts, const MPI_Aint *rdispls, const vmpi_dtype *const *rdts,
                        vmpi_comm *c, MPI_Request *req);
int vmpi_coll_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req);

/* Reductions: `dth` is the datatype's handle (for user functions). */
int vmpi_coll_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                     MPI_Op op, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                        MPI_Op op, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_reduce_scatter(const void *sbuf, void *rbuf, vmpi_ivec rcounts, const vmpi_dtype *dt,
                             MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_reduce_scatter_block(const void *sbuf, void *rbuf, MPI_Count rcount, const vmpi_dtype *dt,
                                   MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req);
int vmpi_coll_scan(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth, MPI_Op op,
                   bool exclusive, vmpi_comm *c, MPI_Request *req);

#endif
