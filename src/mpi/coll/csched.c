/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/coll/csched.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/coll/shm.h"
#include "mpi/core/group.h"
#include "mpi/core/rank.h"
#include "mpi/core/request.h"
#include "mpi/op/op.h"

typedef enum { ACT_SEND, ACT_RECV, ACT_COPY, ACT_REDUCE } act_kind;

typedef struct act {
    act_kind kind;
    bool counted;            /* send/recv: its completion was counted */
    bool local;              /* send/recv: the peer is a rank of the local group (intercommunicator) */
    const void *src;
    void *dst;
    MPI_Count scount, rcount;
    const vmpi_dtype *sdt, *rdt;
    int peer;
    MPI_Datatype dth;
    MPI_Op op;
    vmpi_csched *s;
    vmpi_req req;
} act;

struct vmpi_csched {
    act *acts;
    int nacts, cap;
    int *ends;               /* round i is acts [ends[i-1], ends[i]) */
    int nrounds, rcap;
    int cur;                 /* the round in flight */
    int pending;             /* its sends and receives not yet complete */
    bool started, advancing, nomem;
    int err;
    vmpi_comm comm;          /* a copy: the schedule may outlive the caller's frame */
    int tag;
    vmpi_comm lcomm;         /* intercommunicator: a copy of its internal intracommunicator, */
    int ltag;                /* and the tag on it */
    bool on_local;           /* steps appended now address the local group */
    vmpi_vp *owner;
    vmpi_ep *ep;
    vmpi_req *final;         /* completed when the schedule ends */
    vmpi_req own;            /* `final` of a blocking run */
    bool nonblocking;
    bool persistent;         /* kept after it ends, to run again at the next MPI_Start */
    void **tmps;
    int ntmps;
    vmpi_csched *lnext, **lprev; /* in its rank's list of live schedules (vmpi_cs_each_comm) */
};

static void hold(vmpi_comm *c, bool take)
{
    vmpi_group *g[2] = {c->group, c->remote};
    for (int i = 0; i < 2; i++)
        if (g[i] && take)
            vmpi_group_ref(g[i]);
        else if (g[i])
            vmpi_group_unref(g[i]);
}

vmpi_csched *vmpi_cs_new(vmpi_comm *c)
{
    vmpi_csched *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    vmpi_rank *rk = vmpi_rank_self();
    s->comm = *c;
    s->tag = (int)(c->coll_seq++ & (VMPI_SHM_TAG - 1)); /* below the shared-memory path's tag */
    if (vmpi_comm_is_inter(c)) {
        s->lcomm = *c->local;
        s->ltag = (int)(c->local->coll_seq++ & (VMPI_SHM_TAG - 1));
    }
    /* the copies' rank maps point into these groups: MPI lets the communicator be freed while the
     * collective is pending, so the schedule holds its own references */
    hold(&s->comm, true);
    if (vmpi_comm_is_inter(c))
        hold(&s->lcomm, true);
    s->owner = &rk->vp;
    s->ep = &rk->ep;
    s->lnext = rk->scheds;
    s->lprev = &rk->scheds;
    if (rk->scheds)
        rk->scheds->lprev = &s->lnext;
    rk->scheds = s;
    return s;
}

void vmpi_cs_each_comm(struct vmpi_rank *rk, void (*fn)(void *arg, vmpi_comm *c), void *arg)
{
    for (vmpi_csched *s = rk->scheds; s; s = s->lnext) {
        fn(arg, &s->comm);
        if (vmpi_comm_is_inter(&s->comm))
            fn(arg, &s->lcomm);
    }
}

static act *push(vmpi_csched *s, act_kind k)
{
    if (s->nacts == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        act *a = realloc(s->acts, sizeof *a * (size_t)cap);
        if (a == NULL) {
            s->nomem = true;
            return NULL;
        }
        s->acts = a;
        s->cap = cap;
    }
    act *a = &s->acts[s->nacts++];
    memset(a, 0, sizeof *a);
    a->kind = k;
    a->local = s->on_local;
    return a;
}

void vmpi_cs_nomem(vmpi_csched *s) { s->nomem = true; }

/* A step's reference on a derived datatype: MPI lets the user free the type (or the operation, or the
 * communicator) while a nonblocking collective that uses it is pending; destroy() releases them. */
static const vmpi_dtype *keep(const vmpi_dtype *dt)
{
    if (dt)
        vmpi_dtype_retain(dt);
    return dt;
}

void vmpi_cs_local(vmpi_csched *s, bool local) { s->on_local = local && vmpi_comm_is_inter(&s->comm); }

void vmpi_cs_send(vmpi_csched *s, const void *buf, MPI_Count count, const vmpi_dtype *dt, int peer)
{
    act *a = push(s, ACT_SEND);
    if (a) {
        a->src = buf;
        a->scount = count;
        a->sdt = keep(dt);
        a->peer = peer;
    }
}

