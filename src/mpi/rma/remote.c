/* SPDX-License-Identifier: BSD-3-Clause */
/* The remote way's operations (remote.h).  A message carries a header, the target runs (address, units)
 * and the origin's data; a handler on the target rank's PE applies it to the target's memory through the
 * target's own window state (atomic.h, as a local origin there would) and answers.  Messages are at most a
 * quarter of the transport's largest: a long operation goes in chunks, each answered, and a get's or fetch's
 * answers land at their offsets in one buffer that is unpacked into the origin's layout when the last is in.
 * Memory a handler frees or a rank frees after a handler is the system's (a handler may run inside any
 * rank's context).
 * An accumulate's message is applied as one whole operation (apply_acc: one bulk hold over all its runs), so
 * it is atomic with respect to local origins and other messages.  Not yet: an accumulate too long for one
 * message is atomic per chunk only (whole-operation atomicity would need the chunks staged at the target and
 * applied together). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "mpi/core/group.h"
#include "mpi/rma/am_impl.h"
#include "mpi/rma/atomic.h"
#include "mpi/rma/far.h"
#include "mpi/rma/remote.h"
#include "sched/sched.h"
#include "xport/xport.h"

enum { K_PUT, K_GET, K_ACC, K_CAS };

typedef struct op_hdr {
    uint64_t tw, rm, rec, off; /* the target's vmpi_win; the origin's state, answer record, answer offset */
    int32_t target, origin;    /* world ranks */
    int32_t peer, kind;        /* the target's rank in the window */
    int32_t op, basic;         /* accumulates */
    uint32_t nruns, unit;      /* runs; data bytes per unit */
} op_hdr;
typedef struct op_run {
    uint64_t addr, n;          /* n units at addr: bytes, or elements of an accumulate */
} op_run;

/* Where a get's or fetch's answer goes, once all of it is in. */
typedef struct ans_rec {
    char *buf;
    uint64_t left;             /* chunks not answered */
    vmpi_rma_side o;           /* the origin's layout (its type retained) */
    MPI_Count bytes, n;
    int basic;                 /* 0: packed bytes; else n elements of this type */
} ans_rec;

static uint32_t id_op, id_ans;

int vmpi_rma_remote_open(vmpi_win *w, const vmpi_rma_pub *all)
{
    if (vmpi_xport_nprocs() == 1)
        return MPI_SUCCESS;
    vmpi_rma_remote *rm = calloc(1, sizeof *rm);
    vmpi_rma_peer *p = rm ? calloc((size_t)w->size, sizeof *p) : NULL;
    if (p == NULL) {
        free(rm);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < w->size; r++) /* the creation-time exchange (win.c), by message */
        p[r] = (vmpi_rma_peer){all[r].win, (char *)(uintptr_t)all[r].base, all[r].size, all[r].disp_unit,
                               w->comm->group->world[r], all[r].lock, all[r].target, 0};
    rm->peer = p;
    w->rm = rm;
    return MPI_SUCCESS;
}

void vmpi_rma_remote_close(vmpi_win *w)
{
    if (w->rm == NULL)
        return;
    free(w->rm->known);
    free(w->rm->peer);
    free(w->rm);
    w->rm = NULL;
}

/* The target address, range-checked against the creation-time copy.  A dynamic window's attached memory is
 * checked at the target: operations on dynamic windows wait for their answer, so that a range error is the
 * call's, as on the local way. */
