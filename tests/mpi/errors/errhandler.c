/* SPDX-License-Identifier: BSD-3-Clause */
/* Error handlers: MPI_Comm_get_errhandler / MPI_Comm_set_errhandler round trips on MPI_COMM_WORLD and
 * MPI_COMM_SELF (independent of each other; default MPI_ERRORS_ARE_FATAL); a user handler made with
 * MPI_Comm_create_errhandler is called with the communicator and the error code that the failing call then
 * returns; MPI_Comm_call_errhandler calls it with exactly the given code; after MPI_Errhandler_free the handle
 * is MPI_ERRHANDLER_NULL but the handler stays attached and working.
 * The handler has no user-data argument, so it records its calls in a table indexed by world rank (each rank
 * only touches its own slot: this stays correct when ranks are threads of one process). */
#include "mtest.h"

#define MAXR 16384
typedef struct {
    int calls;
    MPI_Comm comm;
    int code;
} record_t;
static record_t records[MAXR];

static void handler(MPI_Comm *comm, int *code, ...)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < MAXR) {
        records[rank].calls++;
        records[rank].comm = *comm;
        records[rank].code = *code;
    }
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, x = 0, rc;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL, self_eh = MPI_ERRHANDLER_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank >= MAXR) /* not tested beyond MAXR ranks */
        return mt_finish(errs);
    record_t *me = &records[rank];
    memset(me, 0, sizeof *me);

    /* defaults and round trips */
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "default errhandler of WORLD is %d, expected MPI_ERRORS_ARE_FATAL",
             (int)got);
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "default errhandler of SELF is %d, expected MPI_ERRORS_ARE_FATAL",
             (int)got);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(errs, got == MPI_ERRORS_RETURN, "after set(ERRORS_RETURN), get gives %d", (int)got);
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_SELF, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "setting WORLD's handler changed SELF's to %d", (int)got);

    /* user handler on WORLD */
    MT_CHECK_RC(errs, MPI_Comm_create_errhandler(handler, &eh));
    MT_CHECK(errs, eh != MPI_ERRHANDLER_NULL && eh != MPI_ERRORS_RETURN && eh != MPI_ERRORS_ARE_FATAL,
             "Comm_create_errhandler returned %d", (int)eh);
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh));
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(errs, got == eh, "get after set(user handler): %d, expected %d", (int)got, (int)eh);

    rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    MT_CHECK_INT(errs, "user handler calls after one error", 1, me->calls);
    MT_CHECK(errs, me->comm == MPI_COMM_WORLD, "handler got communicator %d, expected MPI_COMM_WORLD", (int)me->comm);
    MT_CHECK(errs, me->code == rc, "handler got code %d, the call returned %d", me->code, rc);

    rc = MPI_Send(&x, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_COUNT);
    MT_CHECK_INT(errs, "user handler calls after two errors", 2, me->calls);
    MT_CHECK(errs, me->code == rc, "handler got code %d, the call returned %d", me->code, rc);

    /* a successful call does not invoke the handler */
    MPI_Sendrecv(&rank, 1, MPI_INT, rank, 3, &x, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "user handler calls after a successful call", 2, me->calls);

    /* Comm_call_errhandler */
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    MT_CHECK_INT(errs, "Comm_call_errhandler return", MPI_SUCCESS, rc);
    MT_CHECK_INT(errs, "user handler calls after Comm_call_errhandler", 3, me->calls);
    MT_CHECK_INT(errs, "code passed by Comm_call_errhandler", MPI_ERR_OTHER, me->code);
    MT_CHECK(errs, me->comm == MPI_COMM_WORLD, "Comm_call_errhandler passed communicator %d", (int)me->comm);

    /* free the handle: it becomes NULL, the handler stays attached */
    MT_CHECK_RC(errs, MPI_Errhandler_free(&eh));
    MT_CHECK(errs, eh == MPI_ERRHANDLER_NULL, "Errhandler_free left handle %d", (int)eh);
    rc = MPI_Recv(&x, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    MT_CHECK_INT(errs, "user handler calls after freeing the handle", 4, me->calls);

    /* the handler of the communicator used is the one called: a user handler on SELF, RETURN on WORLD */
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    MT_CHECK_RC(errs, MPI_Comm_create_errhandler(handler, &self_eh));
    MT_CHECK_RC(errs, MPI_Comm_set_errhandler(MPI_COMM_SELF, self_eh));
    rc = MPI_Send(&x, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* WORLD: RETURN, no handler call */
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    MT_CHECK_INT(errs, "user handler calls after an error on WORLD with ERRORS_RETURN", 4, me->calls);
    rc = MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_SELF); /* rank 1 does not exist in SELF */
    MT_CHECK_CLASS(errs, rc, MPI_ERR_RANK);
    MT_CHECK_INT(errs, "user handler calls after an error on SELF", 5, me->calls);
    MT_CHECK(errs, me->comm == MPI_COMM_SELF, "handler got communicator %d, expected MPI_COMM_SELF", (int)me->comm);

    /* Comm_call_errhandler with ERRORS_RETURN just returns */
    rc = MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER);
    MT_CHECK(errs, rc == MPI_SUCCESS || rc == MPI_ERR_OTHER,
             "Comm_call_errhandler with MPI_ERRORS_RETURN returned %d", rc);

    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&self_eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MT_CHECK_RC(errs, MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    MT_CHECK(errs, got == MPI_ERRORS_ARE_FATAL, "after set(ERRORS_ARE_FATAL), get gives %d", (int)got);
    return mt_finish(errs);
}
