/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Pack_external / Unpack_external in "external32". */
#ifndef VMPI_MPI_DATATYPE_EXTERNAL32_H
#define VMPI_MPI_DATATYPE_EXTERNAL32_H

#include "mpi/datatype/datatype.h"

/* Bytes of `count` instances of `dt` in external32. */
MPI_Count vmpi_ext32_size(const vmpi_dtype *dt, MPI_Count count);
/* Writes vmpi_ext32_size(dt, count) bytes at `out` / reads as many from `in`; MPI_SUCCESS or MPI_ERR_NO_MEM. */
int vmpi_ext32_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out);
int vmpi_ext32_unpack(const void *in, void *buf, MPI_Count count, const vmpi_dtype *dt);

#endif
