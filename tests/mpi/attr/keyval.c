/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicator and datatype keyvals with callbacks that count their calls and record their arguments:
 * get before set, set/get, set over a value (the delete callback gets the old value), Comm_delete_attr (once;
 * a second delete runs nothing), a failing delete callback (the call fails with the callback's code and the
 * attribute stays), a keyval freed while an attribute uses it (the handle becomes MPI_KEYVAL_INVALID, the
 * attribute is deleted at MPI_Finalize with the callback still called; the old handle still reads it and may
 * be freed again), the predefined callbacks, attributes
 * on predefined datatypes, and the MPI_ERR_KEYVAL/COMM/TYPE/ARG errors.  Each rank sets values of its own on
 * the same handles (MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INT) and must read back only its own, across barriers
 * that let the other ranks of its PE run. */
#include <stdint.h>
#include "mtest.h"

typedef struct cb_state {
    int copies, deletes;
    int obj, keyval; /* arguments of the last call */
    void *val;
    int fail; /* code the delete callback returns */
} cb_state;

static int del_fn(MPI_Comm comm, int keyval, void *val, void *extra)
{
    cb_state *s = extra;
    s->deletes++;
    s->obj = comm;
    s->keyval = keyval;
    s->val = val;
    return s->fail;
}

static int copy_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    cb_state *s = extra;
    s->copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int tdel_fn(MPI_Datatype t, int keyval, void *val, void *extra) { return del_fn(t, keyval, val, extra); }

/* a delete callback that uses its own attribute: reads it, then deletes it itself */
typedef struct reent {
    int calls, rc_get, rc_del, flag;
    void *got;
} reent;

static int reent_del(MPI_Comm comm, int keyval, void *val, void *extra)
{
    reent *r = extra;
    r->calls++;
    r->rc_get = MPI_Comm_get_attr(comm, keyval, &r->got, &r->flag);
    r->rc_del = MPI_Comm_delete_attr(comm, keyval);
    return MPI_SUCCESS;
}

