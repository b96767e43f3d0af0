/* SPDX-License-Identifier: BSD-3-Clause */
/* The functions that take the program's callbacks: vmpi calls them with its own handles, statuses and error
 * codes, the program's functions expect the ABI's.  Reduction functions and error handlers are marked as
 * the ABI's in vmpi (binding/abi_hooks.h), which calls them through the translators below; attribute copy
 * and delete functions and generalized requests get vmpi a translating function of their own, with the
 * program's functions in a record passed as their extra_state (one record per keyval, kept for the
 * process's life: attributes may outlive the keyval's MPI_*_free_keyval; a request's is freed with it). */
#include "abi/abi.h"

#include <stdbool.h>
#include "binding/abi_hooks.h"

ABI_NATIVE(Comm_create_keyval)
ABI_NATIVE(Type_create_keyval)
ABI_NATIVE(Win_create_keyval)
ABI_NATIVE(Keyval_create)
ABI_NATIVE(Comm_create_errhandler)
ABI_NATIVE(Win_create_errhandler)
ABI_NATIVE(Session_create_errhandler)
ABI_NATIVE(Grequest_start)
ABI_NATIVE(T_event_register_callback)
ABI_NATIVE(T_event_set_dropped_handler)
ABI_NATIVE(T_event_handle_free)

/* ---- reductions ---- */

typedef void abi_user_fn(void *in, void *inout, int *len, abi_Datatype *dt);
typedef void abi_user_fn_c(void *in, void *inout, MPI_Count *len, abi_Datatype *dt);

static void abi_op_call(MPI_User_function *fn, bool large, void *in, void *inout, MPI_Count len, MPI_Datatype dt)
{
    abi_Datatype a = abi_a(dt);
    if (large) {
        ((abi_user_fn_c *)(void (*)(void))fn)(in, inout, &len, &a);
    } else {
        int n = (int)len;
        ((abi_user_fn *)(void (*)(void))fn)(in, inout, &n, &a);
    }
}

ABI_ENTRY(int, Op_create, (abi_user_fn *user_fn, int commute, abi_Op *op))
{
    MPI_Op v = MPI_OP_NULL;
    int rc = vmpi_abi_op_create((void (*)(void))user_fn, 0, commute, op ? &v : NULL);
    if (rc == MPI_SUCCESS)
        *op = abi_a(v);
    return abi_ret(rc);
}

ABI_ENTRY(int, Op_create_c, (abi_user_fn_c *user_fn, int commute, abi_Op *op))
{
    MPI_Op v = MPI_OP_NULL;
    int rc = vmpi_abi_op_create((void (*)(void))user_fn, 1, commute, op ? &v : NULL);
    if (rc == MPI_SUCCESS)
        *op = abi_a(v);
    return abi_ret(rc);
}

/* ---- error handlers: (object handle *, error code *, ...), the object a communicator, window or session ---- */

typedef void abi_errh_fn(void *obj, int *code, ...);

static void abi_errh_call(MPI_Comm_errhandler_function *fn, int *obj, int *code, const char *name)
{
    void *h = abi_a(*obj);
    int c = abi_a_error(*code);
    ((abi_errh_fn *)(void (*)(void))fn)(&h, &c, name);
}

