/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing control variables while the job runs (MPI-4.1 15.3.6), and their effect:
 *   - VMPI_BALANCER (a string, scope MPI_T_SCOPE_ALL_EQ: every rank writes the same value): the job starts
 *     with the testlist's balancer (Null); after every rank writes "Rotate", the next migration point moves
 *     every rank to the next PE of its process (with more than one there), and after "Null" again the next
 *     one moves none; what was written reads back, in every rank of the process; a chain with a strategy
 *     that does not exist is refused with MPI_T_ERR_INVALID and changes nothing;
 *   - VMPI_LB_VERBOSE (a boolean, MPI_INT): 1 reads back, 2 is MPI_T_ERR_INVALID;
 *   - VMPI_PE_WAIT (a choice: an MPI_INT of an enumeration whose items name the choices) and VMPI_NRANKS are
 *     fixed once the job has started: MPI_T_ERR_CVAR_SET_NEVER. */
#include "mtest.h"

#define CHECK_T(errs, call, cls) MT_CHECK_INT(errs, #call, cls, call)

static MPI_T_cvar_handle handle(const char *name, int *count)
{
    int i = -1, n = 0;
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    MT_CALL(MPI_T_cvar_get_index(name, &i));
    MT_CALL(MPI_T_cvar_handle_alloc(i, NULL, &h, &n));
    if (count)
        *count = n;
    return h;
}

/* The calling rank's PE before and after a migration point. */
static void migrate(int *before, int *after)
{
    *before = mt_world_attr(AMPI_MY_WTH);
    mt_migrate();
    *after = mt_world_attr(AMPI_MY_WTH);
}

