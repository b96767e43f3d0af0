/* SPDX-License-Identifier: BSD-3-Clause */
/* Type_match_size and Type_create_f90_*: the smallest sized type that fits, MPI_UNDEFINED as "any", and
 * MPI_ERR_ARG when nothing fits; sizes of the results checked with Type_size. */
#include "mtest.h"

static int expect(MPI_Datatype got, MPI_Datatype want, int want_size, const char *what)
{
    int errs = 0, sz = -1;
    if (got != want)
        MT_ERR(errs, "%s: wrong type", what);
    else if (MPI_Type_size(got, &sz), sz != want_size)
        MT_ERR(errs, "%s: size %d, expected %d", what, sz, want_size);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    errs += expect(t, MPI_REAL8, 8, "match real 8");
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &t);
    errs += expect(t, MPI_INTEGER2, 2, "match integer 2");
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
    errs += expect(t, MPI_COMPLEX16, 16, "match complex 16");
    MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
    errs += expect(t, MPI_REAL4, 4, "f90 real p=6");
    MPI_Type_create_f90_real(7, 30, &t);
    errs += expect(t, MPI_REAL8, 8, "f90 real p=7");
    MPI_Type_create_f90_real(MPI_UNDEFINED, 400, &t);
    errs += expect(t, MPI_REAL16, 16, "f90 real r=400");
    MPI_Type_create_f90_complex(15, 300, &t);
    errs += expect(t, MPI_COMPLEX16, 16, "f90 complex p=15");
    MPI_Type_create_f90_integer(9, &t);
    errs += expect(t, MPI_INTEGER4, 4, "f90 integer r=9");
    MPI_Type_create_f90_integer(10, &t);
    errs += expect(t, MPI_INTEGER8, 8, "f90 integer r=10");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "precision 40 did not give MPI_ERR_ARG");
    MPI_Type_create_f90_integer(19, &t);
    errs += expect(t, MPI_INTEGER16, 16, "f90 integer r=19");
    if (MPI_Type_create_f90_integer(39, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "integer range 39 did not give MPI_ERR_ARG");
    if (MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "integer size 3 did not give MPI_ERR_ARG");
    return mt_finish(errs);
}
