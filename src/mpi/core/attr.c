/* SPDX-License-Identifier: BSD-3-Clause */
/* Keyvals and attributes of a rank (see attr.h).  Attributes of all objects are one array in the order they
 * were set, so "last set first" is a backward scan.  Callbacks may change the tables (even grow them), so no
 * pointer into them is kept across a callback: entries are found again by (object, keyval) afterwards. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/core/attr.h"
#include "mpi/core/errcode.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "xport/netjob.h"

/* Keyval handle indexes: 1-7 the predefined communicator keys (mpi_info.h), 8-15 kept for the predefined
 * window keys, 17-20 AMPI's (mpi_ampi.h), user keyvals from 32 on. */
enum { PREDEF_FIRST = 1, PREDEF_LAST = 20, FIRST_USER = 32 };

typedef struct keyval {
    int objkind; /* handle kind of the objects it is for; 0: free slot */
    vmpi_attr_copy_fn *copy;
    vmpi_attr_delete_fn *del;
    void *extra;
    int refs;        /* 1 until the user frees it, plus one per attribute */
    bool user_freed; /* the user's handle is gone; attributes may still use it */
    bool fortran;    /* its callbacks take values (attr.h) */
} keyval;

typedef struct attr {
    int obj;    /* object handle */
    int keyval; /* keyval handle */
    void *val;  /* a Fortran attribute's: its cell, an MPI_Aint */
    bool dying; /* its delete callback is running: set and delete no longer see it */
    bool fortran;
} attr;

/* What a keyval's callbacks get of attribute `a`: a Fortran keyval's, the value */
static void *callback_val(const keyval *k, const attr *a)
{
    return k->fortran && a->fortran ? (void *)(intptr_t) * (MPI_Aint *)a->val : a->val;
}

typedef struct vmpi_attr_state {
    keyval *kv; /* user keyval with handle index FIRST_USER + i is kv[i] */
    int nkv;
    attr *a; /* in the order they were set */
    int na, cap;
    int predef[PREDEF_LAST + 1]; /* values of the predefined attributes (their addresses are the values) */
} vmpi_attr_state;

static vmpi_attr_state *state(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL)
        return NULL;
    if (rk->attr == NULL) {
        vmpi_attr_state *s = calloc(1, sizeof *s);
        if (s == NULL)
            return NULL;
        /* the tag bound is the one the binding checks (VMPI_TAG_UB in binding/check.h) */
        s->predef[MPI_TAG_UB & 0xff] = INT_MAX;
        s->predef[MPI_HOST & 0xff] = MPI_PROC_NULL;    /* no host process */
        s->predef[MPI_IO & 0xff] = MPI_ANY_SOURCE;     /* every rank can do I/O */
        /* MPI_Wtime is CLOCK_MONOTONIC (its zero the node's boot): one clock for the processes of one node,
         * not for those of two */
        s->predef[MPI_WTIME_IS_GLOBAL & 0xff] = vmpi_xport_net_one_node();
        s->predef[MPI_APPNUM & 0xff] = 0;              /* one program */
        s->predef[MPI_UNIVERSE_SIZE & 0xff] = vmpi_world_size();
        rk->attr = s;
    }
    return rk->attr;
}

static keyval *kv_get(vmpi_attr_state *s, int h)
{
    int i = VMPI_HANDLE_INDEX(h) - FIRST_USER;
    if (s == NULL || VMPI_HANDLE_KIND(h) != VMPI_KIND_KEYVAL || i < 0 || i >= s->nkv || s->kv[i].objkind == 0)
        return NULL;
    return &s->kv[i];
}

bool vmpi_keyval_predefined(int h)
{
    int i = VMPI_HANDLE_INDEX(h);
    return VMPI_HANDLE_KIND(h) == VMPI_KIND_KEYVAL && ((i >= PREDEF_FIRST && i <= 7) || (i >= 17 && i <= PREDEF_LAST));
}

static void kv_unref(vmpi_attr_state *s, int h)
{
    keyval *k = kv_get(s, h);
    if (k && --k->refs == 0)
        k->objkind = 0; /* the slot can be reused */
}

enum { LIVE, DYING, ANY };

/* The newest attribute (obj, keyval) in state `which`, or -1. */
static int find(const vmpi_attr_state *s, int obj, int keyval, int which)
{
    for (int i = s->na - 1; i >= 0; i--)
        if (s->a[i].obj == obj && s->a[i].keyval == keyval && (which == ANY || s->a[i].dying == (which == DYING)))
            return i;
    return -1;
}

