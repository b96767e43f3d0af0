/* SPDX-License-Identifier: BSD-3-Clause */
/* Attribute caching entry points: communicator and datatype keyvals and attributes, and the MPI-1 forms
 * (Keyval_create, Attr_put...), which are the communicator ones under other names.  A keyval's errors are
 * raised on the communicator when there is one, else on MPI_COMM_WORLD. */
#include <stdint.h>
#include "binding/attr_f.h"
#include "binding/check.h"

static int keyval_create_lang(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, int *keyval,
                              void *extra_state, bool fortran, const char *fn)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, keyval, "keyval")) ||
        (err = vmpi_keyval_create(objkind, copy, del, extra_state, fortran, keyval)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return MPI_SUCCESS;
}

static int keyval_create(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, int *keyval,
                         void *extra_state, const char *fn)
{
    return keyval_create_lang(objkind, copy, del, keyval, extra_state, false, fn);
}

static int keyval_free(int objkind, int *keyval, const char *fn)
{
    VMPI_CHK(ck);
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_ptr(&ck, keyval, "keyval")) ||
        (err = vmpi_chk_keyval(&ck, *keyval, objkind, false, true)) || (err = vmpi_keyval_free(keyval)))
        return vmpi_fail(MPI_COMM_WORLD, err, fn, &ck);
    return MPI_SUCCESS;
}

/* A failure on object `on` of kind `objkind`: a window's handler for windows, else the communicator's. */
static int fail_on(int objkind, int on, int err, const char *fn, const vmpi_chk *ck)
{
    return objkind == VMPI_KIND_WIN ? vmpi_win_fail(on, err, fn, ck) : vmpi_fail(on, err, fn, ck);
}

/* The object checks: a communicator or a window (errors raised on it), or a datatype (committed or not). */
static int check_obj(vmpi_chk *ck, int objkind, int obj, MPI_Comm *raise_on)
{
    *raise_on = MPI_COMM_WORLD;
    if (objkind == VMPI_KIND_COMM) {
        vmpi_comm *c;
        *raise_on = obj;
        return vmpi_chk_comm(ck, obj, &c);
    }
    if (objkind == VMPI_KIND_WIN) {
        vmpi_win *w;
        *raise_on = obj;
        return vmpi_chk_win(ck, obj, &w);
    }
    vmpi_dtype *dt; /* committed or not */
    return vmpi_chk_dt_any(ck, obj, &dt);
}

static int attr_set_lang(int objkind, int obj, int keyval, void *val, bool fortran, const char *fn)
{
    VMPI_CHK(ck);
    MPI_Comm on = MPI_COMM_WORLD;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = check_obj(&ck, objkind, obj, &on)) ||
        (err = vmpi_chk_keyval(&ck, keyval, objkind, false, false)))
        return fail_on(objkind, on, err, fn, &ck);
    if ((err = vmpi_attr_set(obj, keyval, val, fortran))) {
        snprintf(ck.why, sizeof ck.why, "the delete callback of the value replaced returned %d", err);
        return fail_on(objkind, on, err, fn, &ck);
    }
    return MPI_SUCCESS;
}

static int attr_set(int objkind, int obj, int keyval, void *val, const char *fn)
{
    return attr_set_lang(objkind, obj, keyval, val, false, fn);
}

static int attr_get_lang(int objkind, int obj, int keyval, void *val, int *flag, bool *fortran, const char *fn)
{
    VMPI_CHK(ck);
    MPI_Comm on = MPI_COMM_WORLD;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = check_obj(&ck, objkind, obj, &on)) ||
        (err = vmpi_chk_keyval(&ck, keyval, objkind, true, true)) || (err = vmpi_chk_ptr(&ck, val, "attribute_val")) ||
        (err = vmpi_chk_ptr(&ck, flag, "flag")) || (err = vmpi_attr_get(obj, keyval, (void **)val, flag, fortran)))
        return fail_on(objkind, on, err, fn, &ck);
    return MPI_SUCCESS;
}

static int attr_get(int objkind, int obj, int keyval, void *val, int *flag, const char *fn)
{
    bool fortran;
    return attr_get_lang(objkind, obj, keyval, val, flag, &fortran, fn);
}

/* ---- for the Fortran bindings (src/fortran/, binding/attr_f.h) ---- */
int vmpi_b_keyval_create_f(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, int *keyval,
                           void *extra_state, const char *fn)
{
    return keyval_create_lang(objkind, copy, del, keyval, extra_state, true, fn);
}

int vmpi_b_attr_set_f(int objkind, int obj, int keyval, MPI_Aint val, const char *fn)
{
    return attr_set_lang(objkind, obj, keyval, (void *)(intptr_t)val, true, fn);
}

int vmpi_b_attr_get_f(int objkind, int obj, int keyval, MPI_Aint *val, int *flag, const char *fn)
{
    void *v = NULL;
    bool fortran = false;
    /* a window's predefined attributes are the window's (PMPI_Win_get_attr) */
    bool win = objkind == VMPI_KIND_WIN && keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
    int err = win ? PMPI_Win_get_attr(obj, keyval, &v, flag) : attr_get_lang(objkind, obj, keyval, &v, flag, &fortran, fn);
    if (err != MPI_SUCCESS || !*flag)
        return err;
    /* the predefined attributes are C pointers to their values (ints, MPI_WIN_SIZE's an MPI_Aint), but
     * MPI_WIN_BASE, which is the address */
    if (fortran)
        *val = *(MPI_Aint *)v;
    else if (keyval == MPI_WIN_SIZE && win)
        *val = *(MPI_Aint *)v;
    else if ((win && keyval != MPI_WIN_BASE) || vmpi_keyval_predefined(keyval))
        *val = *(int *)v;
    else
        *val = (MPI_Aint)(intptr_t)v;
    return MPI_SUCCESS;
}

