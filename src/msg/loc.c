/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include "base/log.h"
#include "msg/loc.h"
#include "xport/netjob.h"
#include "xport/procs.h"

int *vmpi_loc_pe_;

static struct {
    int nranks;
    bool moved;              /* since the last vmpi_loc_moves_done */
    void (*hooks[4])(void);
    int nhooks;
} L;

/* "ranks 0-3, 8" of process `proc` (where they are now), cut with "..." to fit `n` bytes: for the
 * transport's messages about that process. */
static void ranks_of(int proc, char *buf, size_t n)
{
    int total = 0;
    for (int r = 0; r < L.nranks; r++)
        total += vmpi_xport_proc_of_pe(vmpi_loc_pe_[r]) == proc;
    size_t at = (size_t)snprintf(buf, n, "%s", total == 0 ? "no rank" : total == 1 ? "rank " : "ranks ");
    bool first = true;
    for (int r = 0; r < L.nranks && total > 0; r++) {
        if (vmpi_xport_proc_of_pe(vmpi_loc_pe_[r]) != proc)
            continue;
        int e = r;
        while (e + 1 < L.nranks && vmpi_xport_proc_of_pe(vmpi_loc_pe_[e + 1]) == proc)
            e++;
        char one[32];
        int w = e == r ? snprintf(one, sizeof one, "%d", r) : snprintf(one, sizeof one, "%d-%d", r, e);
        if (at + (size_t)w + 8 >= n) {
            snprintf(buf + at, n - at, "%s...", first ? "" : ", ");
            return;
        }
        at += (size_t)snprintf(buf + at, n - at, "%s%s", first ? "" : ", ", one);
        first = false;
        r = e;
    }
}

void vmpi_loc_init(int nranks)
{
    vmpi_loc_pe_ = calloc((size_t)nranks, sizeof *vmpi_loc_pe_);
    if (vmpi_loc_pe_ == NULL)
        vmpi_fatal("out of memory for the location table of %d ranks", nranks);
    L.nranks = nranks;
    vmpi_xport_net_on_ranks_of(ranks_of);
}

void vmpi_loc_fini(void)
{
    free(vmpi_loc_pe_);
    vmpi_loc_pe_ = NULL;
    L.nranks = 0;
    L.nhooks = 0;
    L.moved = false;
}

static inline int first_rank(int k, int n, int nprocs) { return (int)((long)k * n / nprocs); }

int vmpi_loc_start_proc(int r, int n)
{
    int K = vmpi_xport_nprocs(), k = (int)((long)r * K / n);
    while (k + 1 < K && first_rank(k + 1, n, K) <= r)
        k++;
    while (k > 0 && first_rank(k, n, K) > r)
        k--;
    return k;
}

int vmpi_loc_start_pe(int r, int n, int active)
{
    int K = vmpi_xport_nprocs(), k = vmpi_loc_start_proc(r, n);
    int r0 = first_rank(k, n, K), r1 = first_rank(k + 1, n, K);
    int p0 = vmpi_xport_first_pe(k), p1 = vmpi_xport_first_pe(k + 1);
    if (active > p0 && active < p1)
        p1 = active;
    return p0 + (int)((long)(r - r0) * (p1 - p0) / (r1 - r0));
}

void vmpi_loc_set(int world_rank, int pe) { vmpi_loc_pe_[world_rank] = pe; }

void vmpi_loc_move(vmpi_vp *vp, int pe)
{
    vmpi_sched_move(vp, pe);
    vmpi_loc_pe_[vp->id] = pe;
    L.moved = true;
}

void vmpi_loc_adopt(vmpi_vp *vp, int pe)
{
    vmpi_sched_adopt_vp(vp, pe);
    vmpi_loc_pe_[vp->id] = pe;
    L.moved = true;
}

void vmpi_loc_moves_done(void)
{
    if (!L.moved)
        return;
    L.moved = false;
    for (int i = 0; i < L.nhooks; i++)
        L.hooks[i]();
}

void vmpi_loc_on_moved(void (*fn)(void))
{
    for (int i = 0; i < L.nhooks; i++)
        if (L.hooks[i] == fn)
            return;
    vmpi_assert(L.nhooks < (int)(sizeof L.hooks / sizeof L.hooks[0]));
    L.hooks[L.nhooks++] = fn;
}
