/* SPDX-License-Identifier: BSD-3-Clause */
/* What a rank refers to in its process's tables and job heap, written with it by a checkpoint and taken
 * back by a restart that brings it into another process (docs/research/restart-procs.md):
 *   - its entries in the tables of datatypes, groups, info objects and user operations (handles unique in
 *     the job, each with its owner: mpi/core/handle.h); the datatypes and info objects themselves are in its
 *     slot, and an operation's function in its copy of the program, so an entry is re-registered as it is;
 *   - every group it refers to (its communicators', their copies in its pending schedules', its group
 *     handles'): groups are shared in the job heap by the ranks of a process, so they are written as their
 *     members' world ranks and made again in the new process's job heap, once per group of the checkpoint's
 *     process, and the rank's references (communicator fields, the derived world_of, handles) are pointed at
 *     them.  The new groups hold one reference more than their sites: never freed, never freed early. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "iso/iso.h"
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"
#include "mpi/coll/csched.h"
#include "mpi/core/group.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"

/* ---- a growing buffer ---- */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *data, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 1024;
        while (cap < b->len + n)
            cap *= 2;
        char *q = vmpi_sys_realloc(b->p, cap);
        if (q == NULL)
            vmpi_fatal("out of memory writing a rank's objects into a checkpoint");
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}

/* ---- every communicator of a rank: its own and its schedules' copies ---- */
typedef void (*comm_fn)(void *arg, vmpi_comm *c);

static void each_comm(vmpi_rank *rk, comm_fn fn, void *arg)
{
    for (int i = 0; i < rk->ncomms; i++) {
        vmpi_comm *c = rk->comms[i];
        if (c == NULL)
            continue;
        fn(arg, c);
        if (c->local)
            fn(arg, c->local);
    }
    vmpi_cs_each_comm(rk, fn, arg);
}

/* ---- saving ---- */
typedef struct saver {
    buf ents;                /* the entries, by kind (four passes) */
    const vmpi_group **groups;
    int ngroups, cap;
    ck_owned_head head;
} saver;

static void note_group(saver *s, const vmpi_group *g)
{
    if (g == NULL)
        return;
    for (int i = 0; i < s->ngroups; i++)
        if (s->groups[i] == g)
            return;
    if (s->ngroups == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->groups = vmpi_sys_realloc(s->groups, sizeof *s->groups * (size_t)s->cap);
        if (s->groups == NULL)
            vmpi_fatal("out of memory writing a rank's groups into a checkpoint");
    }
    s->groups[s->ngroups++] = g;
}

static void comm_groups(void *arg, vmpi_comm *c)
{
    note_group(arg, c->group);
    note_group(arg, c->remote);
}

static void save_dt(void *arg, unsigned slot, unsigned state, vmpi_dtype *dt)
{
    saver *s = arg;
    ck_dt_ent e = {slot, state, (uint64_t)(uintptr_t)dt};
    put(&s->ents, &e, sizeof e);
    s->head.ndt++;
}

static void save_gh(void *arg, int idx, vmpi_group *g)
{
    saver *s = arg;
    ck_gh_ent e = {idx, 0, (uint64_t)(uintptr_t)g};
    put(&s->ents, &e, sizeof e);
    note_group(s, g);
    s->head.ngh++;
}

static void save_info(void *arg, int idx, vmpi_info *o)
{
    saver *s = arg;
    ck_info_ent e = {idx, 0, (uint64_t)(uintptr_t)o};
    put(&s->ents, &e, sizeof e);
    s->head.ninfo++;
}

static void save_op(void *arg, const vmpi_op_entry *o)
{
    saver *s = arg;
    ck_op_ent e = {o->slot, o->gen, o->commute, o->freed, o->large, o->abi, o->holds, (uint64_t)(uintptr_t)o->fn};
    put(&s->ents, &e, sizeof e);
    s->head.nop++;
}

void *vmpi_adapt_owned_save(vmpi_rank *rk, size_t *len)
{
    saver s = {0};
    int r = rk->world_rank;
    vmpi_dt_each_owned(r, save_dt, &s);
    vmpi_group_each_owned(r, save_gh, &s);
    vmpi_info_each_owned(r, save_info, &s);
    vmpi_op_each_owned(r, save_op, &s);
    each_comm(rk, comm_groups, &s);
    s.head.ngroups = (uint32_t)s.ngroups;
    buf out = {0};
    put(&out, &s.head, sizeof s.head);
    if (s.ents.len)
        put(&out, s.ents.p, s.ents.len);
    for (int i = 0; i < s.ngroups; i++) {
        const vmpi_group *g = s.groups[i];
        ck_group_head h = {(uint64_t)(uintptr_t)g, (uint64_t)(uintptr_t)g->world, g->size, 0};
        put(&out, &h, sizeof h);
        for (int k = 0; k < g->size; k++) {
            int32_t w = g->world[k];
            put(&out, &w, sizeof w);
        }
    }
    vmpi_sys_free(s.ents.p);
    vmpi_sys_free(s.groups);
    *len = out.len;
    return out.p;
}

/* ---- taking back ---- */
/* The groups made again for the ranks of one checkpoint's process: by their old address. */
typedef struct made {
    uint64_t addr, world;
    vmpi_group *g;
} made;
static struct {
    made *m;
    int n, cap;
} M;

void vmpi_adapt_owned_part_begin(void) { M.n = 0; }

