/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T entry points (MPI-4.1 15): initialization, enumerations, control variables, categories, the event
 * sources and the events.  vmpi has one event source, the clock its timestamps would come from, and no
 * events, so every event registration or instance a program passes is invalid.  Performance variables:
 * tool_pvar.c. */
#include <limits.h>
#include <stdlib.h>
#include <time.h>
#include "binding/tool.h"

VMPI_WEAK(T_init_thread)
int PMPI_T_init_thread(int required, int *provided)
{
    if (provided == NULL || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return MPI_T_ERR_INVALID;
    int err = vmpi_tool_init();
    if (err)
        return err;
    /* as MPI_Init_thread: the rank's own thread calls MPI (and MPI_T), its other threads do not */
    *provided = required < MPI_THREAD_FUNNELED ? required : MPI_THREAD_FUNNELED;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_finalize)
int PMPI_T_finalize(void) { return vmpi_tool_fini(); }

/* ---- enumerations ---- */

VMPI_WEAK(T_enum_get_info)
int PMPI_T_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    VMPI_T_CHECK();
    if (!vmpi_t_enum_valid(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    VMPI_T_SET(num, enumtype->n);
    vmpi_t_string(enumtype->name, name, name_len);
    return MPI_SUCCESS;
}

VMPI_WEAK(T_enum_get_item)
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    VMPI_T_CHECK();
    if (!vmpi_t_enum_valid(enumtype))
        return MPI_T_ERR_INVALID_HANDLE;
    if (index < 0 || index >= enumtype->n)
        return MPI_T_ERR_INVALID_ITEM;
    VMPI_T_SET(value, index);
    vmpi_t_string(enumtype->items[index], name, name_len);
    return MPI_SUCCESS;
}

/* ---- control variables ---- */

VMPI_WEAK(T_cvar_get_num)
int PMPI_T_cvar_get_num(int *num_cvar)
{
    return vmpi_t_get_num(num_cvar, vmpi_cvar_count());
}

VMPI_WEAK(T_cvar_get_info)
int PMPI_T_cvar_get_info(int cvar_index, char *name, int *name_len, int *verbosity, MPI_Datatype *datatype,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *scope)
{
    VMPI_T_CHECK();
    if (cvar_index < 0 || cvar_index >= vmpi_cvar_count())
        return MPI_T_ERR_INVALID_INDEX;
    vmpi_cvar_info c;
    vmpi_cvar_get(cvar_index, &c);
    vmpi_t_string(c.name, name, name_len);
    vmpi_t_string(c.desc, desc, desc_len);
    VMPI_T_SET(verbosity, c.verbosity);
    VMPI_T_SET(datatype, c.dt);
    VMPI_T_SET(enumtype, c.en);
    VMPI_T_SET(bind, c.bind);
    VMPI_T_SET(scope, c.scope);
    return MPI_SUCCESS;
}

VMPI_WEAK(T_cvar_get_index)
int PMPI_T_cvar_get_index(const char *name, int *cvar_index)
{
    VMPI_T_STATE(t);
    if (name == NULL || cvar_index == NULL)
        return MPI_T_ERR_INVALID;
    int i = vmpi_cvar_index(name);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *cvar_index = i;
    return MPI_SUCCESS;
}

/* The rank's control-variable handle `h`, or NULL when it has none such (freed, never allocated). */
static struct vmpi_t_cvar_handle *cvar_handle(vmpi_tool_rank *t, MPI_T_cvar_handle h)
{
    vmpi_list_foreach(it, &t->cvars)
        if (vmpi_container_of(it, struct vmpi_t_cvar_handle, node) == h)
            return h;
    return NULL;
}

VMPI_WEAK(T_cvar_handle_alloc)
int PMPI_T_cvar_handle_alloc(int cvar_index, void *obj_handle, MPI_T_cvar_handle *handle, int *count)
{
    (void)obj_handle; /* every control variable is bound to no object */
    VMPI_T_STATE(t);
    if (cvar_index < 0 || cvar_index >= vmpi_cvar_count())
        return MPI_T_ERR_INVALID_INDEX;
    if (handle == NULL || count == NULL)
        return MPI_T_ERR_INVALID;
    struct vmpi_t_cvar_handle *h = malloc(sizeof *h);
    if (h == NULL)
        return MPI_T_ERR_MEMORY;
    vmpi_cvar_info c;
    vmpi_cvar_get(cvar_index, &c);
    h->index = cvar_index;
    vmpi_list_push_back(&t->cvars, &h->node);
    *handle = h;
    *count = c.count;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_cvar_handle_free)
int PMPI_T_cvar_handle_free(MPI_T_cvar_handle *handle)
{
    VMPI_T_STATE(t);
    if (handle == NULL)
        return MPI_T_ERR_INVALID;
    struct vmpi_t_cvar_handle *h = cvar_handle(t, *handle);
    if (h == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    vmpi_list_remove(&h->node);
    free(h);
    *handle = MPI_T_CVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_cvar_read)
int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void *buf)
{
    VMPI_T_STATE(t);
    struct vmpi_t_cvar_handle *h = cvar_handle(t, handle);
    if (h == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    vmpi_cvar_read(h->index, buf);
    return MPI_SUCCESS;
}

VMPI_WEAK(T_cvar_write)
int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void *buf)
{
    VMPI_T_STATE(t);
    struct vmpi_t_cvar_handle *h = cvar_handle(t, handle);
    if (h == NULL)
        return MPI_T_ERR_INVALID_HANDLE;
    if (buf == NULL)
        return MPI_T_ERR_INVALID;
    return vmpi_cvar_write(h->index, buf);
}

/* ---- categories ---- */

VMPI_WEAK(T_category_get_num)
int PMPI_T_category_get_num(int *num_cat)
{
    return vmpi_t_get_num(num_cat, vmpi_category_count());
}

VMPI_WEAK(T_category_get_info)
int PMPI_T_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len, int *num_cvars,
                             int *num_pvars, int *num_categories)
{
    VMPI_T_CHECK();
    if (cat_index < 0 || cat_index >= vmpi_category_count())
        return MPI_T_ERR_INVALID_INDEX;
    const vmpi_category *c = vmpi_category_get(cat_index);
    vmpi_t_string(c->name, name, name_len);
    vmpi_t_string(c->desc, desc, desc_len);
    VMPI_T_SET(num_cvars, c->ncvars);
    VMPI_T_SET(num_pvars, c->npvars);
    VMPI_T_SET(num_categories, 0);
    return MPI_SUCCESS;
}

