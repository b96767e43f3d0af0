/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T's variables, categories, enumerations and sources, and its errors (MPI-4.1 15):
 *   - every call before MPI_T_init_thread returns MPI_T_ERR_NOT_INITIALIZED; MPI_T_init_thread works before
 *     MPI_Init, is counted (two inits need two finalizes) and per rank;
 *   - every control variable: its information (the string convention: NULL buffer, 0 length, truncation,
 *     NULL length leaves the buffer alone), MPI_T_cvar_get_index finds it by name, it reads (integers in
 *     the setting's range; VMPI_NRANKS is the world size; an enumerated one holds one of its items); a
 *     fixed one refuses a write with MPI_T_ERR_CVAR_SET_NEVER and keeps its value;
 *   - every performance variable: its information, found by name and class, not by another class;
 *   - the categories hold every control and performance variable exactly once, and are found by name;
 *   - the one event source and its clock; no events; every event call with a registration or instance
 *     that cannot exist returns MPI_T_ERR_INVALID_HANDLE;
 *   - bad indices, names, handles and items give their error classes;
 *   - after MPI_Finalize MPI_T still works until its last MPI_T_finalize. */
#include <limits.h>
#include "mtest.h"

#define CHECK_T(errs, call, cls) MT_CHECK_INT(errs, #call, cls, call)

/* Calls made before MPI_T is initialized (or after its last finalize). */
static void uninitialized(int *errs)
{
    int n = -1, idx;
    MPI_T_cvar_handle ch = MPI_T_CVAR_HANDLE_NULL;
    MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL;
    CHECK_T(*errs, MPI_T_cvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_pvar_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_category_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_source_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_event_get_num(&n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_cvar_get_index("VMPI_NRANKS", &idx), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_cvar_handle_alloc(0, NULL, &ch, &n), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_pvar_session_create(&s), MPI_T_ERR_NOT_INITIALIZED);
    CHECK_T(*errs, MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);
    MT_CHECK_INT(*errs, "count left alone", -1, n);
}

/* A string argument's convention (MPI-4.1 15.3.3), on control variable i's name. */
static void strings(int *errs, int i, const char *full)
{
    char buf[8];
    int len = 0, want = (int)strlen(full) + 1;
    MT_CHECK_RC(*errs, MPI_T_cvar_get_info(i, NULL, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    MT_CHECK_INT(*errs, "length with a NULL buffer", want, len);
    len = 0;
    memset(buf, 'x', sizeof buf);
    MT_CHECK_RC(*errs, MPI_T_cvar_get_info(i, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    MT_CHECK_INT(*errs, "length with a 0 length", want, len);
    MT_CHECK(*errs, buf[0] == 'x', "a 0 length wrote into the buffer");
    len = 4;
    MT_CHECK_RC(*errs, MPI_T_cvar_get_info(i, buf, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    MT_CHECK(*errs, strncmp(buf, full, 3) == 0 && buf[3] == '\0' && buf[4] == 'x', "truncated to 3: '%.8s'", buf);
    MT_CHECK_INT(*errs, "length after truncation", want, len);
    MT_CHECK_RC(*errs, MPI_T_cvar_get_info(i, buf, NULL, NULL, NULL, NULL, buf, NULL, NULL, NULL));
    MT_CHECK(*errs, buf[4] == 'x' && buf[3] == '\0', "a NULL length wrote into the buffer");
}

static void cvars(int *errs, int size)
{
    int n = 0, found_ranks = 0;
    MT_CHECK_RC(*errs, MPI_T_cvar_get_num(&n));
    MT_CHECK(*errs, n >= 20, "only %d control variables", n);
    for (int i = 0; i < n; i++) {
        char name[128], desc[1024];
        int nlen = sizeof name, dlen = sizeof desc, verb = -1, bind = -1, scope = -1, idx = -1, count = -1;
        MPI_Datatype dt = MPI_DATATYPE_NULL;
        MPI_T_enum en = (MPI_T_enum)0x31415926;
        MT_CHECK_RC(*errs, MPI_T_cvar_get_info(i, name, &nlen, &verb, &dt, &en, desc, &dlen, &bind, &scope));
        MT_CHECK_INT(*errs, "name length", strlen(name) + 1, nlen);
        MT_CHECK(*errs, strncmp(name, "VMPI_", 5) == 0 && dlen > 10, "cvar %d: '%s' '%s'", i, name, desc);
        MT_CHECK(*errs, verb >= MPI_T_VERBOSITY_USER_BASIC && verb <= MPI_T_VERBOSITY_MPIDEV_ALL, "verbosity %d", verb);
        MT_CHECK_INT(*errs, name, MPI_T_BIND_NO_OBJECT, bind);
        MT_CHECK(*errs, scope == MPI_T_SCOPE_CONSTANT || scope == MPI_T_SCOPE_ALL_EQ, "%s: scope %d", name, scope);
        MT_CHECK(*errs, dt == MPI_INT || dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_CHAR, "%s: datatype", name);
        MT_CHECK(*errs, en == MPI_T_ENUM_NULL || dt == MPI_INT, "%s: an enumeration of another type", name);
        MT_CHECK_RC(*errs, MPI_T_cvar_get_index(name, &idx));
        MT_CHECK_INT(*errs, name, i, idx);
        strings(errs, i, name);

        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        MT_CHECK_RC(*errs, MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        MT_CHECK(*errs, h != MPI_T_CVAR_HANDLE_NULL && count >= 1, "%s: handle, count %d", name, count);
        if (dt == MPI_CHAR) {
            char *v = malloc((size_t)count), *w = malloc((size_t)count);
            memset(v, 'x', (size_t)count);
            MT_CHECK_RC(*errs, MPI_T_cvar_read(h, v));
            MT_CHECK(*errs, memchr(v, '\0', (size_t)count) != NULL, "%s: no null within %d", name, count);
            if (scope == MPI_T_SCOPE_CONSTANT) {
                CHECK_T(*errs, MPI_T_cvar_write(h, "other"), MPI_T_ERR_CVAR_SET_NEVER);
                MT_CHECK_RC(*errs, MPI_T_cvar_read(h, w));
                MT_CHECK(*errs, strcmp(v, w) == 0, "%s changed: '%s' -> '%s'", name, v, w);
            }
            free(v);
            free(w);
        } else if (dt == MPI_INT) {
            int v = -1, w = -1;
            MT_CHECK_RC(*errs, MPI_T_cvar_read(h, &v));
            MT_CHECK(*errs, v >= 0, "%s = %d", name, v);
            if (en != MPI_T_ENUM_NULL) {
                int items = 0, value = -1;
                char item[64];
                int ilen = sizeof item;
                MT_CHECK_RC(*errs, MPI_T_enum_get_info(en, &items, NULL, NULL));
                MT_CHECK(*errs, items >= 2 && v < items, "%s: %d of %d items", name, v, items);
                MT_CHECK_RC(*errs, MPI_T_enum_get_item(en, v, &value, item, &ilen));
                MT_CHECK_INT(*errs, "item value", v, value);
                CHECK_T(*errs, MPI_T_enum_get_item(en, items, &value, item, &ilen), MPI_T_ERR_INVALID_ITEM);
                CHECK_T(*errs, MPI_T_enum_get_item(en, -1, &value, item, &ilen), MPI_T_ERR_INVALID_ITEM);
            }
            if (strcmp(name, "VMPI_NRANKS") == 0) {
                MT_CHECK_INT(*errs, "VMPI_NRANKS", size, v);
                found_ranks = 1;
            }
            if (scope == MPI_T_SCOPE_CONSTANT) {
                w = v + 1;
                CHECK_T(*errs, MPI_T_cvar_write(h, &w), MPI_T_ERR_CVAR_SET_NEVER);
                MT_CHECK_RC(*errs, MPI_T_cvar_read(h, &w));
                MT_CHECK_INT(*errs, name, v, w);
            }
        } else {
            unsigned long long v = 0;
            MT_CHECK_RC(*errs, MPI_T_cvar_read(h, &v));
            if (strcmp(name, "VMPI_STACK_SIZE") == 0)
                MT_CHECK(*errs, v >= 65536, "VMPI_STACK_SIZE = %llu", v);
        }
        MPI_T_cvar_handle dead = h;
        MT_CHECK_RC(*errs, MPI_T_cvar_handle_free(&h));
        MT_CHECK(*errs, h == MPI_T_CVAR_HANDLE_NULL, "handle not nulled");
        int v;
        CHECK_T(*errs, MPI_T_cvar_read(dead, &v), MPI_T_ERR_INVALID_HANDLE);
        CHECK_T(*errs, MPI_T_cvar_handle_free(&dead), MPI_T_ERR_INVALID_HANDLE);
    }
    MT_CHECK(*errs, found_ranks, "no VMPI_NRANKS control variable");
    int idx, count;
    MPI_T_cvar_handle h;
    CHECK_T(*errs, MPI_T_cvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_cvar_handle_alloc(n, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_cvar_get_index("VMPI_NO_SUCH_SETTING", &idx), MPI_T_ERR_INVALID_NAME);
    CHECK_T(*errs, MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &idx), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_enum_get_info(MPI_T_ENUM_NULL, &idx, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
}

static void pvars(int *errs)
{
    int n = 0;
    MT_CHECK_RC(*errs, MPI_T_pvar_get_num(&n));
    const char *want[] = {"vmpi_msgs_sent", "vmpi_bytes_sent", "vmpi_unexpected", "vmpi_comm_unexpected",
                          "vmpi_context_switches", "vmpi_pe", "vmpi_pe_idle_time", "vmpi_migrations",
                          "vmpi_lb_steps", "vmpi_lb_time", "vmpi_migrated_bytes"};
    int seen = 0;
    for (int i = 0; i < n; i++) {
        char name[128];
        int nlen = sizeof name, verb, cls = -1, bind = -1, ro = -1, cont = -1, atom = -1, idx = -1, dlen = 0;
        MPI_Datatype dt;
        MPI_T_enum en;
        MT_CHECK_RC(*errs, MPI_T_pvar_get_info(i, name, &nlen, &verb, &cls, &dt, &en, NULL, &dlen, &bind, &ro,
                                               &cont, &atom));
        MT_CHECK(*errs, cls >= MPI_T_PVAR_CLASS_STATE && cls <= MPI_T_PVAR_CLASS_GENERIC, "%s: class %d", name, cls);
        MT_CHECK(*errs, bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM, "%s: bind %d", name, bind);
        MT_CHECK(*errs, (ro == 0 || ro == 1) && (cont == 0 || cont == 1) && (atom == 0 || atom == 1) && dlen > 10,
                 "%s: flags %d %d %d", name, ro, cont, atom);
        MT_CHECK(*errs, dt == MPI_UNSIGNED_LONG_LONG || dt == MPI_DOUBLE, "%s: datatype", name);
        MT_CHECK(*errs, en == MPI_T_ENUM_NULL, "%s: an enumeration", name);
        MT_CHECK_RC(*errs, MPI_T_pvar_get_index(name, cls, &idx));
        MT_CHECK_INT(*errs, name, i, idx);
        int other = cls == MPI_T_PVAR_CLASS_COUNTER ? MPI_T_PVAR_CLASS_LEVEL : MPI_T_PVAR_CLASS_COUNTER;
        CHECK_T(*errs, MPI_T_pvar_get_index(name, other, &idx), MPI_T_ERR_INVALID_NAME);
        for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
            seen += strcmp(want[k], name) == 0;
    }
    MT_CHECK_INT(*errs, "performance variables found", sizeof want / sizeof want[0], seen);
    CHECK_T(*errs, MPI_T_pvar_get_info(n, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    int idx;
    CHECK_T(*errs, MPI_T_pvar_get_index("vmpi_no_such", MPI_T_PVAR_CLASS_COUNTER, &idx), MPI_T_ERR_INVALID_NAME);
}

/* Every variable is in exactly one category. */
static void categories(int *errs)
{
    int ncat = 0, ncv = 0, npv = 0;
    MT_CHECK_RC(*errs, MPI_T_category_get_num(&ncat));
    MT_CHECK_RC(*errs, MPI_T_cvar_get_num(&ncv));
    MT_CHECK_RC(*errs, MPI_T_pvar_get_num(&npv));
    MT_CHECK(*errs, ncat >= 3, "%d categories", ncat);
    int *cv = calloc((size_t)ncv, sizeof(int)), *pv = calloc((size_t)npv, sizeof(int));
    for (int c = 0; c < ncat; c++) {
        char name[64];
        int len = sizeof name, nc = -1, np = -1, nsub = -1, idx = -1, nev = -1, upd = -1;
        MT_CHECK_RC(*errs, MPI_T_category_get_info(c, name, &len, NULL, NULL, &nc, &np, &nsub));
        MT_CHECK_RC(*errs, MPI_T_category_get_index(name, &idx));
        MT_CHECK_INT(*errs, name, c, idx);
        MT_CHECK(*errs, nc + np > 0 && nsub == 0, "%s: %d cvars, %d pvars, %d subcategories", name, nc, np, nsub);
        int *l = malloc(sizeof(int) * (size_t)(nc + np + 1));
        MT_CHECK_RC(*errs, MPI_T_category_get_cvars(c, nc, l));
        for (int k = 0; k < nc; k++)
            if (l[k] >= 0 && l[k] < ncv)
                cv[l[k]]++;
        MT_CHECK_RC(*errs, MPI_T_category_get_pvars(c, np, l));
        for (int k = 0; k < np; k++)
            if (l[k] >= 0 && l[k] < npv)
                pv[l[k]]++;
        MT_CHECK_RC(*errs, MPI_T_category_get_categories(c, 0, NULL));
        MT_CHECK_RC(*errs, MPI_T_category_get_num_events(c, &nev));
        MT_CHECK_INT(*errs, "events of a category", 0, nev);
        MT_CHECK_RC(*errs, MPI_T_category_get_events(c, 1, l));
        MT_CHECK_RC(*errs, MPI_T_category_changed(&upd));
        MT_CHECK(*errs, upd >= 0, "update number %d", upd);
        free(l);
    }
    for (int i = 0; i < ncv; i++)
        MT_CHECK_INT(*errs, "categories of a cvar", 1, cv[i]);
    for (int i = 0; i < npv; i++)
        MT_CHECK_INT(*errs, "categories of a pvar", 1, pv[i]);
    free(cv);
    free(pv);
    int idx, l[1];
    CHECK_T(*errs, MPI_T_category_get_index("no such category", &idx), MPI_T_ERR_INVALID_NAME);
    CHECK_T(*errs, MPI_T_category_get_cvars(ncat, 1, l), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_category_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
}

static void events(int *errs)
{
    int n = -1, idx;
    char name[64];
    int len = sizeof name;
    MPI_T_source_order order = MPI_T_SOURCE_UNORDERED;
    MPI_Count tps = 0, maxt = 0, t0 = 0, t1 = 0;
    MPI_Info info = MPI_INFO_NULL;
    MT_CHECK_RC(*errs, MPI_T_source_get_num(&n));
    MT_CHECK_INT(*errs, "sources", 1, n);
    MT_CHECK_RC(*errs, MPI_T_source_get_info(0, name, &len, NULL, NULL, &order, &tps, &maxt, &info));
    MT_CHECK(*errs, order == MPI_T_SOURCE_ORDERED && tps == 1000000000 && maxt > 0, "source 0: %d %lld %lld",
             (int)order, tps, maxt);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    MT_CHECK_RC(*errs, MPI_T_source_get_timestamp(0, &t0));
    MT_CHECK_RC(*errs, MPI_T_source_get_timestamp(0, &t1));
    MT_CHECK(*errs, t0 > 0 && t1 >= t0, "timestamps %lld then %lld", t0, t1);
    CHECK_T(*errs, MPI_T_source_get_timestamp(1, &t0), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_source_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    MT_CHECK_RC(*errs, MPI_T_event_get_num(&n));
    MT_CHECK_INT(*errs, "events", 0, n);
    CHECK_T(*errs, MPI_T_event_get_info(0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
            MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_event_get_index("no such event", &idx), MPI_T_ERR_INVALID_NAME);
    MPI_T_event_registration reg = NULL;
    CHECK_T(*errs, MPI_T_event_handle_alloc(0, NULL, MPI_INFO_NULL, &reg), MPI_T_ERR_INVALID_INDEX);
    CHECK_T(*errs, MPI_T_event_handle_set_info(reg, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_handle_get_info(reg, &info), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_register_callback(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, NULL),
            MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_callback_set_info(reg, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_callback_get_info(reg, MPI_T_CB_REQUIRE_NONE, &info), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_set_dropped_handler(reg, NULL), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_handle_free(reg, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    MPI_T_event_instance inst = NULL;
    CHECK_T(*errs, MPI_T_event_read(inst, 0, name), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_copy(inst, name), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_get_timestamp(inst, &t0), MPI_T_ERR_INVALID_HANDLE);
    CHECK_T(*errs, MPI_T_event_get_source(inst, &idx), MPI_T_ERR_INVALID_HANDLE);
}

int main(int argc, char **argv)
{
    int errs = 0, provided = -1, rank, size;
    uninitialized(&errs);
    CHECK_T(errs, MPI_T_init_thread(MPI_THREAD_SINGLE, NULL), MPI_T_ERR_INVALID);
    MT_CHECK_RC(errs, MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    MT_CHECK(errs, provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
    MT_CHECK_RC(errs, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MT_CHECK_INT(errs, "provided", MPI_THREAD_SINGLE, provided);
    MT_CHECK_RC(errs, MPI_T_finalize()); /* one of two: still initialized */
    int before_init = 0;
    MT_CHECK_RC(errs, MPI_T_cvar_get_num(&before_init));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cvars(&errs, size);
    pvars(&errs);
    categories(&errs);
    events(&errs);
    int n = 0;
    MT_CHECK_RC(errs, MPI_T_cvar_get_num(&n));
    MT_CHECK_INT(errs, "cvars before MPI_Init and after", before_init, n);

    /* mt_finish's errors are summed before MPI_Finalize: what follows it is checked on the way out */
    int total = 0;
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    int after = 0, idx = -1, v = -1, count;
    MPI_T_cvar_handle h;
    MT_CHECK_RC(after, MPI_T_cvar_get_index("VMPI_NRANKS", &idx));
    MT_CHECK_RC(after, MPI_T_cvar_handle_alloc(idx, NULL, &h, &count));
    MT_CHECK_RC(after, MPI_T_cvar_read(h, &v));
    MT_CHECK_INT(after, "VMPI_NRANKS after MPI_Finalize", size, v);
    MT_CHECK_RC(after, MPI_T_finalize()); /* the last: frees the handle */
    CHECK_T(after, MPI_T_cvar_read(h, &v), MPI_T_ERR_NOT_INITIALIZED);
    uninitialized(&after);
    if (rank == 0 && total + after == 0)
        printf(" No Errors\n");
    else if (total + after)
        printf(" Found %d errors\n", total + after);
    return total + after ? 1 : 0;
}