#define V(x) ((void *)(intptr_t)(x))

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag, kv = MPI_KEYVAL_INVALID, kv2, tkv, stale;
    void *val;
    cb_state st = {0}, st2 = {0}, tst = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));

    MT_CHECK_RC(errs, MPI_Comm_create_keyval(copy_fn, del_fn, &kv, &st));
    MT_CHECK(errs, kv != MPI_KEYVAL_INVALID, "Comm_create_keyval gave MPI_KEYVAL_INVALID");
    flag = 1;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, &flag));
    MT_CHECK(errs, !flag, "attribute found before it was set");

    /* set, get, replace */
    MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, kv, V(rank * 10 + 1)));
    MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, kv, V(rank * 10 + 3)));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank * 10 + 1), "WORLD value: flag %d val %p, expected %d", flag, val,
             rank * 10 + 1);
    MT_CHECK_INT(errs, "delete calls before any delete", 0, st.deletes);
    MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, kv, V(rank * 10 + 2)));
    MT_CHECK_INT(errs, "delete calls after a replace", 1, st.deletes);
    MT_CHECK(errs, st.obj == MPI_COMM_WORLD && st.keyval == kv && st.val == V(rank * 10 + 1),
             "replace: delete callback got (0x%x, 0x%x, %p), expected (WORLD, 0x%x, %d)", st.obj, st.keyval, st.val,
             kv, rank * 10 + 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank * 10 + 2), "replaced WORLD value: %p, expected %d", val, rank * 10 + 2);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, kv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank * 10 + 3), "SELF value: %p, expected %d", val, rank * 10 + 3);
    MT_CHECK_INT(errs, "copy calls (nothing duplicated)", 0, st.copies);

    /* delete */
    MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    MT_CHECK_INT(errs, "delete calls after Comm_delete_attr", 2, st.deletes);
    MT_CHECK(errs, st.obj == MPI_COMM_WORLD && st.val == V(rank * 10 + 2), "delete got (0x%x, %p)", st.obj, st.val);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv, &val, &flag));
    MT_CHECK(errs, !flag, "attribute still there after Comm_delete_attr");
    MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
    MT_CHECK_INT(errs, "delete calls after deleting a missing attribute", 2, st.deletes);

    /* a failing delete callback: the call fails with its code and the attribute stays */
    st.fail = MPI_ERR_OTHER;
    MT_CHECK_CLASS(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, kv), MPI_ERR_OTHER);
    MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_SELF, kv, V(99)), MPI_ERR_OTHER);
    MT_CHECK_INT(errs, "delete calls after two failing ones", 4, st.deletes);
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, kv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank * 10 + 3), "SELF value after failed deletes: flag %d %p", flag, val);
    st.fail = MPI_SUCCESS;

    /* freeing the keyval: the handle goes, the attribute stays until MPI_Finalize deletes it */
    stale = kv;
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv));
    MT_CHECK(errs, kv == MPI_KEYVAL_INVALID, "Comm_free_keyval left 0x%x", kv);
    MT_CHECK_INT(errs, "delete calls after Comm_free_keyval", 4, st.deletes);
    /* the old handle stays valid while an attribute uses the keyval (as in MPICH and Open MPI): the attribute
     * can be read and deleted, freeing the keyval again does nothing; setting a new value is refused (MPICH
     * takes it) */
    flag = 0;
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, stale, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank * 10 + 3), "SELF value by the freed keyval: flag %d %p", flag, val);
    if (!MT_MPICH_BUGS)
        MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, stale, V(1)), MPI_ERR_KEYVAL);
    int stale2 = stale;
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&stale2));
    MT_CHECK(errs, stale2 == MPI_KEYVAL_INVALID, "a second Comm_free_keyval left 0x%x", stale2);
    MT_CHECK_INT(errs, "delete calls after a second Comm_free_keyval", 4, st.deletes);

    /* the predefined callbacks (MPICH 4.0 defines the null ones as null pointers: not callable) */
    if (!MT_MPICH_BUGS) {
        void *out = NULL;
        flag = -1;
        MT_CHECK_RC(errs, MPI_COMM_DUP_FN(MPI_COMM_WORLD, 0, NULL, V(0x1234), &out, &flag));
        MT_CHECK(errs, flag == 1 && out == V(0x1234), "MPI_COMM_DUP_FN: flag %d out %p", flag, out);
        flag = -1;
        MT_CHECK_RC(errs, MPI_COMM_NULL_COPY_FN(MPI_COMM_WORLD, 0, NULL, V(0x1234), &out, &flag));
        MT_CHECK_INT(errs, "MPI_COMM_NULL_COPY_FN flag", 0, flag);
        MT_CHECK_RC(errs, MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 0, V(1), NULL));
        flag = -1;
        MT_CHECK_RC(errs, MPI_TYPE_DUP_FN(MPI_INT, 0, NULL, V(0x99), &out, &flag));
        MT_CHECK(errs, flag == 1 && out == V(0x99), "MPI_TYPE_DUP_FN: flag %d out %p", flag, out);
        flag = -1;
        MT_CHECK_RC(errs, MPI_TYPE_NULL_COPY_FN(MPI_INT, 0, NULL, V(0x99), &out, &flag));
        MT_CHECK_INT(errs, "MPI_TYPE_NULL_COPY_FN flag", 0, flag);
        MT_CHECK_RC(errs, MPI_TYPE_NULL_DELETE_FN(MPI_INT, 0, V(1), NULL));
        MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv2, NULL));
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, kv2, V(rank)));
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, kv2, V(rank + 1)));
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv2, &val, &flag));
        MT_CHECK(errs, flag && val == V(rank + 1), "null-callback keyval: flag %d %p", flag, val);
        MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_WORLD, kv2));
        MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv2));
    }

    /* a second keyval on the same objects is independent; the freed slot may be reused */
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &kv2, &st2));
    MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, kv2, V(-rank)));
    MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, kv2, &val, &flag));
    MT_CHECK(errs, flag && val == V(-rank), "second keyval on SELF: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, kv2));
    MT_CHECK(errs, st2.deletes == 1 && st2.val == V(-rank) && st2.obj == MPI_COMM_SELF,
             "second keyval's delete: %d calls, (0x%x, %p)", st2.deletes, st2.obj, st2.val);
    MT_CHECK_INT(errs, "first keyval's delete calls", 4, st.deletes);

    /* datatype attributes, on predefined types */
    MT_CHECK_RC(errs, MPI_Type_create_keyval(MPI_TYPE_DUP_FN, tdel_fn, &tkv, &tst));
    MT_CHECK_RC(errs, MPI_Type_set_attr(MPI_INT, tkv, V(rank + 100)));
    MT_CHECK_RC(errs, MPI_Type_set_attr(MPI_DOUBLE, tkv, V(rank + 200)));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Type_get_attr(MPI_INT, tkv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank + 100), "MPI_INT attribute: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Type_get_attr(MPI_DOUBLE, tkv, &val, &flag));
    MT_CHECK(errs, flag && val == V(rank + 200), "MPI_DOUBLE attribute: flag %d %p", flag, val);
    MT_CHECK_RC(errs, MPI_Type_get_attr(MPI_CHAR, tkv, &val, &flag));
    MT_CHECK(errs, !flag, "MPI_CHAR has an attribute it was never given");
    MT_CHECK_RC(errs, MPI_Type_delete_attr(MPI_INT, tkv));
    MT_CHECK(errs, tst.deletes == 1 && tst.obj == MPI_INT && tst.keyval == tkv && tst.val == V(rank + 100),
             "type delete: %d calls, (0x%x, 0x%x, %p)", tst.deletes, tst.obj, tst.keyval, tst.val);
    MT_CHECK_RC(errs, MPI_Type_delete_attr(MPI_DOUBLE, tkv));
    MT_CHECK_INT(errs, "type delete calls", 2, tst.deletes);

    /* callbacks may use the attribute being deleted: no second callback, no loop (MPICH 4.0 recurses) */
    if (!MT_MPICH_BUGS) {
        reent re = {0};
        int rk;
        MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, reent_del, &rk, &re));
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, rk, V(rank + 5)));
        MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, rk));
        MT_CHECK(errs, re.calls == 1 && re.rc_get == MPI_SUCCESS && re.flag && re.got == V(rank + 5) &&
                           re.rc_del == MPI_SUCCESS,
                 "reentrant delete: %d calls, get rc %d flag %d %p, delete rc %d", re.calls, re.rc_get, re.flag,
                 re.got, re.rc_del);
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, rk, &val, &flag));
        MT_CHECK(errs, !flag, "attribute left after a reentrant delete");
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, rk, V(rank + 6)));
        MT_CHECK_RC(errs, MPI_Comm_set_attr(MPI_COMM_SELF, rk, V(rank + 7)));
        MT_CHECK(errs, re.calls == 2 && re.got == V(rank + 6), "reentrant replace: %d calls, old value %p", re.calls,
                 re.got);
        MT_CHECK_RC(errs, MPI_Comm_get_attr(MPI_COMM_SELF, rk, &val, &flag));
        MT_CHECK(errs, flag && val == V(rank + 7), "value after a reentrant replace: flag %d %p", flag, val);
        MT_CHECK_RC(errs, MPI_Comm_delete_attr(MPI_COMM_SELF, rk));
        MT_CHECK_INT(errs, "reentrant callback calls", 3, re.calls);
        MT_CHECK_RC(errs, MPI_Comm_free_keyval(&rk));
    }

    /* errors */
    MT_CHECK_CLASS(errs, MPI_Type_set_attr(MPI_INT, kv2, V(1)), MPI_ERR_KEYVAL);   /* communicator keyval */
    MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, tkv, V(1)), MPI_ERR_KEYVAL); /* datatype keyval */
    MT_CHECK_CLASS(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, tkv, &val, &flag), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &val, &flag), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, V(1)), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE), MPI_ERR_KEYVAL);
    {
        int predef = MPI_TAG_UB;
        MT_CHECK_CLASS(errs, MPI_Comm_free_keyval(&predef), MPI_ERR_KEYVAL);
        MT_CHECK_CLASS(errs, MPI_Type_free_keyval(&kv2), MPI_ERR_KEYVAL);
        MT_CHECK_CLASS(errs, MPI_Comm_free_keyval(&tkv), MPI_ERR_KEYVAL);
    }
    MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, V(1)), MPI_ERR_KEYVAL);
    if (!MT_MPICH_BUGS) /* MPICH 4.0 crashes on a handle of another kind */
        MT_CHECK_CLASS(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, (int)MPI_COMM_WORLD, &val, &flag), MPI_ERR_KEYVAL);
    MT_CHECK_CLASS(errs, MPI_Comm_set_attr(MPI_COMM_NULL, kv2, V(1)), MPI_ERR_COMM);
    MT_CHECK_CLASS(errs, MPI_Comm_get_attr(MPI_COMM_NULL, kv2, &val, &flag), MPI_ERR_COMM);
    MT_CHECK_CLASS(errs, MPI_Type_set_attr(MPI_DATATYPE_NULL, tkv, V(1)), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Type_delete_attr(MPI_DATATYPE_NULL, tkv), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Comm_get_attr(MPI_COMM_WORLD, kv2, &val, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Comm_create_keyval(copy_fn, del_fn, NULL, NULL), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Type_free_keyval(&tkv));
    MT_CHECK(errs, tkv == MPI_KEYVAL_INVALID, "Type_free_keyval left 0x%x", tkv);
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv2));

    int fin = mt_finish(errs);
    /* MPI_Finalize deleted the attribute whose keyval was freed, with its callback */
    if (st.deletes != 5 || st.obj != MPI_COMM_SELF || st.val != V(rank * 10 + 3)) {
        fprintf(stderr, "[rank %d] after MPI_Finalize: %d delete calls (expected 5), last (0x%x, %p), expected "
                        "(SELF, %d)\n", rank, st.deletes, st.obj, st.val, rank * 10 + 3);
        fin = 1;
    }
    return fin;
}
