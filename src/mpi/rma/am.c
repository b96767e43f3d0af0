/* SPDX-License-Identifier: BSD-3-Clause */
/* Active messages: handler tables, the direct and staged paths, user and system buffers (am.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/tunables.h"
#include "iso/iso.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/rma/am.h"

/* ---- handlers: numbered per rank; an origin runs the target's registration of the number ---- */

enum { OPS_MAX = 256 };

typedef struct am_entry {
    void *_Atomic fn;         /* NULL: free */
    bool vector;
    void *extra;
} am_entry;

typedef struct vmpi_am_table {
    am_entry e[OPS_MAX];
} vmpi_am_table;

int vmpi_am_op_create(void *fn, bool vector, void *extra_state, MPIX_Am_op *op)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_am_table *t = atomic_load_explicit(&rk->am_ops, memory_order_relaxed);
    if (t == NULL) {
        if ((t = calloc(1, sizeof *t)) == NULL)
            return MPI_ERR_NO_MEM;
        atomic_store_explicit(&rk->am_ops, t, memory_order_release); /* origins read it from other PEs */
    }
    int i = 0;
    while (i < OPS_MAX && atomic_load_explicit(&t->e[i].fn, memory_order_relaxed) != NULL)
        i++;
    if (i == OPS_MAX)
        return MPI_ERR_INTERN;
    t->e[i].vector = vector;
    t->e[i].extra = extra_state;
    atomic_store_explicit(&t->e[i].fn, fn, memory_order_release);
    *op = VMPI_HANDLE(VMPI_KIND_AM_OP, i + 1);
    return MPI_SUCCESS;
}

static am_entry *entry_of(vmpi_rank *rk, MPIX_Am_op op)
{
    vmpi_am_table *t = atomic_load_explicit(&rk->am_ops, memory_order_acquire);
    int i = VMPI_HANDLE_INDEX(op) - 1;
    if (t == NULL || VMPI_HANDLE_KIND(op) != VMPI_KIND_AM_OP || i < 0 || i >= OPS_MAX ||
        atomic_load_explicit(&t->e[i].fn, memory_order_acquire) == NULL)
        return NULL;
    return &t->e[i];
}

int vmpi_am_op_free(MPIX_Am_op *op)
{
    am_entry *e = entry_of(vmpi_rank_self(), *op);
    if (e == NULL)
        return MPI_ERR_ARG;
    atomic_store_explicit(&e->fn, NULL, memory_order_release);
    *op = MPIX_AM_OP_NULL;
    return MPI_SUCCESS;
}

void vmpi_am_rank_fini(vmpi_rank *rk)
{
    free(atomic_load(&rk->am_ops));
    atomic_store(&rk->am_ops, NULL);
}

/* ---- the calling rank's state on a window ---- */

typedef struct am_claim { /* an am_user_buf_<rank> hint */
    int target;
    MPI_Aint bytes;
    char *region;             /* claimed at first use; NULL before */
    bool tried;
} am_claim;

typedef struct vmpi_am_win {
    bool staged;
    MPI_Aint sysbuf;          /* bytes per origin partition */
    double threshold;         /* MPIX_Amv packs when generated / maximum is below this */
    bool interleave;          /* detaches may happen during an epoch: views go stale at flushes */
    bool reverse;             /* run an AM's units last first (tests out-of-order segments) */
    int max_unit;             /* most segments per unit (0: no limit) */
    am_claim *claims;
    int nclaims;
    int view_target;          /* -1: no view; else a view of that target's buffers (exclusive lock) */
    bool view_stale;          /* a flush passed: read the buffers again before using them */
    vmpi_am_ubuf *view;
    int nview;
    VMPIX_Am_stats st;
} vmpi_am_win;

/* The default of am_pack_threshold: below it, packing generated output at the target and unpacking it at
 * the origin (two copies of what was generated) costs less than one copy of the whole output.  Measured
 * with bench/am_workloads (docs/PERFORMANCE.md, "Active messages"). */
#define PACK_THRESHOLD_DEFAULT 0.5

static const char *info_str(MPI_Info info, const char *key, char *buf, int len)
{
    int flag = 0;
    if (info == MPI_INFO_NULL || vmpi_info_get(info, key, len - 1, buf, &flag) != MPI_SUCCESS || !flag)
        return NULL;
    return buf;
}

