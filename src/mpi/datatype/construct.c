/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-1/2 constructors: each is a sequence of "n instances of a type at a byte displacement". */
#include <stdlib.h>
#include "dtype/build.h"
#include "mpi/datatype/construct.h"

/* Finishes the build and records the envelope; NULL (and nothing leaked) when out of memory. */
static vmpi_dtype *finish(vmpi_dtype_builder *b, bool pad, int combiner, int ni, const int *ints, int na,
                          const MPI_Aint *aints, int nd, vmpi_dtype *const *types)
{
    vmpi_dtype *t = vmpi_dtb_finish(b, pad);
    if (t && !vmpi_dt_set_contents(t, combiner, ni, ints, na, aints, nd, types)) {
        vmpi_dtype_release(t);
        return NULL;
    }
    return t;
}

vmpi_dtype *vmpi_dt_contiguous(int count, vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    if (!vmpi_dtb_add_repeated(&b, old, 0, count, old->extent)) /* a many-block type: its blocks once */
        vmpi_dtb_add(&b, old, 0, count);
    return finish(&b, false, MPI_COMBINER_CONTIGUOUS, 1, &count, 0, NULL, 1, &old);
}

static void add_hvector(vmpi_dtype_builder *b, int count, int blocklen, MPI_Aint stride, vmpi_dtype *old)
{
    /* a many-block old type: one group of `blocklen` copies, repeated `count` times */
    if (count > 1 && blocklen > 0 && old->nblocks > 1 && vmpi_dtype_groups(old) == 1) {
        vmpi_dtype_builder gb;
        vmpi_dtb_init(&gb);
        vmpi_dtb_add(&gb, old, 0, blocklen);
        vmpi_dtype *g = vmpi_dtb_finish(&gb, false);
        bool done = g && vmpi_dtb_add_repeated(b, g, 0, count, stride);
        if (g)
            vmpi_dtype_release(g);
        if (done)
            return;
    }
    for (int i = 0; i < count && !b->oom; i++)
        vmpi_dtb_add(b, old, (MPI_Aint)i * stride, blocklen);
}

vmpi_dtype *vmpi_dt_vector(int count, int blocklen, int stride, vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    add_hvector(&b, count, blocklen, (MPI_Aint)stride * old->extent, old);
    int ints[3] = {count, blocklen, stride};
    return finish(&b, false, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 1, &old);
}

vmpi_dtype *vmpi_dt_hvector(int count, int blocklen, MPI_Aint stride, vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    add_hvector(&b, count, blocklen, stride, old);
    int ints[2] = {count, blocklen};
    return finish(&b, false, MPI_COMBINER_HVECTOR, 2, ints, 1, &stride, 1, &old);
}

/* Integer arrays of the envelope: count, then the given arrays one after the other. */
static int *pack_ints(int count, const int *a, int na, const int *c, int nc)
{
    int *v = malloc(sizeof *v * (size_t)(1 + na + nc));
    if (v == NULL)
        return NULL;
    v[0] = count;
    for (int i = 0; i < na; i++)
        v[1 + i] = a[i];
    for (int i = 0; i < nc; i++)
        v[1 + na + i] = c[i];
    return v;
}

vmpi_dtype *vmpi_dt_indexed(int count, const int *blocklens, const int *disps, vmpi_dtype *old)
{
    int *ints = pack_ints(count, blocklens, count, disps, count);
    if (ints == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (int i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, (MPI_Aint)disps[i] * old->extent, blocklens[i]);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_INDEXED, 1 + 2 * count, ints, 0, NULL, 1, &old);
    free(ints);
    return t;
}

vmpi_dtype *vmpi_dt_hindexed(int count, const int *blocklens, const MPI_Aint *disps, vmpi_dtype *old)
{
    int *ints = pack_ints(count, blocklens, count, NULL, 0);
    if (ints == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (int i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, disps[i], blocklens[i]);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_HINDEXED, 1 + count, ints, count, disps, 1, &old);
    free(ints);
    return t;
}

vmpi_dtype *vmpi_dt_indexed_block(int count, int blocklen, const int *disps, vmpi_dtype *old)
{
    int *ints = pack_ints(count, &blocklen, 1, disps, count);
    if (ints == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (int i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, (MPI_Aint)disps[i] * old->extent, blocklen);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_INDEXED_BLOCK, 2 + count, ints, 0, NULL, 1, &old);
    free(ints);
    return t;
}

vmpi_dtype *vmpi_dt_hindexed_block(int count, int blocklen, const MPI_Aint *disps, vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (int i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, disps[i], blocklen);
    int ints[2] = {count, blocklen};
    return finish(&b, false, MPI_COMBINER_HINDEXED_BLOCK, 2, ints, count, disps, 1, &old);
}

vmpi_dtype *vmpi_dt_struct(int count, const int *blocklens, const MPI_Aint *disps, vmpi_dtype *const *types)
{
    int *ints = pack_ints(count, blocklens, count, NULL, 0);
    if (ints == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (int i = 0; i < count; i++)
        vmpi_dtb_add(&b, types[i], disps[i], blocklens[i]);
    vmpi_dtype *t = finish(&b, true, MPI_COMBINER_STRUCT, 1 + count, ints, count, disps, count, types);
    free(ints);
    return t;
}

vmpi_dtype *vmpi_dt_resized(vmpi_dtype *old, MPI_Aint lb, MPI_Aint extent)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    vmpi_dtb_add(&b, old, 0, 1);
    MPI_Aint aints[2] = {lb, extent};
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_RESIZED, 0, NULL, 2, aints, 1, &old);
    if (t)
        vmpi_dtype_set_bounds(t, lb, extent);
    return t;
}

vmpi_dtype *vmpi_dt_dup(vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    vmpi_dtb_add(&b, old, 0, 1);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_DUP, 0, NULL, 0, NULL, 1, &old);
    if (t) {
        /* the same bounds, markers included (one instance at 0 reproduces them) and the same commit state */
        t->lb = old->lb, t->extent = old->extent, t->has_lb = old->has_lb, t->has_ub = old->has_ub;
        t->align = old->align;
        t->basic = old->basic;
        t->committed = old->committed;
    }
    return t;
}

vmpi_dtype *vmpi_dt_f90(vmpi_dtype *basic, int combiner, int ni, const int *ints)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    vmpi_dtb_add(&b, basic, 0, 1);
    vmpi_dtype *t = finish(&b, false, combiner, ni, ints, 0, NULL, 0, NULL);
    if (t) { /* the basic type's bounds and element kind; predefined, so committed */
        t->lb = basic->lb, t->extent = basic->extent;
        t->align = basic->align;
        t->basic = basic->basic;
        t->committed = true;
    }
    return t;
}
