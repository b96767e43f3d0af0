/* SPDX-License-Identifier: BSD-3-Clause */
/* User error classes, codes and strings: Add_error_class gives classes above MPI_ERR_LASTCODE that are their
 * own class; Add_error_code gives codes of a user or predefined class; Error_class and Error_string work on
 * them (the string is "" until Add_error_string sets it, and may be replaced; strings of
 * MPI_MAX_ERROR_STRING - 1 characters fit).  Errors: a code that is no class, MPI_SUCCESS or an unknown value
 * given to Add_error_code, a string for a predefined code or an unknown value, a string too long, unknown
 * values given to Error_class/Error_string: MPI_ERR_ARG.  Ranks that add in the same order get the same
 * numbers.  The codes go through error handlers: Comm_call_errhandler with MPI_ERRORS_RETURN, and a user
 * handler that receives the user code, from Comm_call_errhandler and from a failing attribute callback that
 * returned it (the failing call returns it too).
 * The handler has no user-data argument: it records its calls in a table indexed by world rank (each rank
 * touches its own slot only, so this is correct with ranks as threads of one process). */
#include <stdint.h>
#include "mtest.h"

#define MAXR 4096
typedef struct {
    int calls, code, cls;
    MPI_Comm comm;
    char str[MPI_MAX_ERROR_STRING];
} record_t;
static record_t records[MAXR];

static void handler(MPI_Comm *comm, int *code, ...)
{
    int rank = 0, len;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank >= MAXR)
        return;
    record_t *r = &records[rank];
    r->calls++;
    r->comm = *comm;
    r->code = *code;
    MPI_Error_class(*code, &r->cls);
    MPI_Error_string(*code, r->str, &len);
}

static int failing_delete(MPI_Comm comm, int keyval, void *val, void *extra) { return *(int *)extra; }

