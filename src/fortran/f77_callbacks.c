/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue of the functions that take a procedure: keyvals (their copy and delete subroutines get every
 * argument by reference, the attribute value as an INTEGER(KIND=MPI_ADDRESS_KIND), an INTEGER for MPI-1's
 * MPI_KEYVAL_CREATE, so C trampolines call them, with the Fortran procedures and extra state in a record
 * that is the C keyval's extra state; the keyval is a Fortran one, whose callbacks get values), user operations and error handlers (whose Fortran and C forms take
 * the same pointers: passed as they are), and the predefined copy and delete procedures Fortran names. */
#include <stdint.h>
#include <stdlib.h>
#include "binding/attr_f.h"
#include "fortran/f77.h"
#include "mpi/core/handle.h"

typedef void fcopy_fn(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in, MPI_Aint *out,
                      MPI_Fint *flag, MPI_Fint *ierror);
typedef void fdelete_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Aint *extra, MPI_Fint *ierror);
/* MPI-1's (MPI_KEYVAL_CREATE): INTEGER values and extra state */
typedef void fcopy1_fn(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *in, MPI_Fint *out,
                       MPI_Fint *flag, MPI_Fint *ierror);
typedef void fdelete1_fn(MPI_Fint *obj, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *extra, MPI_Fint *ierror);

/* A keyval made from Fortran (one per keyval; they are few, and live as long as the program may use them) */
typedef struct fkey {
    void (*copy)(void);
    void (*del)(void);
    MPI_Aint extra;
    int mpi1;
} fkey;

static int copy_tramp(int old, int keyval, void *extra, void *in, void *out, int *flag)
{
    const fkey *k = extra;
    MPI_Fint o = old, kv = keyval, f = 0, ierror = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint e = (MPI_Fint)k->extra, vin = (MPI_Fint)(intptr_t)in, vout = 0;
        ((fcopy1_fn *)(void (*)(void))k->copy)(&o, &kv, &e, &vin, &vout, &f, &ierror);
        *(void **)out = (void *)(intptr_t)vout;
    } else {
        MPI_Aint e = k->extra, vin = (MPI_Aint)(intptr_t)in, vout = 0;
        ((fcopy_fn *)(void (*)(void))k->copy)(&o, &kv, &e, &vin, &vout, &f, &ierror);
        *(void **)out = (void *)(intptr_t)vout;
    }
    *flag = f != 0;
    return ierror;
}

static int delete_tramp(int obj, int keyval, void *val, void *extra)
{
    const fkey *k = extra;
    MPI_Fint o = obj, kv = keyval, ierror = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint e = (MPI_Fint)k->extra, v = (MPI_Fint)(intptr_t)val;
        ((fdelete1_fn *)(void (*)(void))k->del)(&o, &kv, &v, &e, &ierror);
    } else {
        MPI_Aint e = k->extra, v = (MPI_Aint)(intptr_t)val;
        ((fdelete_fn *)(void (*)(void))k->del)(&o, &kv, &v, &e, &ierror);
    }
    return ierror;
}

static fkey *new_key(void (*copy)(void), void (*del)(void), MPI_Aint extra, int mpi1)
{
    fkey *k = malloc(sizeof *k);
    if (k)
        *k = (fkey){copy, del, extra, mpi1};
    return k;
}

#define CREATE_KEYVAL(fname, kind, cname)                                                                  \
    F77(fname, (fcopy_fn * copy, fdelete_fn * del, MPI_Fint * keyval, MPI_Aint * extra, MPI_Fint * ierror)) \
    {                                                                                                      \
        fkey *k = new_key((void (*)(void))copy, (void (*)(void))del, *extra, 0);                           \
        *ierror = k ? vmpi_b_keyval_create_f(kind, copy_tramp, delete_tramp, keyval, k, cname) : MPI_ERR_NO_MEM; \
        if (*ierror != MPI_SUCCESS)                                                                        \
            free(k);                                                                                       \
    }

CREATE_KEYVAL(mpi_comm_create_keyval, VMPI_KIND_COMM, "MPI_Comm_create_keyval")
CREATE_KEYVAL(mpi_type_create_keyval, VMPI_KIND_DATATYPE, "MPI_Type_create_keyval")
CREATE_KEYVAL(mpi_win_create_keyval, VMPI_KIND_WIN, "MPI_Win_create_keyval")

F77(mpi_keyval_create, (fcopy1_fn * copy, fdelete1_fn *del, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *ierror))
{
    fkey *k = new_key((void (*)(void))copy, (void (*)(void))del, *extra, 1);
    *ierror = k ? vmpi_b_keyval_create_f(VMPI_KIND_COMM, copy_tramp, delete_tramp, keyval, k, "MPI_Keyval_create")
                : MPI_ERR_NO_MEM;
    if (*ierror != MPI_SUCCESS)
        free(k);
}

/* MPI_OP_CREATE's USER_FN(INVEC, INOUTVEC, LEN, DATATYPE) is MPI_User_function's call */
F77(mpi_op_create, (MPI_User_function * fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror))
{
    *ierror = PMPI_Op_create(fn, *commute != 0, op);
}

