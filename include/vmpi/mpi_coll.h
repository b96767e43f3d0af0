/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): collective operations and reduction operations. */
#ifndef VMPI_API_MPI_COLL_H
#define VMPI_API_MPI_COLL_H

VMPI_DECL(int, Barrier, (MPI_Comm comm))
VMPI_DECL(int, Bcast, (void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm))
VMPI_DECL(int, Reduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op, int root,
                        MPI_Comm comm))
VMPI_DECL(int, Allreduce, (const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                           MPI_Comm comm))

#endif
