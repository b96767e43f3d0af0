/* SPDX-License-Identifier: BSD-3-Clause */
/* The noncontiguous sections of mpi_f08's choice buffers (fsection.h): a datatype over the section, or a copy
 * (packed and unpacked through the same kind of datatype). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sysmem.h"
#include "binding/check.h"
#include "binding/check_win.h"
#include "fortran/fsection.h"

static void *failed(vmpi_f_sect *s, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void *failed(vmpi_f_sect *s, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    s->mode = VMPI_F_FAILED;
    s->err = err;
    return NULL;
}

static MPI_Count elements(const CFI_cdesc_t *d)
{
    MPI_Count n = 1;
    for (int i = 0; i < d->rank; i++)
        n *= d->dim[i].extent;
    return n;
}

/* `t`, a type made here, once the type made from it holds it (never `keep`, the caller's) */
static void drop(MPI_Datatype t, MPI_Datatype keep)
{
    if (t != keep)
        PMPI_Type_free(&t);
}

/* The whole block of dimensions 0..i over element type e */
static MPI_Datatype full(const CFI_cdesc_t *d, int i, MPI_Datatype e)
{
    MPI_Datatype t = e;
    for (int k = 0; k <= i; k++) {
        MPI_Datatype n;
        PMPI_Type_create_hvector_c(d->dim[k].extent, 1, d->dim[k].sm, t, &n);
        drop(t, e);
        t = n;
    }
    return t;
}

/* The first n elements (in array element order: dimension 0 fastest) of the block of dimensions 0..i, n at
 * most its size: q whole blocks of dimensions 0..i-1, then the first r elements of the next */
static MPI_Datatype first(const CFI_cdesc_t *d, int i, MPI_Count n, MPI_Datatype e)
{
    if (i < 0)
        return e; /* (n is 1) */
    MPI_Count lower = 1;
    for (int k = 0; k < i; k++)
        lower *= d->dim[k].extent;
    if (n == lower * d->dim[i].extent)
        return full(d, i, e);
    MPI_Count q = n / lower, r = n % lower;
    if (q == 0)
        return first(d, i - 1, r, e);
    MPI_Datatype block = full(d, i - 1, e), a;
    PMPI_Type_create_hvector_c(q, 1, d->dim[i].sm, block, &a);
    drop(block, e);
    if (r == 0)
        return a;
    MPI_Datatype parts[2] = {a, first(d, i - 1, r, e)}, t;
    MPI_Count len[2] = {1, 1}, disp[2] = {0, q * d->dim[i].sm};
    PMPI_Type_create_struct_c(2, len, disp, parts, &t);
    drop(parts[0], e);
    drop(parts[1], e);
    return t;
}

void *vmpi_f_sect_typed(vmpi_f_sect *s, const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int how)
{
    s->mode = VMPI_F_PLAIN;
    if (vmpi_f_contig(d))
        return d->base_addr;
    const vmpi_dtype *t = vmpi_dt_get(dt);
    if (t == NULL || count < 0)
        return d->base_addr; /* the call refuses the datatype or the count (and touches no memory) */
    MPI_Count len = (MPI_Count)d->elem_len, k = 1;
    if (t->extent != len) { /* k of the datatype's elements in an array element, laid end to end */
        if (t->extent <= 0 || len < t->extent || len % t->extent != 0 || !t->contig || t->lb != 0 ||
            count % (len / t->extent) != 0)
            return vmpi_f_sect_copy(s, d, count, dt, how);
        k = len / t->extent;
    } else if (t->true_lb < 0 || t->true_lb + t->true_extent > len) {
        return vmpi_f_sect_copy(s, d, count, dt, how); /* its data reaches past an element (a resized type) */
    }
    MPI_Count n = count / k, have = elements(d);
    if (n > have)
        return failed(s, MPI_ERR_COUNT, "the count, %lld, is more than the %lld elements of the array section",
                      (long long)count, (long long)(have * k));
    MPI_Datatype e = dt;
    if (k > 1)
        PMPI_Type_contiguous_c(k, dt, &e);
    MPI_Datatype sect;
    if (n == 0) /* (a type of no element: the call moves nothing) */
        PMPI_Type_contiguous_c(0, dt, &sect);
    else
        sect = first(d, d->rank - 1, n, e);
    if (e != dt)
        PMPI_Type_free(&e);
    PMPI_Type_commit(&sect);
    s->mode = VMPI_F_TYPED;
    s->type = sect;
    return d->base_addr;
}

void *vmpi_f_sect_copy(vmpi_f_sect *s, const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int how)
{
    s->mode = VMPI_F_PLAIN;
    if (vmpi_f_contig(d))
        return d->base_addr;
    if (how & VMPI_F_ASYNC)
        return failed(s, MPI_ERR_BUFFER, "a noncontiguous array section that no datatype describes, to a call "
                      "that may outlive it: pass a contiguous array");
    size_t bytes = (size_t)elements(d) * d->elem_len;
    const vmpi_dtype *t = count > 0 ? vmpi_dt_get(dt) : NULL;
    if (t != NULL && t->size > 0) { /* what the call reads or writes must be in the copy */
        MPI_Count need = (count - 1) * t->extent + t->true_lb + t->true_extent;
        if (t->true_lb < 0 || need > (MPI_Count)bytes)
            return failed(s, MPI_ERR_COUNT, "the count, %lld, is more than the %zu-byte array section holds",
                          (long long)count, bytes);
    }
    s->tmp = vmpi_sys_malloc(bytes);
    if (s->tmp == NULL)
        return failed(s, MPI_ERR_NO_MEM, "no memory for a contiguous copy of the %zu-byte array section", bytes);
    /* the section's bytes as a datatype (its elements, in array element order), which the engine packs */
    MPI_Datatype e;
    PMPI_Type_contiguous_c((MPI_Count)d->elem_len, MPI_BYTE, &e);
    s->type = full(d, d->rank - 1, e);
    PMPI_Type_free(&e);
    PMPI_Type_commit(&s->type);
    vmpi_dtype_pack(d->base_addr, 1, vmpi_dt_get(s->type), s->tmp, (MPI_Count)bytes); /* (OUT too: what the call
                                                                 does not write goes back as it was) */
    s->mode = VMPI_F_COPIED;
    s->how = how;
    s->d = d;
    return s->tmp;
}

void vmpi_f_sect_undo(vmpi_f_sect *s)
{
    if (s->mode == VMPI_F_COPIED) {
        const vmpi_dtype *t = vmpi_dt_get(s->type);
        if (s->how & VMPI_F_OUT)
            vmpi_dtype_unpack(s->tmp, t->size, s->d->base_addr, 1, t);
        vmpi_sys_free(s->tmp);
    }
    PMPI_Type_free(&s->type);
    s->mode = VMPI_F_PLAIN;
}

int vmpi_f_sect_fail(const vmpi_f_sect *s, const char *fn, const char *arg, int kind, int on)
{
    VMPI_CHK(ck);
    snprintf(ck.why, sizeof ck.why, "%.20s: %.130s", arg, s->why);
    return kind == VMPI_F_ON_WIN ? vmpi_win_fail(on, s->err, fn, &ck) : vmpi_fail(on, s->err, fn, &ck);
}