int vmpi_rma_remote_addr(vmpi_win *w, int rank, MPI_Aint disp, const vmpi_rma_side *t, char **addr, char *why)
{
    const vmpi_rma_peer *p = &w->rm->peer[rank];
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC) {
        *addr = (char *)disp;
        return MPI_SUCCESS;
    }
    MPI_Aint lo = 0, hi = 0, off; /* a large-count window's disp_unit may make it overflow: out of range */
    bool over = __builtin_mul_overflow(disp, p->disp_unit, &off);
    if (t->count > 0 && t->dt->size > 0) {
        MPI_Aint first = t->dt->true_lb, last = (MPI_Aint)(t->count - 1) * t->dt->extent + t->dt->true_lb;
        lo = first < last ? first : last;
        hi = (first > last ? first : last) + t->dt->true_extent;
    }
    *addr = over ? p->base : p->base + off;
    if (hi > lo && (over || off + lo < 0 || off + hi > p->size)) {
        snprintf(why, 160, "bytes [%td, %td) of rank %d's window of %td bytes (disp %td x disp_unit %td)", off + lo,
                 off + hi, rank, p->size, disp, p->disp_unit);
        return MPI_ERR_RMA_RANGE;
    }
    return MPI_SUCCESS;
}

/* ---- answers, at the origin ---- */

static void finish(ans_rec *r)
{
    if (r->basic)
        vmpi_dtype_copy(r->buf, r->n, vmpi_dtype_builtin(r->basic), r->o.buf, r->o.count, r->o.dt);
    else
        vmpi_dtype_unpack(r->buf, r->bytes, r->o.buf, r->o.count, r->o.dt);
    vmpi_dtype_release(r->o.dt);
    vmpi_sys_free(r->buf);
    vmpi_sys_free(r);
}

static void answered(vmpi_rma_remote *rm, int peer)
{
    rm->peer[peer].pending--;
    rm->pending--;
    if (rm->waiter)
        vmpi_vp_wake(rm->waiter);
}

static void on_ans(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    rma_ans a;
    memcpy(&a, msg, sizeof a);
    vmpi_rma_remote *rm = (vmpi_rma_remote *)(uintptr_t)a.rm;
    if (a.rec) {
        ans_rec *r = (ans_rec *)(uintptr_t)a.rec;
        memcpy(r->buf + a.off, (char *)msg + sizeof a, a.len);
        if (--r->left == 0)
            finish(r);
    }
    if (a.err && !rm->err)
        rm->err = a.err;
    answered(rm, a.peer);
}

static ans_rec *rec_new(const vmpi_rma_side *o, MPI_Count bytes, int basic, MPI_Count n)
{
    ans_rec *r = vmpi_sys_malloc(sizeof *r);
    char *buf = vmpi_sys_malloc(bytes > 0 ? (size_t)bytes : 1);
    if (r == NULL || buf == NULL)
        vmpi_fatal("out of memory for a %lld-byte one-sided answer", (long long)bytes);
    *r = (ans_rec){buf, 0, *o, bytes, n, basic};
    vmpi_dtype_retain(o->dt);
    return r;
}

/* ---- sending ---- */

typedef struct runs {
    op_run *r;
    size_t n, cap;
    MPI_Count per;             /* target bytes per unit */
    bool padded;               /* elements of a pair type with a gap (MPI_SHORT_INT): one run each */
    MPI_Count seen;            /* bytes of data so far */
} runs;

static void push_run(runs *rs, char *p, uint64_t n)
{
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? 2 * rs->cap : 16;
        rs->r = realloc(rs->r, sizeof *rs->r * rs->cap);
        if (rs->r == NULL)
            vmpi_fatal("out of memory flattening a target datatype");
    }
    rs->r[rs->n++] = (op_run){(uint64_t)(uintptr_t)p, n};
}

static void add_run(char *p, MPI_Count len, void *arg)
{
    runs *rs = arg;
    if (!rs->padded) { /* the datatype engine gives a contiguous layout block by block: one run */
        op_run *last = rs->n ? &rs->r[rs->n - 1] : NULL;
        if (last && last->addr + last->n * (uint64_t)rs->per == (uint64_t)(uintptr_t)p)
            last->n += (uint64_t)(len / rs->per);
        else
            push_run(rs, p, (uint64_t)(len / rs->per));
        return;
    }
    /* a run holds pieces of elements (the gap splits them, the next element's first member joins the last
     * one's): an element starts wherever the data seen so far is a multiple of its size */
    for (MPI_Count at = (rs->per - rs->seen % rs->per) % rs->per; at < len; at += rs->per)
        push_run(rs, p + at, 1);
    rs->seen += len;
}

