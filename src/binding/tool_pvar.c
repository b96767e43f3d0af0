/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T performance variables (MPI-4.1 15.3.7): sessions, handles, start/stop/read/write/reset.  A handle
 * keeps, per value, `acc` and `base`: a counter or timer reads acc plus what the variable gained since base
 * was read at its (re)start, and stops by adding that to acc; a write or reset sets acc and reads base
 * again, so each handle sees its own count, as the standard's sessions isolate tools from one another.  A
 * level or state reads the variable as it is (a stopped one, as it was at the stop). */
#include <stdlib.h>
#include <unistd.h>
#include "binding/tool.h"

VMPI_WEAK(T_pvar_get_num)
int PMPI_T_pvar_get_num(int *num_pvar)
{
    return vmpi_t_get_num(num_pvar, vmpi_pvar_count());
}

VMPI_WEAK(T_pvar_get_info)
int PMPI_T_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class,
                         MPI_Datatype *datatype, MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind,
                         int *readonly, int *continuous, int *atomic)
{
    VMPI_T_CHECK();
    if (pvar_index < 0 || pvar_index >= vmpi_pvar_count())
        return MPI_T_ERR_INVALID_INDEX;
    const vmpi_pvar *v = vmpi_pvar_get(pvar_index);
    vmpi_t_string(v->name, name, name_len);
    vmpi_t_string(v->desc, desc, desc_len);
    VMPI_T_SET(verbosity, v->verbosity);
    VMPI_T_SET(var_class, v->cls);
    VMPI_T_SET(datatype, v->dt);
    VMPI_T_SET(enumtype, MPI_T_ENUM_NULL);
    VMPI_T_SET(bind, v->bind);
    VMPI_T_SET(readonly, v->readonly);
    VMPI_T_SET(continuous, v->continuous);
    VMPI_T_SET(atomic, v->atomic);
    return MPI_SUCCESS;
}

VMPI_WEAK(T_pvar_get_index)
int PMPI_T_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    VMPI_T_CHECK();
    if (name == NULL || pvar_index == NULL)
        return MPI_T_ERR_INVALID;
    int i = vmpi_pvar_index(name, var_class);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *pvar_index = i;
    return MPI_SUCCESS;
}

/* ---- sessions ---- */

/* The rank's session `s`, or NULL. */
static struct vmpi_t_pvar_session *session(vmpi_tool_rank *t, MPI_T_pvar_session s)
{
    vmpi_list_foreach(it, &t->sessions)
        if (vmpi_container_of(it, struct vmpi_t_pvar_session, node) == s)
            return s;
    return NULL;
}

/* Handle `h` of session `s`, or NULL. */
static struct vmpi_t_pvar_handle *handle_of(struct vmpi_t_pvar_session *s, MPI_T_pvar_handle h)
{
    vmpi_list_foreach(it, &s->handles)
        if (vmpi_container_of(it, struct vmpi_t_pvar_handle, node) == h)
            return h;
    return NULL;
}

VMPI_WEAK(T_pvar_session_create)
int PMPI_T_pvar_session_create(MPI_T_pvar_session *pe_session)
{
    VMPI_T_STATE(t);
    if (pe_session == NULL)
        return MPI_T_ERR_INVALID;
    struct vmpi_t_pvar_session *s = malloc(sizeof *s);
    if (s == NULL)
        return MPI_T_ERR_MEMORY;
    vmpi_list_init(&s->handles);
    vmpi_list_push_back(&t->sessions, &s->node);
    *pe_session = s;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_pvar_session_free)
