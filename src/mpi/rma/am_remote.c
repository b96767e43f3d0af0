/* SPDX-License-Identifier: BSD-3-Clause */
/* Active messages to a target of another process (am.h's staged path, between processes): the origin packs
 * units of whole segments in the target's input layout into messages (at most a quarter of the transport's
 * largest, with room for the answer); a handler on the target rank's PE finds the target's registration,
 * checks that a segment could be staged there (the origin's system buffer or a user buffer attached at the
 * target), runs the handler on the message's bytes with the target's thread_locals and sends the output
 * (and MPIX_Amv's counts) back, addressed by the origin's call record.  The origin blocks until every unit
 * is answered: the output is in place and a target's error is the call's, as on the local paths.
 * Not yet: the paper's buffer protocol between processes (user-buffer reservations, views, claims); the
 * segments are staged in the handler's own memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/spin.h"
#include "base/sysmem.h"
#include "mpi/rma/am_impl.h"
#include "mpi/rma/remote.h"
#include "sched/sched.h"
#include "xport/xport.h"

typedef struct am_hdr {
    uint64_t tw, pbuf, cookie;  /* the target's vmpi_win and persistent buffer; the origin's call record */
    int64_t sin, sout, sysbuf;  /* bytes of a segment's input and output at the target; origin's system buffer */
    int32_t target, origin, op, vector;
    int32_t in_count, out_count, pcount, k;
    int32_t first, tin_h, tout_h, pdt_h;
    double threshold;           /* MPIX_Amv: pack the generated elements below this fraction... */
    int64_t esize;              /* ...of this size, when the output layout is contiguous (0: never) */
} am_hdr;

typedef struct am_ans {
    uint64_t cookie;
    int32_t first, k, err, packed; /* packed: only the generated elements follow the counts */
    uint64_t len;               /* bytes after the counts */
} am_ans;

/* The origin's call, on its stack while it waits. */
typedef struct am_call {
    const vmpi_am_args *a;
    vmpi_am_win *am;
    vmpi_vp *vp;
    int left, err;
    MPI_Aint sin, sout;
} am_call;

static uint32_t id_am, id_ans;

static size_t counts_bytes(int k, bool vector) { return vector ? ((size_t)k * sizeof(int) + 7) & ~(size_t)7 : 0; }

/* ---- at the target ---- */

static void reply(const am_hdr *h, int err, const char *body, size_t len, bool packed)
{
    int pe = vmpi_loc_pe(h->origin);
    am_ans a = {h->cookie, h->first, h->k, err, packed, len};
    vmpi_xport_am_send_hdr(vmpi_xport_remote(pe), pe, id_ans, &a, sizeof a, body, len);
}

/* The largest part of a user buffer attached at the target that no origin claimed. */
static MPI_Aint user_room(vmpi_win_target *t)
{
    MPI_Aint room = 0;
    vmpi_spin_lock(&t->guard);
    for (int i = 0; i < t->nubufs; i++)
        if (t->ubufs[i].size - t->ubufs[i].claimed > room)
            room = t->ubufs[i].size - t->ubufs[i].claimed;
    vmpi_spin_unlock(&t->guard);
    return room;
}