typedef struct chunk {
    op_hdr h;
    const op_run *runs;
    const char *data;
    size_t dlen;
} chunk;

static void pack_chunk(void *dst, size_t len, void *arg)
{
    const chunk *c = arg;
    char *d = dst;
    memcpy(d, &c->h, sizeof c->h);
    d += sizeof c->h;
    memcpy(d, c->runs, sizeof *c->runs * c->h.nruns);
    if (c->dlen)
        memcpy(d + sizeof *c->runs * c->h.nruns, c->data, c->dlen);
}

static op_hdr hdr(vmpi_win *w, int rank, int kind, ans_rec *rec)
{
    const vmpi_rma_peer *p = &w->rm->peer[rank];
    return (op_hdr){.tw = p->win, .rm = (uint64_t)(uintptr_t)w->rm, .rec = (uint64_t)(uintptr_t)rec,
                    .target = p->world, .origin = w->comm->group->world[w->rank], .peer = rank, .kind = kind,
                    .unit = 1};
}

static void send(vmpi_win *w, int rank, chunk *c)
{
    int pe = vmpi_loc_pe(w->rm->peer[rank].world);
    w->rm->peer[rank].pending++;
    w->rm->pending++;
    if (c->h.rec)
        ((ans_rec *)(uintptr_t)c->h.rec)->left++;
    vmpi_xport_am_send(vmpi_xport_remote(pe), pe, id_op, sizeof c->h + sizeof *c->runs * c->h.nruns + c->dlen,
                       pack_chunk, c);
}

/* Sends runs `rs` in chunks of at most a quarter of the transport's largest message, each with its share
 * of the origin's data `in` (h.unit bytes per unit; NULL: none) and room for its answer. */
static void send_chunks(vmpi_win *w, int rank, op_hdr h, const runs *rs, const char *in)
{
    size_t room = vmpi_xport_am_max(vmpi_xport_remote(vmpi_loc_pe(h.target))) / 4 - sizeof(op_hdr);
    op_run *cr = malloc(room);
    if (cr == NULL)
        vmpi_fatal("out of memory sending a one-sided operation");
    size_t i = 0;
    uint64_t done = 0, off = 0; /* units of run i already sent; data offset */
    while (i < rs->n) {
        size_t k = 0, used = 0;
        uint64_t start = off;
        while (i < rs->n && used + sizeof(op_run) + h.unit <= room) {
            uint64_t fit = (room - used - sizeof(op_run)) / h.unit, left = rs->r[i].n - done;
            uint64_t take = left < fit ? left : fit;
            cr[k++] = (op_run){rs->r[i].addr + done * (uint64_t)rs->per, take};
            used += sizeof(op_run) + take * h.unit;
            off += take * h.unit;
            if ((done += take) < rs->r[i].n)
                break;
            i++;
            done = 0;
        }
        h.nruns = (uint32_t)k;
        h.off = start;
        chunk c = {h, cr, in ? in + start : NULL, in ? (size_t)(off - start) : 0};
        send(w, rank, &c);
    }
    free(cr);
}

typedef struct xfer_comp {
    vmpi_xport_comp c;
    vmpi_rma_remote *rm;
    int peer;
    char *tmp;                 /* a put's packed data */
    ans_rec *rec;              /* a get into a layout that is not contiguous */
} xfer_comp;

static void xfer_done(vmpi_xport_comp *c)
{
    xfer_comp *x = (xfer_comp *)c;
    if (x->rec)
        finish(x->rec);
    vmpi_sys_free(x->tmp);
    answered(x->rm, x->peer);
    vmpi_sys_free(x);
}

