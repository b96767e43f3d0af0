/* SPDX-License-Identifier: BSD-3-Clause */
/* A program of the MPI-5.0 standard ABI: the functions it gives MPI get the ABI's handles, error codes and
 * statuses.  A reduction function (int and large-count) sees the ABI's datatype; an error handler the ABI's
 * communicator and error class; attribute copy and delete functions the ABI's communicator and keyval, with
 * their extra state, and the predefined MPI_COMM_DUP_FN / MPI_COMM_NULL_DELETE_FN; a generalized request's
 * query function fills an ABI status.  Ranks migrate between the uses (AMPI_Migrate: the functions are in
 * the rank's copy of the program, vmpi keeps calling them through libmpi_abi). */
#include <mpi.h>
#include "mtest.h"

int AMPI_Migrate(MPI_Info hints);

/* what the attribute callbacks saw, through their extra state (no globals: ranks are threads) */
typedef struct state {
    int copies, deletes, bad;
    MPI_Comm expect; /* the communicator the copy function must be given */
} state;

static void sum_doubles(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    if (*dt != MPI_DOUBLE) { /* not the ABI's handle: poison the result, the check below sees it */
        ((double *)inout)[0] = -1e300;
        return;
    }
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((double *)in)[i];
}

static void max_pairs_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    int *a = in, *b = inout;
    if (*dt != MPI_2INT) {
        b[0] = -1000000;
        return;
    }
    for (MPI_Count i = 0; i < 2 * *len; i++)
        b[i] = a[i] > b[i] ? a[i] : b[i];
}

/* records its call in the communicator's name: the handle and the error class it was given */
static void on_error(MPI_Comm *comm, int *code, ...)
{
    int cls = -1;
    MPI_Error_class(*code, &cls);
    char name[MPI_MAX_OBJECT_NAME];
    snprintf(name, sizeof name, "handled class %d", cls);
    MPI_Comm_set_name(*comm, name);
}

static int copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    state *s = extra;
    s->copies++;
    if (oldcomm != s->expect || keyval == MPI_KEYVAL_INVALID)
        s->bad++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    state *s = extra;
    s->deletes++;
    if (comm == MPI_COMM_NULL || value != (void *)s)
        s->bad++;
    return MPI_SUCCESS;
}

static int refusing_copy(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    return MPI_ERR_OTHER; /* the dup fails with this class */
}

typedef struct greq_state {
    int source, freed;
} greq_state;

