/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdlib.h>
#include <string.h>
#include "iso/iso.h"
#include "dtype/build.h"

void vmpi_dtb_init(vmpi_dtype_builder *b)
{
    memset(b, 0, sizeof *b);
    b->align = 1;
    b->groups = 1;
    b->basic = -1;
}

static bool grow(void **p, int *cap, size_t elem)
{
    int n = *cap ? *cap * 2 : 8;
    void *q = vmpi_iso_own_realloc(*p, (size_t)n * elem);
    if (q == NULL)
        return false;
    *p = q;
    *cap = n;
    return true;
}

/* Appends `reps` runs of `len` bytes `stride` apart, merging with the last block when the runs continue it:
 * adjacent bytes extend it, an equal run at the next stride adds a repetition. */
static void add_run(vmpi_dtype_builder *b, MPI_Aint disp, MPI_Count len, MPI_Count reps, MPI_Aint stride)
{
    if (len == 0 || reps == 0 || b->oom)
        return;
    if (reps > 1 && stride == len) {
        len *= reps;
        reps = 1;
    }
    if (reps == 1)
        stride = 0;
    if (b->nblocks > 0) {
        vmpi_dtype_block *l = &b->blocks[b->nblocks - 1];
        if (reps == 1 && l->reps == 1 && l->disp + l->len == disp) {
            l->len += len;
            return;
        }
        if (l->len == len) {
            MPI_Aint s = l->reps > 1 ? l->stride : disp - l->disp;
            if ((reps == 1 || stride == s) && disp == l->disp + l->reps * s) {
                l->stride = s;
                l->reps += reps;
                return;
            }
        }
    }
    if (b->nblocks == b->bcap && !grow((void **)&b->blocks, &b->bcap, sizeof *b->blocks)) {
        b->oom = true;
        return;
    }
    b->blocks[b->nblocks++] = (vmpi_dtype_block){disp, len, reps, stride};
}

static void add_elems(vmpi_dtype_builder *b, MPI_Count n, int esize, int basic)
{
    if (n == 0 || b->oom)
        return;
    if (b->nruns > 0 && b->elems[b->nruns - 1].basic == basic) {
        b->elems[b->nruns - 1].n += n;
        return;
    }
    if (b->nruns == b->rcap && !grow((void **)&b->elems, &b->rcap, sizeof *b->elems)) {
        b->oom = true;
        return;
    }
    b->elems[b->nruns++] = (vmpi_dtype_elems){n, esize, basic};
}

static inline MPI_Aint amin(MPI_Aint a, MPI_Aint c) { return a < c ? a : c; }
static inline MPI_Aint amax(MPI_Aint a, MPI_Aint c) { return a > c ? a : c; }

static void add_bounds(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Aint disp, MPI_Count count)
{
    MPI_Aint last = (MPI_Aint)(count - 1) * t->extent;
    MPI_Aint lo = disp + amin(0, last), hi = disp + amax(0, last);
    if (t->has_lb) {
        b->mlb = b->has_lb ? amin(b->mlb, lo + t->lb) : lo + t->lb;
        b->has_lb = true;
    }
    if (t->has_ub) {
        b->mub = b->has_ub ? amax(b->mub, hi + t->lb + t->extent) : hi + t->lb + t->extent;
        b->has_ub = true;
    }
    if (t->size > 0) {
        MPI_Aint l = lo + t->lb, u = hi + t->lb + t->extent;
        MPI_Aint tl = lo + t->true_lb, tu = hi + t->true_lb + t->true_extent;
        if (!b->has_data) {
            b->dlo = l, b->dhi = u, b->tlo = tl, b->thi = tu;
            b->has_data = true;
        } else {
            b->dlo = amin(b->dlo, l), b->dhi = amax(b->dhi, u);
            b->tlo = amin(b->tlo, tl), b->thi = amax(b->thi, tu);
        }
    }
}

/* Writes the builder's repeated groups out as plain blocks and runs (something follows them). */
static void flatten(vmpi_dtype_builder *b)
{
    vmpi_dtype_block *blocks = b->blocks;
    vmpi_dtype_elems *elems = b->elems;
    int nblocks = b->nblocks, nruns = b->nruns;
    MPI_Count groups = b->groups;
    b->blocks = NULL, b->elems = NULL;
    b->nblocks = b->bcap = b->nruns = b->rcap = 0;
    b->groups = 1;
    for (MPI_Count g = 0; g < groups && !b->oom; g++) {
        for (int k = 0; k < nblocks; k++)
            add_run(b, blocks[k].disp + g * b->group_stride, blocks[k].len, blocks[k].reps, blocks[k].stride);
        for (int k = 0; k < nruns; k++)
            add_elems(b, elems[k].n, elems[k].esize, elems[k].basic);
    }
    free(blocks);
    free(elems);
}

static bool builder_empty(const vmpi_dtype_builder *b)
{
    return b->nblocks == 0 && b->nruns == 0 && !b->has_data && !b->has_lb && !b->has_ub;
}

static void add_counts(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Count count)
{
    if (t->align > b->align)
        b->align = t->align;
    if (t->size == 0)
        return;
    b->size += count * t->size;
    b->nelems += count * t->nelems;
    b->basic = b->basic < 0 || b->basic == t->basic ? t->basic : 0;
}

