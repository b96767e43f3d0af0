/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-type constructors on checked arguments: each returns a new type (one reference, not committed,
 * with its envelope and contents recorded) or NULL when out of memory.  Arguments were validated by the
 * binding layer (src/binding/dt_construct.c). */
#ifndef VMPI_MPI_DATATYPE_CONSTRUCT_H
#define VMPI_MPI_DATATYPE_CONSTRUCT_H

#include "mpi/datatype/datatype.h"

vmpi_dtype *vmpi_dt_contiguous(int count, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_vector(int count, int blocklen, int stride, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_hvector(int count, int blocklen, MPI_Aint stride, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_indexed(int count, const int *blocklens, const int *disps, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_hindexed(int count, const int *blocklens, const MPI_Aint *disps, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_indexed_block(int count, int blocklen, const int *disps, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_hindexed_block(int count, int blocklen, const MPI_Aint *disps, vmpi_dtype *old);
vmpi_dtype *vmpi_dt_struct(int count, const int *blocklens, const MPI_Aint *disps, vmpi_dtype *const *types);
vmpi_dtype *vmpi_dt_resized(vmpi_dtype *old, MPI_Aint lb, MPI_Aint extent);
vmpi_dtype *vmpi_dt_dup(vmpi_dtype *old);
/* A type like the predefined `basic` whose envelope is an F90 combiner with `ints` (mpi/datatype/f90.c). */
vmpi_dtype *vmpi_dt_f90(vmpi_dtype *basic, int combiner, int ni, const int *ints);
vmpi_dtype *vmpi_dt_subarray(int ndims, const int *sizes, const int *subsizes, const int *starts, int order,
                             vmpi_dtype *old);
/* `*bad` is set (and NULL returned) when the distribution cannot cover the array (an MPI_ERR_ARG). */
vmpi_dtype *vmpi_dt_darray(int size, int rank, int ndims, const int *gsizes, const int *distribs, const int *dargs,
                           const int *psizes, int order, vmpi_dtype *old, bool *bad);

#endif
