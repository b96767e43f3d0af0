/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators from groups (comm_from_group.h).  With no parent communicator, the members agree on a context
 * over the sessions' internal communicator (every rank, the rank's `sess`: a context of its own, which no
 * program message and no other constructor uses), in its collective context with tags made from the string
 * tag, which tells concurrent calls apart as the int tag of MPI_Comm_create_group does.  The message carries
 * the string itself: two string tags that hash alike are an error, not a wrong match. */
#include <stddef.h>
#include <string.h>
#include "dtype/dtype.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/comm_from_group.h"
#include "mpi/core/errhan.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/pt2pt/pt2pt.h"

#define COLL 1

/* FNV-1a of the string and a kind letter (an intercommunicator's inner steps use other tags than an
 * intracommunicator of the same string), as a tag in [0, 2^28): MPI_Intercomm_create's internal tags take
 * the negative ones of the context */
static int tag_of(const char *s, char kind)
{
    unsigned h = 2166136261u;
    h = (h ^ (unsigned char)kind) * 16777619u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return (int)(h & 0x0fffffffu);
}

typedef struct agree_msg {
    int ctx;
    char tag[MPI_MAX_STRINGTAG_LEN];
} agree_msg;

/* A binomial broadcast, in group order from the group's rank 0, of a context that rank takes. */
static int agree(vmpi_group *g, const char *stringtag, int itag, int *ctx)
{
    vmpi_rank *rk = vmpi_rank_self();
    const vmpi_dtype *bytes = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    int me = vmpi_group_rank_of(g, rk->world_rank), n = g->size, err = MPI_SUCCESS, mask = 1;
    agree_msg m;
    if (me == 0) {
        m.ctx = vmpi_comm_ctx_alloc();
        snprintf(m.tag, sizeof m.tag, "%s", stringtag);
    }
    for (; mask < n; mask <<= 1)
        if (me & mask) {
            err = vmpi_recv(&m, (MPI_Count)sizeof m, bytes, g->world[me - mask], itag, &rk->sess, COLL,
                            MPI_STATUS_IGNORE);
            break;
        }
    MPI_Count len = (MPI_Count)(offsetof(agree_msg, tag) + strlen(m.tag) + 1);
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1)
        if (me + mask < n)
            err = vmpi_send(&m, len, bytes, g->world[me + mask], itag, &rk->sess, COLL, VMPI_SENDK_STD);
    if (err == MPI_SUCCESS && strcmp(m.tag, stringtag) != 0)
        err = MPI_ERR_OTHER; /* a concurrent call's string hashes alike: its message came here */
    *ctx = m.ctx;
    return err;
}

/* What the new communicator takes from the call: its handler and hints. */
static int finish(vmpi_comm *c, MPI_Info info, MPI_Errhandler errh, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    if (c == NULL)
        return MPI_ERR_NO_MEM;
    vmpi_errh_install(&c->errh, errh); /* replaces the internal communicator's MPI_ERRORS_ARE_FATAL */
    int err = info != MPI_INFO_NULL ? vmpi_info_dup(info, &c->info) : MPI_SUCCESS;
    if (err == MPI_SUCCESS && (*out = vmpi_comm_register(c)) == MPI_COMM_NULL)
        err = MPI_ERR_NO_MEM;
    if (err != MPI_SUCCESS)
        vmpi_comm_release(c);
    return err;
}

int vmpi_comm_from_group(vmpi_group *g, const char *stringtag, MPI_Info info, MPI_Errhandler errh, MPI_Comm *out)
{
    int ctx, err = agree(g, stringtag, tag_of(stringtag, 'c'), &ctx);
    *out = MPI_COMM_NULL;
    return err ? err : finish(vmpi_comm_new_intra(g, ctx, &vmpi_rank_self()->sess), info, errh, out);
}

int vmpi_intercomm_from_groups(vmpi_group *lg, int ll, vmpi_group *rg, int rl, const char *stringtag, MPI_Info info,
                               MPI_Errhandler errh, MPI_Comm *out)
{
    /* the local group's members first make an intracommunicator of their own, then it is MPI_Intercomm_create
     * with the internal communicator as the peer (the leaders named by world rank) */
    vmpi_rank *rk = vmpi_rank_self();
    MPI_Comm local;
    int ctx, err = agree(lg, stringtag, tag_of(stringtag, 'l'), &ctx);
    *out = MPI_COMM_NULL;
    if (err || (err = finish(vmpi_comm_new_intra(lg, ctx, &rk->sess), MPI_INFO_NULL, MPI_ERRORS_RETURN, &local)))
        return err;
    vmpi_comm *lc = vmpi_comm_get(local);
    err = vmpi_intercomm_create(lc, ll, &rk->sess, rg->world[rl], tag_of(stringtag, 'i'), out);
    vmpi_comm_release(lc);
    vmpi_comm *c = err ? NULL : vmpi_comm_get(*out);
    if (c) {
        vmpi_errh_install(&c->errh, errh);
        if (info != MPI_INFO_NULL && (err = vmpi_info_dup(info, &c->info)) != MPI_SUCCESS) {
            vmpi_comm_release(c);
            *out = MPI_COMM_NULL;
        }
    }
    return err;
}
