/* SPDX-License-Identifier: BSD-3-Clause */
/* Entry points whose results hold values the generator cannot see: the predefined attributes whose values are
 * ranks or enumerations (MPI_HOST, MPI_IO, MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL: the attribute is a pointer to an int,
 * which must point at the ABI's value), and a datatype's contents (the order and distributions of subarray and
 * darray types among its integers). */
#include "abi/abi.h"

ABI_NATIVE(Comm_get_attr)
ABI_NATIVE(Attr_get)
ABI_NATIVE(Type_get_attr)
ABI_NATIVE(Win_get_attr)
ABI_NATIVE(Type_get_envelope_c)
ABI_NATIVE(Type_get_contents)
ABI_NATIVE(Type_get_contents_c)

/* the ABI's values the pointers point at: constants, one per value (they never change) */
static const int abi_flavors[] = {311, 312, 313, 314}, abi_models[] = {321, 322};
static const int abi_rank_sentinels[] = {-1, -3, -4}; /* MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT */

static void *abi_attr_value(int keyval, void *v)
{
    const int *p = v;
    if (p == NULL)
        return v;
    if (keyval == MPI_HOST || keyval == MPI_IO) { /* a rank (the same number), MPI_PROC_NULL or MPI_ANY_SOURCE */
        int a = abi_a_rank(*p);
        for (int i = 0; i < 3; i++)
            if (a == abi_rank_sentinels[i])
                return (void *)&abi_rank_sentinels[i];
        return v;
    }
    if (keyval == MPI_WIN_CREATE_FLAVOR) {
        int a = abi_a_flavor(*p);
        return a >= 311 && a <= 314 ? (void *)&abi_flavors[a - 311] : v;
    }
    if (keyval == MPI_WIN_MODEL) {
        int a = abi_a_model(*p);
        return a >= 321 && a <= 322 ? (void *)&abi_models[a - 321] : v;
    }
    return v;
}

#define GET_ATTR(f, t)                                                                                           \
    ABI_ENTRY(int, f, (abi_##t obj, int keyval, void *attribute_val, int *flag))                              \
    {                                                                                                         \
        int k = abi_v_keyval(keyval);                                                                         \
        int rc = vmpi_native_PMPI_##f(abi_v(obj), k, attribute_val, flag);                                   \
        if (rc == MPI_SUCCESS && flag && *flag && attribute_val)                                             \
            *(void **)attribute_val = abi_attr_value(k, *(void **)attribute_val);                            \
        return abi_ret(rc);                                                                                   \
    }
GET_ATTR(Comm_get_attr, Comm)
GET_ATTR(Attr_get, Comm)
GET_ATTR(Type_get_attr, Datatype)
GET_ATTR(Win_get_attr, Win)

/* The order (and for darray the distributions and their arguments) among a subarray's or darray's integers
 * (MPI-4.1 5.1.13: darray: size, rank, ndims, gsizes, distribs, dargs, psizes, order; subarray: ndims, sizes,
 * subsizes, starts, order). */
static void abi_contents_ints(int combiner, int *ints, int n)
{
    if (combiner == MPI_COMBINER_SUBARRAY && n >= 1 && 3 * ints[0] + 2 <= n) {
        ints[3 * ints[0] + 1] = abi_a_order(ints[3 * ints[0] + 1]);
    } else if (combiner == MPI_COMBINER_DARRAY && n >= 3 && 4 * ints[2] + 4 <= n) {
        int nd = ints[2];
        for (int i = 0; i < nd; i++) {
            ints[3 + nd + i] = abi_a_distribute(ints[3 + nd + i]);
            ints[3 + 2 * nd + i] = abi_a_darg(ints[3 + 2 * nd + i]);
        }
        ints[3 + 4 * nd] = abi_a_order(ints[3 + 4 * nd]);
    }
}

/* the type's combiner, its number of datatypes and of large counts (0 for a type of the int constructors) */
static int abi_envelope(MPI_Datatype dt, MPI_Count *nd, MPI_Count *nc)
{
    MPI_Count ni = 0, na = 0;
    int combiner = MPI_UNDEFINED;
    *nd = *nc = 0;
    vmpi_native_PMPI_Type_get_envelope_c(dt, &ni, &na, nc, nd, &combiner);
    return combiner;
}

ABI_ENTRY(int, Type_get_contents,
          (abi_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[],
           MPI_Aint array_of_addresses[], abi_Datatype array_of_datatypes[]))
{
    MPI_Datatype dt = abi_v(datatype);
    int buf[VMPI_ABI_SMALL], *v = max_datatypes > VMPI_ABI_SMALL && array_of_datatypes
                                      ? malloc(sizeof *v * (size_t)max_datatypes) : buf;
    int rc = vmpi_native_PMPI_Type_get_contents(dt, max_integers, max_addresses, max_datatypes, array_of_integers,
                                                array_of_addresses, array_of_datatypes ? v : NULL);
    if (rc == MPI_SUCCESS) { /* (the datatypes vmpi wrote, not the rest of the program's array) */
        MPI_Count nd, nc;
        int combiner = abi_envelope(dt, &nd, &nc);
        abi_a_arr(v, nd < max_datatypes ? (int)nd : max_datatypes, (void **)array_of_datatypes);
        if (array_of_integers)
            abi_contents_ints(combiner, array_of_integers, max_integers);
    }
    if (v != buf)
        free(v);
    return abi_ret(rc);
}

/* the large-count form: a type made by a large-count constructor keeps its sizes among the counts, and its
 * integers are laid out otherwise than the int form's: they are passed as vmpi has them (a subarray's or
 * darray's order untranslated), translated only when the type has no counts (made by an int constructor) */
ABI_ENTRY(int, Type_get_contents_c,
          (abi_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses, MPI_Count max_large_counts,
           MPI_Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
           MPI_Count array_of_large_counts[], abi_Datatype array_of_datatypes[]))
{
    MPI_Datatype dt = abi_v(datatype);
    int buf[VMPI_ABI_SMALL], *v = max_datatypes > VMPI_ABI_SMALL && array_of_datatypes
                                      ? malloc(sizeof *v * (size_t)max_datatypes) : buf;
    int rc = vmpi_native_PMPI_Type_get_contents_c(dt, max_integers, max_addresses, max_large_counts, max_datatypes,
                                                  array_of_integers, array_of_addresses, array_of_large_counts,
                                                  array_of_datatypes ? v : NULL);
    if (rc == MPI_SUCCESS) {
        MPI_Count nd, nc;
        int combiner = abi_envelope(dt, &nd, &nc);
        abi_a_arr(v, (int)(nd < max_datatypes ? nd : max_datatypes), (void **)array_of_datatypes);
        if (array_of_integers && nc == 0 && max_integers <= INT_MAX)
            abi_contents_ints(combiner, array_of_integers, (int)max_integers);
    }
    if (v != buf)
        free(v);
    return abi_ret(rc);
}
