/* SPDX-License-Identifier: BSD-3-Clause */
/* The translations the generated entry points share (abi.h): arrays of handles and statuses, the length of
 * an alltoallw's arrays of datatypes, and the functions of the standard vmpi does not have. */
#include "abi/abi.h"

#include "binding/abi_hooks.h"

ABI_NATIVE(Comm_test_inter)
ABI_NATIVE(Comm_size)
ABI_NATIVE(Comm_remote_size)
ABI_NATIVE(Topo_test)
ABI_NATIVE(Cartdim_get)
ABI_NATIVE(Comm_rank)
ABI_NATIVE(Graph_neighbors_count)
ABI_NATIVE(Dist_graph_neighbors_count)

int *abi_v_arr(const void *const *a, int n, int *buf)
{
    if (a == NULL)
        return NULL;
    if (n <= 0)
        return buf;
    int *v = n <= VMPI_ABI_SMALL ? buf : malloc(sizeof *v * (size_t)n);
    if (v == NULL)
        return NULL; /* vmpi then reports the array missing: the closest error there is to no memory */
    for (int i = 0; i < n; i++)
        v[i] = abi_v(a[i]);
    return v;
}

void abi_a_arr(const int *v, int n, void **a)
{
    for (int i = 0; a && i < n; i++)
        a[i] = abi_a(v[i]);
}

MPI_Status *abi_st_arr(abi_Status *a, int n, MPI_Status *buf)
{
    if (a == NULL)
        return MPI_STATUSES_IGNORE;
    if (n <= 0)
        return buf;
    MPI_Status *v = n <= VMPI_ABI_SMALL ? buf : malloc(sizeof *v * (size_t)n);
    if (v)
        for (int i = 0; i < n; i++)
            abi_st_v(&a[i], &v[i]);
    return v;
}

void abi_st_arr_done(MPI_Status *v, const MPI_Status *buf, abi_Status *a, int n)
{
    if (a == NULL || v == NULL)
        return;
    for (int i = 0; i < n; i++)
        abi_st_a(&v[i], &a[i]);
    if (v != buf)
        free(v);
}

int abi_peers(MPI_Comm comm, int neighbor, int send)
{
    int n = 0, inter = 0, topo = MPI_UNDEFINED;
    /* no communicator (another kind's handle, MPI_COMM_NULL): none to read, and vmpi's call reports it under
     * its own name (the queries below would report it first, under theirs) */
    if ((unsigned)comm >> 26 != (unsigned)MPI_COMM_WORLD >> 26 || comm == MPI_COMM_NULL)
        return 0;
    if (!neighbor) {
        if (vmpi_native_PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
            return 0;
        if (inter)
            return vmpi_native_PMPI_Comm_remote_size(comm, &n) == MPI_SUCCESS ? n : 0;
        return vmpi_native_PMPI_Comm_size(comm, &n) == MPI_SUCCESS ? n : 0;
    }
    if (vmpi_native_PMPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return 0;
    if (topo == MPI_CART)
        return vmpi_native_PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS ? 2 * n : 0;
    if (topo == MPI_GRAPH) {
        int me;
        if (vmpi_native_PMPI_Comm_rank(comm, &me) != MPI_SUCCESS ||
            vmpi_native_PMPI_Graph_neighbors_count(comm, me, &n) != MPI_SUCCESS)
            return 0;
        return n;
    }
    if (topo == MPI_DIST_GRAPH) {
        int in, out, w;
        if (vmpi_native_PMPI_Dist_graph_neighbors_count(comm, &in, &out, &w) != MPI_SUCCESS)
            return 0;
        return send ? out : in;
    }
    return 0;
}

int abi_absent(const char *fn)
{
    return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION, fn,
                                  "vmpi does not have this function of the MPI standard (MPI-IO and dynamic "
                                  "processes are not implemented)"));
}
