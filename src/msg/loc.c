/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include "base/log.h"
#include "msg/loc.h"

int *vmpi_loc_pe_;

static struct {
    int nranks;
    bool moved;              /* since the last vmpi_loc_moves_done */
    void (*hooks[4])(void);
    int nhooks;
} L;

void vmpi_loc_init(int nranks)
{
    vmpi_loc_pe_ = calloc((size_t)nranks, sizeof *vmpi_loc_pe_);
    if (vmpi_loc_pe_ == NULL)
        vmpi_fatal("out of memory for the location table of %d ranks", nranks);
    L.nranks = nranks;
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
