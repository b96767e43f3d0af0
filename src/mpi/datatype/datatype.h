/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatype handles of a rank -> engine descriptions (src/dtype). */
#ifndef VMPI_MPI_DATATYPE_H
#define VMPI_MPI_DATATYPE_H

#include <mpi.h>
#include "dtype/dtype.h"

/* NULL when `h` is not a valid (committed) datatype. */
const vmpi_dtype *vmpi_dt_get(MPI_Datatype h);

#endif