static vmpi_am_win *am_state(vmpi_win *w)
{
    if (w->am)
        return w->am;
    vmpi_am_win *a = calloc(1, sizeof *a);
    if (a == NULL)
        return NULL;
    char v[MPI_MAX_INFO_VAL];
    const char *s;
    a->staged = (s = info_str(w->info, "am_staged", v, sizeof v)) ? strcmp(s, "true") == 0 : vmpi_cfg.am_staged;
    a->sysbuf = (MPI_Aint)vmpi_cfg.am_system_buffer;
    size_t sz;
    if ((s = info_str(w->info, "am_system_buffer", v, sizeof v)) && vmpi_parse_size(s, &sz))
        a->sysbuf = (MPI_Aint)sz;
    a->threshold = (s = info_str(w->info, "am_pack_threshold", v, sizeof v)) ? atof(s) : PACK_THRESHOLD_DEFAULT;
    a->interleave = !((s = info_str(w->info, "am_buf_interleave_am_detach", v, sizeof v)) && strcmp(s, "false") == 0);
    a->reverse = (s = info_str(w->info, "am_reverse_units", v, sizeof v)) && strcmp(s, "true") == 0;
    a->max_unit = (s = info_str(w->info, "am_max_unit_segments", v, sizeof v)) ? atoi(s) : 0;
    a->view_target = -1;
    int n = 0;
    if (w->info != MPI_INFO_NULL && vmpi_info_get_nkeys(w->info, &n) == MPI_SUCCESS)
        for (int i = 0; i < n; i++) { /* am_user_buf_<rank>=BYTES: space of our own at that target */
            char key[MPI_MAX_INFO_KEY];
            int r;
            if (vmpi_info_get_nthkey(w->info, i, key) || sscanf(key, "am_user_buf_%d", &r) != 1 || r < 0 ||
                r >= w->size || !(s = info_str(w->info, key, v, sizeof v)) || !vmpi_parse_size(s, &sz))
                continue;
            am_claim *c = realloc(a->claims, sizeof *c * (size_t)(a->nclaims + 1));
            if (c == NULL)
                continue;
            a->claims = c;
            c[a->nclaims++] = (am_claim){r, (MPI_Aint)sz, NULL, false};
        }
    return w->am = a;
}

void vmpi_am_win_free(vmpi_win *w)
{
    if (w->am == NULL)
        return;
    free(w->am->claims);
    free(w->am->view);
    free(w->am);
    w->am = NULL;
}

int vmpi_am_stats(vmpi_win *w, VMPIX_Am_stats *st, bool reset)
{
    vmpi_am_win *a = am_state(w);
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    *st = a->st;
    if (reset)
        memset(&a->st, 0, sizeof a->st);
    return MPI_SUCCESS;
}

void vmpi_am_sync_point(vmpi_win *w, int rank, bool end)
{
    vmpi_am_win *a = w->am;
    if (a && a->view_target >= 0 && (rank < 0 || rank == a->view_target)) {
        if (end)
            a->view_target = -1; /* the exclusive epoch is over */
        else if (a->interleave)
            a->view_stale = true; /* the target may have detached a buffer since: read them again */
    }
}

/* ---- user buffers at the target ---- */

static inline void guard_lock(vmpi_win_target *t)
{
    while (atomic_flag_test_and_set_explicit(&t->guard, memory_order_acquire))
        __builtin_ia32_pause();
}

static inline void guard_unlock(vmpi_win_target *t) { atomic_flag_clear_explicit(&t->guard, memory_order_release); }

int vmpi_am_attach(vmpi_win *w, void *buf, MPI_Aint size)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    int err = MPI_SUCCESS;
    guard_lock(t);
    for (int i = 0; i < t->nubufs; i++)
        if ((char *)buf < t->ubufs[i].base + t->ubufs[i].size && t->ubufs[i].base < (char *)buf + size)
            err = MPI_ERR_BUFFER;
    if (!err && t->nubufs == t->cap_ubufs) {
        int cap = t->cap_ubufs ? 2 * t->cap_ubufs : 4;
        vmpi_am_ubuf *n = vmpi_iso_job_realloc(t->ubufs, sizeof *n * (size_t)cap);
        if (n == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            t->ubufs = n;
            t->cap_ubufs = cap;
        }
    }
    if (!err) {
        t->ubufs[t->nubufs++] = (vmpi_am_ubuf){buf, size, 0, 0, 0};
        atomic_fetch_add(&t->ubuf_gen, 1);
        atomic_fetch_add(&t->ubuf_total, size);
    }
    guard_unlock(t);
    return err;
}

