/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools interface's handle allocations: a variable bound to an MPI object (vmpi's per-communicator
 * performance variables) is given a pointer to the object's handle, an ABI handle here, which vmpi reads as
 * its own: the handle is translated when the variable's binding says it is one. */
#include "abi/abi.h"

ABI_NATIVE(T_pvar_get_info)
ABI_NATIVE(T_cvar_get_info)
ABI_NATIVE(T_pvar_handle_alloc)
ABI_NATIVE(T_cvar_handle_alloc)

/* the object handle vmpi is to read, for a variable of binding `bind` */
static void *abi_obj(int rc, int bind, void *obj_handle, int *v)
{
    if (rc != MPI_SUCCESS || bind == MPI_T_BIND_NO_OBJECT || obj_handle == NULL)
        return obj_handle;
    *v = abi_v(*(void **)obj_handle);
    return v;
}

ABI_ENTRY(int, T_pvar_handle_alloc,
          (MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle, int *count))
{
    int zero = 0, verbosity, var_class, bind = MPI_T_BIND_NO_OBJECT, readonly, continuous, atomic, v;
    MPI_Datatype dt;
    MPI_T_enum en;
    int rc = vmpi_native_PMPI_T_pvar_get_info(pvar_index, NULL, &zero, &verbosity, &var_class, &dt, &en, NULL,
                                              &(int){0}, &bind, &readonly, &continuous, &atomic);
    return abi_ret(vmpi_native_PMPI_T_pvar_handle_alloc(session, pvar_index, abi_obj(rc, bind, obj_handle, &v),
                                                        handle, count));
}

ABI_ENTRY(int, T_cvar_handle_alloc, (int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count))
{
    int zero = 0, verbosity, bind = MPI_T_BIND_NO_OBJECT, scope, v;
    MPI_Datatype dt;
    MPI_T_enum en;
    int rc = vmpi_native_PMPI_T_cvar_get_info(cvar_index, NULL, &zero, &verbosity, &dt, &en, NULL, &(int){0},
                                              &bind, &scope);
    return abi_ret(vmpi_native_PMPI_T_cvar_handle_alloc(cvar_index, abi_obj(rc, bind, obj_handle, &v), handle,
                                                        count));
}
