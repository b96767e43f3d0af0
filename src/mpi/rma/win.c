/* SPDX-License-Identifier: BSD-3-Clause */
/* Windows: the calling rank's handle table, the four creation flavors, Win_free, dynamic windows' attached
 * memory, shared-memory queries and hints. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "base/spin.h"
#include "iso/iso.h"
#include "mpi/coll/coll.h"
#include "mpi/comm/comm_create.h"
#include "mpi/core/attr.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/rma/am.h"
#include "mpi/rma/remote.h"
#include "mpi/rma/win.h"
#include "msg/loc.h"
#include "xport/procs.h"

static const vmpi_dtype *AINT(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_AINT)); }

vmpi_win *vmpi_win_get(MPI_Win h)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || VMPI_HANDLE_KIND(h) != VMPI_KIND_WIN)
        return NULL;
    int i = VMPI_HANDLE_INDEX(h) - 1;
    return i >= 0 && i < rk->nwins ? rk->wins[i] : NULL;
}

static MPI_Win win_register(vmpi_win *w)
{
    vmpi_rank *rk = vmpi_rank_self();
    int i = 0;
    while (i < rk->nwins && rk->wins[i] != NULL)
        i++;
    if (i == rk->nwins) {
        if (rk->nwins == rk->cap_wins) {
            int cap = rk->cap_wins ? 2 * rk->cap_wins : 8;
            vmpi_win **t = realloc(rk->wins, sizeof *t * (size_t)cap);
            if (t == NULL)
                return MPI_WIN_NULL;
            rk->wins = t;
            rk->cap_wins = cap;
        }
        rk->nwins++;
    }
    rk->wins[i] = w;
    return w->handle = VMPI_HANDLE(VMPI_KIND_WIN, i + 1);
}

static void win_unregister(vmpi_win *w)
{
    vmpi_rank *rk = vmpi_rank_self();
    int i = VMPI_HANDLE_INDEX(w->handle) - 1;
    if (i >= 0 && i < rk->nwins && rk->wins[i] == w)
        rk->wins[i] = NULL;
}

static bool info_flag(MPI_Info info, const char *key)
{
    char v[16];
    int flag = 0;
    if (info == MPI_INFO_NULL || vmpi_info_get(info, key, sizeof v, v, &flag) != MPI_SUCCESS || !flag)
        return false;
    return strcmp(v, "true") == 0;
}

static void win_destroy(vmpi_win *w)
{
    if (w->comm)
        vmpi_comm_release(w->comm);
    if (w->info != MPI_INFO_NULL)
        vmpi_info_free(&w->info);
    vmpi_am_win_free(w);
    vmpi_rma_remote_close(w);
    free(w->locks);
    free(w);
}

/* The process of window rank `r` of `c` (ranks move only within their process). */
static int proc_of(const vmpi_comm *c, int r) { return vmpi_xport_proc_of_pe(vmpi_loc_pe(vmpi_comm_world_rank(c, r))); }

/* The collective part every flavor shares: the window's internal communicator (a context of its own, for
 * the synchronization messages and barriers) and its shared state, one per process in that process's job
 * heap (a job heap is per process: the state another process made is not readable here, and the emulated
 * mode keeps one per process group too, so that it takes the same paths), made by the lowest rank of the
 * window in each process. */