int vmpi_am_detach(vmpi_win *w, void *buf)
{
    vmpi_win_target *t = &w->sh->t[w->rank];
    int err = MPI_ERR_BUFFER;
    guard_lock(t);
    for (int i = 0; i < t->nubufs; i++)
        if (t->ubufs[i].base == buf) {
            if (t->ubufs[i].live > 0 || t->ubufs[i].claimed > 0) {
                err = MPI_ERR_PENDING; /* an active message uses it, or an origin holds space of its own there */
                break;
            }
            atomic_fetch_sub(&t->ubuf_total, t->ubufs[i].size);
            t->ubufs[i] = t->ubufs[--t->nubufs];
            atomic_fetch_add(&t->ubuf_gen, 1);
            err = MPI_SUCCESS;
            break;
        }
    guard_unlock(t);
    return err;
}

/* Where one unit of an AM is staged, and how it is given back. */
typedef struct space {
    char *p;
    MPI_Aint bytes;
    int kind;                 /* SYS, CLAIM, VIEW, SHARED */
    int ubuf;                 /* SHARED: index of the buffer reserved in */
} space;

enum { SYS, CLAIM, VIEW, SHARED };

/* The origin's partition of target `rank`'s system buffer, and its size in *bytes.  The first origin there
 * makes the buffer with its own partition size, written in the buffer's first line, which every origin
 * then uses (their am_system_buffer hints may differ). */
static char *sysbuf_part(vmpi_win *w, vmpi_am_win *a, int rank, MPI_Aint *bytes)
{
    vmpi_win_target *t = &w->sh->t[rank];
    char *s = atomic_load_explicit(&t->sysbuf, memory_order_acquire);
    if (s == NULL) {
        char *n = vmpi_iso_job_memalign(64, 64 + (size_t)a->sysbuf * (size_t)w->size);
        if (n == NULL)
            return NULL;
        *(MPI_Aint *)n = a->sysbuf;
        if (atomic_compare_exchange_strong(&t->sysbuf, &s, n))
            s = n;
        else
            free(n); /* another origin made it first */
    }
    *bytes = *(MPI_Aint *)s;
    return s + 64 + (size_t)*bytes * (size_t)w->rank;
}

/* The largest transient space a shared reservation can get at `t` right now (under the guard). */
static MPI_Aint reserve_shared(vmpi_win_target *t, MPI_Aint want, MPI_Aint min, space *sp)
{
    int best = -1;
    MPI_Aint avail = 0;
    for (int i = 0; i < t->nubufs; i++) {
        MPI_Aint free_ = t->ubufs[i].size - t->ubufs[i].top;
        if (free_ > avail) {
            avail = free_;
            best = i;
        }
    }
    if (best < 0 || avail < min)
        return 0;
    MPI_Aint take = avail < want ? avail : want;
    vmpi_am_ubuf *b = &t->ubufs[best];
    *sp = (space){b->base + b->top, take, SHARED, best};
    b->top += take;
    b->live++;
    return take;
}

static void release_space(vmpi_win_target *t, const space *sp)
{
    if (sp->kind != SHARED)
        return;
    guard_lock(t);
    vmpi_am_ubuf *b = &t->ubufs[sp->ubuf];
    if (--b->live == 0)
        b->top = b->claimed;
    guard_unlock(t);
}

/* Space for between `min` and `want` bytes at target `rank`, by the paper's order of preference.  Returns
 * 0 when there is none (the caller waits for space or fails). */