VMPI_WEAK(T_category_get_index)
int PMPI_T_category_get_index(const char *name, int *cat_index)
{
    VMPI_T_CHECK();
    if (name == NULL || cat_index == NULL)
        return MPI_T_ERR_INVALID;
    int i = vmpi_category_index(name);
    if (i < 0)
        return MPI_T_ERR_INVALID_NAME;
    *cat_index = i;
    return MPI_SUCCESS;
}

/* The first `len` of a category's `n` members into `indices`. */
static int members(int cat_index, int len, int indices[], int which)
{
    if (cat_index < 0 || cat_index >= vmpi_category_count())
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && indices == NULL))
        return MPI_T_ERR_INVALID;
    const vmpi_category *c = vmpi_category_get(cat_index);
    int n = which == 0 ? c->ncvars : which == 1 ? c->npvars : 0; /* (no subcategories, no events) */
    const int *l = which == 0 ? c->cvars : c->pvars;
    for (int i = 0; i < len && i < n; i++)
        indices[i] = l[i];
    return MPI_SUCCESS;
}

VMPI_WEAK(T_category_get_cvars)
int PMPI_T_category_get_cvars(int cat_index, int len, int indices[])
{
    VMPI_T_CHECK();
    return members(cat_index, len, indices, 0);
}

VMPI_WEAK(T_category_get_pvars)
int PMPI_T_category_get_pvars(int cat_index, int len, int indices[])
{
    VMPI_T_CHECK();
    return members(cat_index, len, indices, 1);
}

VMPI_WEAK(T_category_get_categories)
int PMPI_T_category_get_categories(int cat_index, int len, int indices[])
{
    VMPI_T_CHECK();
    return members(cat_index, len, indices, 2);
}