static int win_open(vmpi_comm *c, int flavor, MPI_Info info, vmpi_win **out)
{
    vmpi_win *w = calloc(1, sizeof *w);
    int ctx = c->rank == 0 ? vmpi_comm_ctx_alloc() : 0;
    int err = vmpi_coll_bcast(&ctx, 1, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)), 0, c, NULL);
    if (err)
        return free(w), err;
    vmpi_group *g = vmpi_comm_group(c);
    vmpi_comm *wc = g && w ? vmpi_comm_new_intra(g, ctx, c) : NULL;
    vmpi_group_unref(g);
    bool many = vmpi_xport_nprocs() > 1;
    int leader = 0, me = many ? proc_of(c, c->rank) : 0;
    while (many && proc_of(c, leader) != me)
        leader++;
    MPI_Aint shp = 0;
    if (c->rank == leader) {
        size_t bytes = sizeof(vmpi_win_shared) + (size_t)c->size * sizeof(vmpi_win_target);
        vmpi_win_shared *sh = vmpi_iso_job_memalign(VMPI_CACHELINE, bytes);
        if (sh) {
            memset(sh, 0, bytes);
            sh->size = c->size;
            sh->flavor = flavor;
        }
        shp = (MPI_Aint)sh;
    }
    if (!many)
        err = vmpi_coll_bcast(&shp, 1, AINT(), 0, c, NULL);
    else { /* every process's leader's pointer (the others give 1): a leader short of memory fails everyone */
        MPI_Aint *all = malloc(sizeof *all * (size_t)c->size), mine = c->rank == leader ? shp : 1;
        err = all ? vmpi_coll_allgather(&mine, 1, AINT(), all, 1, AINT(), c, NULL) : MPI_ERR_NO_MEM;
        bool ok = err == MPI_SUCCESS;
        for (int r = 0; ok && r < c->size; r++)
            ok = all[r] != 0;
        if (ok)
            shp = all[leader];
        else {
            free((void *)shp); /* a leader that got its state while another did not */
            shp = 0;
        }
        free(all);
    }
    if (err == MPI_SUCCESS && (shp == 0 || wc == NULL))
        err = MPI_ERR_NO_MEM; /* a leader's failure is everyone's; a rank short of memory fails alone */
    if (err) {
        if (wc)
            vmpi_comm_release(wc);
        free(w);
        return err;
    }
    w->comm = wc;
    w->sh = (vmpi_win_shared *)shp;
    w->sh_owner = c->rank == leader;
    w->rank = c->rank;
    w->size = c->size;
    w->flavor = flavor;
    w->errh = MPI_ERRORS_ARE_FATAL;
    w->info = MPI_INFO_NULL;
    if (info != MPI_INFO_NULL && vmpi_info_dup(info, &w->info) != MPI_SUCCESS)
        w->info = MPI_INFO_NULL;
    w->no_locks = info_flag(info, "no_locks");
    w->attr_flavor = flavor;
    w->attr_model = MPI_WIN_UNIFIED;
    *out = w;
    return MPI_SUCCESS;
}

/* Publishes the calling rank's memory and waits until every rank has: no origin reads a base before it is
 * set. */
static int win_publish(vmpi_win *w, void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Win *out)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    t->base = base;
    t->size = size;
    t->disp_unit = disp_unit;
    t->win = (uint64_t)(uintptr_t)w;
    w->attr_base = base;
    w->attr_size = size;
    w->attr_disp_unit = disp_unit > INT_MAX ? MPI_UNDEFINED : (int)disp_unit; /* the attribute is an int */
    int err;
    if (vmpi_xport_nprocs() == 1)
        err = vmpi_coll_barrier(w->comm, NULL);
    else { /* every rank's part, by message (MPICH's and Open MPI's exchange at creation): the origins of
            * other processes cannot read this process's state */
        void *key;
        size_t klen;
        vmpi_rma_expose_key(base, size, &key, &klen); /* the network's remote key of this memory */
        vmpi_rma_pub mine = {t->win, (uint64_t)(uintptr_t)base, (uint64_t)(uintptr_t)&t->lock,
                             (uint64_t)(uintptr_t)t, size, disp_unit, (MPI_Aint)klen},
                     *all = malloc(sizeof *all * (size_t)w->size);
        err = all ? vmpi_coll_allgather(&mine, sizeof mine / sizeof(MPI_Aint), AINT(), all,
                                        sizeof mine / sizeof(MPI_Aint), AINT(), w->comm, NULL)
                  : MPI_ERR_NO_MEM;
        if (err == MPI_SUCCESS)
            err = vmpi_rma_remote_open(w, all);
        if (err == MPI_SUCCESS)
            err = vmpi_rma_expose_open(w, all, base, size, key);
        free(key);
        free(all);
    }
    if (err == MPI_SUCCESS && win_register(w) == MPI_WIN_NULL)
        err = MPI_ERR_NO_MEM;
    if (err)
        return err; /* the shared state stays (others may hold it); this rank's part leaks */
    *out = w->handle;
    return MPI_SUCCESS;
}

int vmpi_win_create(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, MPI_Win *out)
{
    vmpi_win *w;
    int err = win_open(c, MPI_WIN_FLAVOR_CREATE, info, &w);
    return err ? err : win_publish(w, size > 0 ? base : NULL, size, disp_unit, out);
}

/* After win_open: every rank learns whether all got their memory (`err` is the caller's), so that a rank short
 * of memory does not leave the others in win_publish's barrier.  On failure the window is undone everywhere. */
static int win_agree(vmpi_win *w, int err, void *base)
{
    int all = err;
    int e = vmpi_coll_allreduce(&err, &all, 1, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)), MPI_INT, MPI_MAX,
                                w->comm, NULL);
    if (e == MPI_SUCCESS && all == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (w->sh_owner && e == MPI_SUCCESS)
        free(w->sh); /* nobody publishes into it */
    win_destroy(w);
    free(base);
    return err ? err : e ? e : MPI_ERR_NO_MEM;
}