int PMPI_T_pvar_session_free(MPI_T_pvar_session *pe_session)
{
    VMPI_T_STATE(t);
    if (pe_session == NULL)
        return MPI_T_ERR_INVALID;
    struct vmpi_t_pvar_session *s = session(t, *pe_session);
    if (s == NULL)
        return MPI_T_ERR_INVALID_SESSION;
    vmpi_tool_session_free(s);
    *pe_session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

/* ---- values ---- */

/* Values of the handle's variable as it keeps them: doubles, or integers (counts, and a timer's ticks). */
static bool kept_double(const struct vmpi_t_pvar_handle *h) { return h->var->dt == MPI_DOUBLE && !h->var->ticks; }

/* The variable's values now into `out` (h->base: the start of a count).  A process's variable read in
 * another process than the handle's last reading (its rank moved or was restarted) counts from now on. */
static int reading(struct vmpi_t_pvar_handle *h, void *out)
{
    int err = vmpi_pvar_read_now(h->var, h->obj, out, h->count);
    if (err || !h->var->process)
        return err;
    long pid = (long)getpid();
    if (pid != h->pid && out != h->base && vmpi_pvar_accumulates(h->var))
        memcpy(h->base, out, 8 * (size_t)h->count);
    h->pid = pid;
    return MPI_SUCCESS;
}

/* The handle's value as kept into h->res; MPI_T_ERR_INVALID_HANDLE when its object is gone. */
static int kept_value(struct vmpi_t_pvar_handle *h)
{
    const vmpi_pvar *v = h->var;
    size_t bytes = 8 * (size_t)h->count;
    if (!h->started) {
        memcpy(h->res, h->acc, bytes);
        return MPI_SUCCESS;
    }
    int err = reading(h, h->tmp);
    if (err)
        return err;
    if (!vmpi_pvar_accumulates(v)) {
        memcpy(h->res, h->tmp, bytes);
        return MPI_SUCCESS;
    }
    double *rd = h->res, *ad = h->acc, *nd = h->tmp, *bd = h->base;
    uint64_t *ru = h->res, *au = h->acc, *nu = h->tmp, *bu = h->base;
    for (int i = 0; i < h->count; i++) {
        if (kept_double(h))
            rd[i] = ad[i] + nd[i] - bd[i];
        else
            ru[i] = au[i] + nu[i] - bu[i];
    }
    return MPI_SUCCESS;
}

/* The handle's value into `out`, as the variable's type. */
static int value(struct vmpi_t_pvar_handle *h, void *out)
{
    int err = kept_value(h);
    if (err)
        return err;
    if (!h->var->ticks) {
        memcpy(out, h->res, 8 * (size_t)h->count);
        return MPI_SUCCESS;
    }
    double tick = vmpi_sched_tick_seconds();
    for (int i = 0; i < h->count; i++)
        ((double *)out)[i] = tick * (double)((uint64_t *)h->res)[i];
    return MPI_SUCCESS;
}

/* The handle counts from `from` (the variable's type) on, starting now (a started handle; a stopped one
 * keeps `from`). */
static int rebase(struct vmpi_t_pvar_handle *h, const void *from)
{
    if (h->var->ticks) {
        double tick = vmpi_sched_tick_seconds();
        for (int i = 0; i < h->count; i++) {
            double t = ((const double *)from)[i] / (tick > 0 ? tick : 1);
            ((uint64_t *)h->acc)[i] = t > 0 ? (uint64_t)t : 0;
        }
    } else {
        memmove(h->acc, from, 8 * (size_t)h->count);
    }
    return h->started && vmpi_pvar_accumulates(h->var) ? reading(h, h->base) : MPI_SUCCESS;
}

static int start(struct vmpi_t_pvar_handle *h)
{
    if (h->started)
        return MPI_SUCCESS;
    h->started = true;
    int err = vmpi_pvar_accumulates(h->var) ? reading(h, h->base) : MPI_SUCCESS;
    h->started = err == MPI_SUCCESS;
    return err;
}

static int stop(struct vmpi_t_pvar_handle *h)
{
    if (!h->started)
        return MPI_SUCCESS;
    int err = kept_value(h); /* (a level keeps the value it had: what it reads while stopped) */
    if (err)
        return err;
    memcpy(h->acc, h->res, 8 * (size_t)h->count);
    h->started = false;
    return MPI_SUCCESS;
}

/* The value a reset gives: zero (a level has none: it is read-only). */
static int reset(struct vmpi_t_pvar_handle *h)
{
    memset(h->res, 0, 8 * (size_t)h->count);
    return rebase(h, h->res);
}

/* ---- handles ---- */

VMPI_WEAK(T_pvar_handle_alloc)
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session pe_session, int pvar_index, void *obj_handle,
                             MPI_T_pvar_handle *handle, int *count)
{
    VMPI_T_STATE(t);
    struct vmpi_t_pvar_session *s = session(t, pe_session);
    if (s == NULL)
        return MPI_T_ERR_INVALID_SESSION;
    if (pvar_index < 0 || pvar_index >= vmpi_pvar_count())
        return MPI_T_ERR_INVALID_INDEX;
    if (handle == NULL || count == NULL)
        return MPI_T_ERR_INVALID;
    const vmpi_pvar *v = vmpi_pvar_get(pvar_index);
    int obj, err = vmpi_pvar_bind(v, obj_handle, &obj);
    if (err)
        return err;
    int n = vmpi_pvar_elems(v, obj);
    struct vmpi_t_pvar_handle *h = malloc(sizeof *h);
    char *vals = calloc(4 * (size_t)n, 8);
    if (h == NULL || vals == NULL) {
        free(h);
        free(vals);
        return MPI_T_ERR_MEMORY;
    }
    *h = (struct vmpi_t_pvar_handle){.var = v, .obj = obj, .count = n, .acc = vals, .base = vals + 8 * n,
                                     .tmp = vals + 16 * n, .res = vals + 24 * n};
    /* a continuous variable counts from the allocation on; the others wait for MPI_T_pvar_start */
    if (v->continuous && (err = start(h)) != MPI_SUCCESS) {
        free(vals);
        free(h);
        return err;
    }
    vmpi_list_push_back(&s->handles, &h->node);
    *handle = h;
    *count = n;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_pvar_handle_free)
