/* SPDX-License-Identifier: BSD-3-Clause */
#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "base/log.h"
#include "ckpt/ckpt.h"
#include "mpi/core/comm.h"
#include "mpi/core/group.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "xport/procs.h"

enum { IDX_WORLD = 1, IDX_SELF = 2, IDX_FIRST_USER = 3 };

/* Context ids: each process takes them from its own sequence (the i-th of process k of K is FIRST_FREE +
 * 2 (i K + k); both of a pair, ctx and ctx + 1, are the communicator's), so processes never have to agree on
 * one: the rank that decides for a communicator takes one where it lives and tells the others. */
enum { CTX_PROCS_MAX = 1024 };
static _Atomic int ctx_seq[CTX_PROCS_MAX];
VMPI_CKPT_STATIC(ctx_seq)
/* The first of the sequences' ids (raised by a restart on another number of processes, above every id of the
 * checkpoint: the new numbering would give old ids again), and the largest id taken so far in this process. */
static int ctx_base = VMPI_CTX_FIRST_FREE;
static _Atomic int ctx_max;
VMPI_CKPT_STATIC(ctx_base)
VMPI_CKPT_STATIC(ctx_max)

static struct {
    vmpi_comm_release_hook fn[4];
    int n;
} hooks; /* set at boot by every process alike */

void vmpi_comm_on_release(vmpi_comm_release_hook fn)
{
    if (hooks.n == (int)(sizeof hooks.fn / sizeof hooks.fn[0]))
        vmpi_fatal("too many communicator release hooks");
    hooks.fn[hooks.n++] = fn;
}

int vmpi_comm_ctx_alloc(void)
{
    int k = vmpi_xport_nprocs(), p = k > 1 && vmpi_pe_self() ? vmpi_xport_self_proc() : 0;
    int i = atomic_fetch_add_explicit(&ctx_seq[p], 1, memory_order_relaxed);
    if (i > (INT_MAX - 1 - ctx_base) / 2 / k - 1)
        vmpi_fatal("out of communicator context ids (%d made in process %d; they are not reused)", i, p);
    int ctx = ctx_base + 2 * (i * k + p), m = atomic_load_explicit(&ctx_max, memory_order_relaxed);
    while (m < ctx && !atomic_compare_exchange_weak_explicit(&ctx_max, &m, ctx, memory_order_relaxed,
                                                               memory_order_relaxed))
        ;
    return ctx;
}

int vmpi_comm_ctx_max(void) { return atomic_load(&ctx_max); }

void vmpi_comm_ctx_rebase(int above)
{
    ctx_base = above < VMPI_CTX_FIRST_FREE ? VMPI_CTX_FIRST_FREE : (above + 2) & ~1;
    for (int p = 0; p < CTX_PROCS_MAX; p++)
        atomic_store(&ctx_seq[p], 0);
}

vmpi_comm *vmpi_comm_get(MPI_Comm h)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || VMPI_HANDLE_KIND(h) != VMPI_KIND_COMM)
        return NULL;
    int idx = VMPI_HANDLE_INDEX(h);
    if (idx == IDX_WORLD)
        return &rk->world;
    if (idx == IDX_SELF)
        return &rk->self;
    idx -= IDX_FIRST_USER;
    return idx >= 0 && idx < rk->ncomms ? rk->comms[idx] : NULL;
}

vmpi_group *vmpi_comm_group(const vmpi_comm *c)
{
    if (c->group)
        return vmpi_group_ref(c->group);
    if (c->handle == MPI_COMM_WORLD)
        return vmpi_group_ref(vmpi_group_world());
    int me = vmpi_comm_world_rank(c, 0); /* MPI_COMM_SELF */
    return vmpi_group_new(&me, 1);
}

MPI_Comm vmpi_comm_register(vmpi_comm *c)
{
    vmpi_rank *rk = vmpi_rank_self();
    int idx = -1;
    for (int i = rk->comm_hint; i < rk->ncomms; i++)
        if (rk->comms[i] == NULL) {
            idx = i;
            break;
        }
    if (idx < 0) {
        if (rk->ncomms == rk->cap_comms) {
            int cap = rk->cap_comms ? 2 * rk->cap_comms : 16;
            if (cap > (1 << 24))
                return MPI_COMM_NULL;
            vmpi_comm **t = realloc(rk->comms, sizeof(*t) * (size_t)cap);
            if (t == NULL)
                return MPI_COMM_NULL;
            rk->comms = t;
            rk->cap_comms = cap;
        }
        idx = rk->ncomms++;
    }
    rk->comms[idx] = c;
    rk->comm_hint = idx + 1;
    c->handle = VMPI_HANDLE(VMPI_KIND_COMM, idx + IDX_FIRST_USER);
    return c->handle;
}

void vmpi_comm_release(vmpi_comm *c)
{
    vmpi_rank *rk = vmpi_rank_self();
    int idx = VMPI_HANDLE_INDEX(c->handle) - IDX_FIRST_USER;
    if (idx >= 0 && idx < rk->ncomms && rk->comms[idx] == c) {
        rk->comms[idx] = NULL;
        if (idx < rk->comm_hint)
            rk->comm_hint = idx;
    }
    for (int i = 0; i < hooks.n; i++)
        hooks.fn[i](c);
    if (c->local) {
        vmpi_group_unref(c->local->group);
        free(c->local);
    }
    vmpi_group_unref(c->group);
    vmpi_group_unref(c->remote);
    if (c->info != MPI_INFO_NULL)
        vmpi_info_free(&c->info);
    free(c);
}

void vmpi_comm_release_all(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    for (int i = 0; i < rk->ncomms; i++)
        if (rk->comms[i])
            vmpi_comm_release(rk->comms[i]);
    free(rk->comms);
    rk->comms = NULL;
    rk->ncomms = rk->cap_comms = rk->comm_hint = 0;
}
