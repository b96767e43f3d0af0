/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): communicators, groups, topologies and attributes. */
#ifndef VMPI_API_MPI_COMM_H
#define VMPI_API_MPI_COMM_H


#endif