int vmpi_win_allocate(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, void **baseptr, MPI_Win *out)
{
    /* from the calling rank's slot: the memory moves with the rank */
    void *base = size > 0 ? aligned_alloc(VMPI_CACHELINE, ((size_t)size + VMPI_CACHELINE - 1) & ~(size_t)(VMPI_CACHELINE - 1))
                          : NULL;
    vmpi_win *w;
    int err = win_open(c, MPI_WIN_FLAVOR_ALLOCATE, info, &w);
    if (err) {
        free(base);
        return err;
    }
    if ((err = win_agree(w, size > 0 && base == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS, base)))
        return err;
    *baseptr = base;
    return win_publish(w, base, size, disp_unit, out);
}

int vmpi_win_allocate_shared(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, vmpi_comm *c, void **baseptr,
                             MPI_Win *out)
{
    vmpi_win *w;
    int err = win_open(c, MPI_WIN_FLAVOR_SHARED, info, &w);
    if (err)
        return err;
    vmpi_win_shared *sh = w->sh;
    if (info_flag(info, "alloc_shared_noncontig")) { /* each segment in its owner's slot */
        void *base = size > 0 ? aligned_alloc(VMPI_CACHELINE, ((size_t)size + VMPI_CACHELINE - 1) &
                                                                  ~(size_t)(VMPI_CACHELINE - 1))
                              : NULL;
        if ((err = win_agree(w, size > 0 && base == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS, base)))
            return err;
        *baseptr = base;
        return win_publish(w, base, size, disp_unit, out);
    }
    /* contiguous: one block of the job heap, rank i's segment right after rank i-1's (MPI-3.1 11.2.3) */
    sh->t[w->rank].size = size;
    if ((err = vmpi_coll_barrier(w->comm, NULL)))
        return err;
    if (w->rank == 0) {
        MPI_Aint total = 0;
        for (int r = 0; r < w->size; r++)
            total += sh->t[r].size;
        char *block = vmpi_iso_job_memalign(VMPI_CACHELINE, (size_t)(total > 0 ? total : 1));
        sh->shared_block = block;
        for (int r = 0; block && r < w->size; r++) {
            sh->t[r].base = block;
            block += sh->t[r].size;
        }
    }
    if ((err = vmpi_coll_barrier(w->comm, NULL)))
        return err;
    if (sh->shared_block == NULL)
        return win_destroy(w), MPI_ERR_NO_MEM;
    *baseptr = sh->t[w->rank].base;
    return win_publish(w, sh->t[w->rank].base, size, disp_unit, out);
}

int vmpi_win_create_dynamic(MPI_Info info, vmpi_comm *c, MPI_Win *out)
{
    vmpi_win *w;
    int err = win_open(c, MPI_WIN_FLAVOR_DYNAMIC, info, &w);
    return err ? err : win_publish(w, MPI_BOTTOM, 0, 1, out);
}

int vmpi_win_attach(vmpi_win *w, void *base, MPI_Aint size)
{
    if (size == 0)
        return MPI_SUCCESS; /* nothing to expose */
    vmpi_win_target *t = &w->sh->t[w->rank];
    char *lo = base, *hi = lo + size;
    int err = MPI_SUCCESS;
    vmpi_spin_lock(&t->guard);
    int i = 0;
    while (i < t->nregions && t->regions[i].base < lo)
        i++;
    if ((i > 0 && t->regions[i - 1].base + t->regions[i - 1].size > lo) || (i < t->nregions && t->regions[i].base < hi))
        err = MPI_ERR_RMA_ATTACH; /* overlaps attached memory (MPI-3.1 11.2.4) */
    else if (t->nregions == t->cap_regions) {
        int cap = t->cap_regions ? 2 * t->cap_regions : 4;
        vmpi_win_region *n = vmpi_iso_job_realloc(t->regions, sizeof *n * (size_t)cap);
        if (n == NULL)
            err = MPI_ERR_RMA_ATTACH;
        else {
            t->regions = n;
            t->cap_regions = cap;
        }
    }
    if (err == MPI_SUCCESS) {
        memmove(&t->regions[i + 1], &t->regions[i], sizeof *t->regions * (size_t)(t->nregions - i));
        t->regions[i] = (vmpi_win_region){lo, size};
        t->nregions++;
    }
    vmpi_spin_unlock(&t->guard);
    return err;
}

int vmpi_win_detach(vmpi_win *w, const void *base)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    int err = MPI_ERR_BASE;
    vmpi_spin_lock(&t->guard);
    for (int i = 0; i < t->nregions; i++)
        if (t->regions[i].base == base) {
            memmove(&t->regions[i], &t->regions[i + 1], sizeof *t->regions * (size_t)(t->nregions - i - 1));
            t->nregions--;
            err = MPI_SUCCESS;
            break;
        }
    vmpi_spin_unlock(&t->guard);
    return err;
}

