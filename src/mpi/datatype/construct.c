/* SPDX-License-Identifier: BSD-3-Clause */
/* The MPI-1/2 constructors: each is a sequence of "n instances of a type at a byte displacement". */
#include <limits.h>
#include <stdlib.h>
#include "dtype/build.h"
#include "mpi/datatype/construct.h"

/* Records the envelope: the constructor's integer arguments `iv` (counts, block lengths, element
 * displacements; in the order of MPI-4.1's table) and its byte displacements `av`.  The int form keeps them as
 * integers and addresses; the large-count form as large counts, the addresses after the integers (its
 * h-constructors take them as MPI_Count).  False when out of memory. */
static bool record(vmpi_dtype *t, int combiner, bool large, MPI_Count ni, const MPI_Count *iv, MPI_Count na,
                   const MPI_Aint *av, MPI_Count nd, vmpi_dtype *const *types)
{
    if (ni + na > INT_MAX || nd > INT_MAX) /* more arguments than a block list could hold anyway */
        return false;
    size_t n = (size_t)(ni + na);
    bool ok;
    if (large) {
        MPI_Count *c = malloc(sizeof *c * (n ? n : 1));
        if (c == NULL)
            return false;
        for (MPI_Count i = 0; i < ni; i++)
            c[i] = iv[i];
        for (MPI_Count i = 0; i < na; i++)
            c[ni + i] = av[i];
        ok = vmpi_dt_set_contents(t, combiner, 0, NULL, 0, NULL, (int)n, c, (int)nd, types);
        free(c);
    } else { /* the int form's arguments were ints */
        int *v = malloc(sizeof *v * (size_t)(ni ? ni : 1));
        if (v == NULL)
            return false;
        for (MPI_Count i = 0; i < ni; i++)
            v[i] = (int)iv[i];
        ok = vmpi_dt_set_contents(t, combiner, (int)ni, v, (int)na, av, 0, NULL, (int)nd, types);
        free(v);
    }
    return ok;
}

/* Finishes the build and records the envelope; NULL (and nothing leaked) when out of memory. */
static vmpi_dtype *finish(vmpi_dtype_builder *b, bool pad, int combiner, bool large, MPI_Count ni,
                          const MPI_Count *iv, MPI_Count na, const MPI_Aint *av, MPI_Count nd,
                          vmpi_dtype *const *types)
{
    vmpi_dtype *t = vmpi_dtb_finish(b, pad);
    if (t && !record(t, combiner, large, ni, iv, na, av, nd, types)) {
        vmpi_dtype_release(t);
        return NULL;
    }
    return t;
}

vmpi_dtype *vmpi_dt_contiguous(MPI_Count count, vmpi_dtype *old, bool large)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    if (!vmpi_dtb_add_repeated(&b, old, 0, count, old->extent)) /* a many-block type: its blocks once */
        vmpi_dtb_add(&b, old, 0, count);
    return finish(&b, false, MPI_COMBINER_CONTIGUOUS, large, 1, &count, 0, NULL, 1, &old);
}

static void add_hvector(vmpi_dtype_builder *b, MPI_Count count, MPI_Count blocklen, MPI_Aint stride,
                        vmpi_dtype *old)
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
    for (MPI_Count i = 0; i < count && !b->oom; i++)
        vmpi_dtb_add(b, old, (MPI_Aint)i * stride, blocklen);
}

vmpi_dtype *vmpi_dt_vector(MPI_Count count, MPI_Count blocklen, MPI_Count stride, vmpi_dtype *old, bool large)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    add_hvector(&b, count, blocklen, (MPI_Aint)stride * old->extent, old);
    MPI_Count iv[3] = {count, blocklen, stride};
    return finish(&b, false, MPI_COMBINER_VECTOR, large, 3, iv, 0, NULL, 1, &old);
}

vmpi_dtype *vmpi_dt_hvector(MPI_Count count, MPI_Count blocklen, MPI_Aint stride, vmpi_dtype *old, bool large)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    add_hvector(&b, count, blocklen, stride, old);
    MPI_Count iv[2] = {count, blocklen};
    return finish(&b, false, MPI_COMBINER_HVECTOR, large, 2, iv, 1, &stride, 1, &old);
}

