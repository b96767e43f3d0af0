/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI calls outside MPI_Init .. MPI_Finalize are errors (MPI-3.1 8.7), reported through MPI_COMM_WORLD's error
 * handler with MPI_ERR_OTHER whatever communicator they name, except the functions the standard allows at any time (MPI_Initialized,
 * MPI_Finalized, MPI_Get_version, MPI_Get_library_version, and since MPI-4 the info functions) and those
 * that report no errors (MPI_Wtime, MPI_Wtick).  After MPI_Finalize, with MPI_ERRORS_RETURN set on MPI_COMM_WORLD before it, every other
 * int-returning function of mpi.h (uninit_calls.h, generated from it by gen-calls.py: all arguments 0)
 * returns MPI_ERR_OTHER; MPI_Init and MPI_Finalize too.  With MT_UNINIT=before in the environment, a call
 * before MPI_Init (MPI_Comm_rank) stops the job under the default MPI_ERRORS_ARE_FATAL with a message
 * naming it (the testlist expects exit status 1 and "MPI_Comm_rank: MPI_ERR_OTHER").  The ranks do not
 * talk after MPI_Finalize: each checks its own calls; the job fails if any rank does. */
#include "mtest.h"
#include "uninit_calls.h"

/* Allowed at any time (MPI-4.1 11.2.1: the info functions too, and those that start a session or make or free
 * its error handler; 15.3.4: the MPI_T ones, which tool/vars calls after MPI_Finalize), or would end the job
 * (MPI_Abort), or does nothing (MPI_Pcontrol, for profiling libraries). */
static int allowed(const char *name)
{
    static const char *const ok[] = {"MPI_Initialized", "MPI_Finalized", "MPI_Get_version",
                                     "MPI_Get_library_version", "MPI_Abort", "MPI_Pcontrol", "MPI_Session_init",
                                     "MPI_Session_create_errhandler", "MPI_Errhandler_free"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(name, ok[i]) == 0)
            return 1;
    return strncmp(name, "MPI_Info_", 9) == 0 || strncmp(name, "MPI_T_", 6) == 0; /* MPI_T: any time too */
}

/* The info functions work before MPI_Init and after MPI_Finalize (MPI-4.1 11.2.1). */
static int info_anytime(const char *when)
{
    int errs = 0, flag = 0, len = 0;
    MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL;
    char v[16];
    MT_CHECK_RC(errs, MPI_Info_create(&info));
    MT_CHECK_RC(errs, MPI_Info_set(info, "k", when));
    MT_CHECK_RC(errs, MPI_Info_dup(info, &dup));
    len = sizeof v;
    MT_CHECK_RC(errs, MPI_Info_get_string(dup, "k", &len, v, &flag));
    MT_CHECK(errs, flag && strcmp(v, when) == 0 && len == (int)strlen(when) + 1, "%s: info value '%s' (%d)", when,
             flag ? v : "(none)", len);
    MT_CHECK_RC(errs, MPI_Info_free(&dup));
    MT_CHECK_RC(errs, MPI_Info_free(&info));
    return errs;
}

static int anytime(int want_init, int want_fin)
{
    int errs = 0, flag = -1, v = 0, sv = 0, len = 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MT_CHECK_RC(errs, MPI_Initialized(&flag));
    MT_CHECK_INT(errs, "MPI_Initialized", want_init, flag);
    MT_CHECK_RC(errs, MPI_Finalized(&flag));
    MT_CHECK_INT(errs, "MPI_Finalized", want_fin, flag);
    MT_CHECK_RC(errs, MPI_Get_version(&v, &sv));
    MT_CHECK(errs, v == MPI_VERSION && sv == MPI_SUBVERSION, "MPI_Get_version: %d.%d", v, sv);
    MT_CHECK_RC(errs, MPI_Get_library_version(lib, &len));
    MT_CHECK(errs, len > 0, "MPI_Get_library_version: empty");
    MT_CHECK(errs, MPI_Wtime() > 0 && MPI_Wtick() > 0, "MPI_Wtime or MPI_Wtick is not positive");
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank = -1;
    const char *mode = getenv("MT_UNINIT");
    errs += anytime(0, 0);
    errs += info_anytime("before");
    if (mode && strcmp(mode, "before") == 0) {
        int r = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &r); /* MPI_ERRORS_ARE_FATAL: the job stops here */
        fprintf(stderr, "MPI_Comm_rank before MPI_Init returned (rank %d)\n", r);
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    errs += anytime(1, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Finalize();
    errs += anytime(1, 1);
    errs += info_anytime("after");
    int n = 0;
    for (size_t i = 0; i < sizeof uninit_calls / sizeof uninit_calls[0]; i++) {
        if (allowed(uninit_calls[i].name))
            continue;
        int rc = uninit_calls[i].call();
        n++;
        if (rc != MPI_ERR_OTHER)
            MT_ERR(errs, "%s after MPI_Finalize returned %d, expected MPI_ERR_OTHER (%d)", uninit_calls[i].name, rc,
                   MPI_ERR_OTHER);
    }
    MT_CHECK(errs, n > 250, "only %d functions were called", n);
    /* through MPI_COMM_WORLD's handler whatever communicator a call names: MPI_COMM_SELF's is still fatal */
    int pos = 0, size = -1;
    int rcs[] = {MPI_Send(NULL, 0, MPI_INT, 0, 0, MPI_COMM_SELF), MPI_Pack(NULL, 0, MPI_INT, NULL, 0, &pos, MPI_COMM_SELF),
                 MPI_Comm_size(MPI_COMM_SELF, &size), MPI_Barrier(MPI_COMM_SELF)};
    for (int i = 0; i < 4; i++) /* (MPI_Error_class is not callable now: the codes are the classes) */
        MT_CHECK(errs, rcs[i] == MPI_ERR_OTHER, "call %d naming MPI_COMM_SELF returned %d", i, rcs[i]);
    if (errs)
        fprintf(stderr, "[rank %d] Found %d errors\n", rank, errs);
    else if (rank == 0)
        printf(" No Errors\n");
    return errs ? 1 : 0;
}
