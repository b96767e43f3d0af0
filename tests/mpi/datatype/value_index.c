/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's MPI_Type_get_value_index: every predefined (value, index) pair type of MINLOC/MAXLOC from its two
 * types (C pairs index with int, Fortran pairs with the value's type), MPI_DATATYPE_NULL for pairs the
 * standard does not have (the types swapped, a derived type), and the pair it gives works in an
 * MPI_Allreduce with MPI_MINLOC; a null type and a null output are MPI_ERR_TYPE and MPI_ERR_ARG. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const struct {
        MPI_Datatype v, i, pair;
        const char *name;
    } want[] = {
        {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT, "MPI_FLOAT_INT"},
        {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
        {MPI_LONG, MPI_INT, MPI_LONG_INT, "MPI_LONG_INT"},
        {MPI_SHORT, MPI_INT, MPI_SHORT_INT, "MPI_SHORT_INT"},
        {MPI_INT, MPI_INT, MPI_2INT, "MPI_2INT"},
        {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
        {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER, "MPI_2INTEGER"},
        {MPI_REAL, MPI_REAL, MPI_2REAL, "MPI_2REAL"},
        {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"},
        {MPI_INT, MPI_DOUBLE, MPI_DATATYPE_NULL, "(int, double): none"},
        {MPI_DOUBLE, MPI_LONG, MPI_DATATYPE_NULL, "(double, long): none"},
        {MPI_CHAR, MPI_INT, MPI_DATATYPE_NULL, "(char, int): none"},
    };
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        MPI_Datatype got = MPI_DATATYPE_NULL;
        MT_CHECK_RC(errs, MPI_Type_get_value_index(want[k].v, want[k].i, &got));
        MT_CHECK(errs, got == want[k].pair, "%s: got another type", want[k].name);
    }
    MPI_Datatype vec, got = MPI_INT;
    MPI_Type_contiguous(1, MPI_DOUBLE, &vec);
    MPI_Type_commit(&vec);
    MT_CHECK_RC(errs, MPI_Type_get_value_index(vec, MPI_INT, &got));
    MT_CHECK(errs, got == MPI_DATATYPE_NULL, "a derived value type has a pair");
    MPI_Type_free(&vec);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK_CLASS(errs, MPI_Type_get_value_index(MPI_DATATYPE_NULL, MPI_INT, &got), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, NULL), MPI_ERR_ARG);
    /* the pair in use: the smallest value and its rank */
    struct {
        double v;
        int i;
    } in = {1000.0 - rank, rank}, out = {0, -1};
    MPI_Datatype pair;
    MT_CHECK_RC(errs, MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &pair));
    MT_CHECK_RC(errs, MPI_Allreduce(&in, &out, 1, pair, MPI_MINLOC, MPI_COMM_WORLD));
    MT_CHECK(errs, out.v == 1000.0 - (size - 1) && out.i == size - 1, "MINLOC: %g at %d", out.v, out.i);
    return mt_finish(errs);
}