static void remove_at(vmpi_attr_state *s, int i)
{
    int h = s->a[i].keyval;
    if (s->a[i].fortran)
        free(s->a[i].val);
    memmove(s->a + i, s->a + i + 1, sizeof *s->a * (size_t)(s->na - i - 1));
    s->na--;
    kv_unref(s, h);
}

/* The stored form of a value: a Fortran value goes into a new cell (NULL: out of memory) */
static void *stored(void *val, bool fortran)
{
    if (!fortran)
        return val;
    MPI_Aint *cell = malloc(sizeof *cell);
    if (cell)
        *cell = (MPI_Aint)(intptr_t)val;
    return cell;
}

static int append(vmpi_attr_state *s, int obj, int keyval, void *val, bool fortran)
{
    if (s->na == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        attr *a = realloc(s->a, sizeof *a * (size_t)cap);
        if (a == NULL)
            return MPI_ERR_NO_MEM;
        s->a = a;
        s->cap = cap;
    }
    if ((val = stored(val, fortran)) == NULL && fortran)
        return MPI_ERR_NO_MEM;
    s->a[s->na++] = (attr){obj, keyval, val, false, fortran};
    kv_get(s, keyval)->refs++;
    return MPI_SUCCESS;
}

/* Runs the delete callback of attribute `i` and removes it; if the callback fails, the attribute stays
 * unless `force`.  While the callback runs the entry is marked dying, so that the callback can set a new value
 * or delete the key without running this callback again; afterwards the entry is found again by its mark. */
static int delete_one(vmpi_attr_state *s, int i, bool force)
{
    attr a = s->a[i];
    keyval *k = kv_get(s, a.keyval);
    vmpi_attr_delete_fn *del = k->del;
    s->a[i].dying = true;
    int err = del ? del(a.obj, a.keyval, callback_val(k, &a), k->extra) : MPI_SUCCESS;
    i = find(s, a.obj, a.keyval, DYING);
    if (err != MPI_SUCCESS && !force)
        s->a[i].dying = false;
    else
        remove_at(s, i);
    return err;
}

int vmpi_attr_null_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                           void *attribute_val_out, int *flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

int vmpi_attr_dup_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out,
                     int *flag)
{
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

int vmpi_attr_null_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state) { return MPI_SUCCESS; }

int vmpi_keyval_create(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, void *extra_state,
                       bool fortran, int *out)
{
    vmpi_attr_state *s = state();
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int i = 0;
    while (i < s->nkv && s->kv[i].objkind != 0)
        i++;
    if (i == s->nkv) {
        if (FIRST_USER + s->nkv > 0x03ffffff)
            return MPI_ERR_NO_MEM; /* the handle's index field is full */
        keyval *n = realloc(s->kv, sizeof *n * (size_t)(s->nkv + 1));
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        s->kv = n;
        s->nkv++;
    }
    s->kv[i] = (keyval){objkind, copy, del, extra_state, 1, false, fortran};
    *out = VMPI_HANDLE(VMPI_KIND_KEYVAL, FIRST_USER + i);
    return MPI_SUCCESS;
}

int vmpi_keyval_check(int h, int objkind, bool predef_ok, bool freed_ok)
{
    if (vmpi_keyval_predefined(h))
        return predef_ok && objkind == VMPI_KIND_COMM ? MPI_SUCCESS : MPI_ERR_KEYVAL;
    keyval *k = kv_get(state(), h);
    return k && (freed_ok || !k->user_freed) && k->objkind == objkind ? MPI_SUCCESS : MPI_ERR_KEYVAL;
}

