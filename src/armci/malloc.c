/* SPDX-License-Identifier: BSD-3-Clause */
/* Collective allocation (ARMCI_Malloc, ARMCI_Free and their group forms), local allocation, and the lookup of
 * a remote address: which segment of process `proc` holds it.
 *
 * Every allocation is a window created over the group's communicator on blocks each owner takes from its slot,
 * and its shared state already holds every member's base, so the pointer array is read from it.  Each owner
 * lists its segments, sorted, in its armci_proc (job heap); an origin looks an address up there under the
 * table's guard, or in its one-entry cache, valid while the owner's table generation has not changed. */
#include <stdlib.h>
#include <string.h>
#include "armci/armci_impl.h"
#include "base/spin.h"
#include "iso/iso.h"
#include "mpi/rma/remote.h"

/* ---- the segment tables ---- */

static int seg_insert(armci_proc *p, const armci_seg *s)
{
    int err = MPI_SUCCESS;
    vmpi_spin_lock(&p->guard);
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 8;
        armci_seg *n = vmpi_iso_job_realloc(p->segs, sizeof *n * (size_t)cap);
        if (n == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            p->segs = n;
            p->cap = cap;
        }
    }
    if (err == MPI_SUCCESS) {
        int i = p->n;
        while (i > 0 && p->segs[i - 1].base > s->base) {
            p->segs[i] = p->segs[i - 1];
            i--;
        }
        p->segs[i] = *s;
        p->n++;
        atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    }
    vmpi_spin_unlock(&p->guard);
    return err;
}

static void seg_remove(armci_proc *p, const char *base)
{
    vmpi_spin_lock(&p->guard);
    for (int i = 0; i < p->n; i++)
        if (p->segs[i].base == base) {
            memmove(&p->segs[i], &p->segs[i + 1], sizeof *p->segs * (size_t)(p->n - i - 1));
            p->n--;
            break;
        }
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_release);
    vmpi_spin_unlock(&p->guard);
}

