/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives on intercommunicators (arguments already checked), blocking (req == NULL) or not (*req
 * becomes the request).  Each group combines or spreads data within itself (over the internal
 * intracommunicator, c->local) and the two groups meet at their rank 0; data crosses once, between the
 * leaders (all-to-all and the v/w forms: directly between the pairs).  `root` follows MPI: MPI_ROOT at the
 * root, MPI_PROC_NULL at the other ranks of its group, the root's rank in the remote group at the
 * receiving group. */
#ifndef VMPI_MPI_COLL_INTER_H
#define VMPI_MPI_COLL_INTER_H

#include <mpi.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"
#include "mpi/core/ivec.h"

int vmpi_inter_barrier(vmpi_comm *c, MPI_Request *req);
int vmpi_inter_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                      MPI_Op op, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_allreduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                         MPI_Op op, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_gather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_scatter(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, int root, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                         const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req);
int vmpi_inter_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                        const vmpi_dtype *rdt, vmpi_comm *c, MPI_Request *req);

/* Reduce_scatter(_block): the other group's vectors, reduced, are scattered over this group by `rcounts`
 * (this group's counts, one per local rank). */
int vmpi_inter_reduce_scatter(const void *sbuf, void *rbuf, vmpi_ivec rcounts, const vmpi_dtype *dt,
                              MPI_Datatype dth, MPI_Op op, vmpi_comm *c, MPI_Request *req);

/* One block of a pairwise exchange: (buffer, count, type) to or from rank `peer` of the other group. */
typedef struct vmpi_inter_blk {
    void *buf;
    MPI_Count count;
    const vmpi_dtype *dt;
    int peer;
} vmpi_inter_blk;

/* Sends and receives every block at once (the v and w forms of gather, scatter, allgather, alltoall). */
int vmpi_inter_pairs(vmpi_comm *c, int ns, const vmpi_inter_blk *sb, int nr, const vmpi_inter_blk *rb,
                     MPI_Request *req);

#endif
