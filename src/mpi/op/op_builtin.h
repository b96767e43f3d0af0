/* SPDX-License-Identifier: BSD-3-Clause */
/* Predefined reduction operations (MPI_MAX .. MPI_NO_OP) on predefined datatypes, MPI-3.1 5.9.2, plus what
 * MPICH and Open MPI also accept (every C integer operation on MPI_CHAR, logical ones on MPI_AINT, MPI_OFFSET
 * and MPI_COUNT). */
#ifndef VMPI_OP_BUILTIN_H
#define VMPI_OP_BUILTIN_H

#include <mpi.h>

/* inout[i] = in[i] op inout[i] for count elements of one predefined type; in and inout do not overlap
 * (or are the same buffer). */
typedef void vmpi_op_builtin_fn(const void *in, void *inout, MPI_Count count);

/* MPI_SUCCESS if the predefined op is defined on the predefined datatype, MPI_ERR_OP otherwise (also
 * for a user op, MPI_OP_NULL, a derived or null datatype, or a handle of another kind). */
int vmpi_op_builtin_check(MPI_Op op, MPI_Datatype basic);

/* Whether the predefined op gives the same bits whatever the grouping of its operands (everything but
 * sums and products of floating-point and complex types). */
int vmpi_op_builtin_exact(MPI_Op op, MPI_Datatype basic);

/* The kernel for a valid pair, NULL otherwise: lets a pipelined reduction look it up once. */
vmpi_op_builtin_fn *vmpi_op_builtin_kernel(MPI_Op op, MPI_Datatype basic);

/* inout = in op inout element-wise.  Requires vmpi_op_builtin_check(op, basic) == MPI_SUCCESS; buffers
 * have the natural alignment of the C type (pair types need none).  count <= 0 does nothing. */
void vmpi_op_builtin_apply(MPI_Op op, MPI_Datatype basic, const void *in, void *inout, MPI_Count count);

#endif /* VMPI_OP_BUILTIN_H */