/* The segment of `p` holding `addr`, by binary search under the guard. */
static bool seg_find(armci_proc *p, const char *addr, armci_seg *out, unsigned *gen)
{
    bool found = false;
    vmpi_spin_lock(&p->guard);
    *gen = atomic_load_explicit(&p->gen, memory_order_relaxed);
    int lo = 0, hi = p->n;
    while (lo < hi) { /* the first segment whose base is above addr */
        int mid = (lo + hi) / 2;
        if (p->segs[mid].base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && addr < p->segs[lo - 1].base + p->segs[lo - 1].size) {
        *out = p->segs[lo - 1];
        found = true;
    }
    vmpi_spin_unlock(&p->guard);
    return found;
}

/* Which process's segment holds `addr`, for the error message; -1 when none. */
static int owner_of(vmpi_armci *a, const char *addr)
{
    armci_seg s;
    unsigned gen;
    int r = vmpi_iso_slot_of(addr);
    if (r >= 0 && r < a->nprocs && seg_find(&a->job->p[r], addr, &s, &gen))
        return r;
    for (r = 0; r < a->nprocs; r++)
        if (seg_find(&a->job->p[r], addr, &s, &gen))
            return r;
    return -1;
}

int armci_lookup(vmpi_armci *a, const char *fn, int proc, const void *addr, MPI_Aint len, armci_seg *seg)
{
    const char *p = addr;
    armci_proc *tp = &a->job->p[proc];
    if (VMPI_LIKELY(a->c_proc == proc &&
                    a->c_gen == atomic_load_explicit(&tp->gen, memory_order_acquire) && p >= a->c_seg.base &&
                    p - a->c_seg.base < a->c_seg.size && p - a->c_seg.base <= a->c_seg.size - len)) {
        /* (the address itself inside, as seg_find requires: a 0-byte access at the end is not in the block) */
        *seg = a->c_seg;
        return MPI_SUCCESS;
    }
    unsigned gen;
    if (!seg_find(tp, p, seg, &gen)) {
        int o = owner_of(a, p);
        if (o >= 0)
            return armci_fail(fn, MPI_ERR_RMA_RANGE, "address %p is in ARMCI memory of process %d, not of process %d",
                              addr, o, proc);
        return armci_fail(fn, MPI_ERR_RMA_RANGE, "address %p is not in any ARMCI allocation of process %d", addr, proc);
    }
    if (len < 0 || p - seg->base > seg->size - len)
        return armci_fail(fn, MPI_ERR_RMA_RANGE,
                          "bytes [%p, %p) pass the end of process %d's ARMCI block [%p, %p) (%td bytes)", addr,
                          (const void *)(p + len), proc, (void *)seg->base, (void *)(seg->base + seg->size), seg->size);
    a->c_proc = proc;
    a->c_gen = gen;
    a->c_seg = *seg;
    return MPI_SUCCESS;
}

/* ---- collective allocation ---- */

static int alloc_add(vmpi_armci *a, const armci_alloc *al)
{
    if (a->nallocs == a->cap_allocs) {
        int cap = a->cap_allocs ? 2 * a->cap_allocs : 8;
        armci_alloc *n = realloc(a->allocs, sizeof *n * (size_t)cap);
        if (n == NULL)
            return MPI_ERR_NO_MEM;
        a->allocs = n;
        a->cap_allocs = cap;
    }
    a->allocs[a->nallocs++] = *al;
    return MPI_SUCCESS;
}

/* Takes the segments of the members of other processes out of this process's tables (`lists`: the caller put
 * them there). */
static void unlist_far(vmpi_armci *a, vmpi_win *w, bool lists)
{
    for (int i = 0; lists && w && i < w->size; i++) {
        const vmpi_rma_peer *p = &w->rm->peer[i];
        if (vmpi_rma_is_remote(w, i) && p->size > 0)
            seg_remove(&a->job->p[p->world], p->base);
    }
    armci_uncache(a);
}

static int malloc_group(vmpi_armci *a, const char *fn, void *ptr_arr[], armci_size_t bytes, int gi)
{
    armci_group *g = &a->groups[gi];
    if (bytes < 0)
        return armci_fail(fn, MPI_ERR_ARG, "negative size %ld", bytes);
    if (ptr_arr == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "ptr_arr is NULL");
    vmpi_comm *c = vmpi_comm_get(g->comm);
    /* The block first, from the rank's slot (it moves with the rank), and every member learns whether all got
     * theirs before the window exists: a member short of memory must not leave the others in its barrier. */
    void *base = bytes > 0 ? aligned_alloc(VMPI_CACHELINE, ((size_t)bytes + VMPI_CACHELINE - 1) &
                                                               ~(size_t)(VMPI_CACHELINE - 1))
                           : NULL;
    int short_mem = bytes > 0 && base == NULL, any_short = 0;
    PMPI_Allreduce(&short_mem, &any_short, 1, MPI_INT, MPI_MAX, g->comm);
    if (any_short) {
        free(base);
        if (short_mem)
            return armci_fail(fn, MPI_ERR_NO_MEM, "could not allocate %ld bytes (the rank's memory slot is --iso-slot-size)",
                              bytes);
        return armci_fail(fn, MPI_ERR_NO_MEM, "another process of the group could not allocate its block");
    }
    MPI_Win win;
    int err = vmpi_win_create(base, (MPI_Aint)bytes, 1, MPI_INFO_NULL, c, &win);
    if (err) {
        free(base);
        return armci_fail(fn, err, "could not create the allocation's window");
    }
    vmpi_win *w = vmpi_win_get(win);
    vmpi_win_shared *sh = w->sh;
    /* the members of other processes are listed in this process's tables (copies of what the window's
     * creation exchanged) by its lowest member, and unlisted by it at ARMCI_Free */
    int first = 0;
    while (w->rm && vmpi_rma_is_remote(w, first))
        first++;
    armci_alloc al = {win, w->comm->ctx, w->rm != NULL && first == w->rank, bytes > 0 ? base : NULL, gi};
    if (bytes > 0) {
        armci_seg s = {base, (MPI_Aint)bytes, &sh->t[w->rank]};
        err = seg_insert(&a->job->p[a->me], &s);
    }
    for (int i = 0; al.lists_far && i < g->size && err == MPI_SUCCESS; i++) {
        const vmpi_rma_peer *p = &w->rm->peer[i];
        if (vmpi_rma_is_remote(w, i) && p->size > 0) {
            armci_seg s = {p->base, p->size, (vmpi_win_target *)(uintptr_t)p->target};
            err = seg_insert(&a->job->p[p->world], &s);
        }
    }
    if (err == MPI_SUCCESS)
        err = alloc_add(a, &al);
    int all = err;
    PMPI_Allreduce(&err, &all, 1, MPI_INT, MPI_MAX, g->comm); /* published everywhere before anyone uses it */
    if (all) {
        if (bytes > 0)
            seg_remove(&a->job->p[a->me], base);
        unlist_far(a, w, al.lists_far);
        if (err == MPI_SUCCESS)
            a->nallocs--;
        PMPI_Win_free(&win);
        free(base);
        return armci_fail(fn, all, "out of memory on some process");
    }
    bool any = false;
    for (int i = 0; i < g->size; i++) {
        MPI_Aint sz = w->rm ? w->rm->peer[i].size : sh->t[i].size; /* members of other processes: by message */
        ptr_arr[i] = sz > 0 ? (w->rm ? w->rm->peer[i].base : sh->t[i].base) : NULL;
        any |= ptr_arr[i] != NULL;
    }
    if (!any) { /* nobody asked for memory: nothing to free later (armci-mpi does the same) */
        a->nallocs--;
        unlist_far(a, w, al.lists_far);
        PMPI_Win_free(&win);
    }
    return 0;
}

int ARMCI_Malloc(void *ptr_arr[], armci_size_t bytes)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Malloc", MPI_ERR_OTHER);
    return malloc_group(a, "ARMCI_Malloc", ptr_arr, bytes, 0);
}