static MPI_Aint get_space(vmpi_win *w, vmpi_am_win *a, int rank, MPI_Aint want, MPI_Aint min, bool exclusive,
                          space *sp)
{
    vmpi_win_target *t = &w->sh->t[rank];
    for (int i = 0; i < a->nclaims; i++) { /* am_user_buf_<rank>: claimed once, then ours alone */
        am_claim *c = &a->claims[i];
        if (c->target != rank)
            continue;
        if (!c->tried) {
            c->tried = true;
            a->st.syncs++;
            guard_lock(t);
            for (int k = 0; k < t->nubufs && !c->region; k++)
                if (t->ubufs[k].live == 0 && t->ubufs[k].size - t->ubufs[k].claimed >= c->bytes) {
                    c->region = t->ubufs[k].base + t->ubufs[k].claimed;
                    t->ubufs[k].claimed += c->bytes;
                    t->ubufs[k].top = t->ubufs[k].claimed;
                }
            guard_unlock(t);
        }
        if (c->region && c->bytes >= min) {
            *sp = (space){c->region, want < c->bytes ? want : c->bytes, CLAIM, 0};
            return sp->bytes;
        }
    }
    if (exclusive) { /* the only origin at this target: a view of its buffers, read once */
        if (a->view_target != rank || a->view_stale) {
            a->st.syncs++;
            guard_lock(t);
            vmpi_am_ubuf *v = realloc(a->view, sizeof *v * (size_t)(t->nubufs ? t->nubufs : 1));
            if (v) {
                memcpy(v, t->ubufs, sizeof *v * (size_t)t->nubufs);
                a->view = v;
                a->nview = t->nubufs;
                a->view_target = rank;
                a->view_stale = false;
            }
            guard_unlock(t);
        }
        if (a->view_target == rank) {
            int best = -1;
            MPI_Aint avail = 0;
            for (int i = 0; i < a->nview; i++)
                if (a->view[i].size - a->view[i].claimed > avail) {
                    avail = a->view[i].size - a->view[i].claimed;
                    best = i;
                }
            if (best >= 0 && avail >= min) {
                *sp = (space){a->view[best].base + a->view[best].claimed, avail < want ? avail : want, VIEW, best};
                return sp->bytes;
            }
        }
    }
    a->st.syncs++; /* the handshake: reserve space in the buffers every origin shares */
    guard_lock(t);
    MPI_Aint got = reserve_shared(t, want, min, sp);
    guard_unlock(t);
    return got;
}

/* ---- running handlers ---- */

typedef struct run {
    vmpi_win *w;
    const vmpi_am_args *a;
    am_entry *e;
    vmpi_rank *target;
    vmpi_win_target *t;
    char *pbuf;               /* the persistent buffer */
    bool exclusive;
} run;

/* Calls the target's handler on `k` segments, with the target's thread_locals and under its handler lock. */
static void invoke(const run *r, const void *in, void *out, int k, int *counts)
{
    const vmpi_am_args *a = r->a;
    if (!r->exclusive)
        while (atomic_flag_test_and_set_explicit(&r->t->am_run, memory_order_acquire))
            __builtin_ia32_pause(); /* the holder is running a handler: it cannot be switched out */
    vmpi_iso_tls_from_ = r->target->vp.heap;
    if (r->e->vector)
        ((MPIX_Amv_user_function *)r->e->fn)(in, a->in_count, a->tin_h, r->pbuf, a->pcount, a->pdt_h, out,
                                             a->out_count, a->tout_h, k, counts, r->e->extra);
    else
        ((MPIX_Am_user_function *)r->e->fn)(in, a->in_count, a->tin_h, r->pbuf, a->pcount, a->pdt_h, out,
                                            a->out_count, a->tout_h, k, r->e->extra);
    vmpi_iso_tls_from_ = NULL;
    if (!r->exclusive)
        atomic_flag_clear_explicit(&r->t->am_run, memory_order_release);
}

/* Bytes from the start of one segment to the start of the next, in a layout of `count` elements of dt. */
static MPI_Aint seg_stride(int count, const vmpi_dtype *dt) { return (MPI_Aint)count * dt->extent; }

static bool same_layout(const vmpi_dtype *x, const vmpi_dtype *y)
{
    return x == y || (x->contig && y->contig && x->size == y->size && x->extent == y->extent && x->lb == y->lb);
}

/* Direct path: the handler works on the origin's buffers (through a copy only where the origin's layout is
 * not the target's). */
static int run_direct(run *r, vmpi_am_win *am)
{
    const vmpi_am_args *a = r->a;
    MPI_Count nin = (MPI_Count)a->nseg * a->in_count, nout = (MPI_Count)a->nseg * a->out_count;
    const void *in = a->in;
    void *out = a->out, *tin = NULL, *tout = NULL;
    if (!same_layout(a->in_dt, a->tin_dt) && nin > 0) {
        if ((tin = malloc((size_t)(nin * a->tin_dt->extent))) == NULL)
            return MPI_ERR_NO_MEM;
        vmpi_dtype_copy(a->in, nin, a->in_dt, tin, nin, a->tin_dt);
        in = tin;
    }
    if (!same_layout(a->out_dt, a->tout_dt) && nout > 0) {
        if ((tout = malloc((size_t)(nout * a->tout_dt->extent))) == NULL) {
            free(tin);
            return MPI_ERR_NO_MEM;
        }
        out = tout;
    }
    invoke(r, in, out, a->nseg, a->counts);
    am->st.invocations++;
    if (tout) {
        for (int s = 0; s < a->nseg; s++) {
            MPI_Count c = a->counts ? a->counts[s] : a->out_count;
            vmpi_dtype_copy((char *)tout + s * seg_stride(a->out_count, a->tout_dt), c, a->tout_dt,
                            (char *)a->out + s * seg_stride(a->out_count, a->out_dt), c, a->out_dt);
        }
        free(tout);
    }
    free(tin);
    return MPI_SUCCESS;
}

