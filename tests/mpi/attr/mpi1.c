/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-1 forms still in MPI-3.1: Keyval_create with MPI_NULL_COPY_FN / MPI_DUP_FN and a counting delete
 * function, Attr_put (over a value: the delete function gets the old one), Attr_get, Attr_delete,
 * Keyval_free; their keyvals are communicator keyvals (usable with Comm_get_attr and the other way round);
 * MPI_ERR_KEYVAL and MPI_ERR_COMM errors.  Each rank's values are its own. */
#include <stdint.h>
#include "mtest.h"

typedef struct cb_state {
    int deletes;
    void *val;
    int comm;
} cb_state;

static int del_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    cb_state *s = extra;
    s->deletes++;
    s->val = val;
    s->comm = comm;
    return MPI_SUCCESS;
}

#define V(x) ((void *)(intptr_t)(x))

int main(int argc, char **argv)
{
    int errs = 0, rank, flag, k1, k2, k3;
    void *val;
    cb_state st = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MT_CHECK_RC(errs, MPI_Keyval_create(MPI_NULL_COPY_FN, del_fn, &k1, &st));
    MT_CHECK_RC(errs, MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &k2, NULL));
    MT_CHECK(errs, k1 != MPI_KEYVAL_INVALID && k2 != MPI_KEYVAL_INVALID && k1 != k2, "keyvals 0x%x 0x%x", k1, k2);
    MT_CHECK_RC(errs, MPI_Attr_put(MPI_COMM_WORLD, k1, V(rank + 1)));
    MT_CHECK_RC(errs, MPI_Attr_put(MPI_COMM_WORLD, k2, V(rank + 2)));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Attr_get(MPI_COMM_WORLD, k1, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank + 1), "Attr_get k1: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, k2, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank + 2), "Comm_get_attr of an Attr_put value: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Attr_put(MPI_COMM_WORLD, k1, V(rank + 10)));
    MT_CHECK(errs, st.deletes == 1 && st.val == V(rank + 1) && st.comm == MPI_COMM_WORLD,
             "Attr_put over a value: %d deletes, old value %p", st.deletes, st.val);
    MT_CHECK_RC(errs, MPI_Attr_delete(MPI_COMM_WORLD, k1));
    MT_CHECK(errs, st.deletes == 2 && st.val == V(rank + 10), "Attr_delete: %d deletes, value %p", st.deletes, st.val);
    MT_CHECK_RC(errs, MPI_Attr_get(MPI_COMM_WORLD, k1, &val, &flag));
    MT_CHECK(errs, !flag, "attribute left after Attr_delete");

    /* a Comm_create_keyval keyval works with the MPI-1 calls */
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &k3, &st));
    MT_CHECK_RC(errs, MPI_Attr_put(MPI_COMM_SELF, k3, V(-rank)));
    MT_CHECK_RC(errs, MPI_Attr_get(MPI_COMM_SELF, k3, &val, &flag));
    MT_CHECK(errs, flag && val == V(-rank), "Attr_get of a Comm_create_keyval key: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, k3));
    MT_CHECK(errs, st.deletes == 3 && st.comm == MPI_COMM_SELF, "delete %d on 0x%x", st.deletes, st.comm);

    /* errors */
    MT_CHECK_CLASS(errs, MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, V(1)), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Attr_delete(MPI_COMM_WORLD, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Attr_put(MPI_COMM_NULL, k1, V(1)), MPI_ERR_COMM);
    MT_CHECK_CLASS(errs, MPI_Attr_get(MPI_COMM_NULL, k1, &val, &flag), MPI_ERR_COMM);
    MT_CHECK_RC(errs, MPI_Keyval_free(&k1));
    MT_CHECK(errs, k1 == MPI_KEYVAL_INVALID, "Keyval_free left 0x%x", k1);
    MT_CHECK_CLASS(errs, MPI_Keyval_free(&k1), MPI_ERR_KEYVAL);
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&k3));
    MT_CHECK_RC(errs, MPI_Keyval_free(&k2)); /* the WORLD attribute of k2 stays until MPI_Finalize */
    return mt_finish(errs);
}