/* A contiguous target: the contract's put or get. */
static void xfer_contig(vmpi_win *w, bool put, const vmpi_rma_side *o, int rank, char *addr, MPI_Count bytes)
{
    int pe = vmpi_loc_pe(w->rm->peer[rank].world);
    vmpi_xport *x = vmpi_xport_remote(pe);
    xfer_comp *c = vmpi_sys_malloc(sizeof *c);
    if (c == NULL)
        vmpi_fatal("out of memory for a one-sided operation");
    *c = (xfer_comp){{xfer_done}, w->rm, rank, NULL, NULL};
    char *local = (char *)o->buf + o->dt->lb;
    if (!o->dt->contig) {
        if (put) {
            if ((c->tmp = vmpi_sys_malloc((size_t)bytes)) == NULL)
                vmpi_fatal("out of memory packing a %lld-byte put", (long long)bytes);
            vmpi_dtype_pack(o->buf, o->count, o->dt, c->tmp, bytes);
            local = c->tmp;
        } else {
            c->rec = rec_new(o, bytes, 0, 0);
            local = c->rec->buf;
        }
    }
    w->rm->peer[rank].pending++;
    w->rm->pending++;
    if (put)
        x->ops->put(x, pe, local, (uint64_t)(uintptr_t)addr, (size_t)bytes, &c->c);
    else
        x->ops->get(x, pe, local, (uint64_t)(uintptr_t)addr, (size_t)bytes, &c->c);
}

int vmpi_rma_remote_xfer(vmpi_win *w, bool put, const vmpi_rma_side *o, int rank, MPI_Aint disp,
                         const vmpi_rma_side *t, bool req, char *why)
{
    char *addr;
    int err = vmpi_rma_remote_addr(w, rank, disp, t, &addr, why);
    if (err)
        return err;
    MPI_Count bytes = t->count * t->dt->size;
    if (bytes == 0)
        return MPI_SUCCESS;
    vmpi_xport *x = vmpi_xport_remote(vmpi_loc_pe(w->rm->peer[rank].world));
    if (t->dt->contig && w->flavor != MPI_WIN_FLAVOR_DYNAMIC && (put ? x->ops->put != NULL : x->ops->get != NULL)) {
        xfer_contig(w, put, o, rank, addr + t->dt->lb, bytes);
    } else {
        runs rs = {.per = 1};
        vmpi_dtype_each_run(addr, t->count, t->dt, add_run, &rs);
        char *in = NULL;
        ans_rec *rec = NULL;
        if (put) {
            if ((in = malloc((size_t)bytes)) == NULL)
                vmpi_fatal("out of memory packing a %lld-byte put", (long long)bytes);
            vmpi_dtype_pack(o->buf, o->count, o->dt, in, bytes);
        } else {
            rec = rec_new(o, bytes, 0, 0);
        }
        send_chunks(w, rank, hdr(w, rank, put ? K_PUT : K_GET, rec), &rs, in);
        free(in);
        free(rs.r);
    }
    return req || w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? vmpi_rma_remote_wait(w, rank) : MPI_SUCCESS;
}

int vmpi_rma_remote_acc(vmpi_win *w, const vmpi_rma_side *o, const vmpi_rma_side *res, int rank, MPI_Aint disp,
                        const vmpi_rma_side *t, MPI_Op op, int basic, bool req, char *why)
{
    char *addr;
    int err = vmpi_rma_remote_addr(w, rank, disp, t, &addr, why);
    if (err)
        return err;
    const vmpi_dtype *b = vmpi_dtype_builtin(basic);
    MPI_Count n = t->count * (t->dt->size / b->size);
    if (n == 0)
        return MPI_SUCCESS;
    char *in = NULL;
    if (op != MPI_NO_OP) { /* the origin's elements, back to back */
        if ((in = malloc((size_t)(n * b->extent))) == NULL)
            vmpi_fatal("out of memory for a %lld-element accumulate", (long long)n);
        vmpi_dtype_copy(o->buf, o->count, o->dt, in, n, b);
    }
    runs rs = {.per = b->size, .padded = b->size != b->extent};
    vmpi_dtype_each_run(addr, t->count, t->dt, add_run, &rs);
    op_hdr h = hdr(w, rank, K_ACC, res ? rec_new(res, n * b->extent, basic, n) : NULL);
    h.op = (int32_t)op;
    h.basic = basic;
    h.unit = (uint32_t)b->extent;
    send_chunks(w, rank, h, &rs, in);
    free(in);
    free(rs.r);
    return req || w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? vmpi_rma_remote_wait(w, rank) : MPI_SUCCESS;
}

