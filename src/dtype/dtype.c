/* SPDX-License-Identifier: BSD-3-Clause */
#include <string.h>
#include "dtype/dtype.h"

/* A position in the data of (buf, count, dt): instance, block and offset within the block. */
typedef struct cursor {
    char *base;
    const vmpi_dtype *dt;
    MPI_Count left;     /* bytes of data not yet visited */
    MPI_Count inst;
    int blk;
    MPI_Count off;
} cursor;

static void cursor_init(cursor *c, const void *buf, MPI_Count count, const vmpi_dtype *dt)
{
    c->base = (char *)buf;
    c->dt = dt;
    c->left = count * dt->size;
    c->inst = 0;
    c->blk = 0;
    c->off = 0;
}

/* The next contiguous run of at most `max` bytes; advances past it. */
static char *cursor_next(cursor *c, MPI_Count max, MPI_Count *len)
{
    const vmpi_dtype *dt = c->dt;
    const vmpi_dtype_block *b = &dt->blocks[c->blk];
    char *p = c->base + c->inst * dt->extent + b->disp + c->off;
    MPI_Count n = b->len - c->off;
    if (n > max)
        n = max;
    c->off += n;
    c->left -= n;
    if (c->off == b->len) {
        c->off = 0;
        if (++c->blk == dt->nblocks) {
            c->blk = 0;
            c->inst++;
        }
    }
    *len = n;
    return p;
}

MPI_Count vmpi_dtype_copy(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                          const vmpi_dtype *rdt)
{
    MPI_Count sbytes = scount * sdt->size, rbytes = rcount * rdt->size;
    MPI_Count total = sbytes < rbytes ? sbytes : rbytes;
    if (total == 0)
        return 0;
    if (sdt->contig && rdt->contig) {
        memcpy((char *)rbuf + rdt->lb, (const char *)sbuf + sdt->lb, (size_t)total);
        return total;
    }
    cursor s, r;
    cursor_init(&s, sbuf, scount, sdt);
    cursor_init(&r, rbuf, rcount, rdt);
    MPI_Count done = 0, slen = 0, rlen = 0;
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

MPI_Count vmpi_dtype_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out, MPI_Count max)
{
    MPI_Count total = count * dt->size;
    if (total > max)
        total = max;
    if (total == 0)
        return 0;
    if (dt->contig) {
        memcpy(out, (const char *)buf + dt->lb, (size_t)total);
        return total;
    }
    cursor c;
    cursor_init(&c, buf, count, dt);
    MPI_Count done = 0;
    while (done < total) {
        MPI_Count n;
        char *p = cursor_next(&c, total - done, &n);
        memcpy((char *)out + done, p, (size_t)n);
        done += n;
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
        memcpy((char *)buf + dt->lb, in, (size_t)total);
        return total;
    }
    cursor c;
    cursor_init(&c, buf, count, dt);
    MPI_Count done = 0;
    while (done < total) {
        MPI_Count n;
        char *p = cursor_next(&c, total - done, &n);
        memcpy(p, (const char *)in + done, (size_t)n);
        done += n;
    }
    return total;
}

MPI_Count vmpi_dtype_elements(const vmpi_dtype *dt, MPI_Count bytes)
{
    if (dt->size == 0)
        return bytes == 0 ? 0 : MPI_UNDEFINED;
    MPI_Count n = (bytes / dt->size) * dt->nelems;
    MPI_Count rem = bytes % dt->size;
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