bool vmpi_win_dynamic_covers(vmpi_win_target *t, const char *lo, const char *hi)
{
    vmpi_spin_lock(&t->guard);
    /* the last region starting at or below lo (regions are sorted and disjoint), then its successors as
     * long as each starts where the previous ends: an access may span adjacent regions, as in MPICH */
    int a = 0, b = t->nregions;
    while (a < b) {
        int m = a + (b - a) / 2;
        if (t->regions[m].base <= lo)
            a = m + 1;
        else
            b = m;
    }
    bool ok = false;
    if (a > 0) {
        int i = a - 1;
        const char *end = t->regions[i].base + t->regions[i].size;
        while (end < hi && i + 1 < t->nregions && t->regions[i + 1].base == end) {
            i++;
            end += t->regions[i].size;
        }
        ok = lo < end && hi <= end;
    }
    vmpi_spin_unlock(&t->guard);
    return ok;
}

int vmpi_win_shared_query(vmpi_win *w, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void **baseptr)
{
    if (rank == MPI_PROC_NULL) { /* the lowest rank with memory (MPI-3.1 11.2.3) */
        rank = 0;
        for (int r = 0; r < w->size; r++)
            if (w->sh->t[r].size > 0) {
                rank = r;
                break;
            }
    }
    const vmpi_win_target *t = &w->sh->t[rank];
    *size = t->size;
    *disp_unit = t->disp_unit;
    *baseptr = t->base;
    return MPI_SUCCESS;
}

int vmpi_win_free(vmpi_win *w)
{
    int err = vmpi_attr_delete_all(w->handle);
    if (err)
        return err;
    vmpi_win_target *t = &w->sh->t[w->rank];
    vmpi_win_region *regions = t->regions;
    void *mine = w->flavor == MPI_WIN_FLAVOR_ALLOCATE || (w->flavor == MPI_WIN_FLAVOR_SHARED && !w->sh->shared_block)
                     ? t->base
                     : NULL;
    /* Every rank has ended its epochs on this window before it frees it, but another rank may still be in
     * one that targets this rank's memory: wait for all. */
    err = vmpi_rma_remote_wait(w, -1);
    vmpi_rma_expose_forget(w); /* no origin holds a key of this window once through the barrier */
    int e = vmpi_coll_barrier(w->comm, NULL);
    err = err ? err : e;
    vmpi_rma_expose_unexpose(w);
    free(regions);
    free(mine);
    if (w->sh_owner) { /* nobody reads this process's shared state after the barrier */
        for (int r = 0; r < w->size; r++) {
            free(w->sh->t[r].ubufs);
        }
        free(w->sh->shared_block);
        free(w->sh);
    }
    win_unregister(w);
    win_destroy(w);
    return err;
}

void vmpi_win_release_all(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    for (int i = 0; i < rk->nwins; i++)
        if (rk->wins[i])
            win_destroy(rk->wins[i]);
    free(rk->wins);
    rk->wins = NULL;
    rk->nwins = rk->cap_wins = 0;
}

/* Hints: vmpi acts on no_locks (and alloc_shared_noncontig at creation); every hint set is kept and
 * returned, with the defaults of the standard's keys. */
int vmpi_win_set_info(vmpi_win *w, MPI_Info info)
{
    int n, err;
    if ((err = vmpi_info_get_nkeys(info, &n)))
        return err;
    if (w->info == MPI_INFO_NULL && (err = vmpi_info_create(&w->info)))
        return err;
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY], val[MPI_MAX_INFO_VAL];
        int flag;
        if ((err = vmpi_info_get_nthkey(info, i, key)) ||
            (err = vmpi_info_get(info, key, MPI_MAX_INFO_VAL - 1, val, &flag)) ||
            (err = vmpi_info_set(w->info, key, val)))
            return err;
    }
    w->no_locks = info_flag(w->info, "no_locks");
    return MPI_SUCCESS;
}

int vmpi_win_get_info(vmpi_win *w, MPI_Info *out)
{
    int err = w->info != MPI_INFO_NULL ? vmpi_info_dup(w->info, out) : vmpi_info_create(out);
    if (err)
        return err;
    static const char *const defaults[][2] = {
        {"no_locks", "false"},
        {"accumulate_ordering", "rar,raw,war,waw"},
        {"accumulate_ops", "same_op_no_op"},
        {"same_size", "false"},
        {"same_disp_unit", "false"},
    };
    for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++) {
        int len, flag;
        if ((err = vmpi_info_get_valuelen(*out, defaults[i][0], &len, &flag)))
            return err;
        if (!flag && (err = vmpi_info_set(*out, defaults[i][0], defaults[i][1])))
            return err;
    }
    if (w->flavor == MPI_WIN_FLAVOR_SHARED) {
        int len, flag;
        if (!vmpi_info_get_valuelen(*out, "alloc_shared_noncontig", &len, &flag) && !flag)
            err = vmpi_info_set(*out, "alloc_shared_noncontig", w->sh->shared_block ? "false" : "true");
    }
    return err;
}
