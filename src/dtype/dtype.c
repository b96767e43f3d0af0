/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "dtype/dtype.h"

/* ---- reference counting ---- */

void vmpi_dtype_retain(const vmpi_dtype *dt)
{
    if (!dt->builtin)
        atomic_fetch_add_explicit(&((vmpi_dtype *)dt)->refs, 1, memory_order_relaxed);
}

void vmpi_dtype_release(const vmpi_dtype *cdt)
{
    vmpi_dtype *dt = (vmpi_dtype *)cdt;
    if (dt->builtin || atomic_fetch_sub_explicit(&dt->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (int i = 0; i < dt->contents.nd; i++)
        vmpi_dtype_release(dt->contents.types[i]);
    free(dt->contents.ints);
    free(dt->contents.aints);
    free(dt->contents.counts);
    free(dt->contents.types);
    free((void *)dt->blocks);
    free((void *)dt->elems);
    free(dt);
}

/* ---- copying runs of a block ---- */

/* `reps` runs of `len` bytes `stride` apart at `src` -> contiguous `dst`.  Runs of common small sizes are
 * copied with fixed-size moves (inlined, four per iteration), not a memcpy call each. */
#define STRIDED(N, DST, SRC, DSTEP, SSTEP)                                                                     \
    do {                                                                                                       \
        MPI_Count r_ = 0;                                                                                      \
        for (; r_ + 4 <= reps; r_ += 4, DST += 4 * (DSTEP), SRC += 4 * (SSTEP)) {                              \
            memcpy(DST, SRC, N);                                                                               \
            memcpy(DST + (DSTEP), SRC + (SSTEP), N);                                                           \
            memcpy(DST + 2 * (DSTEP), SRC + 2 * (SSTEP), N);                                                   \
            memcpy(DST + 3 * (DSTEP), SRC + 3 * (SSTEP), N);                                                   \
        }                                                                                                      \
        for (; r_ < reps; r_++, DST += (DSTEP), SRC += (SSTEP))                                                \
            memcpy(DST, SRC, N);                                                                               \
    } while (0)

/* One run of any length: up to 32 bytes with two overlapping fixed-size moves (a struct's fields, say),
 * longer ones with memcpy. */
static inline void run_copy(char *dst, const char *src, MPI_Count len)
{
    if (len > 32) {
        memcpy(dst, src, (size_t)len);
    } else if (len >= 16) {
        char a[16], b[16];
        memcpy(a, src, 16);
        memcpy(b, src + len - 16, 16);
        memcpy(dst, a, 16);
        memcpy(dst + len - 16, b, 16);
    } else if (len >= 8) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + len - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + len - 8, &b, 8);
    } else if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + len - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + len - 4, &b, 4);
    } else {
        for (MPI_Count i = 0; i < len; i++)
            dst[i] = src[i];
    }
}

static inline void gather(char *dst, const char *src, MPI_Count len, MPI_Count reps, MPI_Aint stride)
{
    switch (len) {
    case 4:
        STRIDED(4, dst, src, 4, stride);
        return;
    case 8:
        STRIDED(8, dst, src, 8, stride);
        return;
    case 16:
        STRIDED(16, dst, src, 16, stride);
        return;
    default:
        for (MPI_Count r = 0; r < reps; r++, src += stride, dst += len)
            run_copy(dst, src, len);
    }
}

/* Contiguous `src` -> `reps` runs of `len` bytes `stride` apart at `dst`. */
static inline void scatter(char *dst, const char *src, MPI_Count len, MPI_Count reps, MPI_Aint stride)
{
    switch (len) {
    case 4:
        STRIDED(4, dst, src, stride, 4);
        return;
    case 8:
        STRIDED(8, dst, src, stride, 8);
        return;
    case 16:
        STRIDED(16, dst, src, stride, 16);
        return;
    default:
        for (MPI_Count r = 0; r < reps; r++, dst += stride, src += len)
            run_copy(dst, src, len);
    }
}

/* ---- cursor: a position in the data of (buf, count, dt) ---- */

typedef struct cursor {
    char *base;
    const vmpi_dtype *dt;
    MPI_Count inst;
    MPI_Count grp;
    int blk;
    MPI_Count rep;
    MPI_Count off;
} cursor;

static void cursor_init(cursor *c, const void *buf, const vmpi_dtype *dt)
{
    c->base = (char *)buf;
    c->dt = dt;
    c->inst = 0;
    c->grp = 0;
    c->blk = 0;
    c->rep = 0;
    c->off = 0;
}

