/* SPDX-License-Identifier: BSD-3-Clause */
/* The functions MPI-5.0 adds with its ABI (MPI-5.0 20.3): the ABI's version and sizes, and the handles'
 * integer forms (MPI_Comm_toint...: an ABI handle is an integer below 2^31, predefined or vmpi's). */
#include "abi/abi.h"

#include <stdio.h>
#include "binding/abi_hooks.h"

ABI_NATIVE(Info_create)
ABI_NATIVE(Info_set)
ABI_NATIVE(Info_free)

ABI_ENTRY(int, Abi_get_version, (int *abi_major, int *abi_minor))
{
    if (abi_major == NULL || abi_minor == NULL)
        return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Abi_get_version", "a NULL argument"));
    *abi_major = 1;
    *abi_minor = 0;
    return MPI_SUCCESS;
}

/* A new info object the caller frees: the sizes of the ABI's integer types in this library. */
ABI_ENTRY(int, Abi_get_info, (abi_Info *info))
{
    if (info == NULL)
        return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Abi_get_info", "info is NULL"));
    MPI_Info v = MPI_INFO_NULL;
    int err = vmpi_native_PMPI_Info_create(&v);
    static const struct {
        const char *key;
        size_t size;
    } sizes[] = {{"mpi_aint_size", sizeof(MPI_Aint)}, {"mpi_count_size", sizeof(MPI_Count)},
                 {"mpi_offset_size", sizeof(MPI_Offset)}};
    for (size_t i = 0; err == MPI_SUCCESS && i < sizeof sizes / sizeof sizes[0]; i++) {
        char value[8];
        snprintf(value, sizeof value, "%zu", sizes[i].size);
        err = vmpi_native_PMPI_Info_set(v, sizes[i].key, value);
    }
    if (err == MPI_SUCCESS)
        *info = abi_a(v);
    else if (v != MPI_INFO_NULL)
        vmpi_native_PMPI_Info_free(&v);
    return abi_ret(err);
}

/* libmpi_abi has the ABI's C interface only: a Fortran library of the ABI would set and read these */
#define FORTRAN_ABI(f, params)                                                                                   \
    ABI_ENTRY(int, f, params)                                                                                 \
    {                                                                                                         \
        return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_" #f,              \
                                      "vmpi's libmpi_abi has no Fortran interface of the ABI"));               \
    }
FORTRAN_ABI(Abi_get_fortran_info, (abi_Info *info))
FORTRAN_ABI(Abi_set_fortran_info, (abi_Info info))
FORTRAN_ABI(Abi_get_fortran_booleans, (int logical_size, void *logical_true, void *logical_false, int *is_set))
FORTRAN_ABI(Abi_set_fortran_booleans, (int logical_size, void *logical_true, void *logical_false))

#define TOINT(f, t)                                                                                              \
    ABI_ENTRY(int, f##_toint, (abi_##t h)) { return (int)(intptr_t)h; }                                     \
    ABI_ENTRY(abi_##t, f##_fromint, (int i)) { return (abi_##t)(uintptr_t)(unsigned)i; }
TOINT(Comm, Comm)
TOINT(Errhandler, Errhandler)
TOINT(File, File)
TOINT(Group, Group)
TOINT(Info, Info)
TOINT(Message, Message)
TOINT(Op, Op)
TOINT(Request, Request)
TOINT(Session, Session)
TOINT(Type, Datatype)
TOINT(Win, Win)
