/* SPDX-License-Identifier: BSD-3-Clause */
/* The attribute hooks of src/mpi/core/attr.h, called as Comm_dup/Type_dup and Comm_free/Type_free will call
 * them, on made-up object handles (the hooks only use handles as table keys).  A rank program linked with
 * the library's objects, so it can call internal functions; keyvals come from the MPI calls.
 *   copy_all: copy callbacks run in set order with (old object, keyval, extra_state, value), a copy is
 *   attached only when the callback sets flag, MPI_COMM_DUP_FN/NULL_COPY_FN behave, the old object keeps its
 *   attributes, a freed keyval's attribute is still copied, and a failing copy callback makes copy_all return
 *   its code with the copies made so far deleted again (their delete callbacks run);
 *   delete_all: last set first, a failing delete callback stops it with its code (that attribute and the
 *   earlier ones stay), and callbacks may read and delete attributes of the object being deleted.
 * Every rank does all of it with its own values on the same handles at the same time. */
#include <stdint.h>
#include "mpi/core/attr.h"
#include "mpi/core/handle.h"
#include "mtest.h"

#define MAXLOG 32
typedef struct cb_state {
    int copies, deletes;
    int obj, keyval;
    void *val;
    int fail_copy, fail_delete;
    int log[MAXLOG]; /* delete callbacks: the values deleted, in order */
    int nlog;
    int peek_key; /* delete callback: read this key of the object (its value lands in peeked) */
    void *peeked;
    int peek_flag;
    bool peek_fortran;
} cb_state;

static int copy_fn(MPI_Comm obj, int keyval, void *extra, void *in, void *out, int *flag)
{
    cb_state *s = extra;
    s->copies++;
    s->obj = obj;
    s->keyval = keyval;
    s->val = in;
    if (s->fail_copy)
        return s->fail_copy;
    *(void **)out = (void *)((intptr_t)in + 1000);
    *flag = 1;
    return MPI_SUCCESS;
}

static int del_fn(MPI_Comm obj, int keyval, void *val, void *extra)
{
    cb_state *s = extra;
    s->deletes++;
    s->obj = obj;
    s->keyval = keyval;
    s->val = val;
    if (s->nlog < MAXLOG)
        s->log[s->nlog++] = (int)(intptr_t)val;
    if (s->peek_key != MPI_KEYVAL_INVALID)
        vmpi_attr_get(obj, s->peek_key, &s->peeked, &s->peek_flag, &s->peek_fortran);
    return s->fail_delete;
}

#define V(x) ((void *)(intptr_t)(x))