static int attr_delete(int objkind, int obj, int keyval, const char *fn)
{
    VMPI_CHK(ck);
    MPI_Comm on = MPI_COMM_WORLD;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = check_obj(&ck, objkind, obj, &on)) ||
        (err = vmpi_chk_keyval(&ck, keyval, objkind, false, true)))
        return fail_on(objkind, on, err, fn, &ck);
    if ((err = vmpi_attr_delete(obj, keyval))) {
        snprintf(ck.why, sizeof ck.why, "the delete callback returned %d", err);
        return fail_on(objkind, on, err, fn, &ck);
    }
    return MPI_SUCCESS;
}

/* ---- communicators ---- */
VMPI_WEAK(Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                            MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                            void *extra_state)
{
    return keyval_create(VMPI_KIND_COMM, comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state,
                         "MPI_Comm_create_keyval");
}

VMPI_WEAK(Comm_free_keyval)
int PMPI_Comm_free_keyval(int *comm_keyval) { return keyval_free(VMPI_KIND_COMM, comm_keyval, "MPI_Comm_free_keyval"); }

VMPI_WEAK(Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return attr_set(VMPI_KIND_COMM, comm, comm_keyval, attribute_val, "MPI_Comm_set_attr");
}

VMPI_WEAK(Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return attr_get(VMPI_KIND_COMM, comm, comm_keyval, attribute_val, flag, "MPI_Comm_get_attr");
}

VMPI_WEAK(Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return attr_delete(VMPI_KIND_COMM, comm, comm_keyval, "MPI_Comm_delete_attr");
}

/* ---- datatypes ---- */
VMPI_WEAK(Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                            MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                            void *extra_state)
{
    return keyval_create(VMPI_KIND_DATATYPE, type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state,
                         "MPI_Type_create_keyval");
}

VMPI_WEAK(Type_free_keyval)
int PMPI_Type_free_keyval(int *type_keyval)
{
    return keyval_free(VMPI_KIND_DATATYPE, type_keyval, "MPI_Type_free_keyval");
}

VMPI_WEAK(Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    return attr_set(VMPI_KIND_DATATYPE, datatype, type_keyval, attribute_val, "MPI_Type_set_attr");
}

VMPI_WEAK(Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    return attr_get(VMPI_KIND_DATATYPE, datatype, type_keyval, attribute_val, flag, "MPI_Type_get_attr");
}

VMPI_WEAK(Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    return attr_delete(VMPI_KIND_DATATYPE, datatype, type_keyval, "MPI_Type_delete_attr");
}

/* ---- MPI-1 forms (deprecated) ---- */
VMPI_WEAK(Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state)
{
    return keyval_create(VMPI_KIND_COMM, copy_fn, delete_fn, keyval, extra_state, "MPI_Keyval_create");
}

VMPI_WEAK(Keyval_free)
int PMPI_Keyval_free(int *keyval) { return keyval_free(VMPI_KIND_COMM, keyval, "MPI_Keyval_free"); }

VMPI_WEAK(Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return attr_set(VMPI_KIND_COMM, comm, keyval, attribute_val, "MPI_Attr_put");
}

VMPI_WEAK(Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return attr_get(VMPI_KIND_COMM, comm, keyval, attribute_val, flag, "MPI_Attr_get");
}

VMPI_WEAK(Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return attr_delete(VMPI_KIND_COMM, comm, keyval, "MPI_Attr_delete"); }

/* ---- windows ---- */
VMPI_WEAK(Win_create_keyval)
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *win_copy_attr_fn, MPI_Win_delete_attr_function *win_delete_attr_fn,
                           int *win_keyval, void *extra_state)
{
    return keyval_create(VMPI_KIND_WIN, win_copy_attr_fn, win_delete_attr_fn, win_keyval, extra_state,
                         "MPI_Win_create_keyval");
}

VMPI_WEAK(Win_free_keyval)
int PMPI_Win_free_keyval(int *win_keyval) { return keyval_free(VMPI_KIND_WIN, win_keyval, "MPI_Win_free_keyval"); }

VMPI_WEAK(Win_set_attr)
int PMPI_Win_set_attr(MPI_Win win, int win_keyval, void *attribute_val)
{
    return attr_set(VMPI_KIND_WIN, win, win_keyval, attribute_val, "MPI_Win_set_attr");
}

VMPI_WEAK(Win_get_attr)
int PMPI_Win_get_attr(MPI_Win win, int win_keyval, void *attribute_val, int *flag)
{
    vmpi_win *w = vmpi_win_get(win);
    if (w && attribute_val && flag && win_keyval >= MPI_WIN_BASE && win_keyval <= MPI_WIN_MODEL) {
        void *v = win_keyval == MPI_WIN_BASE ? w->attr_base
                  : win_keyval == MPI_WIN_SIZE ? (void *)&w->attr_size
                  : win_keyval == MPI_WIN_DISP_UNIT ? (void *)&w->attr_disp_unit
                  : win_keyval == MPI_WIN_CREATE_FLAVOR ? (void *)&w->attr_flavor
                                                        : (void *)&w->attr_model;
        *(void **)attribute_val = v; /* the base itself, pointers to the others (MPI-3.1 11.2.6) */
        *flag = 1;
        return MPI_SUCCESS;
    }
    return attr_get(VMPI_KIND_WIN, win, win_keyval, attribute_val, flag, "MPI_Win_get_attr");
}

VMPI_WEAK(Win_delete_attr)
int PMPI_Win_delete_attr(MPI_Win win, int win_keyval)
{
    return attr_delete(VMPI_KIND_WIN, win, win_keyval, "MPI_Win_delete_attr");
}