static int query_fn(void *extra, MPI_Status *status)
{
    status->MPI_SOURCE = ((greq_state *)extra)->source;
    status->MPI_TAG = 77;
    status->MPI_ERROR = MPI_SUCCESS;
    MPI_Status_set_elements(status, MPI_BYTE, 12);
    MPI_Status_set_cancelled(status, 0);
    return MPI_SUCCESS;
}
static int free_fn(void *extra)
{
    ((greq_state *)extra)->freed++;
    return MPI_SUCCESS;
}
static int cancel_fn(void *extra, int complete) { return MPI_SUCCESS; }

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, errs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* reductions with user functions */
    MPI_Op sum, pmax;
    MT_CHECK_RC(errs, MPI_Op_create(sum_doubles, 1, &sum));
    MT_CHECK_RC(errs, MPI_Op_create_c(max_pairs_c, 1, &pmax));
    double *d = mt_malloc(sizeof(double) * 100), *r = mt_malloc(sizeof(double) * 100);
    for (int i = 0; i < 100; i++)
        d[i] = rank + i;
    AMPI_Migrate(MPI_INFO_NULL);
    MT_CHECK_RC(errs, MPI_Allreduce(d, r, 100, MPI_DOUBLE, sum, MPI_COMM_WORLD));
    for (int i = 0; i < 100; i++)
        MT_CHECK(errs, r[i] == (double)size * (size - 1) / 2 + (double)size * i, "user sum [%d]: %g", i, r[i]);
    int pair[2] = {rank, -rank}, best[2];
    MT_CHECK_RC(errs, MPI_Allreduce(pair, best, 1, MPI_2INT, pmax, MPI_COMM_WORLD));
    MT_CHECK_INT(errs, "user max_c [0]", size - 1, best[0]);
    MT_CHECK_INT(errs, "user max_c [1]", 0, best[1]);
    MT_CHECK_RC(errs, MPI_Op_free(&sum));
    MT_CHECK_RC(errs, MPI_Op_free(&pmax));
    MT_CHECK(errs, sum == MPI_OP_NULL, "MPI_Op_free left %p", (void *)sum);

    /* an error handler: called with the ABI's communicator and error code, then the call returns the code */
    MPI_Comm dup;
    MPI_Errhandler eh;
    MT_CHECK_RC(errs, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    MT_CHECK_RC(errs, MPI_Comm_create_errhandler(on_error, &eh));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(dup, eh));
    MT_CHECK_RC(errs, MPI_Errhandler_free(&eh));
    AMPI_Migrate(MPI_INFO_NULL);
    int x = 0;
    MT_CHECK_CLASS(errs, MPI_Send(&x, 1, MPI_INT, size, 0, dup), MPI_ERR_RANK);
    char name[MPI_MAX_OBJECT_NAME] = "";
    int len = 0;
    MT_CHECK_RC(errs, MPI_Comm_get_name(dup, name, &len));
    char want[64];
    snprintf(want, sizeof want, "handled class %d", MPI_ERR_RANK);
    MT_CHECK(errs, strcmp(name, want) == 0, "the error handler's record: '%s', expected '%s'", name, want);
    MPI_Errhandler got;
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(dup, &got));
    MT_CHECK(errs, got != MPI_ERRORS_ARE_FATAL && got != MPI_ERRORS_RETURN && got != MPI_ERRHANDLER_NULL,
             "the communicator's handler is a predefined one: %p", (void *)got);
    MPI_Errhandler_free(&got);

    /* attribute keyvals: the program's functions with its extra state */
    state s = {0, 0, 0, dup};
    int key = MPI_KEYVAL_INVALID, dupkey = MPI_KEYVAL_INVALID, nokey = MPI_KEYVAL_INVALID;
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(copy_fn, delete_fn, &key, &s));
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &dupkey, NULL));
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(refusing_copy, MPI_COMM_NULL_DELETE_FN, &nokey, NULL));
    MT_CHECK(errs, key != MPI_KEYVAL_INVALID && dupkey != MPI_KEYVAL_INVALID, "keyvals not made");
    MT_CHECK_RC(errs, MPI_Comm_set_attr(dup, key, &s));
    MT_CHECK_RC(errs, MPI_Comm_set_attr(dup, dupkey, &x));
    MPI_Comm dup2;
    MT_CHECK_RC(errs, MPI_Comm_dup(dup, &dup2));
    MT_CHECK_INT(errs, "copy function calls", 1, s.copies);
    void *v = NULL;
    int flag = 0;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(dup2, dupkey, &v, &flag));
    MT_CHECK(errs, flag && v == &x, "MPI_COMM_DUP_FN's copy: flag %d value %p", flag, v);
    AMPI_Migrate(MPI_INFO_NULL);
    MT_CHECK_RC(errs, MPI_Comm_free(&dup2));
    MT_CHECK_INT(errs, "delete function calls after freeing the copy", 1, s.deletes);
    MT_CHECK_RC(errs, MPI_Comm_delete_attr(dup, key));
    MT_CHECK_INT(errs, "delete function calls after MPI_Comm_delete_attr", 2, s.deletes);
    MT_CHECK_INT(errs, "callbacks given wrong arguments", 0, s.bad);
    /* a copy function that fails fails the dup, with its error class */
    MT_CHECK_RC(errs, MPI_Comm_set_attr(dup, nokey, &x));
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    MPI_Comm dup3 = MPI_COMM_NULL;
    MT_CHECK_CLASS(errs, MPI_Comm_dup(dup, &dup3), MPI_ERR_OTHER);
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&key));
    MT_CHECK_INT(errs, "MPI_Comm_free_keyval", MPI_KEYVAL_INVALID, key);
    MPI_Comm_free_keyval(&dupkey);
    MPI_Comm_free_keyval(&nokey);
    MT_CHECK_RC(errs, MPI_Comm_free(&dup));

    /* a generalized request: the query function fills the ABI's status */
    greq_state g = {rank, 0};
    MPI_Request greq;
    MT_CHECK_RC(errs, MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, &greq));
    MT_CHECK_RC(errs, MPI_Grequest_complete(greq));
    MPI_Status st;
    MT_CHECK_RC(errs, MPI_Wait(&greq, &st));
    MT_CHECK_INT(errs, "generalized request's source", rank, st.MPI_SOURCE);
    MT_CHECK_INT(errs, "generalized request's tag", 77, st.MPI_TAG);
    int n = -1;
    MT_CHECK_RC(errs, MPI_Get_elements(&st, MPI_BYTE, &n));
    MT_CHECK_INT(errs, "generalized request's elements", 12, n);
    MT_CHECK_INT(errs, "free function calls", 1, g.freed);
    free(d);
    free(r);
    return mt_finish(errs);
}
