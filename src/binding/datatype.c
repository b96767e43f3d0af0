/* SPDX-License-Identifier: BSD-3-Clause */
/* Datatype queries, commit/free, envelopes and contents, names, addresses. */
#include "binding/check.h"
#include "mpi/datatype/f90.h"

/* Inlined (GCC would not): MPI_Type_size costs 58 instructions so, 76 with a call (callgrind). */
static inline __attribute__((always_inline)) int get(const char *fn, MPI_Datatype dt, const void *out,
                                                     vmpi_dtype **d)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_local(&ck)) || (err = vmpi_chk_dt_any(&ck, dt, d)) ||
        (err = vmpi_chk_ptr(&ck, out, "output argument")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_size)
int PMPI_Type_size(MPI_Datatype dt, int *size)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_size", dt, size, &d);
    if (err == MPI_SUCCESS)
        *size = d->size > INT_MAX ? MPI_UNDEFINED : (int)d->size;
    return err;
}

VMPI_WEAK(Type_size_c)
int PMPI_Type_size_c(MPI_Datatype dt, MPI_Count *size)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_size_c", dt, size, &d);
    if (err == MPI_SUCCESS)
        *size = d->size;
    return err;
}

VMPI_WEAK(Type_size_x)
int PMPI_Type_size_x(MPI_Datatype dt, MPI_Count *size)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_size_x", dt, size, &d);
    if (err == MPI_SUCCESS)
        *size = d->size;
    return err;
}

VMPI_WEAK(Type_get_extent)
int PMPI_Type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_extent", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->lb;
        *extent = d->extent;
    }
    return err;
}

VMPI_WEAK(Type_get_extent_c)
int PMPI_Type_get_extent_c(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_extent_c", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->lb;
        *extent = d->extent;
    }
    return err;
}

VMPI_WEAK(Type_get_extent_x)
int PMPI_Type_get_extent_x(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_extent_x", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->lb;
        *extent = d->extent;
    }
    return err;
}

VMPI_WEAK(Type_get_true_extent)
int PMPI_Type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_true_extent", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->true_lb;
        *extent = d->true_extent;
    }
    return err;
}

VMPI_WEAK(Type_get_true_extent_c)
int PMPI_Type_get_true_extent_c(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_true_extent_c", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->true_lb;
        *extent = d->true_extent;
    }
    return err;
}

VMPI_WEAK(Type_get_true_extent_x)
int PMPI_Type_get_true_extent_x(MPI_Datatype dt, MPI_Count *lb, MPI_Count *extent)
{
    vmpi_dtype *d;
    int err = get("MPI_Type_get_true_extent_x", dt, lb && extent ? lb : NULL, &d);
    if (err == MPI_SUCCESS) {
        *lb = d->true_lb;
        *extent = d->true_extent;
    }
    return err;
}

VMPI_WEAK(Type_commit)
int PMPI_Type_commit(MPI_Datatype *dt)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_commit");
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_ptr(&ck, dt, "datatype")) || (err = vmpi_chk_dt_any(&ck, *dt, &d)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_commit", &ck);
    if (!d->builtin)
        d->committed = true; /* the block lists are final when built: nothing else to do */
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_free)
int PMPI_Type_free(MPI_Datatype *dt)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_free");
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_ptr(&ck, dt, "datatype")) || (err = vmpi_chk_dt_any(&ck, *dt, &d)))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_free", &ck);
    if (d->builtin || vmpi_dt_is_f90(d)) {
        snprintf(ck.why, sizeof ck.why, "%s is a predefined datatype", d->builtin ? d->name : "an F90 type");
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free", &ck);
    }
    if ((err = vmpi_attr_delete_all(*dt)) != MPI_SUCCESS) { /* first, while the type is still valid */
        snprintf(ck.why, sizeof ck.why, "an attribute delete callback failed");
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_free", &ck);
    }
    if (!vmpi_dt_free(*dt)) { /* freed meanwhile (by another rank: an erroneous program) */
        snprintf(ck.why, sizeof ck.why, "datatype 0x%x was freed already", (unsigned)*dt);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free", &ck);
    }
    *dt = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