/* Staged path: units of whole segments, each copied into space at the target, run there, and copied back. */
static int run_staged(run *r, vmpi_am_win *am)
{
    const vmpi_am_args *a = r->a;
    MPI_Aint sin = seg_stride(a->in_count, a->tin_dt), sout = seg_stride(a->out_count, a->tout_dt);
    MPI_Aint per = sin + sout, ssin = seg_stride(a->in_count, a->in_dt), ssout = seg_stride(a->out_count, a->out_dt);
    int *counts = NULL;
    if (a->counts && (counts = malloc(sizeof *counts * (size_t)a->nseg)) == NULL)
        return MPI_ERR_NO_MEM;
    /* plan the units: the origin's system-buffer partition first, then user buffers */
    int done = 0, err = MPI_SUCCESS;
    int *order_first = malloc(sizeof(int) * (size_t)(a->nseg + 1)), *order_k = malloc(sizeof(int) * (size_t)(a->nseg + 1));
    space *spaces = malloc(sizeof(space) * (size_t)(a->nseg + 1));
    int nunits = 0;
    if (!order_first || !order_k || !spaces)
        err = MPI_ERR_NO_MEM;
    bool sys_used = false;
    while (!err && done < a->nseg) {
        int left = a->nseg - done, k = 0;
        space sp;
        MPI_Aint sysb = 0;
        char *s = sys_used || per == 0 || am->sysbuf < per ? NULL : sysbuf_part(r->w, am, a->rank, &sysb);
        if (s && sysb >= per) {
            sys_used = true;
            k = (int)(sysb / per < left ? sysb / per : left);
            sp = (space){s, k * per, SYS, 0};
        } else {
            sys_used = true;
            MPI_Aint got = get_space(r->w, am, a->rank, left * per, per, r->exclusive, &sp);
            if (got < per) { /* none now: others hold it; our own earlier units are given back below */
                if (nunits > 0)
                    break;
                vmpi_vp_yield();
                continue;
            }
            k = (int)(got / per);
        }
        if (am->max_unit > 0 && k > am->max_unit)
            k = am->max_unit;
        order_first[nunits] = done;
        order_k[nunits] = k;
        spaces[nunits++] = sp;
        done += k;
    }
    for (int u = 0; !err && u < nunits; u++) {
        int i = am->reverse ? nunits - 1 - u : u, first = order_first[i], k = order_k[i];
        char *stin = spaces[i].p, *stout = stin + k * sin;
        vmpi_dtype_copy((const char *)a->in + first * ssin, (MPI_Count)k * a->in_count, a->in_dt, stin,
                        (MPI_Count)k * a->in_count, a->tin_dt);
        am->st.staged_in_bytes += k * sin;
        invoke(r, stin, stout, k, counts ? counts + first : NULL);
        am->st.invocations++;
        if (counts) { /* MPIX_Amv: only what was generated, packed, when it is little enough */
            MPI_Count gen = 0;
            for (int s = 0; s < k; s++)
                gen += counts[first + s];
            double frac = a->out_count > 0 ? (double)gen / ((double)k * a->out_count) : 1.0;
            if (frac < am->threshold) {
                char *pk = malloc((size_t)(gen * a->tout_dt->size) + 1), *p = pk;
                if (pk == NULL) {
                    err = MPI_ERR_NO_MEM;
                    break;
                }
                for (int s = 0; s < k; s++) /* packed at the target... */
                    p += vmpi_dtype_pack(stout + s * sout, counts[first + s], a->tout_dt, p, counts[first + s] * a->tout_dt->size);
                p = pk;
                for (int s = 0; s < k; s++) /* ...and unpacked at the origin, at the segments' fixed offsets */
                    p += vmpi_dtype_unpack(p, counts[first + s] * a->out_dt->size,
                                           (char *)a->out + (first + s) * ssout, counts[first + s], a->out_dt);
                free(pk);
                am->st.returned_bytes += (MPI_Aint)(gen * a->tout_dt->size);
            } else {
                vmpi_dtype_copy(stout, (MPI_Count)k * a->out_count, a->tout_dt, (char *)a->out + first * ssout,
                                (MPI_Count)k * a->out_count, a->out_dt);
                am->st.returned_bytes += k * sout;
            }
            am->st.returned_bytes += k * (MPI_Aint)sizeof(int); /* the counts always travel */
            memcpy(a->counts + first, counts + first, sizeof *counts * (size_t)k);
        } else {
            vmpi_dtype_copy(stout, (MPI_Count)k * a->out_count, a->tout_dt, (char *)a->out + first * ssout,
                            (MPI_Count)k * a->out_count, a->out_dt);
            am->st.returned_bytes += k * sout;
        }
        am->st.staged_out_bytes += k * sout;
    }
    for (int u = 0; u < nunits; u++)
        release_space(r->t, &spaces[u]);
    free(order_first);
    free(order_k);
    free(spaces);
    free(counts);
    if (!err && done < a->nseg) { /* the space ran out before the last segments: plan again for the rest */
        vmpi_am_args rest = *a;
        rest.in = (const char *)a->in + done * ssin;
        rest.out = (char *)a->out + done * ssout;
        rest.counts = a->counts ? a->counts + done : NULL;
        rest.nseg = a->nseg - done;
        run r2 = *r;
        r2.a = &rest;
        return run_staged(&r2, am);
    }
    return err;
}

