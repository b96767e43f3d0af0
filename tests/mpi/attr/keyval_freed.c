/* SPDX-License-Identifier: BSD-3-Clause */
/* Keyvals freed while attributes use them, counted by their attributes as MPICH and Open MPI do (MPICH's
 * attr/fkeyval, fkeyvalcomm, keyval_double_free*): after MPI_Keyval_free the attribute still runs its copy
 * callback on MPI_Comm_dup and its delete callback on MPI_Comm_free; the program may still delete it with the
 * old handle (MPI_Attr_delete, MPI_Comm_delete_attr), read it, and free the keyval again (nothing happens);
 * once its last attribute is gone the handle is invalid (MPI_ERR_KEYVAL).  A delete callback that frees its
 * own keyval, for communicators, datatypes and windows, then the program freeing it twice more.  And
 * attributes on a datatype that is not committed (MPICH's attr/attr2type): set, get, copied by
 * MPI_Type_dup, deleted by MPI_Type_free. */
#include "mtest.h"

typedef struct counts {
    int copies, deletes, value;
} counts;

static int copy_fn(MPI_Comm old, int kv, void *extra, void *in, void *out, int *flag)
{
    ((counts *)in)->copies++;
    ((counts *)in)->value++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm c, int kv, void *val, void *extra)
{
    ((counts *)val)->deletes++;
    ((counts *)val)->value--;
    return MPI_SUCCESS;
}

/* Delete callbacks that free their own keyval (the handle they get is a copy). */
static int comm_self_free(MPI_Comm c, int kv, void *val, void *extra)
{
    (*(int *)val)++;
    return MPI_Comm_free_keyval(&kv);
}

static int type_self_free(MPI_Datatype t, int kv, void *val, void *extra)
{
    (*(int *)val)++;
    return MPI_Type_free_keyval(&kv);
}

static int win_self_free(MPI_Win w, int kv, void *val, void *extra)
{
    (*(int *)val)++;
    return MPI_Win_free_keyval(&kv);
}

