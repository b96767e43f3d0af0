/* SPDX-License-Identifier: BSD-3-Clause */
/* Type_match_size and Type_create_f90_*: the smallest sized type that fits, MPI_UNDEFINED as "any", and
 * MPI_ERR_ARG when nothing fits.  Type_match_size gives the named type; Type_create_f90_* a predefined type
 * of the same size and kind (MPI-3.1 17.2.5) whose envelope is MPI_COMBINER_F90_* with the arguments as
 * given, no datatypes (MPICH's f90/createf90types), the same handle for the same arguments on every rank's
 * calls, which Type_free refuses; usable in communication and reductions, and returned as itself by
 * Type_get_contents of a type built from it. */
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

/* An F90 type for (combiner, p, r): its size, envelope and contents, and the same handle again. */
static int expect_f90(MPI_Datatype t, int combiner, int p, int r, int want_size, const char *what)
{
    int errs = 0, sz = -1, ni, na, nd, c;
    MPI_Type_size(t, &sz);
    if (sz != want_size)
        MT_ERR(errs, "%s: size %d, expected %d", what, sz, want_size);
    MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
    int want_ni = combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2;
    if (c != combiner || ni != want_ni || na != 0 || nd != 0)
        MT_ERR(errs, "%s: envelope (%d, %d, %d, combiner %d), expected (%d, 0, 0, %d)", what, ni, na, nd, c, want_ni,
               combiner);
    int ints[2] = {-7, -7};
    MPI_Datatype none;
    if (c == combiner && MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, &none) != MPI_SUCCESS)
        MT_ERR(errs, "%s: Type_get_contents failed", what);
    if (combiner == MPI_COMBINER_F90_INTEGER ? ints[0] != r : ints[0] != p || ints[1] != r)
        MT_ERR(errs, "%s: contents (%d, %d), expected p %d r %d", what, ints[0], ints[1], p, r);
    MPI_Datatype again;
    if (combiner == MPI_COMBINER_F90_REAL)
        MPI_Type_create_f90_real(p, r, &again);
    else if (combiner == MPI_COMBINER_F90_COMPLEX)
        MPI_Type_create_f90_complex(p, r, &again);
    else
        MPI_Type_create_f90_integer(r, &again);
    if (again != t)
        MT_ERR(errs, "%s: a second call gave another handle", what);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
    errs += expect(t, MPI_REAL8, 8, "match real 8");
    MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 2, &t);
    errs += expect(t, MPI_INTEGER2, 2, "match integer 2");
    MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
    errs += expect(t, MPI_COMPLEX16, 16, "match complex 16");
    MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4, "f90 real p=6");
    MPI_Type_create_f90_real(7, 30, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_REAL, 7, 30, 8, "f90 real p=7 r=30");
    MPI_Datatype r8 = t;
    MPI_Type_create_f90_real(MPI_UNDEFINED, 400, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 400, 16, "f90 real r=400");
    MPI_Type_create_f90_complex(15, 300, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_COMPLEX, 15, 300, 16, "f90 complex p=15");
    MPI_Type_create_f90_integer(9, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 9, 4, "f90 integer r=9");
    MPI_Datatype i4 = t;
    MPI_Type_create_f90_integer(10, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 10, 8, "f90 integer r=10");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "precision 40 did not give MPI_ERR_ARG");
    MPI_Type_create_f90_integer(19, &t);
    errs += expect_f90(t, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 19, 16, "f90 integer r=19");
    if (MPI_Type_create_f90_integer(39, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "integer range 39 did not give MPI_ERR_ARG");
    if (MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t) != MPI_ERR_ARG)
        MT_ERR(errs, "integer size 3 did not give MPI_ERR_ARG");

    /* predefined: not freed */
    t = r8;
    int e = MPI_Type_free(&t), cls = -1;
    MPI_Error_class(e, &cls);
    if (cls != MPI_ERR_TYPE || t != r8)
        MT_ERR(errs, "Type_free of an F90 type: class %d, expected MPI_ERR_TYPE, handle kept", cls);

    /* in communication and reductions, and as the inner type of a derived one */
    double x = rank + 0.5, sum = 0;
    MT_CHECK_RC(errs, MPI_Allreduce(&x, &sum, 1, r8, MPI_SUM, MPI_COMM_WORLD));
    if (sum != n * (n - 1) / 2.0 + 0.5 * n)
        MT_ERR(errs, "Allreduce SUM on an F90 real: %g, expected %g", sum, n * (n - 1) / 2.0 + 0.5 * n);
    int v[3] = {rank, rank + 1, rank + 2}, w[3] = {-1, -1, -1}, next = (rank + 1) % n, prev = (rank + n - 1) % n;
    MPI_Datatype three;
    MPI_Type_contiguous(3, i4, &three);
    MPI_Type_commit(&three);
    MT_CHECK_RC(errs, MPI_Sendrecv(v, 1, three, next, 0, w, 1, three, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (int i = 0; i < 3; i++)
        MT_CHECK_INT(errs, "Sendrecv of 3 F90 integers", prev + i, w[i]);
    int cnt;
    MPI_Aint none_a;
    MPI_Datatype inner = MPI_DATATYPE_NULL;
    MPI_Type_get_contents(three, 1, 0, 1, &cnt, &none_a, &inner);
    if (inner != i4)
        MT_ERR(errs, "Type_get_contents of a contiguous F90 integer: another handle");
    MPI_Type_free(&three);
    return mt_finish(errs);
}
