/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): info objects, attribute caching (keyvals, predefined
 * attributes) and user error classes and codes. */
#ifndef VMPI_API_MPI_INFO_H
#define VMPI_API_MPI_INFO_H


#endif