int vmpi_am(vmpi_win *w, const vmpi_am_args *a, char *why)
{
    if (a->rank == MPI_PROC_NULL)
        return MPI_SUCCESS;
    const char *reason = NULL;
    int err = vmpi_win_access(w, a->rank, false, &reason);
    if (err) {
        snprintf(why, 160, "%s", reason ? reason : "");
        return err;
    }
    vmpi_am_win *am = am_state(w);
    if (am == NULL)
        return MPI_ERR_NO_MEM;
    run r = {w, a, NULL, vmpi_rank_get(vmpi_comm_world_rank(w->comm, a->rank)), &w->sh->t[a->rank], NULL,
             vmpi_win_lock_held(w, a->rank) == MPI_LOCK_EXCLUSIVE};
    if ((r.e = entry_of(r.target, a->op)) == NULL) {
        snprintf(why, 160, "handler 0x%x is not registered at rank %d", (unsigned)a->op, a->rank);
        return MPI_ERR_ARG;
    }
    if (r.e->vector != (a->counts != NULL)) {
        snprintf(why, 160, "handler 0x%x was registered with %s", (unsigned)a->op,
                 r.e->vector ? "MPIX_Amv_op_create: call MPIX_Amv" : "MPIX_Am_op_create: call MPIX_Am");
        return MPI_ERR_ARG;
    }
    if (a->in_dt->size != a->tin_dt->size || a->out_dt->size != a->tout_dt->size) {
        snprintf(why, 160, "the origin's and the target's %s segments differ in size",
                 a->in_dt->size != a->tin_dt->size ? "input" : "output");
        return MPI_ERR_TYPE;
    }
    vmpi_rma_side p = {NULL, a->pcount, a->pdt, a->pdt_h};
    if ((err = vmpi_rma_target_addr(w, a->rank, a->pdisp, &p, &r.pbuf, why)))
        return err;
    /* one segment must fit somewhere it could be staged (MPI-interoperable AMs, section II) */
    MPI_Aint seg = seg_stride(a->in_count, a->tin_dt) + seg_stride(a->out_count, a->tout_dt);
    MPI_Aint room = atomic_load_explicit(&r.t->ubuf_total, memory_order_relaxed);
    if (a->nseg > 0 && seg > am->sysbuf && seg > room) {
        snprintf(why, 160, "a %td-byte segment (in+out) fits neither the %td-byte system buffer nor the %td "
                 "bytes of user buffers at rank %d", seg, am->sysbuf, room, a->rank);
        return MPI_ERR_BUFFER;
    }
    am->st.ams++;
    if (a->nseg == 0)
        return MPI_SUCCESS;
    return am->staged ? run_staged(&r, am) : run_direct(&r, am);
}
