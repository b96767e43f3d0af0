/* SPDX-License-Identifier: BSD-3-Clause */
/* The predefined types of MPI_Type_create_f90_* (f90.c). */
#ifndef VMPI_MPI_DATATYPE_F90_H
#define VMPI_MPI_DATATYPE_F90_H

#include "mpi/datatype/datatype.h"

/* The job's one handle for (combiner, p, r), a type like the predefined `basic`; made at the first call.
 * MPI_DATATYPE_NULL when out of memory or when the job asked for too many distinct ones. */
MPI_Datatype vmpi_dt_f90_get(int combiner, int p, int r, vmpi_dtype *basic);
/* Whether `dt` is one of them (never freed; its handle is vmpi_dt_f90_handle). */
bool vmpi_dt_is_f90(const vmpi_dtype *dt);
MPI_Datatype vmpi_dt_f90_handle(const vmpi_dtype *dt);
/* How many this process made (they are its: a restart does not bring them into another process's). */
int vmpi_dt_f90_count(void);

#endif
