/* SPDX-License-Identifier: BSD-3-Clause */
/* Sessions' errors (MPI-4.1 11.3, 9.3), without MPI_Init: a session's handler made with
 * MPI_Session_create_errhandler (before any session: allowed at any time) is called with the session and the
 * code its failing call returns (an unknown process set: MPI_ERR_ARG); MPI_Session_set/get/call_errhandler;
 * bad arguments of each call get their class: an invalid or finalized session MPI_ERR_SESSION (through
 * MPI_COMM_SELF's handler), a bad index or name MPI_ERR_ARG, a group without the caller MPI_ERR_GROUP, bad
 * leaders MPI_ERR_RANK, overlapping groups MPI_ERR_GROUP, an overlong string tag MPI_ERR_ARG (through the
 * handler the constructor is given).  MT_SESSION_FAIL=fatal or =abort: an unknown process set under
 * MPI_ERRORS_ARE_FATAL or MPI_ERRORS_ABORT ends the job; =exit: a rank whose main returns 5 with a session
 * open ends the job with that status, as one would before MPI_Finalize (the testlist checks status and
 * message).
 * The handler has no user-data argument: it records its calls in a table indexed by world rank (its rank in
 * mpi://WORLD's group), each rank in its own slot. */
#include <string.h>
#include "mtest.h"

#define MAXR 16384
typedef struct {
    int calls, code;
    MPI_Session session;
} record_t;
static record_t records[MAXR];

static int world_rank(MPI_Session s)
{
    MPI_Group g;
    int r = -1;
    if (MPI_Group_from_session_pset(s, "mpi://WORLD", &g) == MPI_SUCCESS) {
        MPI_Group_rank(g, &r);
        MPI_Group_free(&g);
    }
    return r;
}