static void on_am(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    am_hdr h;
    memcpy(&h, msg, sizeof h);
    if (vmpi_xport_proc_of_pe(vmpi_loc_pe(h.target)) != vmpi_xport_proc_of_pe(pe->id))
        vmpi_fatal("internal error: an active message for rank %d arrived on PE %d of another process", h.target,
                   pe->id);
    vmpi_win *tw = (vmpi_win *)(uintptr_t)h.tw;
    vmpi_win_target *t = &tw->sh->t[tw->rank];
    vmpi_rank *tr = vmpi_rank_get(h.target);
    am_entry *e = vmpi_am_entry(tr, h.op);
    if (e == NULL || e->vector != (h.vector != 0)) {
        reply(&h, MPI_ERR_ARG, NULL, 0, false);
        return;
    }
    if (h.sin + h.sout > h.sysbuf && h.sin + h.sout > user_room(t)) {
        reply(&h, MPI_ERR_BUFFER, NULL, 0, false);
        return;
    }
    size_t cb = counts_bytes(h.k, h.vector), ob = (size_t)(h.k * h.sout);
    char *body = vmpi_sys_malloc(cb + ob + 1);
    if (body == NULL)
        vmpi_fatal("out of memory running an active message");
    vmpi_am_args a = {.in_count = h.in_count, .tin_h = h.tin_h, .out_count = h.out_count, .tout_h = h.tout_h,
                      .pcount = h.pcount, .pdt_h = h.pdt_h, .nseg = h.k};
    vmpi_am_invoke(tr, t, e, (char *)(uintptr_t)h.pbuf, &a, (char *)msg + sizeof h, body + cb, h.k,
                   h.vector ? (int *)body : NULL);
    bool packed = false;
    if (h.vector && h.esize > 0) { /* MPIX_Amv: only what was generated, when it is little enough */
        const int *counts = (const int *)body;
        int64_t gen = 0;
        for (int s = 0; s < h.k; s++)
            gen += counts[s];
        if (h.out_count > 0 && (double)gen / ((double)h.k * h.out_count) < h.threshold) {
            char *to = body + cb;
            for (int s = 0; s < h.k; s++) { /* in place: each segment moves down, never up */
                memmove(to, body + cb + s * h.sout, (size_t)(counts[s] * h.esize));
                to += counts[s] * h.esize;
            }
            ob = (size_t)(to - (body + cb));
            packed = true;
        }
    }
    reply(&h, MPI_SUCCESS, body, cb + ob, packed);
    vmpi_sys_free(body);
}

/* ---- at the origin ---- */

static void on_ans(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    am_ans r;
    memcpy(&r, msg, sizeof r);
    am_call *c = (am_call *)(uintptr_t)r.cookie;
    const vmpi_am_args *a = c->a;
    if (r.err) {
        if (!c->err)
            c->err = r.err;
    } else {
        const char *body = (const char *)msg + sizeof r;
        const int *counts = (const int *)body;
        const char *out = body + counts_bytes(r.k, a->counts != NULL);
        MPI_Aint ssout = (MPI_Aint)a->out_count * a->out_dt->extent;
        for (int s = 0; s < r.k; s++) {
            int n = a->counts ? counts[s] : a->out_count;
            char *to = (char *)a->out + (r.first + s) * ssout;
            if (r.packed)
                out += vmpi_dtype_unpack(out, n * a->out_dt->size, to, n, a->out_dt);
            else
                vmpi_dtype_copy(out + s * c->sout, n, a->tout_dt, to, n, a->out_dt);
            if (a->counts)
                a->counts[r.first + s] = n;
        }
        c->am->st.invocations++;
        c->am->st.staged_in_bytes += r.k * c->sin;
        c->am->st.staged_out_bytes += r.k * c->sout;
        c->am->st.returned_bytes += (r.packed ? (MPI_Aint)(r.len - counts_bytes(r.k, true)) : r.k * c->sout) +
                                    (a->counts ? r.k * (MPI_Aint)sizeof(int) : 0);
    }
    c->left--;
    vmpi_vp_wake(c->vp);
}