static made *find(uint64_t addr, bool by_world)
{
    for (int i = 0; i < M.n; i++)
        if ((by_world ? M.m[i].world : M.m[i].addr) == addr)
            return &M.m[i];
    return NULL;
}

typedef struct rewriter {
    int rank;
    bool bad;
} rewriter;

static vmpi_group *again(rewriter *w, vmpi_group *old)
{
    if (old == NULL)
        return NULL;
    made *m = find((uint64_t)(uintptr_t)old, false);
    if (m == NULL) {
        w->bad = true;
        return old;
    }
    return vmpi_group_ref(m->g);
}

static void comm_again(void *arg, vmpi_comm *c)
{
    rewriter *w = arg;
    const int *wo = c->world_of;
    c->group = again(w, c->group);
    c->remote = again(w, c->remote);
    if (wo) {
        made *m = find((uint64_t)(uintptr_t)wo, true);
        if (m == NULL)
            w->bad = true;
        else
            c->world_of = m->g->world;
    }
}

/* Reads `n` bytes at *p (within `end`), or fails. */
static bool take(const char **p, const char *end, void *out, size_t n)
{
    if ((size_t)(end - *p) < n)
        return false;
    memcpy(out, *p, n);
    *p += n;
    return true;
}

const char *vmpi_adapt_owned_load(vmpi_rank *rk, const void *data, size_t len)
{
    const char *p = data, *end = p + len;
    ck_owned_head h;
    if (!take(&p, end, &h, sizeof h))
        return "malformed";
    const char *ents = p;
    size_t elen = h.ndt * sizeof(ck_dt_ent) + h.ngh * sizeof(ck_gh_ent) + h.ninfo * sizeof(ck_info_ent) +
                  h.nop * sizeof(ck_op_ent);
    if ((size_t)(end - p) < elen)
        return "malformed";
    p += elen;
    /* the groups first: the group handles name them */
    for (uint32_t i = 0; i < h.ngroups; i++) {
        ck_group_head gh;
        if (!take(&p, end, &gh, sizeof gh) || gh.size < 0 || (size_t)(end - p) < sizeof(int32_t) * (size_t)gh.size)
            return "malformed";
        int *world = vmpi_sys_malloc(sizeof(int) * (size_t)(gh.size ? gh.size : 1));
        if (world == NULL)
            vmpi_fatal("out of memory restarting");
        memcpy(world, p, sizeof(int32_t) * (size_t)gh.size);
        p += sizeof(int32_t) * (size_t)gh.size;
        for (int k = 0; k < gh.size; k++)
            if (world[k] < 0 || world[k] >= vmpi_world_size())
                return "malformed (a group's member is no rank)";
        if (find(gh.addr, false) == NULL) {
            if (M.n == M.cap) {
                M.cap = M.cap ? 2 * M.cap : 16;
                M.m = vmpi_sys_realloc(M.m, sizeof *M.m * (size_t)M.cap);
                if (M.m == NULL)
                    vmpi_fatal("out of memory restarting");
            }
            vmpi_group *g = vmpi_group_new(world, gh.size); /* its own reference: kept for ever */
            if (g == NULL)
                vmpi_fatal("out of memory restarting (a group of %d ranks)", gh.size);
            M.m[M.n++] = (made){gh.addr, gh.world, g};
        }
        vmpi_sys_free(world);
    }
    if (p != end)
        return "malformed (trailing bytes)";
    int r = rk->world_rank;
    /* its entries: the copies of them that this process's table may hold (its checkpoint's process's table,
     * put back here, had the entries of ranks now elsewhere) go first */
    vmpi_dt_forget_owned(r);
    vmpi_group_forget_owned(r);
    vmpi_info_forget_owned(r);
    vmpi_op_forget_owned(r);
    p = ents;
    for (uint32_t i = 0; i < h.ndt; i++) {
        ck_dt_ent e;
        take(&p, end, &e, sizeof e);
        vmpi_dtype *dt = (vmpi_dtype *)(uintptr_t)e.dt;
        if (vmpi_iso_slot_of(dt) != r || !vmpi_dt_install(e.slot, e.state, dt, r))
            return "a datatype handle cannot be registered again (corrupt, or taken here)";
    }
    for (uint32_t i = 0; i < h.ngh; i++) {
        ck_gh_ent e;
        take(&p, end, &e, sizeof e);
        made *m = find(e.group, false);
        if (m == NULL || !vmpi_group_install(e.idx, vmpi_group_ref(m->g), r))
            return "a group handle cannot be registered again (corrupt, or taken here)";
    }
    for (uint32_t i = 0; i < h.ninfo; i++) {
        ck_info_ent e;
        take(&p, end, &e, sizeof e);
        vmpi_info *o = (vmpi_info *)(uintptr_t)e.obj;
        if (vmpi_iso_slot_of(o) != r || !vmpi_info_install(e.idx, o, r))
            return "an info handle cannot be registered again (corrupt, or taken here)";
    }
    for (uint32_t i = 0; i < h.nop; i++) {
        ck_op_ent e;
        take(&p, end, &e, sizeof e);
        vmpi_op_entry o = {e.slot, e.gen, e.commute, e.freed, e.holds, (MPI_User_function *)(uintptr_t)e.fn,
                           e.large != 0, e.abi != 0};
        if (!vmpi_op_install(&o, r))
            return "an operation handle cannot be registered again (corrupt, or taken here)";
    }
    rewriter w = {r, false};
    each_comm(rk, comm_again, &w);
    return w.bad ? "a communicator refers to a group the checkpoint does not describe (corrupt)" : NULL;
}
