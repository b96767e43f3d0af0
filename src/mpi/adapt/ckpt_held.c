/* SPDX-License-Identifier: BSD-3-Clause */
/* The messages a rank matched with MPI_Mprobe and has not received (its CK_HELD record): their envelopes are
 * the messaging layer's, outside the slot, so they are written as (request index, message) pairs and each
 * request gets a fresh envelope where the rank comes back (a restart, or another process it moves to). */
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "mpi/adapt/adapt.h"
#include "mpi/core/rank.h"

/* Request i of `t` when it holds a message matched by MPI_Mprobe and not received yet, else NULL. */
static const vmpi_mreq *held_at(const vmpi_req_table *t, int i)
{
    const vmpi_mreq *m = &t->chunks[i / VMPI_REQ_CHUNK][i % VMPI_REQ_CHUNK];
    return m->type == VMPI_MREQ_RECV && m->ptr != NULL && !m->r.complete ? m : NULL;
}

char *vmpi_adapt_held_save(const vmpi_rank *rk, size_t *len)
{
    const vmpi_req_table *t = &rk->reqs;
    int nreq = t->nchunks * VMPI_REQ_CHUNK;
    size_t n = 0;
    for (int i = 0; i < nreq; i++)
        if (held_at(t, i))
            n += sizeof(int32_t) + vmpi_msg_env_saved_size(held_at(t, i)->ptr);
    *len = n;
    if (n == 0)
        return NULL;
    char *buf = vmpi_sys_malloc(n), *p = buf;
    if (buf == NULL)
        vmpi_fatal("out of memory saving rank %d's matched messages", rk->world_rank);
    for (int32_t i = 0; i < nreq; i++) {
        const vmpi_mreq *m = held_at(t, i);
        if (m == NULL)
            continue;
        memcpy(p, &i, sizeof i);
        vmpi_msg_env_save(m->ptr, p + sizeof i);
        p += sizeof i + vmpi_msg_env_saved_size(m->ptr);
    }
    return buf;
}

void vmpi_adapt_held_drop(vmpi_rank *rk)
{
    vmpi_req_table *t = &rk->reqs;
    int nreq = t->nchunks * VMPI_REQ_CHUNK;
    for (int i = 0; i < nreq; i++)
        if (held_at(t, i)) {
            vmpi_mreq *m = &t->chunks[i / VMPI_REQ_CHUNK][i % VMPI_REQ_CHUNK];
            vmpi_msg_env_discard(m->ptr);
            m->ptr = NULL;
        }
}

void vmpi_adapt_held_portable(vmpi_rank *rk, bool (*leaving)(int world_rank))
{
    vmpi_req_table *t = &rk->reqs;
    int nreq = t->nchunks * VMPI_REQ_CHUNK;
    for (int i = 0; i < nreq; i++)
        if (held_at(t, i)) {
            vmpi_mreq *m = &t->chunks[i / VMPI_REQ_CHUNK][i % VMPI_REQ_CHUNK];
            vmpi_env *e = m->ptr, *p = vmpi_msg_env_portable(e, leaving);
            if (p != e) {
                m->ptr = p;
                vmpi_msg_env_discard(e);
            }
        }
}

bool vmpi_adapt_held_load(vmpi_rank *rk, const char *buf, size_t len)
{
    vmpi_req_table *t = &rk->reqs;
    for (const char *p = buf, *end = buf + len; p < end;) {
        int32_t idx;
        size_t used;
        vmpi_env *e = NULL;
        if ((size_t)(end - p) >= sizeof idx) {
            memcpy(&idx, p, sizeof idx);
            e = vmpi_msg_env_load(p + sizeof idx, (size_t)(end - p) - sizeof idx, &used);
        }
        if (e == NULL || idx < 0 || idx / VMPI_REQ_CHUNK >= t->nchunks ||
            t->chunks[idx / VMPI_REQ_CHUNK][idx % VMPI_REQ_CHUNK].type != VMPI_MREQ_RECV)
            return false;
        t->chunks[idx / VMPI_REQ_CHUNK][idx % VMPI_REQ_CHUNK].ptr = e;
        p += sizeof idx + used;
    }
    return true;
}