/* The integer arguments of the envelope: count, then the given arrays one after the other. */
static MPI_Count *pack_ints(MPI_Count count, const MPI_Count *a, MPI_Count na, const MPI_Count *c, MPI_Count nc)
{
    MPI_Count *v = malloc(sizeof *v * (size_t)(1 + na + nc));
    if (v == NULL)
        return NULL;
    v[0] = count;
    for (MPI_Count i = 0; i < na; i++)
        v[1 + i] = a[i];
    for (MPI_Count i = 0; i < nc; i++)
        v[1 + na + i] = c[i];
    return v;
}

vmpi_dtype *vmpi_dt_indexed(MPI_Count count, const MPI_Count *blocklens, const MPI_Count *disps, vmpi_dtype *old,
                            bool large)
{
    MPI_Count *iv = pack_ints(count, blocklens, count, disps, count);
    if (iv == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (MPI_Count i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, (MPI_Aint)disps[i] * old->extent, blocklens[i]);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_INDEXED, large, 1 + 2 * count, iv, 0, NULL, 1, &old);
    free(iv);
    return t;
}

vmpi_dtype *vmpi_dt_hindexed(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps, vmpi_dtype *old,
                             bool large)
{
    MPI_Count *iv = pack_ints(count, blocklens, count, NULL, 0);
    if (iv == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (MPI_Count i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, disps[i], blocklens[i]);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_HINDEXED, large, 1 + count, iv, count, disps, 1, &old);
    free(iv);
    return t;
}

vmpi_dtype *vmpi_dt_indexed_block(MPI_Count count, MPI_Count blocklen, const MPI_Count *disps, vmpi_dtype *old,
                                  bool large)
{
    MPI_Count *iv = pack_ints(count, &blocklen, 1, disps, count);
    if (iv == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (MPI_Count i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, (MPI_Aint)disps[i] * old->extent, blocklen);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_INDEXED_BLOCK, large, 2 + count, iv, 0, NULL, 1, &old);
    free(iv);
    return t;
}

vmpi_dtype *vmpi_dt_hindexed_block(MPI_Count count, MPI_Count blocklen, const MPI_Aint *disps, vmpi_dtype *old,
                                   bool large)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (MPI_Count i = 0; i < count; i++)
        vmpi_dtb_add(&b, old, disps[i], blocklen);
    MPI_Count iv[2] = {count, blocklen};
    return finish(&b, false, MPI_COMBINER_HINDEXED_BLOCK, large, 2, iv, count, disps, 1, &old);
}

vmpi_dtype *vmpi_dt_struct(MPI_Count count, const MPI_Count *blocklens, const MPI_Aint *disps,
                           vmpi_dtype *const *types, bool large)
{
    MPI_Count *iv = pack_ints(count, blocklens, count, NULL, 0);
    if (iv == NULL)
        return NULL;
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    for (MPI_Count i = 0; i < count; i++)
        vmpi_dtb_add(&b, types[i], disps[i], blocklens[i]);
    vmpi_dtype *t = finish(&b, true, MPI_COMBINER_STRUCT, large, 1 + count, iv, count, disps, count, types);
    free(iv);
    return t;
}

vmpi_dtype *vmpi_dt_resized(vmpi_dtype *old, MPI_Aint lb, MPI_Aint extent, bool large)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    vmpi_dtb_add(&b, old, 0, 1);
    MPI_Aint av[2] = {lb, extent};
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_RESIZED, large, 0, NULL, 2, av, 1, &old);
    if (t)
        vmpi_dtype_set_bounds(t, lb, extent);
    return t;
}

vmpi_dtype *vmpi_dt_dup(vmpi_dtype *old)
{
    vmpi_dtype_builder b;
    vmpi_dtb_init(&b);
    vmpi_dtb_add(&b, old, 0, 1);
    vmpi_dtype *t = finish(&b, false, MPI_COMBINER_DUP, false, 0, NULL, 0, NULL, 1, &old);
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
    vmpi_dtype *t = vmpi_dtb_finish(&b, false);
    if (t && !vmpi_dt_set_contents(t, combiner, ni, ints, 0, NULL, 0, NULL, 0, NULL)) {
        vmpi_dtype_release(t);
        t = NULL;
    }
    if (t) { /* the basic type's bounds and element kind; predefined, so committed */
        t->lb = basic->lb, t->extent = basic->extent;
        t->align = basic->align;
        t->basic = basic->basic;
        t->committed = true;
    }
    return t;
}
