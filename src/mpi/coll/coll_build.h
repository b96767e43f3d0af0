/* SPDX-License-Identifier: BSD-3-Clause */
/* Schedule builders shared by several collectives (a composite collective appends them in sequence). */
#ifndef VMPI_MPI_COLL_BUILD_H
#define VMPI_MPI_COLL_BUILD_H

#include "mpi/coll/csched.h"
#include "mpi/core/ivec.h"

/* Empty messages up a binomial tree to rank 0: rank 0 ends it once every rank has started it. */
void vmpi_build_fanin(vmpi_csched *s, int n, int rank);
void vmpi_build_bcast(vmpi_csched *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int root, int n, int rank);
void vmpi_build_scatterv(vmpi_csched *s, const void *sbuf, vmpi_ivec scounts, vmpi_ivec displs,
                         const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount, const vmpi_dtype *rdt, int root, int n,
                         int rank);
void vmpi_build_gatherv(vmpi_csched *s, const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf,
                        vmpi_ivec rcounts, vmpi_ivec displs, const vmpi_dtype *rdt, int root, int n, int rank);
/* The reduction of every rank's `sbuf` into `rbuf` at `root`, in rank order. */
void vmpi_build_reduce(vmpi_csched *s, const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt,
                       MPI_Datatype dth, MPI_Op op, int root, int n, int rank);

#endif