/* The envelope of `dt` (MPI_Type_get_envelope and its _c form); the int form cannot describe a type made by a
 * large-count constructor, whose envelope has large counts: MPI_ERR_TYPE (MPI-4.1 5.1.13). */
static int envelope(MPI_Datatype dt, const void *out, MPI_Count *ni, MPI_Count *na, MPI_Count *nl, MPI_Count *nd,
                    int *combiner, bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_dt_any(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, out, "output argument")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if (d->builtin) {
        *ni = *na = *nl = *nd = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    if (!large && d->contents.nl > 0) {
        snprintf(ck.why, sizeof ck.why, "the datatype was made by a large-count constructor: its envelope has %d "
                 "large counts (MPI_Type_get_envelope_c)", d->contents.nl);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, &ck);
    }
    *ni = d->contents.ni;
    *na = d->contents.na;
    *nl = d->contents.nl;
    *nd = d->contents.nd;
    *combiner = d->contents.combiner;
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_get_envelope)
int PMPI_Type_get_envelope(MPI_Datatype dt, int *ni, int *na, int *nd, int *combiner)
{
    MPI_Count i, a, l, n;
    int err = envelope(dt, ni && na && nd && combiner ? ni : NULL, &i, &a, &l, &n, combiner, false,
                       "MPI_Type_get_envelope");
    if (err == MPI_SUCCESS)
        *ni = (int)i, *na = (int)a, *nd = (int)n;
    return err;
}

VMPI_WEAK(Type_get_envelope_c)
int PMPI_Type_get_envelope_c(MPI_Datatype dt, MPI_Count *ni, MPI_Count *na, MPI_Count *nl, MPI_Count *nd,
                             int *combiner)
{
    return envelope(dt, ni && na && nl && nd && combiner ? ni : NULL, ni, na, nl, nd, combiner, true,
                    "MPI_Type_get_envelope_c");
}

/* The constructor's arguments (MPI_Type_get_contents and its _c form: `counts` NULL for the int form, which
 * refuses a type with large counts as its envelope does). */
static int contents(MPI_Datatype dt, MPI_Count max_ints, MPI_Count max_aints, MPI_Count max_counts,
                    MPI_Count max_types, int ints[], MPI_Aint aints[], MPI_Count counts[], MPI_Datatype types[],
                    bool large, const char *fn)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, fn);
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_dt_any(&ck, dt, &d)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    if (d->builtin) {
        snprintf(ck.why, sizeof ck.why, "%s is a predefined (MPI_COMBINER_NAMED) datatype", d->name);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, &ck);
    }
    const vmpi_dtype_contents *c = &d->contents;
    if (!large && c->nl > 0) {
        snprintf(ck.why, sizeof ck.why, "the datatype was made by a large-count constructor: its contents have %d "
                 "large counts (MPI_Type_get_contents_c)", c->nl);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_TYPE, fn, &ck);
    }
    if (max_ints < c->ni || max_aints < c->na || max_counts < c->nl || max_types < c->nd) {
        snprintf(ck.why, sizeof ck.why, "arrays too small: the type has %d integers, %d addresses, %d large counts, "
                 "%d datatypes", c->ni, c->na, c->nl, c->nd);
        return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_ARG, fn, &ck);
    }
    if ((err = vmpi_chk_array(&ck, ints, c->ni, "array_of_integers")) ||
        (err = vmpi_chk_array(&ck, aints, c->na, "array_of_addresses")) ||
        (err = vmpi_chk_array(&ck, counts, c->nl, "array_of_large_counts")) ||
        (err = vmpi_chk_array(&ck, types, c->nd, "array_of_datatypes")))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    for (int i = 0; i < c->ni; i++)
        ints[i] = c->ints[i];
    for (int i = 0; i < c->na; i++)
        aints[i] = c->aints[i];
    for (int i = 0; i < c->nl; i++)
        counts[i] = c->counts[i];
    for (int i = 0; i < c->nd; i++) {
        /* derived types come back as new handles the caller frees (predefined ones as themselves) */
        types[i] = vmpi_dt_handle_for(c->types[i]);
        if (types[i] == MPI_DATATYPE_NULL) {
            while (--i >= 0)
                vmpi_dt_free(types[i]);
            return vmpi_fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM, fn, NULL);
        }
    }
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_get_contents)
int PMPI_Type_get_contents(MPI_Datatype dt, int max_ints, int max_aints, int max_types, int ints[],
                           MPI_Aint aints[], MPI_Datatype types[])
{
    return contents(dt, max_ints, max_aints, 0, max_types, ints, aints, NULL, types, false, "MPI_Type_get_contents");
}

