/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/core/handle.h"
#include "mpi/datatype/datatype.h"

const vmpi_dtype *vmpi_dt_get(MPI_Datatype h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_DATATYPE)
        return NULL;
    return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(h)); /* derived types come with their constructors */
}