bool vmpi_dtb_add_repeated(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Aint disp, MPI_Count count,
                           MPI_Aint stride)
{
    if (count < 2 || t->nblocks < 2 || vmpi_dtype_groups(t) > 1 || !builder_empty(b))
        return false;
    /* bounds are linear in the copy index: the first and last copies give them */
    add_bounds(b, t, disp, 1);
    add_bounds(b, t, disp + (MPI_Aint)(count - 1) * stride, 1);
    add_counts(b, t, count);
    for (int k = 0; k < t->nblocks; k++)
        add_run(b, disp + t->blocks[k].disp, t->blocks[k].len, t->blocks[k].reps, t->blocks[k].stride);
    for (int k = 0; k < t->nelems_runs; k++)
        add_elems(b, t->elems[k].n, t->elems[k].esize, t->elems[k].basic);
    b->groups = count;
    b->group_stride = stride;
    return true;
}

void vmpi_dtb_add(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Aint disp, MPI_Count count)
{
    if (count <= 0)
        return;
    if (b->groups > 1 && t->size > 0)
        flatten(b);
    MPI_Count tg = vmpi_dtype_groups(t);
    if (tg > 1) {
        if (count == 1 && builder_empty(b)) { /* one grouped instance (dup, resized): keep its groups */
            add_bounds(b, t, disp, 1);
            add_counts(b, t, 1);
            for (int k = 0; k < t->nblocks; k++)
                add_run(b, disp + t->blocks[k].disp, t->blocks[k].len, t->blocks[k].reps, t->blocks[k].stride);
            for (int k = 0; k < t->nelems_runs; k++)
                add_elems(b, t->elems[k].n, t->elems[k].esize, t->elems[k].basic);
            b->groups = t->groups;
            b->group_stride = t->group_stride;
            return;
        }
        add_bounds(b, t, disp, count); /* else the groups are written out */
        add_counts(b, t, count);
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            for (MPI_Count g = 0; g < tg; g++) {
                for (int k = 0; k < t->nblocks; k++) {
                    const vmpi_dtype_block *x = &t->blocks[k];
                    add_run(b, disp + i * t->extent + g * t->group_stride + x->disp, x->len, x->reps, x->stride);
                }
                for (int k = 0; k < t->nelems_runs; k++)
                    add_elems(b, t->elems[k].n, t->elems[k].esize, t->elems[k].basic);
            }
        return;
    }
    add_bounds(b, t, disp, count);
    add_counts(b, t, count);
    if (t->size == 0)
        return;
    /* blocks: a one-run type repeats as one strided block; a regular vector continues its stride */
    const vmpi_dtype_block *k0 = &t->blocks[0];
    if (t->nblocks == 1 && k0->reps == 1) {
        add_run(b, disp + k0->disp, k0->len, count, t->extent);
    } else if (t->nblocks == 1 && k0->reps * k0->stride == t->extent) {
        add_run(b, disp + k0->disp, k0->len, k0->reps * count, k0->stride);
    } else {
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            for (int k = 0; k < t->nblocks; k++) {
                const vmpi_dtype_block *x = &t->blocks[k];
                add_run(b, disp + i * t->extent + x->disp, x->len, x->reps, x->stride);
            }
    }
    if (t->nelems_runs == 1) {
        add_elems(b, count * t->elems[0].n, t->elems[0].esize, t->elems[0].basic);
    } else {
        for (MPI_Count i = 0; i < count && !b->oom; i++)
            for (int k = 0; k < t->nelems_runs; k++)
                add_elems(b, t->elems[k].n, t->elems[k].esize, t->elems[k].basic);
    }
}

static void set_contig(vmpi_dtype *t)
{
    t->contig = t->size == 0 || (t->nblocks == 1 && vmpi_dtype_groups(t) == 1 && t->blocks[0].reps == 1 &&
                                 t->blocks[0].len == t->size && t->extent == (MPI_Aint)t->size);
}

vmpi_dtype *vmpi_dtb_finish(vmpi_dtype_builder *b, bool pad)
{
    vmpi_dtype *t = b->oom ? NULL : vmpi_iso_own_calloc(1, sizeof *t); /* the making rank's (iso.h) */
    if (t == NULL) {
        free(b->blocks);
        free(b->elems);
        return NULL;
    }
    MPI_Aint lb = b->has_lb ? b->mlb : b->has_data ? b->dlo : b->has_ub ? b->mub : 0;
    MPI_Aint ub = b->has_ub ? b->mub : b->has_data ? b->dhi : lb;
    if (pad && !b->has_ub && b->align > 1) {
        MPI_Aint r = (ub - lb) % b->align;
        if (r < 0)
            r += b->align;
        if (r)
            ub += b->align - r;
    }
    t->size = b->size;
    t->lb = lb;
    t->extent = ub - lb;
    t->true_lb = b->has_data ? b->tlo : 0;
    t->true_extent = b->has_data ? b->thi - b->tlo : 0;
    t->has_lb = b->has_lb;
    t->has_ub = b->has_ub;
    t->align = b->align;
    t->nblocks = b->nblocks;
    t->blocks = b->blocks;
    t->groups = b->groups > 1 ? b->groups : 1;
    t->group_stride = b->group_stride;
    t->nelems_runs = b->nruns;
    t->elems = b->elems;
    t->nelems = b->nelems;
    t->basic = b->basic < 0 ? 0 : b->basic;
    atomic_init(&t->refs, 1);
    set_contig(t);
    return t;
}

void vmpi_dtype_set_bounds(vmpi_dtype *t, MPI_Aint lb, MPI_Aint extent)
{
    t->lb = lb;
    t->extent = extent;
    t->has_lb = t->has_ub = true;
    set_contig(t);
}
