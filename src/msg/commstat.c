/* SPDX-License-Identifier: BSD-3-Clause */
#include "msg/commstat.h"

#include <stdlib.h>
#include <string.h>
#include "base/sysmem.h"

bool vmpi_commstat_on_;

void vmpi_commstat_track(bool on) { vmpi_commstat_on_ = on; }

/* Mixed so that the low bits (the table index) depend on every bit of the rank: neighbours r +- 64 of a
 * stencil must not collide. */
static unsigned hash(int key)
{
    unsigned h = (unsigned)key * 0x9e3779b1u;
    return h ^ (h >> 16);
}

static bool grow(vmpi_commstat *st)
{
    int cap = st->cap ? 2 * st->cap : 16;
    /* system memory: the table grows on whichever PE sends for the rank, in a handler maybe while another rank
     * runs there (malloc would take that rank's slot, which may leave the process) */
    vmpi_commstat bigger = {vmpi_sys_calloc((size_t)cap, sizeof(int)), vmpi_sys_calloc((size_t)cap, sizeof(double)),
                            vmpi_sys_calloc((size_t)cap, sizeof(unsigned)), cap, 0};
    if (!bigger.dst || !bigger.bytes || !bigger.msgs) {
        vmpi_commstat_free(&bigger);
        return false;
    }
    for (int i = 0; i < st->cap; i++) {
        if (st->dst[i] == 0)
            continue;
        unsigned h = hash(st->dst[i]) & (unsigned)(cap - 1);
        while (bigger.dst[h])
            h = (h + 1) & (unsigned)(cap - 1);
        bigger.dst[h] = st->dst[i];
        bigger.bytes[h] = st->bytes[i];
        bigger.msgs[h] = st->msgs[i];
        bigger.n++;
    }
    vmpi_commstat_free(st);
    *st = bigger;
    return true;
}

void vmpi_commstat_add(vmpi_commstat *st, int dst, double bytes)
{
    if (2 * (st->n + 1) > st->cap && !grow(st))
        return;
    int key = dst + 1;
    unsigned h = hash(key) & (unsigned)(st->cap - 1);
    while (st->dst[h] && st->dst[h] != key)
        h = (h + 1) & (unsigned)(st->cap - 1);
    if (st->dst[h] == 0) {
        st->dst[h] = key;
        st->n++;
    }
    st->bytes[h] += bytes;
    st->msgs[h]++;
}

void vmpi_commstat_each(const vmpi_commstat *st, void (*fn)(void *arg, int dst, double bytes, unsigned msgs),
                        void *arg)
{
    for (int i = 0; i < st->cap; i++)
        if (st->dst[i])
            fn(arg, st->dst[i] - 1, st->bytes[i], st->msgs[i]);
}

void vmpi_commstat_reset(vmpi_commstat *st)
{
    if (st->cap == 0)
        return;
    memset(st->dst, 0, sizeof(int) * (size_t)st->cap);
    memset(st->bytes, 0, sizeof(double) * (size_t)st->cap);
    memset(st->msgs, 0, sizeof(unsigned) * (size_t)st->cap);
    st->n = 0;
}

void vmpi_commstat_free(vmpi_commstat *st)
{
    vmpi_sys_free(st->dst);
    vmpi_sys_free(st->bytes);
    vmpi_sys_free(st->msgs);
    memset(st, 0, sizeof *st);
}