void vmpi_cs_recv(vmpi_csched *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int peer)
{
    act *a = push(s, ACT_RECV);
    if (a) {
        a->dst = buf;
        a->rcount = count;
        a->rdt = keep(dt);
        a->peer = peer;
    }
}

void vmpi_cs_copy(vmpi_csched *s, const void *src, MPI_Count scount, const vmpi_dtype *sdt, void *dst,
                  MPI_Count rcount, const vmpi_dtype *rdt)
{
    act *a = push(s, ACT_COPY);
    if (a) {
        a->src = src;
        a->scount = scount;
        a->sdt = keep(sdt);
        a->dst = dst;
        a->rcount = rcount;
        a->rdt = keep(rdt);
    }
}

void vmpi_cs_reduce(vmpi_csched *s, const void *in, void *inout, MPI_Count count, const vmpi_dtype *dt,
                    MPI_Datatype dth, MPI_Op op)
{
    act *a = push(s, ACT_REDUCE);
    if (a) {
        a->src = in;
        a->dst = inout;
        a->scount = count;
        a->sdt = keep(dt);
        a->dth = dth;
        a->op = op;
        vmpi_op_hold(op);
    }
}

void vmpi_cs_round(vmpi_csched *s)
{
    int start = s->nrounds ? s->ends[s->nrounds - 1] : 0;
    if (s->nacts == start)
        return;
    if (s->nrounds == s->rcap) {
        int cap = s->rcap ? 2 * s->rcap : 8;
        int *e = realloc(s->ends, sizeof *e * (size_t)cap);
        if (e == NULL) {
            s->nomem = true;
            return;
        }
        s->ends = e;
        s->rcap = cap;
    }
    s->ends[s->nrounds++] = s->nacts;
}

void *vmpi_cs_tmp(vmpi_csched *s, MPI_Count count, const vmpi_dtype *dt)
{
    MPI_Aint span = count > 0 ? dt->true_extent + (count - 1) * dt->extent : 0;
    void **t = realloc(s->tmps, sizeof *t * (size_t)(s->ntmps + 1));
    char *p = t ? malloc(span > 0 ? (size_t)span : 1) : NULL;
    if (t)
        s->tmps = t;
    if (p == NULL) {
        s->nomem = true;
        return NULL;
    }
    s->tmps[s->ntmps++] = p;
    return p - dt->true_lb;
}

static void destroy(vmpi_csched *s)
{
    for (int i = 0; i < s->nacts; i++) {
        act *a = &s->acts[i];
        if (a->kind == ACT_REDUCE)
            vmpi_op_release(a->op);
        if (a->sdt)
            vmpi_dtype_release(a->sdt);
        if (a->rdt)
            vmpi_dtype_release(a->rdt);
    }
    for (int i = 0; i < s->ntmps; i++)
        free(s->tmps[i]);
    free(s->tmps);
    free(s->acts);
    free(s->ends);
    hold(&s->comm, false);
    if (vmpi_comm_is_inter(&s->comm))
        hold(&s->lcomm, false);
    *s->lprev = s->lnext; /* on the owner's PE, where its rank's list is touched */
    if (s->lnext)
        s->lnext->lprev = s->lprev;
    free(s);
}

static void advance(vmpi_csched *s);

static void counted(act *a)
{
    if (a->counted)
        return;
    a->counted = true;
    /* the standard makes every collective's signatures match, so a receive gets exactly what it expects;
     * more (truncated by the messaging layer) or less is the sender's and this rank's counts or types
     * differing in size, reported like MPICH (MPI_ERR_TRUNCATE) */
    if (a->kind == ACT_RECV && a->s->err == MPI_SUCCESS) {
        if (a->req.status.MPI_ERROR != MPI_SUCCESS)
            a->s->err = a->req.status.MPI_ERROR;
        else if (a->req.status.vmpi_count != a->rcount * a->rdt->size)
            a->s->err = MPI_ERR_TRUNCATE;
    }
    a->s->pending--;
}

static void on_done(vmpi_req *r)
{
    act *a = r->on_done_arg;
    vmpi_csched *s = a->s;
    counted(a);
    if (s->pending == 0 && !s->advancing)
        advance(s);
}

static void start(vmpi_csched *s, act *a)
{
    vmpi_req *r = &a->req;
    const vmpi_comm *c = a->local ? &s->lcomm : &s->comm;
    a->s = s;
    r->complete = false;
    r->owner = s->owner;
    r->ctx = c->ctx + 1;
    r->tag = a->local ? s->ltag : s->tag;
    r->on_done = on_done;
    r->on_done_arg = a;
    if (a->kind == ACT_SEND) {
        r->kind = VMPI_REQ_SEND;
        r->buf = (void *)a->src;
        /* once the schedule has failed (a size mismatch: its data is wrong), what it sends on carries no
         * data, so that every rank whose result depends on it fails too (unless it expects nothing), as
         * MPICH's collectives pass errors on */
        r->count = s->err == MPI_SUCCESS ? a->scount : 0;
        r->dt = a->sdt;
        r->rank = c->rank;
        r->peer = vmpi_comm_world_rank(c, a->peer);
        r->mode = VMPI_SEND_STD;
        vmpi_msg_isend(r);
    } else {
        r->kind = VMPI_REQ_RECV;
        r->buf = a->dst;
        r->count = a->rcount;
        r->dt = a->rdt;
        r->rank = a->peer;
        vmpi_msg_irecv(s->ep, r);
    }
    if (r->complete)
        counted(a); /* done at once (an eager send calls no callback) */
}