VMPI_WEAK(Type_get_contents_c)
int PMPI_Type_get_contents_c(MPI_Datatype dt, MPI_Count max_ints, MPI_Count max_aints, MPI_Count max_counts,
                             MPI_Count max_types, int ints[], MPI_Aint aints[], MPI_Count counts[],
                             MPI_Datatype types[])
{
    return contents(dt, max_ints, max_aints, max_counts, max_types, ints, aints, counts, types, true,
                    "MPI_Type_get_contents_c");
}

VMPI_WEAK(Type_set_name)
int PMPI_Type_set_name(MPI_Datatype dt, const char *name)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_set_name");
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_dt_any(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, name, "name")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_set_name", &ck);
    vmpi_dt_set_name(d, name); /* longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters */
    return MPI_SUCCESS;
}

VMPI_WEAK(Type_get_name)
int PMPI_Type_get_name(MPI_Datatype dt, char *name, int *len)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Type_get_name");
    vmpi_dtype *d;
    int err;
    if ((err = vmpi_chk_dt_any(&ck, dt, &d)) || (err = vmpi_chk_ptr(&ck, name, "name")) ||
        (err = vmpi_chk_ptr(&ck, len, "resultlen")))
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Type_get_name", &ck);
    vmpi_dt_get_name(d, name, len);
    return MPI_SUCCESS;
}

VMPI_WEAK(Get_address)
int PMPI_Get_address(const void *location, MPI_Aint *address)
{
    VMPI_CHK(ck);
    VMPI_CHK_LOCAL(ck, "MPI_Get_address");
    int err = vmpi_chk_ptr(&ck, address, "address");
    if (err)
        return vmpi_fail(MPI_COMM_WORLD, err, "MPI_Get_address", &ck);
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

VMPI_WEAK(Aint_add)
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) { return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp); }

VMPI_WEAK(Aint_diff)
MPI_Aint PMPI_Aint_diff(MPI_Aint a, MPI_Aint b) { return (MPI_Aint)((uintptr_t)a - (uintptr_t)b); }

/* MPI-4.1: the predefined (value, index) pair type of MINLOC/MAXLOC for a value type and an index type, or
 * MPI_DATATYPE_NULL when the standard has none (the C pairs index with int, the Fortran ones with the value's
 * own type). */
VMPI_WEAK(Type_get_value_index)
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type)
{
    static const MPI_Datatype pairs[][3] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
        {MPI_LONG, MPI_INT, MPI_LONG_INT},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
        {MPI_INT, MPI_INT, MPI_2INT},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
        {MPI_REAL, MPI_REAL, MPI_2REAL},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
    };
    vmpi_dtype *v, *i;
    int err;
    if ((err = get("MPI_Type_get_value_index", value_type, pair_type, &v)) ||
        (err = get("MPI_Type_get_value_index", index_type, pair_type, &i)))
        return err;
    *pair_type = MPI_DATATYPE_NULL;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (pairs[k][0] == value_type && pairs[k][1] == index_type)
            *pair_type = pairs[k][2];
    return MPI_SUCCESS;
}