/* MPI_OP_CREATE_C (mpi_f08 only): USER_FN's LEN is INTEGER(KIND=MPI_COUNT_KIND), MPI_User_function_c's call */
F77(mpi_op_create_c, (MPI_User_function_c * fn, MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror))
{
    *ierror = PMPI_Op_create_c(fn, *commute != 0, op);
}

/* an error handler subroutine (COMM, ERROR_CODE) is the C handler's call */
F77(mpi_comm_create_errhandler, (MPI_Comm_errhandler_function * fn, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Comm_create_errhandler(fn, errhandler);
}

F77(mpi_win_create_errhandler, (MPI_Win_errhandler_function * fn, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Win_create_errhandler(fn, errhandler);
}

F77(mpi_session_create_errhandler, (MPI_Session_errhandler_function * fn, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Session_create_errhandler(fn, errhandler);
}

/* The predefined procedures (EXTERNAL in mpif.h): handles of every kind are ints, so one of each serves
 * communicators, datatypes and windows. */
VMPI_EXPORT void mpi_comm_null_copy_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in,
                                        MPI_Aint *out, MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    *ierror = MPI_SUCCESS;
}

VMPI_EXPORT void mpi_comm_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Aint *extra, MPI_Aint *in, MPI_Aint *out,
                                  MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra;
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

VMPI_EXPORT void mpi_comm_null_delete_fn_(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Aint *extra,
                                          MPI_Fint *ierror)
{
    (void)obj, (void)keyval, (void)val, (void)extra;
    *ierror = MPI_SUCCESS;
}

VMPI_EXPORT void mpi_dup_fn_(MPI_Fint *old, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *in, MPI_Fint *out,
                             MPI_Fint *flag, MPI_Fint *ierror)
{
    (void)old, (void)keyval, (void)extra;
    *out = *in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

/* the same procedures under the other kinds' names */
#define ALIAS(name, of, type) VMPI_EXPORT __attribute__((alias(#of "_"))) type name##_;
typedef void copy_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void delete_fn(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
ALIAS(mpi_type_null_copy_fn, mpi_comm_null_copy_fn, copy_fn)
ALIAS(mpi_win_null_copy_fn, mpi_comm_null_copy_fn, copy_fn)
ALIAS(mpi_type_dup_fn, mpi_comm_dup_fn, copy_fn)
ALIAS(mpi_win_dup_fn, mpi_comm_dup_fn, copy_fn)
ALIAS(mpi_type_null_delete_fn, mpi_comm_null_delete_fn, delete_fn)
ALIAS(mpi_win_null_delete_fn, mpi_comm_null_delete_fn, delete_fn)
/* MPI-1's: their arguments are INTEGERs, which NULL_COPY and NULL_DELETE never touch */
ALIAS(mpi_null_copy_fn, mpi_comm_null_copy_fn, copy_fn)
ALIAS(mpi_null_delete_fn, mpi_comm_null_delete_fn, delete_fn)

/* Generalized requests: the Fortran query, free and cancel subroutines get the extra state, an
 * INTEGER(KIND=MPI_ADDRESS_KIND), and the status as MPI_STATUS_SIZE INTEGERs, by reference; a record holds
 * them for the C trampolines, freed after the free subroutine ran.  The extra state they get is the program's
 * variable itself, as MPICH passes it (f77/pt2pt/greqf's free subroutine decrements it, and the program checks
 * its own variable). */
typedef void fquery_fn(MPI_Aint *extra, MPI_Fint *status, MPI_Fint *ierror);
typedef void ffree_fn(MPI_Aint *extra, MPI_Fint *ierror);
typedef void fcancel_fn(MPI_Aint *extra, MPI_Fint *complete, MPI_Fint *ierror);
typedef struct fgreq {
    fquery_fn *query;
    ffree_fn *free;
    fcancel_fn *cancel;
    MPI_Aint *extra;
} fgreq;

static int greq_query(void *extra, MPI_Status *status)
{
    fgreq *g = extra;
    MPI_Fint f[MPI_STATUS_SIZE], ierror = MPI_SUCCESS;
    memcpy(f, status, sizeof *status);
    g->query(g->extra, f, &ierror);
    memcpy(status, f, sizeof *status);
    return ierror;
}

static int greq_free(void *extra)
{
    fgreq *g = extra;
    MPI_Fint ierror = MPI_SUCCESS;
    g->free(g->extra, &ierror);
    free(g);
    return ierror;
}

static int greq_cancel(void *extra, int complete)
{
    fgreq *g = extra;
    MPI_Fint c = complete != 0, ierror = MPI_SUCCESS;
    g->cancel(g->extra, &c, &ierror);
    return ierror;
}

F77(mpi_grequest_start, (fquery_fn * query, ffree_fn *freefn, fcancel_fn *cancel, MPI_Aint *extra,
                         MPI_Fint *request, MPI_Fint *ierror))
{
    fgreq *g = malloc(sizeof *g);
    if (g == NULL) {
        *ierror = MPI_ERR_NO_MEM;
        return;
    }
    *g = (fgreq){query, freefn, cancel, extra};
    *ierror = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, g, request);
    if (*ierror != MPI_SUCCESS)
        free(g);
}
