/* SPDX-License-Identifier: BSD-3-Clause */
/* A datatype's envelope and contents (MPI-4.1 5.1.13): the constructor and its arguments. */
#include "binding/check.h"

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