/* the string of `code` must be `want` */
static int check_string(int code, const char *want)
{
    int errs = 0, len = -1;
    char *s = mt_malloc(MPI_MAX_ERROR_STRING);
    memset(s, 'X', MPI_MAX_ERROR_STRING);
    MT_CHECK_RC(errs, MPI_Error_string(code, s, &len));
    MT_CHECK(errs, len == (int)strlen(want) && strcmp(s, want) == 0,
             "Error_string(%d): '%.40s' (len %d), expected '%.40s'", code, s, len, want);
    free(s);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, c1, c2, e1, e2, e3, cls, x;
    char *str = mt_malloc(MPI_MAX_ERROR_STRING + 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    /* classes and codes */
    MT_CHECK_RC(errs, MPI_Add_error_class(&c1));
    MT_CHECK_RC(errs, MPI_Add_error_code(c1, &e1));
    MT_CHECK_RC(errs, MPI_Add_error_class(&c2));
    MT_CHECK_RC(errs, MPI_Add_error_code(MPI_ERR_ARG, &e2));
    MT_CHECK_RC(errs, MPI_Add_error_code(c1, &e3));
    int all[5] = {c1, e1, c2, e2, e3};
    for (int i = 0; i < 5; i++) {
        MT_CHECK(errs, all[i] > MPI_ERR_LASTCODE || MT_MPICH_BUGS, /* MPICH numbers codes of predefined classes low */
                 "added value %d = %d is not above MPI_ERR_LASTCODE", i, all[i]);
        for (int j = 0; j < i; j++)
            MT_CHECK(errs, all[i] != all[j], "values %d and %d are both %d", i, j, all[i]);
    }
    int want_cls[5] = {c1, c1, c2, MPI_ERR_ARG, c1};
    for (int i = 0; i < 5; i++) {
        cls = -1;
        MT_CHECK_RC(errs, MPI_Error_class(all[i], &cls));
        MT_CHECK(errs, cls == want_cls[i], "Error_class(%d) = %d, expected %d", all[i], cls, want_cls[i]);
        if (!MT_MPICH_BUGS) /* MPICH 4.0 gives its class's text, not "" (MPI-3.1 8.5) */
            errs += check_string(all[i], ""); /* no string yet */
    }
    {
        int *last = NULL, flag = 0;
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
        /* vmpi: the largest class or code (they share one numbering); MPICH: the largest class */
        MT_CHECK(errs, flag && *last == (MT_MPICH_BUGS ? c2 : e3), "MPI_LASTUSEDCODE %d, expected %d",
                 flag ? *last : -1, e3);
    }
    /* ranks that add in the same order get the same numbers */
    {
        int lo[5], hi[5];
        MT_CHECK_RC(errs, MPI_Allreduce(all, lo, 5, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Allreduce(all, hi, 5, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
        for (int i = 0; i < 5; i++)
            MT_CHECK(errs, lo[i] == all[i] && hi[i] == all[i], "value %d differs between ranks: %d..%d, mine %d", i,
                     lo[i], hi[i], all[i]);
    }

    /* strings: set, replace, the longest */
    snprintf(str, MPI_MAX_ERROR_STRING, "class one of rank %d", rank);
    MT_CHECK_RC(errs, MPI_Add_error_string(c1, str));
    errs += check_string(c1, str);
    errs += check_string(e1, ""); /* a code does not take its class's string */
    MT_CHECK_RC(errs, MPI_Add_error_string(e1, "first"));
    snprintf(str, MPI_MAX_ERROR_STRING, "code one of rank %d", rank);
    MT_CHECK_RC(errs, MPI_Add_error_string(e1, str));
    errs += check_string(e1, str);
    MT_CHECK_RC(errs, MPI_Add_error_string(e2, "an argument error of the application"));
    if (!MT_MPICH_BUGS) /* MPICH 4.0 gives the class's text for a code of a predefined class */
        errs += check_string(e2, "an argument error of the application");
    memset(str, 's', MPI_MAX_ERROR_STRING - 1);
    str[MPI_MAX_ERROR_STRING - 1] = '\0';
    MT_CHECK_RC(errs, MPI_Add_error_string(c2, str));
    errs += check_string(c2, str);
    str[MPI_MAX_ERROR_STRING - 1] = 't';
    str[MPI_MAX_ERROR_STRING] = '\0';
    if (!MT_MPICH_BUGS) { /* MPICH 4.0 takes (and cuts) a string too long, and takes any class below */
        MT_CHECK_CLASS(errs, MPI_Add_error_string(e3, str), MPI_ERR_ARG);
        errs += check_string(e3, "");
        errs += check_string(MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE: message truncated on receive"); /* unchanged */
        MT_CHECK_CLASS(errs, MPI_Add_error_code(e1, &x), MPI_ERR_ARG);     /* a code, not a class */
        MT_CHECK_CLASS(errs, MPI_Add_error_code(MPI_SUCCESS, &x), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Add_error_code(e3 + 1, &x), MPI_ERR_ARG); /* not added yet */
    }

    /* errors (MPICH 4.0 checks none of them) */
    if (!MT_MPICH_BUGS) {
        MT_CHECK_CLASS(errs, MPI_Add_error_code(-5, &x), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Add_error_string(MPI_ERR_ARG, "mine"), MPI_ERR_ARG); /* predefined */
        MT_CHECK_CLASS(errs, MPI_Add_error_string(MPI_SUCCESS, "mine"), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Add_error_string(e3 + 1, "mine"), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Add_error_string(e1, NULL), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Add_error_class(NULL), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Error_class(e3 + 1, &cls), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Error_string(e3 + 1, str, &x), MPI_ERR_ARG);
        MT_CHECK_CLASS(errs, MPI_Error_class(MPI_T_ERR_PVAR_NO_ATOMIC + 1, &cls), MPI_ERR_ARG);
    }
    {
        int *last = NULL, flag = 0;
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
        MT_CHECK(errs, flag && *last == (MT_MPICH_BUGS ? c2 : e3), "MPI_LASTUSEDCODE after failed calls: %d, "
                 "expected %d", *last, e3);
    }

    /* through error handlers */
    MT_CHECK_RC(errs, MPI_Comm_call_errhandler(MPI_COMM_WORLD, e1)); /* MPI_ERRORS_RETURN: returns */
    if (rank < MAXR) {
        record_t *me = &records[rank];
        memset(me, 0, sizeof *me);
        MPI_Errhandler eh;
        MT_CHECK_RC(errs, MPI_Comm_create_errhandler(handler, &eh));
        MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, eh));
        MT_CHECK_RC(errs, MPI_Comm_call_errhandler(MPI_COMM_SELF, e1));
        snprintf(str, MPI_MAX_ERROR_STRING, "code one of rank %d", rank);
        MT_CHECK(errs, me->calls == 1 && me->code == e1 && me->cls == c1 && me->comm == MPI_COMM_SELF &&
                           strcmp(me->str, str) == 0,
                 "handler: %d calls, code %d class %d comm 0x%x string '%s'; expected code %d class %d '%s'",
                 me->calls, me->code, me->cls, me->comm, me->str, e1, c1, str);
        /* a delete callback that fails with a user code: the call raises it on the communicator */
        int kv, fail = e2;
        MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &kv, &fail));
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, kv, NULL));
        int rc = MPI_Comm_delete_attr(MPI_COMM_SELF, kv);
        MT_CHECK_INT(errs, "Comm_delete_attr with a failing callback returns its code", e2, rc);
        MT_CHECK(errs, me->calls == 2 && me->code == e2 && me->cls == MPI_ERR_ARG &&
                           (MT_MPICH_BUGS || strcmp(me->str, "an argument error of the application") == 0),
                 "handler after the failing callback: %d calls, code %d class %d '%s'", me->calls, me->code,
                 me->cls, me->str);
        fail = MPI_SUCCESS;
        MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, kv));
        MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv));
        MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
        MT_CHECK_RC(errs, MPI_Errhandler_free(&eh));
    }
    free(str);
    return mt_finish(errs);
}
