/* SPDX-License-Identifier: BSD-3-Clause */
/* What hangs off a window besides its memory (MPI-3.1 6.7, 6.8, 8.2, 8.3, 11.2.6, 11.2.7, 17.2.4):
 *   - Win_get_group: a new group, MPI_IDENT to the communicator's (MPI_COMM_WORLD and a Comm_split one);
 *   - Win_set_name/Win_get_name: empty before a name is set, per-rank names, a name of MPI_MAX_OBJECT_NAME-1
 *     characters;
 *   - Win_get_info: a valid info object the caller frees, with only meaningful values for the keys it
 *     reports (under vmpi, the defaults of accumulate_ordering and accumulate_ops too); Win_set_info
 *     (collective) with accumulate_ops;
 *   - user attributes: get before set, set/get, set over a value (the delete callback gets the old value),
 *     Win_delete_attr, the delete callback of a set attribute runs at Win_free with the window's handle (also
 *     for a keyval freed before the window), the copy callback never runs (windows are never duplicated);
 *   - Win_create_errhandler/Win_set_errhandler/Win_get_errhandler/Win_call_errhandler: the default is
 *     MPI_ERRORS_ARE_FATAL, a user handler gets the window and the code (Win_call_errhandler and a Put to a
 *     rank outside the group, which then returns that code); the window's handler is not the communicator's;
 *   - Alloc_mem/Free_mem of 0, 1 and 1 MiB bytes (under vmpi from the rank's own slot);
 *   - Win_c2f/Win_f2c round trips, MPI_WIN_NULL included. */
#include <stdint.h>
#include "mtest.h"

#define V(x) ((void *)(intptr_t)(x))

typedef struct cb_state {
    int copies, deletes;
    MPI_Win win;
    int keyval;
    void *val;
} cb_state;

static int del_fn(MPI_Win win, int keyval, void *val, void *extra)
{
    cb_state *s = extra;
    s->deletes++;
    s->win = win;
    s->keyval = keyval;
    s->val = val;
    return MPI_SUCCESS;
}

static int copy_fn(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)win;
    (void)keyval;
    cb_state *s = extra;
    s->copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* the error handler has no user-data argument: its calls are recorded per world rank */
#define MAXR 16384
typedef struct {
    int calls, code;
    MPI_Win win;
} eh_record;
static eh_record eh_records[MAXR];

static void win_handler(MPI_Win *win, int *code, ...)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < MAXR) {
        eh_records[rank].calls++;
        eh_records[rank].code = *code;
        eh_records[rank].win = *win;
    }
}

