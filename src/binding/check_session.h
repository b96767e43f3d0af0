/* SPDX-License-Identifier: BSD-3-Clause */
/* Argument checks of the binding layer (check.h, which includes this part after its own and the parts before
 * it: include check.h): sessions, and the failures of calls without an object. */
#ifndef VMPI_BINDING_CHECK_SESSION_H
#define VMPI_BINDING_CHECK_SESSION_H

#include "mpi/core/session.h"

/* ---- sessions (area: session) ---- */

/* Where an error with no object goes: MPI_COMM_SELF (MPI-4.1 9.3); outside MPI, MPI_COMM_WORLD, as every
 * call's outside MPI. */
static inline MPI_Comm vmpi_no_object(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && rk->live ? MPI_COMM_SELF : MPI_COMM_WORLD;
}

/* A session of the calling rank, live (not finalized). */
static inline int vmpi_chk_session(vmpi_chk *ck, MPI_Session h, vmpi_session **out)
{
    if ((*out = vmpi_session_get(h)) != NULL)
        return MPI_SUCCESS;
    return vmpi_chk_bad_handle(ck, h, MPI_SESSION_NULL, "MPI_SESSION_NULL", "or finalized session", MPI_ERR_SESSION);
}

/* The session MPI_Session_finalize finalizes, through its pointer. */
static inline int vmpi_chk_session_at(vmpi_chk *ck, const MPI_Session *p)
{
    vmpi_session *s;
    int err = vmpi_chk_ptr(ck, p, "session");
    return err ? err : vmpi_chk_session(ck, *p, &s);
}

/* A process set's name: one of the sets. */
static inline int vmpi_chk_pset(vmpi_chk *ck, const char *name)
{
    int err = vmpi_chk_ptr(ck, name, "pset_name");
    if (err || vmpi_pset_find(name) >= 0)
        return err;
    snprintf(ck->why, sizeof ck->why, "no process set is named \"%.64s\" (vmpi has mpi://WORLD and mpi://SELF)", name);
    return MPI_ERR_ARG;
}

/* The caller is a member of `g` (`what`: which group). */
static inline int vmpi_chk_member(vmpi_chk *ck, const vmpi_group *g, const char *what)
{
    if (vmpi_group_rank_of(g, vmpi_rank_self()->world_rank) != MPI_UNDEFINED)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the calling rank is not in %s", what);
    return MPI_ERR_GROUP;
}

/* A leader: a rank of its group. */
static inline int vmpi_chk_leader(vmpi_chk *ck, int r, const vmpi_group *g, const char *what)
{
    if (r >= 0 && r < g->size)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "%s %d is not a rank of its group of size %d", what, r, g->size);
    return MPI_ERR_RANK;
}

/* Two groups with no rank in common (an intercommunicator's). */
static inline int vmpi_chk_disjoint(vmpi_chk *ck, const vmpi_group *a, const vmpi_group *b)
{
    for (int i = 0; i < a->size; i++)
        if (vmpi_group_rank_of(b, a->world[i]) != MPI_UNDEFINED) {
            snprintf(ck->why, sizeof ck->why, "rank %d of MPI_COMM_WORLD is in both groups", a->world[i]);
            return MPI_ERR_GROUP;
        }
    return MPI_SUCCESS;
}

/* Reports a failure through the session's handler (vmpi_no_object's when h is no live session of the caller). */
static inline int vmpi_session_fail(MPI_Session h, int err, const char *fn, const vmpi_chk *ck)
{
    vmpi_session *s = vmpi_session_get(h);
    return s ? vmpi_errh_fail(s->errh, h, err, fn, ck) : vmpi_fail(vmpi_no_object(), err, fn, ck);
}

/* The failure of a call given the error handler of what it makes (MPI_Session_init, the communicator
 * constructors from groups): through it when it is valid (and, when `live`, the caller is inside MPI), else
 * vmpi_no_object's. */
static inline int vmpi_errh_arg_fail(MPI_Errhandler h, int obj, bool live, int err, const char *fn,
                                     const vmpi_chk *ck)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || (live && !rk->live) || vmpi_errh_check(h) != MPI_SUCCESS)
        return vmpi_fail(vmpi_no_object(), err, fn, ck);
    return vmpi_errh_fail(h, obj, err, fn, ck);
}

#endif