static int has(int obj, int key, void *want, const char *what)
{
    int errs = 0, flag = -1;
    void *v = NULL;
    bool fortran = true;
    MT_CHECK_RC(errs, vmpi_attr_get(obj, key, &v, &flag, &fortran));
    MT_CHECK(errs, !fortran, "%s: a C attribute reads as a Fortran one", what);
    if (want == NULL)
        MT_CHECK(errs, !flag, "%s: attribute present (%p), expected none", what, v);
    else
        MT_CHECK(errs, flag && v == want, "%s: flag %d value %p, expected %p", what, flag, v, want);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, kdup, knull, kpre, kfail, ktype;
    cb_state sd = {.peek_key = MPI_KEYVAL_INVALID}, sn = {.peek_key = MPI_KEYVAL_INVALID},
             sf = {.peek_key = MPI_KEYVAL_INVALID}, st = {.peek_key = MPI_KEYVAL_INVALID};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const int OLD = VMPI_HANDLE(VMPI_KIND_COMM, 1000), NEW = OLD + 1, NEW2 = OLD + 2, NEW3 = OLD + 3;
    const int TOLD = VMPI_HANDLE(VMPI_KIND_DATATYPE, 5000), TNEW = TOLD + 1;
    const int r = rank * 10;

    MT_CHECK_RC(errs, MPI_Comm_create_keyval(copy_fn, del_fn, &kdup, &sd));
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &knull, &sn));
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kpre, NULL));
    MT_CHECK_RC(errs, MPI_Comm_create_keyval(copy_fn, del_fn, &kfail, &sf));
    MT_CHECK_RC(errs, MPI_Type_create_keyval(copy_fn, (MPI_Type_delete_attr_function *)del_fn, &ktype, &st));

    /* copy_all */
    MT_CHECK_RC(errs, vmpi_attr_set(OLD, kdup, V(r + 1), false));
    MT_CHECK_RC(errs, vmpi_attr_set(OLD, knull, V(r + 2), false));
    MT_CHECK_RC(errs, vmpi_attr_set(OLD, kpre, V(r + 3), false));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, vmpi_attr_copy_all(OLD, NEW));
    MT_CHECK(errs, sd.copies == 1 && sd.obj == OLD && sd.keyval == kdup && sd.val == V(r + 1),
             "copy callback: %d calls, last (0x%x, 0x%x, %p)", sd.copies, sd.obj, sd.keyval, sd.val);
    errs += has(NEW, kdup, V(r + 1001), "NEW, copied by the callback");
    errs += has(NEW, knull, NULL, "NEW, MPI_COMM_NULL_COPY_FN");
    errs += has(NEW, kpre, V(r + 3), "NEW, MPI_COMM_DUP_FN");
    errs += has(OLD, kdup, V(r + 1), "OLD after the copy");
    errs += has(OLD, knull, V(r + 2), "OLD after the copy");
    MT_CHECK_INT(errs, "delete calls during a copy", 0, sd.deletes + sn.deletes);

    /* delete_all: last set first; a delete callback can still read the object's other attributes */
    sd.peek_key = kpre;
    MT_CHECK_RC(errs, vmpi_attr_delete_all(NEW));
    MT_CHECK(errs, sd.deletes == 1 && sd.obj == NEW && sd.val == V(r + 1001), "delete_all: %d calls, (0x%x, %p)",
             sd.deletes, sd.obj, sd.val);
    MT_CHECK(errs, !sd.peek_flag, "kpre (set after kdup) was not deleted first");
    errs += has(NEW, kdup, NULL, "NEW after delete_all");
    errs += has(NEW, kpre, NULL, "NEW after delete_all");
    sd.peek_key = MPI_KEYVAL_INVALID;
    MT_CHECK_RC(errs, vmpi_attr_delete_all(NEW)); /* nothing left: no callback */
    MT_CHECK_INT(errs, "delete calls of an empty delete_all", 1, sd.deletes);

    /* a failing copy: its code, and NEW2 is left with nothing (the copies made before were deleted) */
    MT_CHECK_RC(errs, vmpi_attr_set(OLD, kfail, V(r + 4), false));
    sf.fail_copy = MPI_ERR_OTHER;
    MT_CHECK_INT(errs, "copy_all with a failing callback", MPI_ERR_OTHER, vmpi_attr_copy_all(OLD, NEW2));
    MT_CHECK(errs, sd.copies == 2 && sd.deletes == 2 && sd.val == V(r + 1001) && sd.obj == NEW2,
             "the copy made before the failure: %d copies %d deletes, last (0x%x, %p)", sd.copies, sd.deletes, sd.obj,
             sd.val);
    errs += has(NEW2, kdup, NULL, "NEW2 after a failed copy");
    errs += has(NEW2, kpre, NULL, "NEW2 after a failed copy");
    errs += has(NEW2, kfail, NULL, "NEW2 after a failed copy");
    sf.fail_copy = MPI_SUCCESS;

    /* a freed keyval's attribute is still copied and deleted */
    int kdup_handle = kdup;
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kdup));
    MT_CHECK_RC(errs, vmpi_attr_copy_all(OLD, NEW3));
    errs += has(NEW3, kdup_handle, V(r + 1001), "NEW3: copy through a freed keyval");
    errs += has(NEW3, kfail, V(r + 1004), "NEW3: kfail copied");

    /* a failing delete stops delete_all; that one and the ones set before it stay */
    sf.fail_delete = MPI_ERR_OTHER;
    int before = sd.deletes;
    MT_CHECK_INT(errs, "delete_all with a failing callback", MPI_ERR_OTHER, vmpi_attr_delete_all(NEW3));
    errs += has(NEW3, kfail, V(r + 1004), "NEW3 after a failed delete_all");
    errs += has(NEW3, kdup_handle, V(r + 1001), "NEW3 after a failed delete_all");
    MT_CHECK_INT(errs, "deletes of attributes set before the failing one", before, sd.deletes);
    sf.fail_delete = MPI_SUCCESS;
    MT_CHECK_RC(errs, vmpi_attr_delete_all(NEW3));
    errs += has(NEW3, kfail, NULL, "NEW3 after delete_all");
    MT_CHECK(errs, sd.deletes == before + 1 && sd.val == V(r + 1001), "NEW3's kdup delete: %d, %p", sd.deletes - before,
             sd.val);

    /* datatypes */
    MT_CHECK_RC(errs, vmpi_attr_set(TOLD, ktype, V(r + 7), false));
    MT_CHECK_RC(errs, vmpi_attr_copy_all(TOLD, TNEW));
    MT_CHECK(errs, st.copies == 1 && st.obj == TOLD && st.keyval == ktype, "type copy: %d, (0x%x, 0x%x)", st.copies,
             st.obj, st.keyval);
    errs += has(TNEW, ktype, V(r + 1007), "TNEW");
    errs += has(NEW, ktype, NULL, "no type attribute leaked to a communicator");
    MT_CHECK_RC(errs, vmpi_attr_delete_all(TNEW));
    MT_CHECK_RC(errs, vmpi_attr_delete_all(TOLD));
    MT_CHECK(errs, st.deletes == 2 && st.nlog == 2 && st.log[0] == r + 1007 && st.log[1] == r + 7,
             "type deletes: %d (%d, %d)", st.deletes, st.log[0], st.log[1]);

    /* the old object, last set first: kfail, kpre (no callback), knull, kdup */
    MPI_Barrier(MPI_COMM_WORLD);
    sn.nlog = sd.nlog = sf.nlog = 0;
    MT_CHECK_RC(errs, vmpi_attr_delete_all(OLD));
    MT_CHECK(errs, sf.nlog == 1 && sf.log[0] == r + 4, "OLD: kfail's delete %d (%d)", sf.nlog, sf.log[0]);
    MT_CHECK(errs, sn.nlog == 1 && sn.log[0] == r + 2, "OLD: knull's delete %d (%d)", sn.nlog, sn.log[0]);
    MT_CHECK(errs, sd.nlog == 1 && sd.log[0] == r + 1, "OLD: kdup's delete %d (%d)", sd.nlog, sd.log[0]);
    errs += has(OLD, kpre, NULL, "OLD after delete_all");
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&knull));
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kpre));
    MT_CHECK_RC(errs, MPI_Comm_free_keyval(&kfail));
    MT_CHECK_RC(errs, MPI_Type_free_keyval(&ktype));
    return mt_finish(errs);
}
