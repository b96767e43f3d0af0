/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's MPI_Remove_error_class, MPI_Remove_error_code and MPI_Remove_error_string: a string goes first,
 * then the codes, then their class; each removed value is unknown afterwards (MPI_Error_class fails on it)
 * until an addition gives it again (the lowest first); out of order, a second removal, a predefined
 * class, a class passed as a code (and the other way round) and a code without a string are refused with
 * MPI_ERR_ARG; MPI_LASTUSEDCODE keeps the largest value given; classes and codes added and removed 10,000
 * times (MPICH's errhan/adderr) take the same values each time. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, cls, code, code2, c, len;
    char s[MPI_MAX_ERROR_STRING];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MT_CHECK_RC(errs, MPI_Add_error_class(&cls));
    MT_CHECK_RC(errs, MPI_Add_error_code(cls, &code));
    MT_CHECK_RC(errs, MPI_Add_error_code(MPI_ERR_OTHER, &code2)); /* a code of a predefined class */
    MT_CHECK_RC(errs, MPI_Add_error_string(code, "my code"));
    MT_CHECK_CLASS(errs, MPI_Remove_error_class(cls), MPI_ERR_ARG);     /* it has a code */
    MT_CHECK_CLASS(errs, MPI_Remove_error_code(code), MPI_ERR_ARG);     /* it has a string */
    MT_CHECK_CLASS(errs, MPI_Remove_error_code(cls), MPI_ERR_ARG);      /* a class, not a code */
    MT_CHECK_CLASS(errs, MPI_Remove_error_class(code), MPI_ERR_ARG);    /* a code, not a class */
    MT_CHECK_CLASS(errs, MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG); /* predefined */
    MT_CHECK_CLASS(errs, MPI_Remove_error_string(MPI_ERR_ARG), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Remove_error_string(code2), MPI_ERR_ARG);  /* it has no string */
    MT_CHECK_RC(errs, MPI_Remove_error_string(code));
    MT_CHECK_CLASS(errs, MPI_Remove_error_string(code), MPI_ERR_ARG);   /* gone already */
    MT_CHECK_RC(errs, MPI_Error_string(code, s, &len));
    MT_CHECK(errs, strcmp(s, "my code") != 0, "the removed string is still there: '%s'", s);
    MT_CHECK_RC(errs, MPI_Remove_error_code(code));
    MT_CHECK_CLASS(errs, MPI_Error_class(code, &c), MPI_ERR_ARG);       /* unknown now */
    MT_CHECK_CLASS(errs, MPI_Remove_error_code(code), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Remove_error_class(cls));
    MT_CHECK_CLASS(errs, MPI_Error_class(cls, &c), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Add_error_code(cls, &c), MPI_ERR_ARG);      /* no class to add to */
    MT_CHECK_RC(errs, MPI_Error_class(code2, &c));
    MT_CHECK_INT(errs, "the other code's class", MPI_ERR_OTHER, c);
    MT_CHECK_RC(errs, MPI_Remove_error_code(code2));
    int again, *last, flag;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
    int top = flag ? *last : -1;
    MT_CHECK(errs, top == code2, "MPI_LASTUSEDCODE %d, expected the largest value given, %d", top, code2);
    MT_CHECK_RC(errs, MPI_Add_error_class(&again));
    MT_CHECK(errs, again == cls, "the lowest removed value (%d) not given again: %d", cls, again);
    MT_CHECK_RC(errs, MPI_Error_class(again, &c));
    MT_CHECK_INT(errs, "the class of a value given again", again, c);
    MT_CHECK_RC(errs, MPI_Error_string(again, s, &len));
    MT_CHECK(errs, len == 0, "a value given again has the old string: '%s'", s);
    MT_CHECK(errs, *last == top, "MPI_LASTUSEDCODE %d, expected %d", *last, top);
    MT_CHECK_RC(errs, MPI_Remove_error_class(again));

    /* add and remove, again and again: the same values, no growth */
    enum { NCLS = 4, NCODES = 3 };
    int first[NCLS][NCODES + 1];
    for (int k = 0; k < 10000 && errs == 0; k++) {
        int v[NCLS][NCODES + 1];
        for (int i = 0; i < NCLS; i++) {
            MT_CHECK_RC(errs, MPI_Add_error_class(&v[i][0]));
            for (int j = 1; j <= NCODES; j++) {
                MT_CHECK_RC(errs, MPI_Add_error_code(v[i][0], &v[i][j]));
                MT_CHECK_RC(errs, MPI_Add_error_string(v[i][j], "again"));
            }
        }
        if (k == 0)
            memcpy(first, v, sizeof v);
        MT_CHECK(errs, memcmp(first, v, sizeof v) == 0, "round %d gave other values (class %d, first %d)", k,
                 v[0][0], first[0][0]);
        for (int i = 0; i < NCLS; i++) {
            MT_CHECK_CLASS(errs, MPI_Remove_error_class(v[i][0]), MPI_ERR_ARG); /* its codes are still there */
            for (int j = 1; j <= NCODES; j++) {
                MT_CHECK_RC(errs, MPI_Remove_error_string(v[i][j]));
                MT_CHECK_RC(errs, MPI_Remove_error_code(v[i][j]));
            }
            MT_CHECK_RC(errs, MPI_Remove_error_class(v[i][0]));
        }
    }
    MT_CHECK(errs, *last <= top + NCLS * (NCODES + 1), "MPI_LASTUSEDCODE grew to %d (from %d)", *last, top);
    return mt_finish(errs);
}
