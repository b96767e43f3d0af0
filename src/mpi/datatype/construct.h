/* SPDX-License-Identifier: BSD-3-Clause */
/* Derived-type constructors on checked arguments: each returns a new type (one reference, not committed,
 * with its envelope and contents recorded) or NULL when out of memory.  Arguments were validated by the
 * binding layer (src/binding/dt_construct.c). */
#ifndef VMPI_MPI_DATATYPE_CONSTRUCT_H
#define VMPI_MPI_DATATYPE_CONSTRUCT_H

#include "mpi/datatype/datatype.h"

/* Counts and displacements are MPI_Count, whichever form was called; `large` says it was the large-count
 * form (MPI_X_c), whose envelope records them as large counts (MPI-4.1 5.1.13), where the int form's records
 * integers and addresses. */
vmpi_dtype *vmpi_dt_contiguous(MPI_Count count, vmpi_dtype *old, bool large);
vmpi_dtype *vmpi_dt_vector(MPI_Count count, MPI_Count blocklen, MPI_Count stride, vmpi_dtype *old, bool large);
vmpi_dtype *vmpi_dt_hvector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride, vmpi_dtype *old, bool large);
vmpi_dtype *vmpi_dt_indexed(MPI_Count count, const MPI_Count *blocklens, const MPI_Count *disps, vmpi_dtype *old,
                            bool large);
vmpi_dtype *vmpi_dt_hindexed(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps, vmpi_dtype *old,
                             bool large);
vmpi_dtype *vmpi_dt_indexed_block(MPI_Count count, MPI_Count blocklen, const MPI_Count *disps, vmpi_dtype *old,
                                  bool large);
vmpi_dtype *vmpi_dt_hindexed_block(MPI_Count count, MPI_Count blocklen, const MPI_Aint *disps, vmpi_dtype *old,
                                   bool large);
vmpi_dtype *vmpi_dt_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps,
                           vmpi_dtype *const *types, bool large);
vmpi_dtype *vmpi_dt_resized(vmpi_dtype *old, MPI_Aint lb, MPI_Aint extent, bool large);
vmpi_dtype *vmpi_dt_dup(vmpi_dtype *old);
/* A type like the predefined `basic` whose envelope is an F90 combiner with `ints` (mpi/datatype/f90.c). */
vmpi_dtype *vmpi_dt_f90(vmpi_dtype *basic, int combiner, int ni, const int *ints);
vmpi_dtype *vmpi_dt_subarray(int ndims, const MPI_Count *sizes, const MPI_Count *subsizes, const MPI_Count *starts,
                             int order, vmpi_dtype *old, bool large);
/* `*bad` is set (and NULL returned) when the distribution cannot cover the array (an MPI_ERR_ARG). */
vmpi_dtype *vmpi_dt_darray(int size, int rank, int ndims, const MPI_Count *gsizes, const int *distribs,
                           const int *dargs, const int *psizes, int order, vmpi_dtype *old, bool large, bool *bad);

#endif