static int type_copy(MPI_Datatype old, int kv, void *extra, void *in, void *out, int *flag)
{
    (*(int *)in)++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype t, int kv, void *val, void *extra)
{
    (*(int *)val)--;
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, flag, kv, saved;
    void *val;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

    /* MPI-1 forms on a duplicate, the keyval freed at once */
    counts c = {0, 0, 1};
    MPI_Comm comm, dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MT_CHECK_RC(errs, MPI_Keyval_create(copy_fn, delete_fn, &kv, NULL));
    saved = kv;
    MT_CHECK_RC(errs, MPI_Attr_put(comm, kv, &c));
    MT_CHECK_RC(errs, MPI_Keyval_free(&kv));
    MT_CHECK(errs, kv == MPI_KEYVAL_INVALID, "MPI_Keyval_free left 0x%x", kv);
    int others[8];
    for (int i = 0; i < 8; i++) /* new keyvals must not take the freed one's place */
        MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &others[i], NULL);
    MT_CHECK_RC(errs, MPI_Comm_dup(comm, &dup));
    MT_CHECK(errs, c.copies == 1 && c.value == 2, "Comm_dup after Keyval_free: %d copies, value %d", c.copies,
             c.value);
    flag = 0;
    MT_CHECK_RC(errs, MPI_Attr_get(dup, saved, &val, &flag));
    MT_CHECK(errs, flag && val == &c, "the copied attribute read by the freed keyval: flag %d", flag);
    MT_CHECK_RC(errs, MPI_Comm_free(&dup));
    MT_CHECK(errs, c.deletes == 1 && c.value == 1, "Comm_free of the duplicate: %d deletes, value %d", c.deletes,
             c.value);
    MT_CHECK_RC(errs, MPI_Attr_delete(comm, saved));
    MT_CHECK(errs, c.deletes == 2 && c.value == 0, "Attr_delete by the freed keyval: %d deletes, value %d",
             c.deletes, c.value);
    /* the last attribute is gone: so is the keyval */
    MT_CHECK_CLASS(errs, MPI_Attr_get(comm, saved, &val, &flag), MPI_ERR_KEYVAL);
    kv = saved;
    MT_CHECK_CLASS(errs, MPI_Keyval_free(&kv), MPI_ERR_KEYVAL);
    for (int i = 0; i < 8; i++)
        MPI_Keyval_free(&others[i]);

    /* the MPI-2 forms, the attribute deleted by the object's free */
    c = (counts){0, 0, 1};
    MPI_Comm_create_keyval(copy_fn, delete_fn, &kv, NULL);
    saved = kv;
    MPI_Comm_set_attr(comm, kv, &c);
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv));
    kv = saved;
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv)); /* again: still in use, nothing happens */
    MT_CHECK(errs, kv == MPI_KEYVAL_INVALID, "a second Comm_free_keyval left 0x%x", kv);
    MT_CHECK_RC(errs, MPI_Comm_free(&comm));
    MT_CHECK(errs, c.deletes == 1 && c.value == 0, "Comm_free: %d deletes, value %d", c.deletes, c.value);
    MT_CHECK_CLASS(errs, MPI_Comm_delete_attr(MPI_COMM_WORLD, saved), MPI_ERR_KEYVAL);

    /* delete callbacks that free their own keyval, then the program frees it twice more */
    int calls = 0, kv2;
    MPI_Comm_dup(MPI_COMM_SELF, &dup);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_self_free, &kv, NULL);
    kv2 = kv;
    MPI_Comm_set_attr(MPI_COMM_SELF, kv, &calls);
    MPI_Comm_set_attr(dup, kv, &calls);
    MT_CHECK_RC(errs, MPI_Comm_free(&dup)); /* the first free, by the callback */
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv));
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kv2));
    MT_CHECK_INT(errs, "comm delete callbacks", 1, calls); /* MPI_COMM_SELF's runs at MPI_Finalize */

    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    calls = 0;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_self_free, &kv, NULL);
    kv2 = saved = kv;
    MPI_Type_set_attr(MPI_INT, kv, &calls);
    MPI_Type_set_attr(t, kv, &calls);
    MT_CHECK_RC(errs, MPI_Type_free(&t));
    MT_CHECK_RC(errs, MPI_Type_free_keyval(&kv));
    MT_CHECK_RC(errs, MPI_Type_free_keyval(&kv2));
    MT_CHECK_INT(errs, "type delete callbacks", 1, calls);
    MT_CHECK_RC(errs, MPI_Type_delete_attr(MPI_INT, saved));
    MT_CHECK_INT(errs, "type delete callbacks", 2, calls);

    int wbuf[1];
    MPI_Win w1, w2;
    MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w1);
    MPI_Win_create(wbuf, sizeof wbuf, 1, MPI_INFO_NULL, MPI_COMM_SELF, &w2);
    calls = 0;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_self_free, &kv, NULL);
    kv2 = kv;
    MPI_Win_set_attr(w1, kv, &calls);
    MPI_Win_set_attr(w2, kv, &calls);
    MT_CHECK_RC(errs, MPI_Win_free(&w2));
    MT_CHECK_RC(errs, MPI_Win_free_keyval(&kv));
    MT_CHECK_RC(errs, MPI_Win_free_keyval(&kv2));
    MT_CHECK_RC(errs, MPI_Win_free(&w1));
    MT_CHECK_INT(errs, "window delete callbacks", 2, calls);

    /* attributes on a datatype that is not committed */
    int tval = 1;
    MPI_Datatype u, udup;
    MPI_Type_vector(2, 1, 3, MPI_INT, &u);
    MPI_Type_create_keyval(type_copy, type_delete, &kv, NULL);
    MT_CHECK_RC(errs, MPI_Type_set_attr(u, kv, &tval));
    flag = 0;
    MT_CHECK_RC(errs, MPI_Type_get_attr(u, kv, &val, &flag));
    MT_CHECK(errs, flag && val == &tval, "the attribute of an uncommitted type: flag %d", flag);
    MT_CHECK_RC(errs, MPI_Type_dup(u, &udup));
    MT_CHECK_INT(errs, "attribute value after Type_dup of an uncommitted type", 2, tval);
    MT_CHECK_RC(errs, MPI_Type_free(&udup));
    MT_CHECK_RC(errs, MPI_Type_delete_attr(u, kv));
    MT_CHECK_INT(errs, "attribute value after the deletes", 0, tval);
    MT_CHECK_RC(errs, MPI_Type_set_attr(u, kv, &tval));
    MT_CHECK_RC(errs, MPI_Type_free(&u));
    MT_CHECK_INT(errs, "attribute value after Type_free", -1, tval);
    MPI_Type_free_keyval(&kv);
    return mt_finish(errs);
}