int PMPI_T_pvar_handle_free(MPI_T_pvar_session pe_session, MPI_T_pvar_handle *handle)
{
    VMPI_T_STATE(t);
    struct vmpi_t_pvar_session *s = session(t, pe_session);
    if (s == NULL)
        return MPI_T_ERR_INVALID_SESSION;
    if (handle == NULL)
        return MPI_T_ERR_INVALID;
    struct vmpi_t_pvar_handle *h = handle_of(s, *handle);
    if (h == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    vmpi_list_remove(&h->node);
    free(h->acc);
    free(h);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

/* The session and handle of a call on one handle: *out, or the error class. */
static int one(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, struct vmpi_t_pvar_handle **out)
{
    vmpi_tool_rank *t = vmpi_tool_self();
    if (t == NULL)
        return MPI_T_ERR_NOT_INITIALIZED;
    struct vmpi_t_pvar_session *s = session(t, pe_session);
    if (s == NULL)
        return MPI_T_ERR_INVALID_SESSION;
    if ((*out = handle_of(s, handle)) == NULL)
        return MPI_T_ERR_INVALID_HANDLE; /* MPI_T_PVAR_ALL_HANDLES too, where it is not allowed */
    return MPI_SUCCESS;
}

/* start, stop or reset (`op`) on one handle or, with MPI_T_PVAR_ALL_HANDLES, on every handle of the session
 * it applies to (continuous ones are not started or stopped, read-only ones not reset); `skip` tells those,
 * and `refused` is the error for one handle it does not apply to. */
static int each(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, int (*op)(struct vmpi_t_pvar_handle *),
                bool (*skip)(const vmpi_pvar *), int refused)
{
    vmpi_tool_rank *t = vmpi_tool_self();
    if (t == NULL)
        return MPI_T_ERR_NOT_INITIALIZED;
    struct vmpi_t_pvar_session *s = session(t, pe_session);
    if (s == NULL)
        return MPI_T_ERR_INVALID_SESSION;
    if (handle != MPI_T_PVAR_ALL_HANDLES) {
        struct vmpi_t_pvar_handle *h = handle_of(s, handle);
        if (h == NULL)
            return MPI_T_ERR_INVALID_HANDLE;
        return skip(h->var) ? refused : op(h);
    }
    int err = MPI_SUCCESS;
    vmpi_list_foreach(it, &s->handles) {
        struct vmpi_t_pvar_handle *h = vmpi_container_of(it, struct vmpi_t_pvar_handle, node);
        int e = skip(h->var) ? MPI_SUCCESS : op(h);
        err = err ? err : e;
    }
    return err;
}

static bool continuous(const vmpi_pvar *v) { return v->continuous; }
static bool readonly(const vmpi_pvar *v) { return v->readonly; }

VMPI_WEAK(T_pvar_start)
int PMPI_T_pvar_start(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return each(pe_session, handle, start, continuous, MPI_T_ERR_PVAR_NO_STARTSTOP);
}

VMPI_WEAK(T_pvar_stop)
int PMPI_T_pvar_stop(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return each(pe_session, handle, stop, continuous, MPI_T_ERR_PVAR_NO_STARTSTOP);
}

VMPI_WEAK(T_pvar_reset)
int PMPI_T_pvar_reset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle)
{
    return each(pe_session, handle, reset, readonly, MPI_T_ERR_PVAR_NO_WRITE);
}

VMPI_WEAK(T_pvar_read)
int PMPI_T_pvar_read(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    struct vmpi_t_pvar_handle *h;
    int err = one(pe_session, handle, &h);
    if (err)
        return err;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    return value(h, buf);
}

VMPI_WEAK(T_pvar_write)
int PMPI_T_pvar_write(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, const void *buf)
{
    struct vmpi_t_pvar_handle *h;
    int err = one(pe_session, handle, &h);
    if (err)
        return err;
    if (h->var->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    return rebase(h, buf);
}

VMPI_WEAK(T_pvar_readreset)
int PMPI_T_pvar_readreset(MPI_T_pvar_session pe_session, MPI_T_pvar_handle handle, void *buf)
{
    struct vmpi_t_pvar_handle *h;
    int err = one(pe_session, handle, &h);
    if (err)
        return err;
    if (h->var->readonly)
        return MPI_T_ERR_PVAR_NO_WRITE;
    if (!h->var->atomic)
        return MPI_T_ERR_PVAR_NO_ATOMIC;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    return (err = value(h, buf)) ? err : reset(h);
}