#define CREATE_ERRHANDLER(f)                                                                                     \
    ABI_ENTRY(int, f##_create_errhandler, (abi_errh_fn * fn, abi_Errhandler * errhandler))                  \
    {                                                                                                         \
        MPI_Errhandler v = MPI_ERRHANDLER_NULL;                                                               \
        int rc = vmpi_native_PMPI_##f##_create_errhandler((void *)fn, errhandler ? &v : NULL);               \
        if (rc == MPI_SUCCESS) {                                                                              \
            vmpi_abi_errh_created(v);                                                                         \
            *errhandler = abi_a(v);                                                                           \
        }                                                                                                     \
        return abi_ret(rc);                                                                                   \
    }
CREATE_ERRHANDLER(Comm)
CREATE_ERRHANDLER(Win)
CREATE_ERRHANDLER(Session)

/* ---- attribute keyvals ---- */

typedef int abi_copy_fn(void *oldobj, int keyval, void *extra_state, void *in, void *out, int *flag);
typedef int abi_delete_fn(void *obj, int keyval, void *value, void *extra_state);
typedef struct abi_keyval {
    abi_copy_fn *copy; /* or the ABI's MPI_*_NULL_COPY_FN (0) and MPI_*_DUP_FN (1) */
    abi_delete_fn *del; /* or MPI_*_NULL_DELETE_FN (0) */
    void *extra;
} abi_keyval;

static int abi_copy(int oldobj, int keyval, void *extra_state, void *in, void *out, int *flag)
{
    const abi_keyval *k = extra_state;
    if ((uintptr_t)k->copy <= 1) { /* the predefined null and dup functions */
        *flag = (uintptr_t)k->copy == 1;
        if (*flag)
            *(void **)out = in;
        return MPI_SUCCESS;
    }
    int rc = k->copy(abi_a(oldobj), abi_a_keyval(keyval), k->extra, in, out, flag);
    return rc == MPI_SUCCESS ? rc : abi_v_error(rc);
}

static int abi_delete(int obj, int keyval, void *value, void *extra_state)
{
    const abi_keyval *k = extra_state;
    if (k->del == NULL)
        return MPI_SUCCESS;
    int rc = k->del(abi_a(obj), abi_a_keyval(keyval), value, k->extra);
    return rc == MPI_SUCCESS ? rc : abi_v_error(rc);
}

#define CREATE_KEYVAL(f)                                                                                         \
    ABI_ENTRY(int, f, (abi_copy_fn * copy_fn, abi_delete_fn * delete_fn, int *keyval, void *extra_state))     \
    {                                                                                                         \
        abi_keyval *k = malloc(sizeof *k);                                                                    \
        if (k == NULL)                                                                                        \
            return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_" #f, NULL));                \
        *k = (abi_keyval){copy_fn, delete_fn, extra_state};                                                   \
        int v = MPI_KEYVAL_INVALID;                                                                           \
        int rc = vmpi_native_PMPI_##f((void *)abi_copy, (void *)abi_delete, keyval ? &v : NULL, k);          \
        if (rc == MPI_SUCCESS)                                                                                \
            *keyval = abi_a_keyval(v);                                                                        \
        else                                                                                                  \
            free(k);                                                                                          \
        return abi_ret(rc);                                                                                   \
    }
CREATE_KEYVAL(Comm_create_keyval)
CREATE_KEYVAL(Type_create_keyval)
CREATE_KEYVAL(Win_create_keyval)
CREATE_KEYVAL(Keyval_create)

/* ---- generalized requests ---- */

typedef int abi_query_fn(void *extra_state, abi_Status *status);
typedef int abi_free_fn(void *extra_state);
typedef int abi_cancel_fn(void *extra_state, int complete);
typedef struct abi_greq {
    abi_query_fn *query;
    abi_free_fn *free;
    abi_cancel_fn *cancel;
    void *extra;
} abi_greq;

static int abi_greq_query(void *extra_state, MPI_Status *status)
{
    const abi_greq *g = extra_state;
    abi_Status a;
    abi_st_a(status, &a);
    int rc = g->query(g->extra, &a);
    abi_st_v(&a, status);
    return rc == MPI_SUCCESS ? rc : abi_v_error(rc);
}

static int abi_greq_free(void *extra_state)
{
    abi_greq *g = extra_state;
    int rc = g->free(g->extra);
    free(g);
    return rc == MPI_SUCCESS ? rc : abi_v_error(rc);
}

static int abi_greq_cancel(void *extra_state, int complete)
{
    const abi_greq *g = extra_state;
    int rc = g->cancel(g->extra, complete);
    return rc == MPI_SUCCESS ? rc : abi_v_error(rc);
}

ABI_ENTRY(int, Grequest_start,
          (abi_query_fn * query_fn, abi_free_fn *free_fn, abi_cancel_fn *cancel_fn, void *extra_state,
           abi_Request *request))
{
    if (query_fn == NULL || free_fn == NULL || cancel_fn == NULL) /* vmpi's own check, with the ABI's name */
        return abi_ret(vmpi_native_PMPI_Grequest_start(NULL, NULL, NULL, extra_state, NULL));
    abi_greq *g = malloc(sizeof *g);
    if (g == NULL)
        return abi_ret(vmpi_abi_raise(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Grequest_start", NULL));
    *g = (abi_greq){query_fn, free_fn, cancel_fn, extra_state};
    MPI_Request v = MPI_REQUEST_NULL;
    int rc = vmpi_native_PMPI_Grequest_start(abi_greq_query, abi_greq_free, abi_greq_cancel, g,
                                             request ? &v : NULL);
    if (rc == MPI_SUCCESS)
        *request = abi_a(v);
    else
        free(g);
    return abi_ret(rc);
}

/* ---- MPI_T events: vmpi has none (MPI_T_event_get_num gives 0), so no registration handle exists and vmpi
 * refuses these for their handle before any callback could be called with vmpi's values ---- */

ABI_ENTRY(int, T_event_register_callback,
          (MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, abi_Info info, void *user_data,
           MPI_T_event_cb_function *event_cb_function))
{
    return abi_ret(vmpi_native_PMPI_T_event_register_callback(event_registration,
                                                                (MPI_T_cb_safety)abi_v_cb_safety((int)cb_safety),
                                                                abi_v(info), user_data, event_cb_function));
}

ABI_ENTRY(int, T_event_set_dropped_handler,
          (MPI_T_event_registration event_registration, MPI_T_event_dropped_cb_function *dropped_cb_function))
{
    return abi_ret(vmpi_native_PMPI_T_event_set_dropped_handler(event_registration, dropped_cb_function));
}

ABI_ENTRY(int, T_event_handle_free,
          (MPI_T_event_registration event_registration, void *user_data,
           MPI_T_event_free_cb_function *free_cb_function))
{
    return abi_ret(vmpi_native_PMPI_T_event_handle_free(event_registration, user_data, free_cb_function));
}

/* the translators, given to vmpi when the library loads */
__attribute__((constructor)) static void abi_callbacks_init(void)
{
    vmpi_abi_set_op_call(abi_op_call);
    vmpi_abi_set_errh_call(abi_errh_call);
}