int vmpi_rma_remote_cas(vmpi_win *w, const void *origin, const void *compare, void *result, const vmpi_dtype *dt,
                        int rank, MPI_Aint disp, char *why)
{
    vmpi_rma_side t = {NULL, 1, dt}, res = {result, 1, dt};
    char *addr;
    int err = vmpi_rma_remote_addr(w, rank, disp, &t, &addr, why);
    if (err)
        return err;
    size_t es = (size_t)dt->size;
    char data[64];
    memcpy(data, origin, es);
    memcpy(data + es, compare, es);
    op_run run = {(uint64_t)(uintptr_t)addr, 1};
    op_hdr h = hdr(w, rank, K_CAS, rec_new(&res, (MPI_Count)es, dt->basic, 1));
    h.basic = dt->basic;
    h.nruns = 1;
    h.unit = (uint32_t)es;
    chunk c = {h, &run, data, 2 * es};
    send(w, rank, &c);
    return w->flavor == MPI_WIN_FLAVOR_DYNAMIC ? vmpi_rma_remote_wait(w, rank) : MPI_SUCCESS;
}

int vmpi_rma_remote_wait(vmpi_win *w, int rank)
{
    vmpi_rma_remote *rm = w->rm;
    if (rm == NULL)
        return MPI_SUCCESS;
    while (rank < 0 ? rm->pending : rm->peer[rank].pending) {
        rm->waiter = vmpi_vp_self();
        vmpi_vp_block("a one-sided completion (remote targets)");
    }
    rm->waiter = NULL;
    int err = rm->err;
    rm->err = MPI_SUCCESS;
    return err;
}

/* ---- a blocking copy (ARMCI) ---- */

typedef struct far_copy {
    vmpi_xport_comp c;
    vmpi_vp *vp;
    bool done;
} far_copy;

static void far_copied(vmpi_xport_comp *c)
{
    far_copy *f = (far_copy *)c;
    f->done = true;
    vmpi_vp_wake(f->vp);
}

void vmpi_rma_far_copy(bool put, void *local, void *remote, size_t bytes, int owner)
{
    int pe = vmpi_loc_pe(owner);
    vmpi_xport *x = vmpi_xport_remote(pe);
    far_copy f = {{far_copied}, vmpi_vp_self(), false};
    if (put)
        x->ops->put(x, pe, local, (uint64_t)(uintptr_t)remote, bytes, &f.c);
    else
        x->ops->get(x, pe, local, (uint64_t)(uintptr_t)remote, bytes, &f.c);
    while (!f.done)
        vmpi_vp_block(put ? "a put to another process" : "a get from another process");
}

/* ---- applying, at the target ---- */

static void answer(const op_hdr *h, const char *data, uint64_t len, int err)
{
    int pe = vmpi_loc_pe(h->origin);
    rma_ans a = {h->rm, h->rec, h->off, len, h->peer, err};
    vmpi_xport_am_send_hdr(vmpi_xport_remote(pe), pe, id_ans, &a, sizeof a, data, len);
}

