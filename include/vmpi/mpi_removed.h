/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): the MPI-1 functions MPI-3.0 removed, which MPICH and Open MPI
 * still declare and export and old programs still call (their MPI-2 replacements in the comments).  The
 * MPI-1 attribute functions (MPI_Keyval_create, MPI_Attr_put...), deprecated but not removed, are in
 * mpi_info.h; the MPI_LB and MPI_UB markers with the predefined datatypes. */
#ifndef VMPI_API_MPI_REMOVED_H
#define VMPI_API_MPI_REMOVED_H

typedef MPI_Comm_errhandler_function MPI_Handler_function;

VMPI_DECL(int, Address, (const void *location, MPI_Aint *address))                /* MPI_Get_address */
VMPI_DECL(int, Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))            /* MPI_Type_get_extent */
VMPI_DECL(int, Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))          /* MPI_Type_get_extent */
VMPI_DECL(int, Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))          /* lb + extent */
VMPI_DECL(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                              MPI_Datatype *newtype))                             /* MPI_Type_create_hvector */
VMPI_DECL(int, Type_hindexed, (int count, const int array_of_blocklengths[],
                               const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype *newtype))                            /* MPI_Type_create_hindexed */
VMPI_DECL(int, Type_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                             const MPI_Datatype array_of_types[], MPI_Datatype *newtype)) /* MPI_Type_create_struct */
VMPI_DECL(int, Errhandler_create, (MPI_Handler_function *function, MPI_Errhandler *errhandler))
                                                                                  /* MPI_Comm_create_errhandler */
VMPI_DECL(int, Errhandler_set, (MPI_Comm comm, MPI_Errhandler errhandler))        /* MPI_Comm_set_errhandler */
VMPI_DECL(int, Errhandler_get, (MPI_Comm comm, MPI_Errhandler *errhandler))       /* MPI_Comm_get_errhandler */

#endif
