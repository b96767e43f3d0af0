/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-1's functions MPI-3.0 removed, which vmpi keeps (include/vmpi/mpi_removed.h) and the ABI does not have:
 * an old program compiled against the ABI's mpi.h (C without prototypes) still calls them, and must reach
 * vmpi's through the ABI's translation, not vmpi's own with the ABI's handles. */
#include "abi/abi.h"

#include "binding/abi_hooks.h"

ABI_NATIVE(Address)
ABI_NATIVE(Type_extent)
ABI_NATIVE(Type_lb)
ABI_NATIVE(Type_ub)
ABI_NATIVE(Type_hvector)
ABI_NATIVE(Type_hindexed)
ABI_NATIVE(Type_struct)
ABI_NATIVE(Errhandler_create)
ABI_NATIVE(Errhandler_set)
ABI_NATIVE(Errhandler_get)

ABI_ENTRY(int, Address, (const void *location, MPI_Aint *address))
{
    return abi_ret(vmpi_native_PMPI_Address(location, address));
}

#define EXTENT(f)                                                                                                \
    ABI_ENTRY(int, f, (abi_Datatype datatype, MPI_Aint * v)) { return abi_ret(vmpi_native_PMPI_##f(abi_v(datatype), v)); }
EXTENT(Type_extent)
EXTENT(Type_lb)
EXTENT(Type_ub)

/* a new handle: written back whatever the result (vmpi sets it to the null handle on a failure) */
static int abi_new(int rc, int v, void *out)
{
    if (out)
        *(void **)out = abi_a(v);
    return abi_ret(rc);
}

ABI_ENTRY(int, Type_hvector, (int count, int blocklength, MPI_Aint stride, abi_Datatype oldtype, abi_Datatype *newtype))
{
    MPI_Datatype v = newtype ? abi_v(*newtype) : 0;
    int rc = vmpi_native_PMPI_Type_hvector(count, blocklength, stride, abi_v(oldtype), newtype ? &v : NULL);
    return abi_new(rc, v, newtype);
}

ABI_ENTRY(int, Type_hindexed, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                               abi_Datatype oldtype, abi_Datatype *newtype))
{
    MPI_Datatype v = newtype ? abi_v(*newtype) : 0;
    int rc = vmpi_native_PMPI_Type_hindexed(count, array_of_blocklengths, array_of_displacements, abi_v(oldtype),
                                            newtype ? &v : NULL);
    return abi_new(rc, v, newtype);
}

ABI_ENTRY(int, Type_struct, (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                             const abi_Datatype array_of_types[], abi_Datatype *newtype))
{
    int buf[VMPI_ABI_SMALL], *types = abi_v_arr((const void *const *)array_of_types, count, buf);
    MPI_Datatype v = newtype ? abi_v(*newtype) : 0;
    int rc = vmpi_native_PMPI_Type_struct(count, array_of_blocklengths, array_of_displacements, types,
                                          newtype ? &v : NULL);
    abi_arr_done(types, buf);
    return abi_new(rc, v, newtype);
}

ABI_ENTRY(int, Errhandler_create, (void (*function)(void *, int *, ...), abi_Errhandler *errhandler))
{
    MPI_Errhandler v = MPI_ERRHANDLER_NULL;
    int rc = vmpi_native_PMPI_Errhandler_create((MPI_Handler_function *)(void (*)(void))function,
                                                errhandler ? &v : NULL);
    if (rc == MPI_SUCCESS) {
        vmpi_abi_errh_created(v); /* an ABI function: vmpi calls it through libmpi_abi */
        *errhandler = abi_a(v);
    }
    return abi_ret(rc);
}

ABI_ENTRY(int, Errhandler_set, (abi_Comm comm, abi_Errhandler errhandler))
{
    return abi_ret(vmpi_native_PMPI_Errhandler_set(abi_v(comm), abi_v(errhandler)));
}

ABI_ENTRY(int, Errhandler_get, (abi_Comm comm, abi_Errhandler *errhandler))
{
    MPI_Errhandler v = MPI_ERRHANDLER_NULL;
    int rc = vmpi_native_PMPI_Errhandler_get(abi_v(comm), errhandler ? &v : NULL);
    if (rc == MPI_SUCCESS)
        *errhandler = abi_a(v);
    return abi_ret(rc);
}
