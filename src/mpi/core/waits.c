/* SPDX-License-Identifier: BSD-3-Clause */
/* What a blocked rank waits for, as the deadlock report says it (sched.c calls this through
 * vmpi_sched_set_wait_describer): the MPI call it is in and, for point-to-point, the peer, the tag and
 * the communicator of the message.  Runs while every PE sleeps, reading the rank's state as it is. */
#include <stdio.h>
#include "mpi/core/rank.h"
#include "mpi/core/waits.h"

/* The rank's communicator whose point-to-point or collective context is `ctx`, or NULL. */
static const vmpi_comm *comm_of(const vmpi_rank *rk, int ctx, bool *coll)
{
    const vmpi_comm *c = NULL;
    for (int i = -2; i < rk->ncomms && c == NULL; i++) {
        const vmpi_comm *x = i == -2 ? &rk->world : i == -1 ? &rk->self : rk->comms[i];
        if (x != NULL && (x->ctx == ctx || x->ctx + 1 == ctx))
            c = x;
    }
    *coll = c != NULL && c->ctx != ctx;
    return c;
}

static int comm_name(const vmpi_comm *c, char *out, size_t n)
{
    if (c == NULL)
        return snprintf(out, n, "an internal communicator");
    if (c->name[0])
        return snprintf(out, n, "%s", c->name);
    return snprintf(out, n, "communicator %#x (%d ranks)", (unsigned)c->handle, c->size);
}

/* The rank of world rank `w` among c's point-to-point peers. */
static int peer_rank(const vmpi_comm *c, int w)
{
    for (int i = 0; i < c->peer_size; i++)
        if (vmpi_comm_world_rank(c, i) == w)
            return i;
    return -1;
}

static void tag_text(int tag, char *out, size_t n)
{
    if (tag == MPI_ANY_TAG)
        snprintf(out, n, "any tag");
    else
        snprintf(out, n, "tag %d", tag);
}

void vmpi_waits_describe(const vmpi_vp *vp, char *out, size_t n)
{
    const vmpi_rank *rk = vmpi_container_of(vp, vmpi_rank, vp);
    const char *call = vp->call ? vp->call : vp->blocked_in ? vp->blocked_in : "?";
    int len = snprintf(out, n, "waits in %s", call);
    const vmpi_req *r = vp->blocked_on;
    if (r == NULL || len < 0 || (size_t)len >= n)
        return;
    bool coll;
    const vmpi_comm *c = comm_of(rk, r->ctx, &coll);
    char cname[MPI_MAX_OBJECT_NAME + 48], tag[32];
    comm_name(c, cname, sizeof cname);
    tag_text(r->tag, tag, sizeof tag);
    if (coll || vp->call) /* a step inside a collective: its messages mean nothing to the program */
        snprintf(out + len, n - (size_t)len, " on %s", cname);
    else if (r->kind == VMPI_REQ_RECV && r->rank == MPI_ANY_SOURCE)
        snprintf(out + len, n - (size_t)len, " for a message from any rank (%s) on %s", tag, cname);
    else if (r->kind == VMPI_REQ_RECV)
        snprintf(out + len, n - (size_t)len, " for a message from rank %d (%s) on %s", r->rank, tag, cname);
    else
        snprintf(out + len, n - (size_t)len, " for rank %d to receive its message (%s) on %s",
                 c ? peer_rank(c, r->peer) : r->peer, tag, cname);
}