/* The next contiguous run of at most `max` bytes; advances past it. */
static char *cursor_next(cursor *c, MPI_Count max, MPI_Count *len)
{
    const vmpi_dtype *dt = c->dt;
    const vmpi_dtype_block *b = &dt->blocks[c->blk];
    char *p = c->base + c->inst * dt->extent + c->grp * dt->group_stride + b->disp + c->rep * b->stride + c->off;
    MPI_Count n = b->len - c->off;
    if (n > max)
        n = max;
    c->off += n;
    if (c->off == b->len) {
        c->off = 0;
        if (++c->rep == b->reps) {
            c->rep = 0;
            if (++c->blk == dt->nblocks) {
                c->blk = 0;
                if (++c->grp >= vmpi_dtype_groups(dt)) {
                    c->grp = 0;
                    c->inst++;
                }
            }
        }
    }
    *len = n;
    return p;
}

/* Whole instances of (buf, count, dt) to / from contiguous memory, block by block. */
static void pack_whole(const char *buf, MPI_Count count, const vmpi_dtype *dt, char *out)
{
    MPI_Count ng = vmpi_dtype_groups(dt);
    for (MPI_Count i = 0; i < count; i++, buf += dt->extent)
        for (MPI_Count g = 0; g < ng; g++) {
            const char *gb = buf + g * dt->group_stride;
            for (int k = 0; k < dt->nblocks; k++) {
                const vmpi_dtype_block *b = &dt->blocks[k];
                gather(out, gb + b->disp, b->len, b->reps, b->stride);
                out += b->len * b->reps;
            }
        }
}

void vmpi_dtype_each_run(void *buf, MPI_Count count, const vmpi_dtype *dt, vmpi_dtype_run_fn *fn, void *arg)
{
    MPI_Count ng = vmpi_dtype_groups(dt);
    char *p = buf;
    for (MPI_Count i = 0; i < count; i++, p += dt->extent)
        for (MPI_Count g = 0; g < ng; g++) {
            char *gb = p + g * dt->group_stride;
            for (int k = 0; k < dt->nblocks; k++) {
                const vmpi_dtype_block *b = &dt->blocks[k];
                for (MPI_Count r = 0; r < b->reps; r++)
                    fn(gb + b->disp + r * b->stride, b->len, arg);
            }
        }
}

static void unpack_whole(const char *in, char *buf, MPI_Count count, const vmpi_dtype *dt)
{
    MPI_Count ng = vmpi_dtype_groups(dt);
    for (MPI_Count i = 0; i < count; i++, buf += dt->extent)
        for (MPI_Count g = 0; g < ng; g++) {
            char *gb = buf + g * dt->group_stride;
            for (int k = 0; k < dt->nblocks; k++) {
                const vmpi_dtype_block *b = &dt->blocks[k];
                scatter(gb + b->disp, in, b->len, b->reps, b->stride);
                in += b->len * b->reps;
            }
        }
}

MPI_Count vmpi_dtype_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out, MPI_Count max)
{
    MPI_Count total = count * dt->size;
    if (total > max)
        total = max;
    if (total == 0)
        return 0;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->blocks[0].disp, (size_t)total);
        return total;
    }
    MPI_Count whole = total / dt->size;
    pack_whole(buf, whole, dt, out);
    MPI_Count done = whole * dt->size;
    if (done < total) { /* a partial last instance */
        cursor c;
        cursor_init(&c, (const char *)buf + whole * dt->extent, dt);
        while (done < total) {
            MPI_Count n;
            char *p = cursor_next(&c, total - done, &n);
            memcpy((char *)out + done, p, (size_t)n);
            done += n;
        }
    }
    return total;
}

MPI_Count vmpi_dtype_unpack(const void *in, MPI_Count bytes, void *buf, MPI_Count count, const vmpi_dtype *dt)
{
    MPI_Count total = count * dt->size;
    if (total > bytes)
        total = bytes;
    if (total == 0)
        return 0;
    if (dt->contig) {
        memcpy((char *)buf + dt->blocks[0].disp, in, (size_t)total);
        return total;
    }
    MPI_Count whole = total / dt->size;
    unpack_whole(in, buf, whole, dt);
    MPI_Count done = whole * dt->size;
    if (done < total) {
        cursor c;
        cursor_init(&c, (char *)buf + whole * dt->extent, dt);
        while (done < total) {
            MPI_Count n;
            char *p = cursor_next(&c, total - done, &n);
            memcpy(p, (const char *)in + done, (size_t)n);
            done += n;
        }
    }
    return total;
}

/* Whether two types place their data identically (the same type, or a dup of it, say). */
static bool same_layout(const vmpi_dtype *a, const vmpi_dtype *b)
{
    if (a == b)
        return true;
    MPI_Count ng = vmpi_dtype_groups(a);
    return a->extent == b->extent && a->nblocks == b->nblocks && ng == vmpi_dtype_groups(b) &&
           (ng == 1 || a->group_stride == b->group_stride) &&
           memcmp(a->blocks, b->blocks, sizeof *a->blocks * (size_t)a->nblocks) == 0;
}