int vmpi_keyval_free(int *h)
{
    vmpi_attr_state *s = state();
    keyval *k = kv_get(s, *h);
    if (k == NULL)
        return MPI_ERR_KEYVAL;
    if (!k->user_freed) { /* freed again while attributes keep it: nothing more to release */
        k->user_freed = true;
        kv_unref(s, *h);
    }
    *h = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int vmpi_attr_set(int obj, int keyval, void *val, bool fortran)
{
    vmpi_attr_state *s = state();
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int i = find(s, obj, keyval, LIVE);
    if (i >= 0) { /* the old value goes first, as by MPI_Comm_delete_attr */
        int err = delete_one(s, i, false);
        if (err != MPI_SUCCESS)
            return err;
        if ((i = find(s, obj, keyval, LIVE)) >= 0) { /* the callback set a value itself: ours replaces it */
            void *v = stored(val, fortran);
            if (v == NULL && fortran)
                return MPI_ERR_NO_MEM;
            if (s->a[i].fortran)
                free(s->a[i].val);
            s->a[i].val = v;
            s->a[i].fortran = fortran;
            return MPI_SUCCESS;
        }
    }
    return append(s, obj, keyval, val, fortran);
}

int vmpi_attr_get(int obj, int keyval, void **val, int *flag, bool *fortran)
{
    vmpi_attr_state *s = state();
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    *fortran = false;
    if (vmpi_keyval_predefined(keyval)) {
        *flag = 1;
        /* AMPI's placement attributes change with migration: refreshed at every read */
        s->predef[AMPI_MY_WTH & 0xff] = vmpi_pe_self()->id;
        s->predef[AMPI_NUM_WTHS & 0xff] = vmpi_sched_npes();
        s->predef[AMPI_MY_PROCESS & 0xff] = 0;
        s->predef[AMPI_NUM_PROCESSES & 0xff] = 1;
        *val = keyval == MPI_LASTUSEDCODE ? (void *)vmpi_errcode_lastused() : &s->predef[keyval & 0xff];
        return *val ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    }
    int i = find(s, obj, keyval, ANY); /* a delete callback may still read its own attribute */
    *flag = i >= 0;
    if (i >= 0) {
        *val = s->a[i].val;
        *fortran = s->a[i].fortran;
    }
    return MPI_SUCCESS;
}

int vmpi_attr_delete(int obj, int keyval)
{
    vmpi_attr_state *s = state();
    if (s == NULL)
        return MPI_ERR_NO_MEM;
    int i = find(s, obj, keyval, LIVE);
    return i < 0 ? MPI_SUCCESS : delete_one(s, i, false);
}

/* Deletes every attribute of `obj`, last set first; `keep_going`: a failed callback does not stop it. */
static int delete_all(int obj, bool keep_going)
{
    vmpi_attr_state *s = vmpi_rank_self() ? vmpi_rank_self()->attr : NULL;
    int first_err = MPI_SUCCESS;
    /* from the end each time: the callbacks may change the table */
    for (int i = s ? s->na - 1 : -1; i >= 0; i--) {
        if (s->a[i].obj != obj || s->a[i].dying)
            continue;
        int err = delete_one(s, i, keep_going);
        if (err != MPI_SUCCESS) {
            if (!keep_going)
                return err;
            if (first_err == MPI_SUCCESS)
                first_err = err;
        }
        i = s->na;
    }
    return first_err;
}

int vmpi_attr_delete_all(int obj) { return delete_all(obj, false); }

int vmpi_attr_copy_all(int oldobj, int newobj)
{
    vmpi_attr_state *s = vmpi_rank_self() ? vmpi_rank_self()->attr : NULL;
    if (s == NULL)
        return MPI_SUCCESS; /* no attribute was ever set */
    /* the keyvals to copy, in set order: callbacks may add or remove attributes of oldobj meanwhile */
    int n = 0, *keys = malloc(sizeof *keys * (size_t)(s->na ? s->na : 1));
    if (keys == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < s->na; i++)
        if (s->a[i].obj == oldobj)
            keys[n++] = s->a[i].keyval;
    int err = MPI_SUCCESS;
    for (int j = 0; j < n && err == MPI_SUCCESS; j++) {
        int i = find(s, oldobj, keys[j], LIVE);
        if (i < 0)
            continue; /* deleted by an earlier callback */
        keyval *k = kv_get(s, keys[j]);
        vmpi_attr_copy_fn *copy = k->copy;
        void *in = callback_val(k, &s->a[i]), *out = NULL;
        bool fortran = k->fortran; /* a Fortran copy callback's result is a value */
        bool was_fortran = s->a[i].fortran;
        MPI_Aint fval = was_fortran ? *(MPI_Aint *)s->a[i].val : 0;
        int flag = 0;
        if (copy)
            err = copy(oldobj, keys[j], k->extra, in, &out, &flag);
        if (err == MPI_SUCCESS && flag && !fortran && out == in && was_fortran) {
            out = (void *)(intptr_t)fval; /* a C callback duplicated a Fortran value's cell: the value */
            fortran = true;
        }
        if (err == MPI_SUCCESS && flag)
            err = vmpi_attr_set(newobj, keys[j], out, fortran);
    }
    free(keys);
    if (err != MPI_SUCCESS)
        delete_all(newobj, true); /* newobj is given back with no attribute */
    return err;
}

int vmpi_attr_finalize(void)
{
    int e1 = delete_all(MPI_COMM_SELF, true);
    int e2 = delete_all(MPI_COMM_WORLD, true);
    return e1 != MPI_SUCCESS ? e1 : e2;
}

void vmpi_attr_rank_fini(struct vmpi_rank *rk)
{
    vmpi_attr_state *s = rk->attr;
    if (s == NULL)
        return;
    free(s->kv);
    free(s->a);
    free(s);
    rk->attr = NULL;
}