static int test_group(MPI_Win win, MPI_Comm comm, const char *what)
{
    int errs = 0, cmp = -1, gsize = -1, csize;
    MPI_Group wg = MPI_GROUP_NULL, cg;
    MT_CHECK_RC(errs, MPI_Win_get_group(win, &wg));
    MPI_Comm_group(comm, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    MT_CHECK(errs, cmp == MPI_IDENT, "%s: Win_get_group's group compares %d to the communicator's, expected MPI_IDENT",
             what, cmp);
    MPI_Group_size(wg, &gsize);
    MPI_Comm_size(comm, &csize);
    MT_CHECK(errs, gsize == csize, "%s: window group of %d ranks, communicator of %d", what, gsize, csize);
    MT_CHECK_RC(errs, MPI_Group_free(&wg));
    MPI_Group_free(&cg);
    return errs;
}

static int test_names(MPI_Win win, int rank)
{
    int errs = 0, len = -1;
    char name[MPI_MAX_OBJECT_NAME], want[MPI_MAX_OBJECT_NAME];
    memset(name, 'x', sizeof name);
    MT_CHECK_RC(errs, MPI_Win_get_name(win, name, &len));
    MT_CHECK(errs, len == 0 && name[0] == '\0', "name of an unnamed window: \"%.40s\" (length %d), expected \"\"",
             name, len);
    snprintf(want, sizeof want, "window of rank %d", rank);
    MT_CHECK_RC(errs, MPI_Win_set_name(win, want));
    MT_CHECK_RC(errs, MPI_Win_get_name(win, name, &len));
    MT_CHECK(errs, !strcmp(name, want) && len == (int)strlen(want), "Win_get_name: \"%s\" (length %d), expected \"%s\"",
             name, len, want);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has named its window: each still reads its own name */
    MT_CHECK_RC(errs, MPI_Win_get_name(win, name, &len));
    MT_CHECK(errs, !strcmp(name, want), "Win_get_name after the other ranks named theirs: \"%s\", expected \"%s\"",
             name, want);
    memset(want, 'a' + rank % 26, MPI_MAX_OBJECT_NAME - 1);
    want[MPI_MAX_OBJECT_NAME - 1] = '\0';
    MT_CHECK_RC(errs, MPI_Win_set_name(win, want));
    MT_CHECK_RC(errs, MPI_Win_get_name(win, name, &len));
    MT_CHECK(errs, !strcmp(name, want) && len == MPI_MAX_OBJECT_NAME - 1,
             "a name of MPI_MAX_OBJECT_NAME-1 characters came back with length %d", len);
    return errs;
}

/* the value of key in info_used, if present, must be one of the allowed values (NULL-terminated list) */
static int check_info_value(MPI_Info info, const char *key, const char *const *allowed, const char *what)
{
    int errs = 0, flag = 0;
    char value[MPI_MAX_INFO_VAL + 1];
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    if (!flag)
        return 0;
    for (int i = 0; allowed[i]; i++)
        if (!strcmp(value, allowed[i]))
            return 0;
    MT_ERR(errs, "%s: Win_get_info reports %s = \"%s\"", what, key, value);
    return errs;
}

static int test_info(void)
{
    int errs = 0, nkeys = -1, flag = 0;
    static const char *const tf[] = {"true", "false", NULL};
    static const char *const ops[] = {"same_op", "same_op_no_op", NULL};
    static const char *const ord_none[] = {"none", "rar,raw,war,waw", NULL};
    MPI_Info info, used = MPI_INFO_NULL;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "false");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "vmpi_test_unknown_key", "42");
    int *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(64, 1, info, MPI_COMM_WORLD, &base, &win));
    MPI_Info_free(&info);
    MT_CHECK_RC(errs, MPI_Win_get_info(win, &used));
    MT_CHECK(errs, used != MPI_INFO_NULL, "Win_get_info returned MPI_INFO_NULL");
    if (used != MPI_INFO_NULL) {
        MT_CHECK_RC(errs, MPI_Info_get_nkeys(used, &nkeys));
        MT_CHECK(errs, nkeys >= 0, "Info_get_nkeys of the info used: %d", nkeys);
        errs += check_info_value(used, "no_locks", tf, "window created with no_locks=false");
        errs += check_info_value(used, "accumulate_ops", ops, "window created without accumulate_ops");
        errs += check_info_value(used, "accumulate_ordering", ord_none, "window created with accumulate_ordering=none");
        errs += check_info_value(used, "same_size", tf, "window created without same_size");
        errs += check_info_value(used, "same_disp_unit", tf, "window created without same_disp_unit");
        MT_CHECK_RC(errs, MPI_Info_free(&used));
    }
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op");
    MT_CHECK_RC(errs, MPI_Win_set_info(win, info)); /* collective */
    MPI_Info_free(&info);
    MT_CHECK_RC(errs, MPI_Win_get_info(win, &used));
    if (used != MPI_INFO_NULL) {
        errs += check_info_value(used, "accumulate_ops", ops, "after Win_set_info(accumulate_ops=same_op)");
        errs += check_info_value(used, "no_locks", tf, "after Win_set_info");
        MPI_Info_free(&used);
    }
    /* a window made with MPI_INFO_NULL has an info too */
    MPI_Win win2;
    MT_CHECK_RC(errs, MPI_Win_create(base, 64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win2));
    used = MPI_INFO_NULL;
    MT_CHECK_RC(errs, MPI_Win_get_info(win2, &used));
    MT_CHECK(errs, used != MPI_INFO_NULL, "Win_get_info of a window made with MPI_INFO_NULL returned MPI_INFO_NULL");
    if (used != MPI_INFO_NULL) {
        static const char *const ord_default[] = {"rar,raw,war,waw", NULL};
        errs += check_info_value(used, "accumulate_ordering", ord_default, "window made with MPI_INFO_NULL");
        errs += check_info_value(used, "accumulate_ops", ops, "window made with MPI_INFO_NULL");
#ifdef VMPI /* vmpi reports the hints it uses with their defaults */
        char value[MPI_MAX_INFO_VAL + 1];
        MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag);
        MT_CHECK(errs, flag, "Win_get_info of a window made with MPI_INFO_NULL: no accumulate_ordering");
        MPI_Info_get(used, "accumulate_ops", MPI_MAX_INFO_VAL, value, &flag);
        MT_CHECK(errs, flag, "Win_get_info of a window made with MPI_INFO_NULL: no accumulate_ops");
#endif
        MPI_Info_free(&used);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win2));
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    (void)flag;
    return errs;
}

