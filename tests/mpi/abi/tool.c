/* SPDX-License-Identifier: BSD-3-Clause */
/* The tools interface through the MPI-5.0 standard ABI: the enumerations a tool reads (verbosity, variable
 * class, binding, scope) are the ABI's values, and a performance variable bound to a communicator is given
 * the ABI's handle of it (vmpi_comm_unexpected: the messages queued on the communicator before a receive
 * matched them, here one message this rank sends itself). */
#include <mpi.h>
#include "mtest.h"

static int one_of(int v, const int *set, int n)
{
    for (int i = 0; i < n; i++)
        if (v == set[i])
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, errs = 0, provided = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MT_CHECK_RC(errs, MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    MT_CHECK(errs, provided == MPI_THREAD_SINGLE || provided == MPI_THREAD_FUNNELED ||
                       provided == MPI_THREAD_SERIALIZED || provided == MPI_THREAD_MULTIPLE,
             "MPI_T_init_thread provided %d", provided);
    static const int verbosities[] = {MPI_T_VERBOSITY_USER_BASIC,   MPI_T_VERBOSITY_USER_DETAIL,
                                      MPI_T_VERBOSITY_USER_ALL,     MPI_T_VERBOSITY_TUNER_BASIC,
                                      MPI_T_VERBOSITY_TUNER_DETAIL, MPI_T_VERBOSITY_TUNER_ALL,
                                      MPI_T_VERBOSITY_MPIDEV_BASIC, MPI_T_VERBOSITY_MPIDEV_DETAIL,
                                      MPI_T_VERBOSITY_MPIDEV_ALL};
    static const int classes[] = {MPI_T_PVAR_CLASS_STATE,         MPI_T_PVAR_CLASS_LEVEL,
                                  MPI_T_PVAR_CLASS_SIZE,          MPI_T_PVAR_CLASS_PERCENTAGE,
                                  MPI_T_PVAR_CLASS_HIGHWATERMARK, MPI_T_PVAR_CLASS_LOWWATERMARK,
                                  MPI_T_PVAR_CLASS_COUNTER,       MPI_T_PVAR_CLASS_AGGREGATE,
                                  MPI_T_PVAR_CLASS_TIMER,         MPI_T_PVAR_CLASS_GENERIC};
    static const int scopes[] = {MPI_T_SCOPE_CONSTANT, MPI_T_SCOPE_READONLY, MPI_T_SCOPE_LOCAL,   MPI_T_SCOPE_GROUP,
                                 MPI_T_SCOPE_GROUP_EQ, MPI_T_SCOPE_ALL,      MPI_T_SCOPE_ALL_EQ};
    int npvar = 0, ncvar = 0, comm_index = -1;
    MT_CHECK_RC(errs, MPI_T_pvar_get_num(&npvar));
    for (int i = 0; i < npvar; i++) {
        char name[128], desc[512];
        int nl = sizeof name, dl = sizeof desc, verbosity, cls, bind, ro, cont, atomic;
        MPI_Datatype dt;
        MPI_T_enum en;
        MT_CHECK_RC(errs, MPI_T_pvar_get_info(i, name, &nl, &verbosity, &cls, &dt, &en, desc, &dl, &bind, &ro, &cont,
                                              &atomic));
        MT_CHECK(errs, one_of(verbosity, verbosities, 9), "pvar %s: verbosity %d", name, verbosity);
        MT_CHECK(errs, one_of(cls, classes, 10), "pvar %s: class %d", name, cls);
        MT_CHECK(errs, bind == MPI_T_BIND_NO_OBJECT || bind == MPI_T_BIND_MPI_COMM, "pvar %s: binding %d", name, bind);
        if (strcmp(name, "vmpi_comm_unexpected") == 0) {
            comm_index = i;
            MT_CHECK_INT(errs, "vmpi_comm_unexpected's binding", MPI_T_BIND_MPI_COMM, bind);
            MT_CHECK_INT(errs, "vmpi_comm_unexpected's class", MPI_T_PVAR_CLASS_LEVEL, cls);
            MT_CHECK(errs, dt == MPI_UNSIGNED_LONG_LONG, "vmpi_comm_unexpected's datatype %p", (void *)dt);
        }
    }
    MT_CHECK(errs, comm_index >= 0, "no vmpi_comm_unexpected among %d performance variables", npvar);
    MT_CHECK_RC(errs, MPI_T_cvar_get_num(&ncvar));
    for (int i = 0; i < ncvar; i++) {
        char name[128];
        int nl = sizeof name, dl = 0, verbosity, bind, scope;
        MPI_Datatype dt;
        MPI_T_enum en;
        MT_CHECK_RC(errs, MPI_T_cvar_get_info(i, name, &nl, &verbosity, &dt, &en, NULL, &dl, &bind, &scope));
        MT_CHECK(errs, one_of(scope, scopes, 7), "cvar %s: scope %d", name, scope);
        MT_CHECK(errs, one_of(verbosity, verbosities, 9), "cvar %s: verbosity %d", name, verbosity);
        if (bind == MPI_T_BIND_NO_OBJECT && dt == MPI_INT) { /* read it through a handle */
            MPI_T_cvar_handle ch;
            int count = -1, value = -12345;
            MT_CHECK_RC(errs, MPI_T_cvar_handle_alloc(i, NULL, &ch, &count));
            MT_CHECK_INT(errs, "cvar count", 1, count);
            MT_CHECK_RC(errs, MPI_T_cvar_read(ch, &value));
            MT_CHECK(errs, value != -12345, "cvar %s not read", name);
            MT_CHECK_RC(errs, MPI_T_cvar_handle_free(&ch));
        }
    }
    if (comm_index >= 0) {
        MPI_T_pvar_session session;
        MPI_T_pvar_handle h;
        int count = -1;
        MPI_Comm comm = MPI_COMM_WORLD; /* the ABI's handle, predefined (0x101) */
        MT_CHECK_RC(errs, MPI_T_pvar_session_create(&session));
        MT_CHECK_RC(errs, MPI_T_pvar_handle_alloc(session, comm_index, &comm, &h, &count));
        MT_CHECK_INT(errs, "count", 1, count);
        int x = rank;
        MPI_Request req;
        MT_CHECK_RC(errs, MPI_Isend(&x, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &req));
        unsigned long long queued = 0;
        MT_CHECK_RC(errs, MPI_T_pvar_read(session, h, &queued));
        MT_CHECK_INT(errs, "messages queued on MPI_COMM_WORLD", 1, queued);
        int y = -1;
        MT_CHECK_RC(errs, MPI_Recv(&y, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_Wait(&req, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_T_pvar_read(session, h, &queued));
        MT_CHECK_INT(errs, "messages queued after the receive", 0, queued);
        MT_CHECK_RC(errs, MPI_T_pvar_handle_free(session, &h));
        MT_CHECK(errs, h == MPI_T_PVAR_HANDLE_NULL, "MPI_T_pvar_handle_free left %p", (void *)h);
        MT_CHECK_RC(errs, MPI_T_pvar_session_free(&session));
    }
    MT_CHECK_RC(errs, MPI_T_finalize());
    return mt_finish(errs);
}