/* `count` whole instances between two buffers of the same layout: each run copied in place, no cursor. */
static void copy_same(const char *src, char *dst, MPI_Count count, const vmpi_dtype *dt)
{
    MPI_Count ng = vmpi_dtype_groups(dt);
    for (MPI_Count i = 0; i < count; i++, src += dt->extent, dst += dt->extent)
        for (MPI_Count g = 0; g < ng; g++)
            for (int k = 0; k < dt->nblocks; k++) {
                const vmpi_dtype_block *b = &dt->blocks[k];
                const char *sp = src + g * dt->group_stride + b->disp;
                char *dp = dst + g * dt->group_stride + b->disp;
                MPI_Count reps = b->reps;
                switch (b->len) {
                case 4:
                    STRIDED(4, dp, sp, b->stride, b->stride);
                    break;
                case 8:
                    STRIDED(8, dp, sp, b->stride, b->stride);
                    break;
                default:
                    for (MPI_Count r = 0; r < reps; r++, sp += b->stride, dp += b->stride)
                        run_copy(dp, sp, b->len);
                }
            }
}

MPI_Count vmpi_dtype_copy(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                          const vmpi_dtype *rdt)
{
    MPI_Count sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    MPI_Count total = sbytes < rbytes ? sbytes : rbytes;
    if (total == 0)
        return 0;
    if (sdt->contig && rdt->contig) {
        memcpy((char *)rbuf + rdt->blocks[0].disp, (const char *)sbuf + sdt->blocks[0].disp, (size_t)total);
        return total;
    }
    if (rdt->contig) /* one side contiguous: a pack or an unpack */
        return vmpi_dtype_pack(sbuf, scount, sdt, (char *)rbuf + rdt->blocks[0].disp, total);
    if (sdt->contig)
        return vmpi_dtype_unpack((const char *)sbuf + sdt->blocks[0].disp, total, rbuf, rcount, rdt);
    MPI_Count done = 0;
    if (same_layout(sdt, rdt)) { /* a halo exchange's column type on both sides, say */
        MPI_Count whole = total / sdt->size;
        copy_same(sbuf, rbuf, whole, sdt);
        done = whole * sdt->size;
        sbuf = (const char *)sbuf + whole * sdt->extent;
        rbuf = (char *)rbuf + whole * rdt->extent;
    }
    cursor s, r;
    cursor_init(&s, sbuf, sdt);
    cursor_init(&r, rbuf, rdt);
    MPI_Count slen = 0, rlen = 0;
    char *sp = NULL, *rp = NULL;
    while (done < total) {
        if (slen == 0)
            sp = cursor_next(&s, total - done, &slen);
        if (rlen == 0)
            rp = cursor_next(&r, total - done, &rlen);
        MPI_Count n = slen < rlen ? slen : rlen;
        memcpy(rp, sp, (size_t)n);
        sp += n, rp += n, slen -= n, rlen -= n, done += n;
    }
    return total;
}

/* Size and basic elements of one group (the element runs describe one group). */
static void group_of(const vmpi_dtype *dt, MPI_Count *size, MPI_Count *nelems)
{
    MPI_Count ng = vmpi_dtype_groups(dt);
    *size = dt->size / ng;
    *nelems = dt->nelems / ng;
}

MPI_Count vmpi_dtype_elements(const vmpi_dtype *dt, MPI_Count bytes)
{
    MPI_Count gsize, gelems;
    group_of(dt, &gsize, &gelems);
    if (gsize == 0)
        return bytes == 0 ? 0 : MPI_UNDEFINED;
    MPI_Count n = (bytes / gsize) * gelems;
    MPI_Count rem = bytes % gsize;
    for (int i = 0; i < dt->nelems_runs && rem > 0; i++) {
        const vmpi_dtype_elems *e = &dt->elems[i];
        MPI_Count whole = rem / e->esize;
        if (whole >= e->n) {
            n += e->n;
            rem -= e->n * e->esize;
        } else {
            n += whole;
            rem -= whole * e->esize;
            break;
        }
    }
    return rem == 0 ? n : MPI_UNDEFINED;
}

MPI_Count vmpi_dtype_elements_bytes(const vmpi_dtype *dt, MPI_Count n)
{
    MPI_Count gsize, gelems;
    group_of(dt, &gsize, &gelems);
    if (gelems == 0)
        return 0;
    MPI_Count bytes = (n / gelems) * gsize;
    MPI_Count rem = n % gelems;
    for (int i = 0; i < dt->nelems_runs && rem > 0; i++) {
        const vmpi_dtype_elems *e = &dt->elems[i];
        MPI_Count k = rem < e->n ? rem : e->n;
        bytes += k * e->esize;
        rem -= k;
    }
    return bytes;
}
