/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): datatypes: sizes and extents, derived-type constructors, pack/unpack. */
#ifndef VMPI_API_MPI_DATATYPE_H
#define VMPI_API_MPI_DATATYPE_H

VMPI_DECL(int, Type_size, (MPI_Datatype dt, int *size))
VMPI_DECL(int, Type_size_x, (MPI_Datatype dt, MPI_Count *size))
VMPI_DECL(int, Type_get_extent, (MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent))
VMPI_DECL(int, Type_get_true_extent, (MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent))

#endif