static void handler(MPI_Session *s, int *code, ...)
{
    int r = world_rank(*s);
    if (r >= 0 && r < MAXR) {
        records[r].calls++;
        records[r].code = *code;
        records[r].session = *s;
    }
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    int errs = 0, rc, n;
    MPI_Session s, s2;
    MPI_Errhandler eh, got;
    MPI_Group g, self;
    MPI_Comm c = MPI_COMM_NULL;
    char name[MPI_MAX_PSET_NAME_LEN];
    const char *fail = getenv("MT_SESSION_FAIL");

    if (fail && strcmp(fail, "exit") == 0) { /* a rank that ends with a session open and status 5 ends the job */
        MPI_Comm all;
        MT_CALL(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s));
        MT_CALL(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
        MT_CALL(MPI_Comm_create_from_group(g, "org.vmpi.test.exit", MPI_INFO_NULL, MPI_ERRORS_RETURN, &all));
        int r = -1;
        MPI_Comm_rank(all, &r);
        if (r == 0)
            return 5;
        MPI_Barrier(all); /* never completes: rank 0 is gone */
        fprintf(stderr, "MPI_Barrier returned without rank 0\n");
        return 2;
    }
    if (fail) { /* a handler that ends the job */
        MT_CALL(MPI_Session_init(MPI_INFO_NULL, strcmp(fail, "abort") ? MPI_ERRORS_ARE_FATAL : MPI_ERRORS_ABORT, &s));
        MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
        fprintf(stderr, "MPI_Group_from_session_pset returned under MT_SESSION_FAIL=%s\n", fail);
        return 2;
    }

    MT_CALL(MPI_Session_create_errhandler(handler, &eh));
    MT_CALL(MPI_Session_init(MPI_INFO_NULL, eh, &s));
    int me = world_rank(s);
    if (me < 0 || me >= MAXR)
        return 3; /* not tested beyond MAXR ranks */
    record_t *rec = &records[me];
    memset(rec, 0, sizeof *rec);

    /* the session's handler is the one it was given; the error comes to it with the session */
    MT_CHECK_RC(errs, MPI_Session_get_errhandler(s, &got));
    MT_CHECK(errs, got == eh, "MPI_Session_get_errhandler: 0x%x, expected 0x%x", (unsigned)got, (unsigned)eh);
    MT_CHECK_RC(errs, MPI_Errhandler_free(&got));
    rc = MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_ARG);
    MT_CHECK_INT(errs, "handler calls after an unknown process set", 1, rec->calls);
    MT_CHECK_INT(errs, "the handler's code", rc, rec->code);
    MT_CHECK(errs, rec->session == s, "the handler's session 0x%x, expected 0x%x", (unsigned)rec->session,
             (unsigned)s);
    MT_CHECK_RC(errs, MPI_Session_call_errhandler(s, MPI_ERR_OTHER));
    MT_CHECK_INT(errs, "handler calls after MPI_Session_call_errhandler", 2, rec->calls);
    MT_CHECK_INT(errs, "the code of MPI_Session_call_errhandler", MPI_ERR_OTHER, rec->code);

    /* the rest returns its errors */
    MT_CHECK_RC(errs, MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN));
    MT_CHECK_RC(errs, MPI_Errhandler_free(&eh));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
    MT_CHECK_CLASS(errs, MPI_Session_set_errhandler(s, (MPI_Errhandler)0x12345), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Group_from_session_pset(s, NULL, &g), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Session_get_pset_info(s, "mpi://WORLDS", &(MPI_Info){0}), MPI_ERR_ARG);
    MT_CHECK_RC(errs, MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n));
    int len = (int)sizeof name;
    MT_CHECK_CLASS(errs, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, n, &len, name), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Session_get_nth_pset(s, MPI_INFO_NULL, -1, &len, name), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Session_get_num_psets(s, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    MT_CHECK_CLASS(errs, MPI_Session_get_num_psets(MPI_SESSION_NULL, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    MT_CHECK_CLASS(errs, MPI_Session_get_num_psets((MPI_Session)0x3000abcd, MPI_INFO_NULL, &n), MPI_ERR_SESSION);
    MT_CHECK_CLASS(errs, MPI_Session_init(MPI_INFO_NULL, (MPI_Errhandler)0x12345, &s2), MPI_ERR_ARG);
    MT_CHECK_INT(errs, "handler calls after the errors returned", 2, rec->calls);

    /* communicators from groups: the caller must be in the group, the string tag fit */
    MT_CALL(MPI_Group_from_session_pset(s, "mpi://WORLD", &g));
    MT_CALL(MPI_Group_from_session_pset(s, "mpi://SELF", &self));
    int size = 0;
    MT_CHECK_RC(errs, MPI_Group_size(g, &size));
    MPI_Group others;
    MT_CALL(MPI_Group_difference(g, self, &others));
    MT_CHECK_CLASS(errs, MPI_Comm_create_from_group(others, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                   MPI_ERR_GROUP);
    MT_CHECK_CLASS(errs, MPI_Comm_create_from_group(MPI_GROUP_NULL, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                   MPI_ERR_GROUP);
    MT_CHECK_CLASS(errs, MPI_Comm_create_from_group(self, NULL, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c), MPI_ERR_ARG);
    char *longtag = mt_malloc(MPI_MAX_STRINGTAG_LEN + 1);
    memset(longtag, 'x', MPI_MAX_STRINGTAG_LEN);
    longtag[MPI_MAX_STRINGTAG_LEN] = '\0';
    MT_CHECK_CLASS(errs, MPI_Comm_create_from_group(self, longtag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                   MPI_ERR_ARG);
    free(longtag);
    MT_CHECK_CLASS(errs, MPI_Intercomm_create_from_groups(self, 0, g, 0, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c),
                   MPI_ERR_GROUP); /* the caller is in both */
    MT_CHECK_CLASS(errs, MPI_Intercomm_create_from_groups(self, 1, others, 0, "t", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                                          &c), MPI_ERR_RANK);
    MT_CHECK_CLASS(errs, MPI_Intercomm_create_from_groups(self, 0, others, size, "t", MPI_INFO_NULL,
                                                          MPI_ERRORS_RETURN, &c), MPI_ERR_RANK);
    MT_CHECK(errs, c == MPI_COMM_NULL, "a failed constructor gave 0x%x", (unsigned)c);
    MT_CHECK_RC(errs, MPI_Group_free(&others));
    MT_CHECK_RC(errs, MPI_Group_free(&self));

    /* a finalized session is no session (its handle is MPI_SESSION_NULL) */
    MPI_Session dead;
    MT_CALL(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &dead));
    MT_CHECK_RC(errs, MPI_Session_finalize(&dead));
    MT_CHECK_CLASS(errs, MPI_Session_finalize(&dead), MPI_ERR_SESSION);
    MT_CHECK_CLASS(errs, MPI_Session_finalize(NULL), MPI_ERR_ARG);

    /* a communicator made after the errors works; the verdict on it */
    MT_CALL(MPI_Comm_create_from_group(g, "org.vmpi.test.errors", MPI_INFO_NULL, MPI_ERRORS_RETURN, &c));
    MT_CHECK_RC(errs, MPI_Group_free(&g));
    mt_migrate();
    int status = mt_verdict(errs, c);
    MPI_Comm_free(&c);
    MPI_Session_finalize(&s);
    return status;
}