/* A dynamic window's runs must lie in memory the target has attached. */
static bool covered(vmpi_win *tw, vmpi_win_target *tg, const op_hdr *h, const op_run *runs, uint64_t per)
{
    if (tw->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return true;
    for (uint32_t i = 0; i < h->nruns; i++)
        if (!vmpi_win_dynamic_covers(tg, (char *)(uintptr_t)runs[i].addr,
                                     (char *)(uintptr_t)(runs[i].addr + runs[i].n * per)))
            return false;
    return true;
}

/* An accumulate's runs, applied as one operation: one element is vmpi_rma_acc_one (maybe a lock-free
 * atomic), anything more takes one bulk hold over every run.  Never one hold per run: the datatype engine
 * cuts even a contiguous MPI_INT array into one run per element, and a target type may be strided, so a hold
 * per run would let other accumulates (local origins, other handlers) run between the runs, tearing records
 * that whole_acc checks.  `out` (fetching operations) gets the old elements back to back. */
static void apply_acc(vmpi_win_target *tg, const op_hdr *h, const op_run *runs, const char *in, char *out)
{
    MPI_Op op = (MPI_Op)h->op;
    const char *ip = op == MPI_NO_OP ? NULL : in;
    char *o = h->rec ? out : NULL;
    if (h->nruns == 1 && runs[0].n == 1) {
        vmpi_rma_acc_one(tg, op, h->basic, ip, (char *)(uintptr_t)runs[0].addr, o, false);
        return;
    }
    vmpi_rma_bulk_begin(tg);
    for (uint32_t i = 0; i < h->nruns; i++) {
        size_t bytes = (size_t)(runs[i].n * h->unit);
        vmpi_rma_apply_plain_any(op, h->basic, ip, (char *)(uintptr_t)runs[i].addr, o, (MPI_Count)runs[i].n);
        ip = ip ? ip + bytes : NULL;
        o = o ? o + bytes : NULL;
    }
    vmpi_rma_bulk_end(tg);
}

static void on_op(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    op_hdr h;
    memcpy(&h, msg, sizeof h);
    if (vmpi_xport_proc_of_pe(vmpi_loc_pe(h.target)) != vmpi_xport_proc_of_pe(pe->id))
        vmpi_fatal("internal error: a one-sided operation for rank %d arrived on PE %d of another process", h.target,
                   pe->id);
    const op_run *runs = (const op_run *)((char *)msg + sizeof h);
    const char *in = (const char *)(runs + h.nruns);
    vmpi_win *tw = (vmpi_win *)(uintptr_t)h.tw;
    vmpi_win_target *tg = &tw->sh->t[tw->rank];
    uint64_t per = h.kind == K_ACC || h.kind == K_CAS ? (uint64_t)vmpi_dtype_builtin(h.basic)->size : 1, units = 0;
    for (uint32_t i = 0; i < h.nruns; i++)
        units += runs[i].n;
    bool back = h.kind == K_GET || h.kind == K_CAS || (h.kind == K_ACC && h.rec);
    char small[256], *out = NULL;
    uint64_t olen = back ? units * h.unit : 0;
    if (back && (out = olen <= sizeof small ? small : vmpi_sys_malloc((size_t)olen)) == NULL)
        vmpi_fatal("out of memory answering a one-sided operation");
    if (!covered(tw, tg, &h, runs, per)) {
        answer(&h, NULL, 0, MPI_ERR_RMA_RANGE);
        if (out != small)
            vmpi_sys_free(out);
        return;
    }
    if (h.kind == K_ACC) {
        apply_acc(tg, &h, runs, in, out);
        answer(&h, out, olen, MPI_SUCCESS);
        if (out != small)
            vmpi_sys_free(out);
        return;
    }
    char *o = out;
    for (uint32_t i = 0; i < h.nruns; i++) {
        char *a = (char *)(uintptr_t)runs[i].addr;
        size_t bytes = (size_t)(runs[i].n * h.unit);
        switch (h.kind) {
        case K_PUT: memcpy(a, in, bytes); break;
        case K_GET: memcpy(o, a, bytes); break;
        default: vmpi_rma_cas_apply(tg, h.basic, in, in + h.unit, a, o, false); break;
        }
        in += h.kind == K_GET ? 0 : bytes;
        o += back ? bytes : 0;
    }
    answer(&h, out, olen, MPI_SUCCESS);
    if (out != small)
        vmpi_sys_free(out);
}

void vmpi_rma_remote_init(void)
{
    id_op = vmpi_xport_am_register(on_op);
    id_ans = vmpi_xport_am_register(on_ans);
    vmpi_rma_remote_lock_init();
    vmpi_qlock_init();
    vmpi_am_remote_init();
    vmpi_rma_far_init();
}