static int test_attrs(int rank)
{
    int errs = 0, kv = MPI_KEYVAL_INVALID, kv2 = MPI_KEYVAL_INVALID, flag = -1;
    cb_state s = {0}, s2 = {0};
    void *got = NULL;
    char *mem = mt_malloc(16);
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_create(mem, 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MT_CHECK_RC(errs, MPI_Win_create_keyval(copy_fn, del_fn, &kv, &s));
    MT_CHECK_RC(errs, MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, del_fn, &kv2, &s2));
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, kv, &got, &flag));
    MT_CHECK_INT(errs, "Win_get_attr before any set: flag", 0, flag);
    MT_CHECK_RC(errs, MPI_Win_set_attr(win, kv, V(1000 + rank)));
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, kv, &got, &flag));
    MT_CHECK(errs, flag == 1 && got == V(1000 + rank), "Win_get_attr after set: flag %d value %p, expected 1 %p",
             flag, got, V(1000 + rank));
    MT_CHECK_INT(errs, "delete callbacks after the first set", 0, s.deletes);
    MT_CHECK_RC(errs, MPI_Win_set_attr(win, kv, V(2000 + rank))); /* replaces: deletes the old value */
    MT_CHECK_INT(errs, "delete callbacks after a set over a value", 1, s.deletes);
    MT_CHECK(errs, s.val == V(1000 + rank) && s.win == win && s.keyval == kv,
             "delete callback on replacement got value %p keyval %d (expected %p %d), or not the window", s.val,
             s.keyval, V(1000 + rank), kv);
    MT_CHECK_RC(errs, MPI_Win_delete_attr(win, kv));
    MT_CHECK_INT(errs, "delete callbacks after Win_delete_attr", 2, s.deletes);
    MT_CHECK(errs, s.val == V(2000 + rank), "Win_delete_attr: callback got %p, expected %p", s.val, V(2000 + rank));
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, kv, &got, &flag));
    MT_CHECK_INT(errs, "Win_get_attr after Win_delete_attr: flag", 0, flag);
    MT_CHECK_RC(errs, MPI_Win_set_attr(win, kv, V(3000 + rank)));
    MT_CHECK_RC(errs, MPI_Win_set_attr(win, kv2, V(4000 + rank)));
    MT_CHECK_RC(errs, MPI_Win_free_keyval(&kv2)); /* the attribute outlives its keyval handle */
    MT_CHECK_INT(errs, "Win_free_keyval sets the handle to", MPI_KEYVAL_INVALID, kv2);
    MPI_Win saved = win;
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "delete callbacks before Win_free", 2, s.deletes);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK_INT(errs, "delete callbacks after Win_free", 3, s.deletes);
    MT_CHECK(errs, s.val == V(3000 + rank) && s.win == saved,
             "delete callback at Win_free got value %p (expected %p), or not the window freed", s.val, V(3000 + rank));
    MT_CHECK_INT(errs, "delete callbacks at Win_free of an attribute whose keyval was freed", 1, s2.deletes);
    MT_CHECK(errs, s2.val == V(4000 + rank) && s2.win == saved,
             "delete callback (freed keyval) at Win_free got value %p, expected %p", s2.val, V(4000 + rank));
    MT_CHECK_INT(errs, "copy callbacks (windows are never duplicated)", 0, s.copies);
    MT_CHECK_RC(errs, MPI_Win_free_keyval(&kv));
    MT_CHECK_INT(errs, "Win_free_keyval sets the handle to", MPI_KEYVAL_INVALID, kv);
    /* the predefined callbacks */
    MT_CHECK_RC(errs, MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &kv, NULL));
    MT_CHECK_RC(errs, MPI_Win_allocate(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &got, &win));
    MT_CHECK_RC(errs, MPI_Win_set_attr(win, kv, V(rank + 1)));
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, kv, &got, &flag));
    MT_CHECK(errs, flag && got == V(rank + 1), "attribute with the predefined callbacks: flag %d value %p", flag, got);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK_RC(errs, MPI_Win_free_keyval(&kv));
    free(mem);
    return errs;
}