static void run_locals(vmpi_csched *s, int from, int to)
{
    for (int i = from; i < to; i++) {
        act *a = &s->acts[i];
        if (a->kind == ACT_COPY) {
            vmpi_dtype_copy(a->src, a->scount, a->sdt, a->dst, a->rcount, a->rdt);
            if (a->scount * a->sdt->size != a->rcount * a->rdt->size && s->err == MPI_SUCCESS)
                s->err = MPI_ERR_TRUNCATE; /* a rank's own block: its send and receive sides differ */
        }
        else if (a->kind == ACT_REDUCE)
            vmpi_op_apply(a->op, a->dth, a->sdt, a->src, a->dst, a->scount);
    }
}

/* Runs rounds while they complete at once; returns when one waits for messages or the schedule ends. */
static void advance(vmpi_csched *s)
{
    s->advancing = true;
    while (s->pending == 0) {
        if (s->started) {
            run_locals(s, s->cur ? s->ends[s->cur - 1] : 0, s->ends[s->cur]);
            s->cur++;
        }
        if (s->cur == s->nrounds)
            break;
        s->started = true;
        s->pending = 1; /* held until every step of the round is started */
        for (int i = s->cur ? s->ends[s->cur - 1] : 0; i < s->ends[s->cur]; i++) {
            act *a = &s->acts[i];
            if (a->kind == ACT_SEND || a->kind == ACT_RECV) {
                s->pending++;
                start(s, a);
            }
        }
        s->pending--;
    }
    s->advancing = false;
    if (s->cur < s->nrounds)
        return;
    vmpi_req *f = s->final;
    if (s->nonblocking) {
        f->status.MPI_ERROR = s->err;
        if (!s->persistent)
            destroy(s);
    }
    vmpi_req_complete(f); /* last: a freed request is released by it (a persistent one destroys `s`) */
}

bool vmpi_cs_persist(bool on)
{
    vmpi_rank *rk = vmpi_rank_self();
    bool was = rk->cs_persist;
    rk->cs_persist = on;
    return was;
}

/* MPI_Start of a persistent collective (the request is marked active): the schedule from its first round. */
static int restart(vmpi_mreq *m)
{
    vmpi_csched *s = m->ptr;
    for (int i = 0; i < s->nacts; i++)
        s->acts[i].counted = false;
    s->cur = 0;
    s->pending = 0;
    s->started = false;
    s->err = MPI_SUCCESS;
    m->r.complete = false;
    m->r.status.MPI_ERROR = MPI_SUCCESS;
    advance(s);
    return MPI_SUCCESS;
}

static void release(vmpi_mreq *m)
{
    destroy(m->ptr);
    m->ptr = NULL;
}

int vmpi_cs_run(vmpi_csched *s, MPI_Request *req, const char *why)
{
    vmpi_cs_round(s);
    if (s->nomem) {
        destroy(s);
        return MPI_ERR_NO_MEM;
    }
    if (req) {
        vmpi_rank *rk = vmpi_rank_self();
        bool persist = rk->cs_persist;
        rk->cs_persist = false;
        vmpi_mreq *m = vmpi_mreq_new(persist ? VMPI_MREQ_COLL : VMPI_MREQ_SEND, s->comm.handle);
        m->r.kind = VMPI_REQ_SEND;
        m->r.ctx = s->comm.ctx + 1; /* a deadlock report names the communicator of a wait on it */
        m->r.complete = false;
        m->r.on_done = NULL;
        m->r.status.MPI_ERROR = MPI_SUCCESS;
        m->r.status.vmpi_cancelled = 0;
        s->final = &m->r;
        s->nonblocking = true;
        *req = vmpi_mreq_handle(m);
        if (persist) { /* inactive until MPI_Start */
            m->persistent = true;
            s->persistent = true;
            m->ptr = s;
            m->start = restart;
            m->release = release;
            return MPI_SUCCESS;
        }
        advance(s);
        return MPI_SUCCESS;
    }
    s->own.owner = s->owner;
    s->own.ctx = s->comm.ctx + 1;
    s->own.complete = false;
    s->own.on_done = NULL;
    s->final = &s->own;
    advance(s);
    vmpi_req_wait(&s->own, why);
    int err = s->err;
    destroy(s);
    return err;
}