int main(int argc, char **argv)
{
    int errs = 0, provided, count = 0, pe0, pe1;
    MPI_Init(&argc, &argv);
    MT_CALL(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    int npes = mt_world_attr(AMPI_NUM_WTHS), moves = mt_proc_npes(npes) > 1;
    MPI_T_cvar_handle lb = handle("VMPI_BALANCER", &count);
    int idx, scope = -1;
    MPI_Datatype dt;
    MT_CALL(MPI_T_cvar_get_index("VMPI_BALANCER", &idx));
    MT_CHECK_RC(errs, MPI_T_cvar_get_info(idx, NULL, NULL, NULL, &dt, NULL, NULL, NULL, NULL, &scope));
    MT_CHECK(errs, dt == MPI_CHAR && scope == MPI_T_SCOPE_ALL_EQ && count >= 64, "VMPI_BALANCER: scope %d, count %d",
             scope, count);
    char *v = malloc((size_t)count);
    MT_CHECK_RC(errs, MPI_T_cvar_read(lb, v));
    const char *start = getenv("VMPI_BALANCER");
    MT_CHECK(errs, strcmp(v, start && *start ? start : "Null") == 0, "VMPI_BALANCER at the start: '%s'", v);
    migrate(&pe0, &pe1);
    MT_CHECK_INT(errs, "PE after a step of Null", pe0, pe1);

    MT_CHECK_RC(errs, MPI_T_cvar_write(lb, "Rotate"));
    MPI_Barrier(MPI_COMM_WORLD); /* every rank of the process has written it: any read gives it */
    MT_CHECK_RC(errs, MPI_T_cvar_read(lb, v));
    MT_CHECK(errs, strcmp(v, "Rotate") == 0, "VMPI_BALANCER written: '%s'", v);
    migrate(&pe0, &pe1);
    MT_CHECK_INT(errs, "PE after a step of Rotate", moves ? mt_rotate_next(pe0, npes) : pe0, pe1);

    CHECK_T(errs, MPI_T_cvar_write(lb, "Rotate,NoSuchBalancer"), MPI_T_ERR_INVALID);
    MT_CHECK_RC(errs, MPI_T_cvar_read(lb, v));
    MT_CHECK(errs, strcmp(v, "Rotate") == 0, "VMPI_BALANCER after a refused write: '%s'", v);
    migrate(&pe0, &pe1);
    MT_CHECK_INT(errs, "PE after another step of Rotate", moves ? mt_rotate_next(pe0, npes) : pe0, pe1);

    MPI_Barrier(MPI_COMM_WORLD); /* (no rank writes Null while another still expects Rotate) */
    MT_CHECK_RC(errs, MPI_T_cvar_write(lb, "Null"));
    migrate(&pe0, &pe1);
    MT_CHECK_INT(errs, "PE after a step of Null again", pe0, pe1);
    MT_CHECK_RC(errs, MPI_T_cvar_handle_free(&lb));
    free(v);

    MPI_T_cvar_handle verbose = handle("VMPI_LB_VERBOSE", NULL);
    int b = -1, one = 1, two = 2, zero = 0;
    MT_CHECK_RC(errs, MPI_T_cvar_read(verbose, &b));
    MT_CHECK_INT(errs, "VMPI_LB_VERBOSE", 0, b);
    MPI_Barrier(MPI_COMM_WORLD); /* (the process's value: no rank writes it before every rank has read it) */
    MT_CHECK_RC(errs, MPI_T_cvar_write(verbose, &one));
    MT_CHECK_RC(errs, MPI_T_cvar_read(verbose, &b));
    MT_CHECK_INT(errs, "VMPI_LB_VERBOSE written", 1, b);
    CHECK_T(errs, MPI_T_cvar_write(verbose, &two), MPI_T_ERR_INVALID);
    MT_CHECK_RC(errs, MPI_T_cvar_read(verbose, &b));
    MT_CHECK_INT(errs, "VMPI_LB_VERBOSE after a refused write", 1, b);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_T_cvar_write(verbose, &zero));
    MT_CHECK_RC(errs, MPI_T_cvar_handle_free(&verbose));

    MPI_T_enum en = MPI_T_ENUM_NULL;
    MT_CALL(MPI_T_cvar_get_index("VMPI_PE_WAIT", &idx));
    MT_CHECK_RC(errs, MPI_T_cvar_get_info(idx, NULL, NULL, NULL, &dt, &en, NULL, NULL, NULL, &scope));
    MT_CHECK(errs, dt == MPI_INT && en != MPI_T_ENUM_NULL && scope == MPI_T_SCOPE_CONSTANT, "VMPI_PE_WAIT");
    int items = 0, w = -1, value = -1;
    char ename[32], item[32];
    int elen = sizeof ename, ilen = sizeof item;
    MT_CHECK_RC(errs, MPI_T_enum_get_info(en, &items, ename, &elen));
    MT_CHECK(errs, items == 3 && strcmp(ename, "pe-wait") == 0, "enumeration '%s' of %d items", ename, items);
    MPI_T_cvar_handle pw = handle("VMPI_PE_WAIT", NULL);
    MT_CHECK_RC(errs, MPI_T_cvar_read(pw, &w));
    MT_CHECK_RC(errs, MPI_T_enum_get_item(en, w, &value, item, &ilen));
    const char *env = getenv("VMPI_PE_WAIT");
    MT_CHECK(errs, strcmp(item, env && *env ? env : "auto") == 0, "VMPI_PE_WAIT is '%s'", item);
    CHECK_T(errs, MPI_T_cvar_write(pw, &one), MPI_T_ERR_CVAR_SET_NEVER);
    MT_CHECK_RC(errs, MPI_T_cvar_handle_free(&pw));
    MPI_T_cvar_handle nr = handle("VMPI_NRANKS", NULL);
    CHECK_T(errs, MPI_T_cvar_write(nr, &one), MPI_T_ERR_CVAR_SET_NEVER);
    MT_CHECK_RC(errs, MPI_T_cvar_handle_free(&nr));
    MT_CHECK_RC(errs, MPI_T_finalize());
    return mt_finish(errs);
}
