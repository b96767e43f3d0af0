/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-1 functions MPI-3.0 removed (include/vmpi/mpi_removed.h): each is its MPI-2 replacement, called
 * through PMPI_ so that a profiling library sees the call once.  Their errors are reported under the
 * replacement's name. */
#include "binding/check.h"

VMPI_WEAK(Address)
int PMPI_Address(const void *location, MPI_Aint *address) { return PMPI_Get_address(location, address); }

VMPI_WEAK(Type_extent)
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    MPI_Aint lb;
    return PMPI_Type_get_extent(datatype, &lb, extent);
}

VMPI_WEAK(Type_lb)
int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint extent;
    return PMPI_Type_get_extent(datatype, displacement, &extent);
}

VMPI_WEAK(Type_ub)
int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    MPI_Aint lb, extent;
    int err = PMPI_Type_get_extent(datatype, &lb, &extent);
    if (err == MPI_SUCCESS)
        *displacement = lb + extent;
    return err;
}

VMPI_WEAK(Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

VMPI_WEAK(Type_hindexed)
int PMPI_Type_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}

VMPI_WEAK(Type_struct)
int PMPI_Type_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                     const MPI_Datatype array_of_types[], MPI_Datatype *newtype)
{
    return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements, array_of_types, newtype);
}

VMPI_WEAK(Errhandler_create)
int PMPI_Errhandler_create(MPI_Handler_function *function, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_create_errhandler(function, errhandler);
}

VMPI_WEAK(Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) { return PMPI_Comm_set_errhandler(comm, errhandler); }

VMPI_WEAK(Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    return PMPI_Comm_get_errhandler(comm, errhandler);
}