static int test_errhandler(int rank, int size)
{
    int errs = 0, x = 1;
    eh_record *me = &eh_records[rank];
    memset(me, 0, sizeof *me);
    int *base;
    MPI_Win win;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL;
    MT_CHECK_RC(errs, MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MT_CHECK_RC(errs, MPI_Win_get_errhandler(win, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "a new window's error handler is not MPI_ERRORS_ARE_FATAL");
    MT_CHECK_RC(errs, MPI_Win_create_errhandler(win_handler, &eh));
    MT_CHECK(errs, eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL,
             "Win_create_errhandler returned a null or predefined handle");
    MT_CHECK_RC(errs, MPI_Win_set_errhandler(win, eh));
    MT_CHECK_RC(errs, MPI_Win_get_errhandler(win, &got));
    MT_CHECK(errs, got == eh, "Win_get_errhandler after set: not the handler set");
    MT_CHECK_RC(errs, MPI_Errhandler_free(&got));
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "setting a window's handler changed MPI_COMM_WORLD's");

    MT_CHECK_RC(errs, MPI_Win_call_errhandler(win, MPI_ERR_OTHER));
    MT_CHECK_INT(errs, "handler calls after Win_call_errhandler", 1, me->calls);
    MT_CHECK_INT(errs, "code passed by Win_call_errhandler", MPI_ERR_OTHER, me->code);
    MT_CHECK(errs, me->win == win, "Win_call_errhandler passed another window");

    /* a real error in an RMA call goes to the window's handler, and the call returns its code */
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    int rc = MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    MT_CHECK_INT(errs, "handler calls after a Put to rank = group size", 2, me->calls);
    MT_CHECK(errs, me->code == rc, "the handler got code %d, the call returned %d", me->code, rc);
    MT_CHECK(errs, me->win == win, "the handler of a failed Put got another window");
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));

    /* freeing the handle leaves the handler attached */
    MT_CHECK_RC(errs, MPI_Errhandler_free(&eh));
    MT_CHECK(errs, eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not set MPI_ERRHANDLER_NULL");
    MT_CHECK_RC(errs, MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC));
    MT_CHECK_INT(errs, "handler calls after freeing its handle", 3, me->calls);
    MT_CHECK_INT(errs, "code passed by Win_call_errhandler", MPI_ERR_RMA_SYNC, me->code);

    /* ERRORS_RETURN: Win_call_errhandler returns, nothing is called */
    MT_CHECK_RC(errs, MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    rc = MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    MT_CHECK(errs, rc == MPI_SUCCESS || rc == MPI_ERR_OTHER, "Win_call_errhandler with MPI_ERRORS_RETURN returned %d",
             rc);
    MT_CHECK_INT(errs, "handler calls after the window's handler became MPI_ERRORS_RETURN", 3, me->calls);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return errs;
}

static int test_alloc_mem(int rank)
{
    int errs = 0;
    const MPI_Aint sizes[3] = {0, 1, 1 << 20};
    unsigned char *p[3];
    for (int k = 0; k < 3; k++) {
        p[k] = NULL;
        MT_CHECK_RC(errs, MPI_Alloc_mem(sizes[k], MPI_INFO_NULL, &p[k]));
        if (sizes[k]) {
            MT_CHECK(errs, p[k] != NULL, "Alloc_mem(%lld) returned NULL", (long long)sizes[k]);
            if (!p[k])
                continue;
            mt_fill(p[k], (size_t)sizes[k], rank, k);
#if defined(VMPI) && !MT_SANITIZE
            MT_CHECK_INT(errs, "slot of Alloc_mem memory (MPIX_Iso_rank)", rank, MPIX_Iso_rank(p[k]));
            MT_CHECK_INT(errs, "slot of Alloc_mem memory's last byte", rank, MPIX_Iso_rank(p[k] + sizes[k] - 1));
#endif
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 1; k < 3; k++)
        if (p[k]) {
            long bad = mt_verify(p[k], (size_t)sizes[k], rank, k);
            MT_CHECK(errs, bad < 0, "Alloc_mem block of %lld bytes changed at byte %ld", (long long)sizes[k], bad);
        }
    for (int k = 0; k < 3; k++)
        MT_CHECK_RC(errs, MPI_Free_mem(p[k]));
    return errs;
}

static int test_c2f(void)
{
    int errs = 0;
    int *base;
    MPI_Win win;
    MPI_Win_allocate(0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Fint f = MPI_Win_c2f(win);
    MT_CHECK(errs, MPI_Win_f2c(f) == win, "Win_f2c(Win_c2f(win)) is not win");
    MT_CHECK(errs, MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) == MPI_WIN_NULL,
             "Win_f2c(Win_c2f(MPI_WIN_NULL)) is not MPI_WIN_NULL");
    MPI_Win_free(&win);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank >= MAXR)
        return mt_finish(errs);
    int *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    errs += test_group(win, MPI_COMM_WORLD, "window on MPI_COMM_WORLD");
    errs += test_names(win, rank);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &sub);
    MT_CHECK_RC(errs, MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, sub, &win));
    errs += test_group(win, sub, "window on a Comm_split communicator");
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MPI_Comm_free(&sub);
    errs += test_info();
    errs += test_attrs(rank);
    errs += test_errhandler(rank, size);
    errs += test_alloc_mem(rank);
    errs += test_c2f();
    return mt_finish(errs);
}