int vmpi_am_remote(vmpi_win *w, vmpi_am_win *am, const vmpi_am_args *a, char *why)
{
    if (a->in_dt->size != a->tin_dt->size || a->out_dt->size != a->tout_dt->size) {
        snprintf(why, 160, "the origin's and the target's %s segments differ in size",
                 a->in_dt->size != a->tin_dt->size ? "input" : "output");
        return MPI_ERR_TYPE;
    }
    vmpi_rma_side p = {NULL, a->pcount, a->pdt};
    char *pbuf;
    int err = vmpi_rma_remote_addr(w, a->rank, a->pdisp, &p, &pbuf, why);
    if (err)
        return err;
    const vmpi_rma_peer *peer = &w->rm->peer[a->rank];
    int pe = vmpi_loc_pe(peer->world);
    MPI_Aint sin = (MPI_Aint)a->in_count * a->tin_dt->extent, sout = (MPI_Aint)a->out_count * a->tout_dt->extent;
    MPI_Aint ssin = (MPI_Aint)a->in_count * a->in_dt->extent;
    MPI_Aint room = (MPI_Aint)(vmpi_xport_am_max(vmpi_xport_remote(pe)) / 4) - (MPI_Aint)sizeof(am_hdr) - 8;
    MPI_Aint per = sin > sout + (MPI_Aint)sizeof(int) ? sin : sout + (MPI_Aint)sizeof(int);
    am->st.ams++;
    if (a->nseg == 0)
        return MPI_SUCCESS;
    if (per > room) {
        snprintf(why, 160, "a segment of %td bytes of input and %td of output is larger than the messages to "
                 "another process (%td bytes)", sin, sout, room);
        return MPI_ERR_BUFFER;
    }
    int kmax = per > 0 ? (int)(room / per) : a->nseg;
    if (am->staged && am->max_unit > 0 && kmax > am->max_unit) /* the staged path's test hints */
        kmax = am->max_unit;
    double threshold = am->threshold >= 0 ? am->threshold : 1.0 - 800.0 / (double)(sout > 0 ? sout : 1);
    int64_t esize = a->tout_dt->size == a->tout_dt->extent && (a->tout_dt->contig || a->tout_dt->builtin)
                        ? (int64_t)a->tout_dt->size : 0;
    char *in = malloc((size_t)(kmax * sin) + 1);
    if (in == NULL)
        return MPI_ERR_NO_MEM;
    am_call c = {a, am, vmpi_vp_self(), 0, MPI_SUCCESS, sin, sout};
    int nunits = (a->nseg + kmax - 1) / kmax;
    for (int u = 0; u < nunits; u++) {
        int first = (am->staged && am->reverse ? nunits - 1 - u : u) * kmax;
        int k = a->nseg - first < kmax ? a->nseg - first : kmax;
        vmpi_dtype_copy((const char *)a->in + first * ssin, (MPI_Count)k * a->in_count, a->in_dt, in,
                        (MPI_Count)k * a->in_count, a->tin_dt);
        am_hdr h = {peer->win, (uint64_t)(uintptr_t)pbuf, (uint64_t)(uintptr_t)&c, sin, sout, am->sysbuf, peer->world,
                    vmpi_vp_self()->id, a->op, a->counts != NULL, a->in_count, a->out_count, a->pcount, k, first,
                    a->tin_h, a->tout_h, a->pdt_h, threshold, esize};
        c.left++;
        vmpi_xport_am_send_hdr(vmpi_xport_remote(pe), pe, id_am, &h, sizeof h, in, (size_t)(k * sin));
    }
    free(in);
    while (c.left > 0)
        vmpi_vp_block("MPIX_Am (a target of another process)");
    if (c.err == MPI_ERR_ARG)
        snprintf(why, 160, "handler 0x%x is not registered at rank %d (or not as %s)", (unsigned)a->op, a->rank,
                 a->counts ? "MPIX_Amv_op_create" : "MPIX_Am_op_create");
    else if (c.err == MPI_ERR_BUFFER)
        snprintf(why, 160, "a %td-byte segment fits neither the %td-byte system buffer nor a user buffer at rank %d",
                 sin + sout, am->sysbuf, a->rank);
    return c.err;
}

void vmpi_am_remote_init(void)
{
    id_am = vmpi_xport_am_register(on_am);
    id_ans = vmpi_xport_am_register(on_ans);
}