int ARMCI_Malloc_group(void *ptr_arr[], armci_size_t bytes, ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Malloc_group", MPI_ERR_OTHER);
    armci_group *g = armci_group_member(a, "ARMCI_Malloc_group", group);
    return g ? malloc_group(a, "ARMCI_Malloc_group", ptr_arr, bytes, (int)(g - a->groups)) : MPI_ERR_GROUP;
}

static void alloc_release(vmpi_armci *a, int i)
{
    armci_alloc al = a->allocs[i];
    memmove(&a->allocs[i], &a->allocs[i + 1], sizeof *a->allocs * (size_t)(a->nallocs - i - 1)); /* keep the order */
    a->nallocs--;
    if (al.base)
        seg_remove(&a->job->p[a->me], al.base);
    unlist_far(a, vmpi_win_get(al.win), al.lists_far);
    PMPI_Win_free(&al.win); /* its barrier: no member frees memory another still reads */
    free(al.base);
}

static int free_group(vmpi_armci *a, const char *fn, void *ptr, int gi)
{
    armci_group *g = &a->groups[gi];
    /* A process that asked for 0 bytes passes NULL: the others' allocation tells which one it is. */
    int i = -1;
    for (int k = 0; ptr && k < a->nallocs && i < 0; k++)
        if (a->allocs[k].base == ptr && a->allocs[k].group == gi)
            i = k;
    bool bad = ptr && i < 0;
    MPI_Aint mine[2] = {i >= 0 ? (MPI_Aint)a->allocs[i].id + 1 : 0, bad}, all[2] = {0, 0};
    PMPI_Allreduce(mine, all, 2, MPI_AINT, MPI_MAX, g->comm); /* also: every member's last access is over */
    MPI_Aint which = all[0];
    if (all[1])
        return bad ? armci_fail(fn, MPI_ERR_BASE, "%p is not the start of an ARMCI allocation of this process", ptr)
                   : armci_fail(fn, MPI_ERR_BASE, "another process passed a pointer that is not an ARMCI allocation");
    if (which == 0)
        return 0; /* every process passed NULL: an allocation of 0 bytes everywhere */
    for (int k = 0; k < a->nallocs && i < 0; k++)
        if ((MPI_Aint)a->allocs[k].id + 1 == which && a->allocs[k].group == gi)
            i = k;
    if (i < 0 || (MPI_Aint)a->allocs[i].id + 1 != which)
        return armci_fail(fn, MPI_ERR_BASE, "the processes free different allocations");
    alloc_release(a, i);
    return 0;
}

int ARMCI_Free(void *ptr)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Free", MPI_ERR_OTHER);
    return free_group(a, "ARMCI_Free", ptr, 0);
}

int ARMCI_Free_group(void *ptr, ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Free_group", MPI_ERR_OTHER);
    armci_group *g = armci_group_member(a, "ARMCI_Free_group", group);
    return g ? free_group(a, "ARMCI_Free_group", ptr, (int)(g - a->groups)) : MPI_ERR_GROUP;
}

/* At ARMCI_Finalize (collective): what the program did not free, in creation order on every process. */
void armci_free_all(vmpi_armci *a)
{
    while (a->nallocs > 0)
        alloc_release(a, 0); /* the oldest left: the one every member frees next */
}

/* Local memory, from the rank's slot: it moves with the rank (no registration exists here). */
void *ARMCI_Malloc_local(armci_size_t bytes)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Malloc_local", NULL);
    if (bytes < 0) {
        armci_fail("ARMCI_Malloc_local", MPI_ERR_ARG, "negative size %ld", bytes);
        return NULL;
    }
    return malloc(bytes > 0 ? (size_t)bytes : 1);
}

int ARMCI_Free_local(void *ptr)
{
    ARMCI_CHECK_INIT(a, "ARMCI_Free_local", MPI_ERR_OTHER);
    free(ptr);
    return 0;
}