VMPI_WEAK(T_category_get_num_events)
int PMPI_T_category_get_num_events(int cat_index, int *num_events)
{
    VMPI_T_CHECK();
    if (cat_index < 0 || cat_index >= vmpi_category_count())
        return MPI_T_ERR_INVALID_INDEX;
    if (num_events == NULL)
        return MPI_T_ERR_INVALID;
    *num_events = 0;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_category_get_events)
int PMPI_T_category_get_events(int cat_index, int len, int indices[])
{
    VMPI_T_CHECK();
    return members(cat_index, len, indices, 3);
}

VMPI_WEAK(T_category_changed)
int PMPI_T_category_changed(int *update_number)
{
    VMPI_T_CHECK();
    if (update_number == NULL)
        return MPI_T_ERR_INVALID;
    *update_number = 0; /* the categories are made once and never change */
    return MPI_SUCCESS;
}

/* ---- event sources: one, the monotonic clock in nanoseconds ---- */

VMPI_WEAK(T_source_get_num)
int PMPI_T_source_get_num(int *num_sources)
{
    return vmpi_t_get_num(num_sources, 1);
}

VMPI_WEAK(T_source_get_info)
int PMPI_T_source_get_info(int source_index, char *name, int *name_len, char *desc, int *desc_len,
                           MPI_T_source_order *ordering, MPI_Count *ticks_per_second, MPI_Count *max_ticks,
                           MPI_Info *info)
{
    VMPI_T_CHECK();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    vmpi_t_string("vmpi_clock", name, name_len);
    vmpi_t_string("the process's monotonic clock (CLOCK_MONOTONIC) in nanoseconds, shared by its ranks", desc,
                  desc_len);
    VMPI_T_SET(ordering, MPI_T_SOURCE_ORDERED);
    VMPI_T_SET(ticks_per_second, 1000000000);
    VMPI_T_SET(max_ticks, LLONG_MAX);
    if (info && PMPI_Info_create(info) != MPI_SUCCESS) /* (no hints: an empty info, the caller's to free) */
        return MPI_T_ERR_MEMORY;
    return MPI_SUCCESS;
}

VMPI_WEAK(T_source_get_timestamp)
int PMPI_T_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    VMPI_T_CHECK();
    if (source_index != 0)
        return MPI_T_ERR_INVALID_INDEX;
    if (timestamp == NULL)
        return MPI_T_ERR_INVALID;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *timestamp = (MPI_Count)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return MPI_SUCCESS;
}

/* ---- events: none, so no index, name, registration or instance is valid ---- */

VMPI_WEAK(T_event_get_num)
int PMPI_T_event_get_num(int *num_events)
{
    return vmpi_t_get_num(num_events, 0);
}

VMPI_WEAK(T_event_get_info)
int PMPI_T_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[], int *num_elements,
                          MPI_T_enum *enumtype, MPI_Info *info, char *desc, int *desc_len, int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc, (void)desc_len;
    (void)bind;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}

VMPI_WEAK(T_event_get_index)
int PMPI_T_event_get_index(const char *name, int *event_index)
{
    VMPI_T_CHECK();
    if (name == NULL || event_index == NULL)
        return MPI_T_ERR_INVALID;
    return MPI_T_ERR_INVALID_NAME;
}

VMPI_WEAK(T_event_handle_alloc)
int PMPI_T_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                              MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_INDEX;
}

VMPI_WEAK(T_event_handle_set_info)
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)event_registration, (void)info;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_handle_get_info)
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_register_callback)
int PMPI_T_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info, void *user_data, MPI_T_event_cb_function event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data, (void)event_cb_function;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_callback_set_info)
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_callback_get_info)
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                                   MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_handle_free)
int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                             MPI_T_event_free_cb_function free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_set_dropped_handler)
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

/* An event instance exists only during a callback, and there are none. */
VMPI_WEAK(T_event_read)
int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_copy)
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_get_timestamp)
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}

VMPI_WEAK(T_event_get_source)
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance, (void)source_index;
    VMPI_T_CHECK();
    return MPI_T_ERR_INVALID_HANDLE;
}
