/* SPDX-License-Identifier: BSD-3-Clause */
/* Context ids are agreed on by letting one rank take them from the process-wide counter and telling the
 * others (ranks share the process, so an id taken once is unique).  Internal messages use the parent's
 * collective context with negative tags, which user collectives never use. */
#include <stdlib.h>
#include <string.h>
#include "dtype/dtype.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/coll_build.h"
#include "mpi/coll/csched.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/group_ops.h"
#include "mpi/comm/topo.h"
#include "mpi/core/attr.h"
#include "mpi/core/info.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/pt2pt/pt2pt.h"
#include "msg/loc.h"

enum {
    TAG_SPLIT = -100,
    TAG_SPLIT_REPLY = -101,
    TAG_MERGE = -103,
    TAG_DUP_INTER = -104,
    TAG_SPLIT_INTER = -105,
    TAG_SPLIT_INTER_REPLY = -106
};
/* tags derived from a user's tag, in disjoint ranges below the fixed ones */
static int tag_inter(int tag) { return -(1 << 29) - 2 * (tag & 0x0fffffff); } /* and tag_inter - 1 */
static int tag_create_group(int tag) { return -(1 << 30) - (tag & 0x3fffffff); }
#define COLL 1

static const vmpi_dtype *INT(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)); }
static const vmpi_dtype *BYTES(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

/* Rank in intracommunicator `c` of world rank `w`, or MPI_UNDEFINED. */
static int rank_of_world(const vmpi_comm *c, int w)
{
    if (c->group)
        return vmpi_group_rank_of(c->group, w);
    if (c->handle == MPI_COMM_WORLD)
        return w;
    return w == c->world_base ? 0 : MPI_UNDEFINED; /* MPI_COMM_SELF */
}

vmpi_comm *vmpi_comm_new_intra(vmpi_group *g, int ctx, const vmpi_comm *parent)
{
    vmpi_comm *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->ctx = ctx;
    c->rank = vmpi_group_rank_of(g, vmpi_rank_self()->world_rank);
    c->size = c->peer_size = g->size;
    c->world_of = g->world;
    c->group = vmpi_group_ref(g);
    c->errh = parent->errh;
    c->info = MPI_INFO_NULL;
    c->session = parent->session; /* a communicator derived from a session's derives from it too */
    return c;
}

static int publish(vmpi_comm *c, MPI_Comm *out)
{
    if (c == NULL)
        return MPI_ERR_NO_MEM;
    *out = vmpi_comm_register(c);
    if (*out == MPI_COMM_NULL) {
        vmpi_comm_release(c);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

/* An intercommunicator of the calling rank: local group `lg`, remote group `rg` (references taken),
 * context `ctx` and `lctx` for the internal intracommunicator over the local group. */
static vmpi_comm *new_inter(vmpi_group *lg, vmpi_group *rg, int ctx, int lctx, const vmpi_comm *parent)
{
    vmpi_comm *c = calloc(1, sizeof *c);
    vmpi_comm *l = vmpi_comm_new_intra(lg, lctx, parent);
    if (c == NULL || l == NULL) {
        free(c);
        if (l) {
            vmpi_group_unref(l->group);
            free(l);
        }
        return NULL;
    }
    c->ctx = ctx;
    c->rank = l->rank;
    c->size = lg->size;
    c->peer_size = rg->size;
    c->world_of = rg->world;
    c->group = vmpi_group_ref(lg);
    c->remote = vmpi_group_ref(rg);
    c->local = l;
    c->errh = parent->errh;
    c->info = MPI_INFO_NULL;
    c->session = parent->session; /* a communicator derived from a session's derives from it too */
    return c;
}

/* ---- dup ---- */

/* Both leaders of an intercommunicator take a context; the one of the leader with the lower world rank wins.
 * Every rank of both groups returns it. */
static int inter_agree(vmpi_comm *c, int tag, int *ctx)
{
    int err = MPI_SUCCESS;
    if (c->rank == 0) {
        int mine[2] = {vmpi_comm_ctx_alloc(), vmpi_rank_self()->world_rank}, theirs[2];
        err = vmpi_send(mine, 2, INT(), 0, tag, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_recv(theirs, 2, INT(), 0, tag, c, COLL, MPI_STATUS_IGNORE);
        *ctx = mine[1] < theirs[1] ? mine[0] : theirs[0];
    }
    int e2 = vmpi_coll_bcast(ctx, 1, INT(), 0, c->local, NULL);
    return err ? err : e2;
}

/* What a duplicate takes over besides its group: topology, hints (`info`, or the parent's when
 * MPI_INFO_NULL is not asked for explicitly) and cached attributes (their copy callbacks run here). */
static int dup_finish(vmpi_comm *c, MPI_Comm *out, bool own_info, MPI_Info info)
{
    vmpi_comm *n = vmpi_comm_get(*out);
    n->topo = vmpi_topo_ref(c->topo);
    MPI_Info from = own_info ? info : c->info;
    int err = from != MPI_INFO_NULL ? vmpi_info_dup(from, &n->info) : MPI_SUCCESS;
    if (!err)
        err = vmpi_attr_copy_all(c->handle, *out);
    if (err) {
        vmpi_comm_release(n);
        *out = MPI_COMM_NULL;
    }
    return err;
}

int vmpi_comm_dup(vmpi_comm *c, MPI_Comm *out) { return vmpi_comm_dup_with_info(c, false, MPI_INFO_NULL, out); }

int vmpi_comm_dup_with_info(vmpi_comm *c, bool own_info, MPI_Info info, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    int err;
    if (vmpi_comm_is_inter(c)) {
        int ctx, lctx = c->rank == 0 ? vmpi_comm_ctx_alloc() : 0;
        err = inter_agree(c, TAG_DUP_INTER, &ctx);
        if (!err)
            err = vmpi_coll_bcast(&lctx, 1, INT(), 0, c->local, NULL);
        if (!err)
            err = publish(new_inter(c->group, c->remote, ctx, lctx, c), out);
    } else {
        int ctx = c->rank == 0 ? vmpi_comm_ctx_alloc() : 0;
        err = vmpi_coll_bcast(&ctx, 1, INT(), 0, c, NULL);
        vmpi_group *g = err ? NULL : vmpi_comm_group(c);
        if (!err && g == NULL)
            err = MPI_ERR_NO_MEM;
        if (!err)
            err = publish(vmpi_comm_new_intra(g, ctx, c), out);
        vmpi_group_unref(g);
    }
    return err ? err : dup_finish(c, out, own_info, info);
}

/* ---- idup ---- */

/* Comm_idup returns the duplicate at once, its context still unknown on most ranks, and a request: a
 * schedule on the parent (its collective context and sequence number) that brings the context and fills it
 * into the duplicate, which the program may use only once the request is complete.  Rank 0 takes the
 * context and broadcasts it.  On an intercommunicator the leader with the lower world rank takes it and
 * sends it to the other leader; each leader takes its group's internal context (both groups may have the
 * same: they never talk on it) and broadcasts both over its group.  Messages only, so it works the same
 * between processes (each has its own context counter) as within one. */
int vmpi_comm_idup(vmpi_comm *c, bool own_info, MPI_Info info, MPI_Comm *out, MPI_Request *req)
{
    const vmpi_dtype *t = INT();
    vmpi_comm *n;
    int err;
    *out = MPI_COMM_NULL;
    if (vmpi_comm_is_inter(c)) {
        n = new_inter(c->group, c->remote, -1, -1, c);
    } else {
        vmpi_group *g = vmpi_comm_group(c);
        n = g ? vmpi_comm_new_intra(g, -1, c) : NULL;
        vmpi_group_unref(g);
    }
    err = publish(n, out);
    if (!err)
        err = dup_finish(c, out, own_info, info);
    if (err)
        return err;
    vmpi_csched *s = vmpi_cs_new(c);
    if (s == NULL) {
        vmpi_comm_release(n);
        *out = MPI_COMM_NULL;
        return MPI_ERR_NO_MEM;
    }
    if (vmpi_comm_is_inter(c)) {
        int *v = vmpi_cs_tmp(s, 2, t);
        if (v == NULL) {
            vmpi_cs_nomem(s);
        } else {
            bool takes = c->group->world[0] < c->remote->world[0];
            if (c->rank == 0) {
                v[0] = takes ? vmpi_comm_ctx_alloc() : -1;
                v[1] = vmpi_comm_ctx_alloc();
                vmpi_cs_local(s, false);
                if (takes)
                    vmpi_cs_send(s, v, 1, t, 0);
                else
                    vmpi_cs_recv(s, v, 1, t, 0);
                vmpi_cs_round(s);
            }
            vmpi_cs_local(s, true);
            vmpi_build_bcast(s, v, 2, t, 0, c->size, c->rank);
            vmpi_cs_copy(s, &v[0], 1, t, &n->ctx, 1, t);
            vmpi_cs_copy(s, &v[1], 1, t, &n->local->ctx, 1, t);
            vmpi_cs_round(s);
        }
    } else {
        if (c->rank == 0)
            n->ctx = vmpi_comm_ctx_alloc();
        vmpi_build_bcast(s, &n->ctx, 1, t, 0, c->size, c->rank);
    }
    err = vmpi_cs_run(s, req, "MPI_Comm_idup");
    if (err) {
        vmpi_comm_release(n);
        *out = MPI_COMM_NULL;
    }
    return err;
}

/* ---- groups in messages ----
 * A decision made at one rank (a split's) hands groups to others.  Within a process a group goes as a
 * reference (the receiver shares it); to a rank of another process a pointer means nothing, so the group goes
 * as its members' world ranks and the receiver makes its own.  Both sides tell which from where the two ranks
 * live (msg/loc.h), so they always agree. */

enum { GROUPS_MAX = 2, INTS_MAX = 2 };

typedef struct groups_ref {
    vmpi_group *g[GROUPS_MAX];
    int v[INTS_MAX];
} groups_ref;

/* Sends groups g[0..ng) (references, which the message takes over; NULL allowed) and values v[0..nv) to rank
 * `dst` of `c` (its peer group for an intercommunicator). */
static int send_groups(vmpi_comm *c, int dst, int tag, vmpi_group *const *g, int ng, const int *v, int nv)
{
    int me = vmpi_rank_self()->world_rank, peer = vmpi_comm_world_rank(c, dst);
    if (vmpi_loc_same_proc(me, peer)) {
        groups_ref m = {{NULL, NULL}, {0, 0}};
        memcpy(m.g, g, sizeof *g * (size_t)ng);
        memcpy(m.v, v, sizeof *v * (size_t)nv);
        return vmpi_send(&m, (MPI_Count)sizeof m, BYTES(), dst, tag, c, COLL, VMPI_SENDK_STD);
    }
    int hdr[INTS_MAX + GROUPS_MAX], total = 0;
    memcpy(hdr, v, sizeof *v * (size_t)nv);
    for (int i = 0; i < ng; i++) {
        hdr[nv + i] = g[i] ? g[i]->size : -1;
        total += g[i] ? g[i]->size : 0;
    }
    int err = vmpi_send(hdr, nv + ng, INT(), dst, tag, c, COLL, VMPI_SENDK_STD);
    int *w = total ? malloc(sizeof(int) * (size_t)total) : NULL;
    if (total && w == NULL)
        err = err ? err : MPI_ERR_NO_MEM; /* the receiver still waits for the list: it gets zeros */
    for (int i = 0, at = 0; i < ng; i++) {
        if (g[i] && w)
            memcpy(w + at, g[i]->world, sizeof(int) * (size_t)g[i]->size);
        at += g[i] ? g[i]->size : 0;
        vmpi_group_unref(g[i]);
    }
    if (total) {
        int *list = w ? w : calloc((size_t)total, sizeof(int));
        int e = vmpi_send(list, total, INT(), dst, tag, c, COLL, VMPI_SENDK_STD);
        err = err ? err : e;
        if (list != w)
            free(list);
    }
    free(w);
    return err;
}

/* Receives what send_groups sent from rank `src` of `c`: references in g[0..ng) (NULL when none was sent), the
 * values in v[0..nv). */
static int recv_groups(vmpi_comm *c, int src, int tag, vmpi_group **g, int ng, int *v, int nv)
{
    int me = vmpi_rank_self()->world_rank, peer = vmpi_comm_world_rank(c, src);
    for (int i = 0; i < ng; i++)
        g[i] = NULL;
    if (vmpi_loc_same_proc(me, peer)) {
        groups_ref m;
        int err = vmpi_recv(&m, (MPI_Count)sizeof m, BYTES(), src, tag, c, COLL, MPI_STATUS_IGNORE);
        if (err)
            return err;
        memcpy(g, m.g, sizeof *g * (size_t)ng);
        memcpy(v, m.v, sizeof *v * (size_t)nv);
        return MPI_SUCCESS;
    }
    int hdr[INTS_MAX + GROUPS_MAX], total = 0;
    int err = vmpi_recv(hdr, nv + ng, INT(), src, tag, c, COLL, MPI_STATUS_IGNORE);
    if (err)
        return err;
    memcpy(v, hdr, sizeof *v * (size_t)nv);
    for (int i = 0; i < ng; i++)
        total += hdr[nv + i] > 0 ? hdr[nv + i] : 0;
    if (total == 0) {
        for (int i = 0; i < ng; i++)
            if (hdr[nv + i] == 0 && (g[i] = vmpi_group_new(NULL, 0)) == NULL)
                err = MPI_ERR_NO_MEM;
        return err;
    }
    int *w = malloc(sizeof(int) * (size_t)total);
    int *list = w ? w : malloc(sizeof(int)); /* out of memory: the message is still taken */
    err = vmpi_recv(w ? w : list, w ? total : 0, INT(), src, tag, c, COLL, MPI_STATUS_IGNORE);
    if (w == NULL)
        err = MPI_ERR_NO_MEM;
    for (int i = 0, at = 0; i < ng && !err; i++) {
        if (hdr[nv + i] < 0)
            continue;
        if ((g[i] = vmpi_group_new(w + at, hdr[nv + i])) == NULL)
            err = MPI_ERR_NO_MEM;
        at += hdr[nv + i];
    }
    if (err)
        for (int i = 0; i < ng; i++) {
            vmpi_group_unref(g[i]);
            g[i] = NULL;
        }
    free(w ? w : list);
    return err;
}

/* ---- split ---- */

typedef struct split_entry {
    int color, key, rank;
} split_entry;

typedef struct split_reply {
    vmpi_group *g; /* a reference for the receiver, or NULL (MPI_UNDEFINED) */
    int ctx;
} split_reply;

static int by_color_key(const void *a, const void *b)
{
    const split_entry *x = a, *y = b;
    if (x->color != y->color)
        return (x->color > y->color) - (x->color < y->color);
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Rank 0 of the parent collects (color, key), builds one shared group per color and sends every rank its
 * group and context: O(n log n) work at one rank instead of every rank sorting the whole table.  `all`
 * holds every rank's entry (rank 0 fills it); `rep` gets the replies, rank 0's own in rep[0]. */
static int split_decide(vmpi_comm *c, split_entry *all, split_reply *rep)
{
    int n = c->size, err = MPI_SUCCESS;
    qsort(all, (size_t)n, sizeof *all, by_color_key);
    int *w = malloc(sizeof(int) * (size_t)n);
    if (w == NULL)
        err = MPI_ERR_NO_MEM;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && all[j].color == all[i].color)
            j++;
        vmpi_group *g = NULL;
        int ctx = 0;
        if (all[i].color != MPI_UNDEFINED && w) {
            for (int k = i; k < j; k++)
                w[k - i] = vmpi_comm_world_rank(c, all[k].rank);
            g = vmpi_group_new(w, j - i);
            ctx = vmpi_comm_ctx_alloc();
            if (g == NULL)
                err = MPI_ERR_NO_MEM;
        }
        for (int k = i; k < j; k++)
            rep[all[k].rank] = (split_reply){g && k > i ? vmpi_group_ref(g) : g, ctx};
        i = j;
    }
    free(w);
    for (int r = 1; r < n; r++) {
        int e = send_groups(c, r, TAG_SPLIT_REPLY, &rep[r].g, 1, &rep[r].ctx, 1);
        err = err ? err : e;
    }
    return err;
}

/* The end of a split at every rank: rank 0 decides from `all` (filled by `fill`), the others wait for their
 * reply; then the new communicator, if any. */
static int split_finish(vmpi_comm *c, split_entry *all, split_reply *rep, MPI_Comm *out)
{
    split_reply mine = {NULL, 0};
    int err;
    if (c->rank == 0) {
        err = split_decide(c, all, rep);
        mine = rep[0];
    } else {
        err = recv_groups(c, 0, TAG_SPLIT_REPLY, &mine.g, 1, &mine.ctx, 1);
    }
    if (err || mine.g == NULL) {
        vmpi_group_unref(mine.g);
        return err;
    }
    err = publish(vmpi_comm_new_intra(mine.g, mine.ctx, c), out);
    vmpi_group_unref(mine.g);
    return err;
}

static int split_inter(vmpi_comm *c, int color, int key, MPI_Comm *out);

/* The tables rank 0 decides from (NULL elsewhere); false when out of memory. */
static bool split_tables(const vmpi_comm *c, split_entry **all, split_reply **rep)
{
    *all = NULL;
    *rep = NULL;
    if (c->rank != 0)
        return true;
    *all = malloc(sizeof **all * (size_t)c->size);
    *rep = malloc(sizeof **rep * (size_t)c->size);
    if (*all && *rep)
        return true;
    free(*all);
    free(*rep);
    return false;
}

int vmpi_comm_split(vmpi_comm *c, int color, int key, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    if (vmpi_comm_is_inter(c))
        return split_inter(c, color, key, out);
    split_entry me = {color, key, c->rank}, *all;
    split_reply *rep;
    if (!split_tables(c, &all, &rep))
        return MPI_ERR_NO_MEM; /* the others then wait: out of memory is fatal in practice */
    int err = MPI_SUCCESS;
    if (c->rank == 0) {
        all[0] = me;
        for (int r = 1; r < c->size && !err; r++)
            err = vmpi_recv(&all[r], (MPI_Count)sizeof *all, BYTES(), r, TAG_SPLIT, c, COLL, MPI_STATUS_IGNORE);
    } else {
        err = vmpi_send(&me, (MPI_Count)sizeof me, BYTES(), 0, TAG_SPLIT, c, COLL, VMPI_SENDK_STD);
    }
    if (!err)
        err = split_finish(c, all, rep, out);
    free(all);
    free(rep);
    return err;
}

int vmpi_comm_renumber(vmpi_comm *c, const int *newrank, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    split_entry *all;
    split_reply *rep;
    if (!split_tables(c, &all, &rep))
        return MPI_ERR_NO_MEM;
    for (int r = 0; all && r < c->size; r++)
        all[r] = (split_entry){newrank[r] == MPI_UNDEFINED ? MPI_UNDEFINED : 0, newrank[r], r};
    int err = split_finish(c, all, rep, out);
    free(all);
    free(rep);
    return err;
}

/* ---- split on an intercommunicator ---- */

typedef struct inter_reply {
    vmpi_group *local, *remote; /* references for the receiver, or NULL: MPI_COMM_NULL */
    int ctx, lctx;
} inter_reply;

static int send_inter_reply(vmpi_comm *c, int dst, int tag, const inter_reply *r)
{
    vmpi_group *g[2] = {r->local, r->remote};
    int v[2] = {r->ctx, r->lctx};
    return send_groups(c, dst, tag, g, 2, v, 2);
}

static int recv_inter_reply(vmpi_comm *c, int src, int tag, inter_reply *r)
{
    vmpi_group *g[2];
    int v[2] = {0, 0};
    int err = recv_groups(c, src, tag, g, 2, v, 2);
    *r = (inter_reply){g[0], g[1], v[0], v[1]};
    return err;
}

/* Sorts each side's (color, key) table and pairs the colors both sides hold: each becomes one
 * intercommunicator, whose two groups are shared by all its members.  `aw`/`bw`: world ranks of the sides. */
static int split_pair(split_entry *a, int na, const int *aw, inter_reply *ra, split_entry *b, int nb, const int *bw,
                      inter_reply *rb)
{
    qsort(a, (size_t)na, sizeof *a, by_color_key);
    qsort(b, (size_t)nb, sizeof *b, by_color_key);
    for (int k = 0; k < na; k++)
        ra[k] = (inter_reply){NULL, NULL, 0, 0};
    for (int k = 0; k < nb; k++)
        rb[k] = (inter_reply){NULL, NULL, 0, 0};
    int *w = malloc(sizeof(int) * (size_t)(na > nb ? na : nb)), err = MPI_SUCCESS;
    if (w == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0, j = 0; i < na && j < nb;) {
        if (a[i].color != b[j].color) { /* a color of one side only: its ranks keep NULL */
            int lo = a[i].color < b[j].color ? a[i].color : b[j].color;
            while (i < na && a[i].color == lo)
                i++;
            while (j < nb && b[j].color == lo)
                j++;
            continue;
        }
        int ie = i, je = j;
        while (ie < na && a[ie].color == a[i].color)
            ie++;
        while (je < nb && b[je].color == b[j].color)
            je++;
        if (a[i].color != MPI_UNDEFINED) {
            for (int k = i; k < ie; k++)
                w[k - i] = aw[a[k].rank];
            vmpi_group *ga = vmpi_group_new(w, ie - i);
            for (int k = j; k < je; k++)
                w[k - j] = bw[b[k].rank];
            vmpi_group *gb = vmpi_group_new(w, je - j);
            /* both sides' internal intracommunicators may share one context: they never talk to each other */
            int ctx = vmpi_comm_ctx_alloc(), lctx = vmpi_comm_ctx_alloc();
            for (int k = i; ga && gb && k < ie; k++)
                ra[a[k].rank] = (inter_reply){vmpi_group_ref(ga), vmpi_group_ref(gb), ctx, lctx};
            for (int k = j; ga && gb && k < je; k++)
                rb[b[k].rank] = (inter_reply){vmpi_group_ref(gb), vmpi_group_ref(ga), ctx, lctx};
            if (ga == NULL || gb == NULL)
                err = MPI_ERR_NO_MEM;
            vmpi_group_unref(ga);
            vmpi_group_unref(gb);
        }
        i = ie;
        j = je;
    }
    free(w);
    return err;
}

/* The local leaders gather their groups' (color, key); the leader with the lower world rank receives the
 * other's table, pairs the colors and returns the other side's replies; each leader then answers its group.
 * Deciding at one rank gives both sides the same contexts and shared groups without a second exchange. */
static int split_inter_leader(vmpi_comm *c, split_entry *all, inter_reply *rep)
{
    int n = c->size, m = c->peer_size, err = MPI_SUCCESS;
    for (int r = 1; r < n && !err; r++)
        err = vmpi_recv(&all[r], (MPI_Count)sizeof *all, BYTES(), r, TAG_SPLIT, c->local, COLL, MPI_STATUS_IGNORE);
    bool builder = vmpi_rank_self()->world_rank < vmpi_comm_world_rank(c, 0);
    if (err) {
        /* nothing to pair: every rank of this side gets MPI_COMM_NULL */
    } else if (builder) {
        err = vmpi_recv(all + n, (MPI_Count)sizeof *all * m, BYTES(), 0, TAG_SPLIT_INTER, c, COLL, MPI_STATUS_IGNORE);
        if (!err)
            err = split_pair(all, n, c->group->world, rep, all + n, m, c->remote->world, rep + n);
        else
            for (int k = 0; k < m; k++)
                rep[n + k] = (inter_reply){NULL, NULL, 0, 0};
        for (int k = 0; k < m; k++) { /* the other side's replies, one by one */
            int e = send_inter_reply(c, 0, TAG_SPLIT_INTER_REPLY, &rep[n + k]);
            err = err ? err : e;
        }
    } else {
        err = vmpi_send(all, (MPI_Count)sizeof *all * n, BYTES(), 0, TAG_SPLIT_INTER, c, COLL, VMPI_SENDK_STD);
        for (int k = 0; k < n && !err; k++)
            err = recv_inter_reply(c, 0, TAG_SPLIT_INTER_REPLY, &rep[k]);
    }
    if (err)
        for (int r = 0; r < n; r++)
            rep[r] = (inter_reply){NULL, NULL, 0, 0};
    for (int r = 1; r < n; r++) {
        int e = send_inter_reply(c->local, r, TAG_SPLIT_REPLY, &rep[r]);
        err = err ? err : e;
    }
    return err;
}

static int split_inter(vmpi_comm *c, int color, int key, MPI_Comm *out)
{
    split_entry me = {color, key, c->rank};
    inter_reply mine = {NULL, NULL, 0, 0};
    int err;
    if (c->rank == 0) {
        size_t total = (size_t)c->size + (size_t)c->peer_size;
        split_entry *all = malloc(sizeof *all * total);
        inter_reply *rep = malloc(sizeof *rep * total);
        if (all == NULL || rep == NULL) {
            free(all);
            free(rep);
            return MPI_ERR_NO_MEM; /* the others then wait: out of memory is fatal in practice */
        }
        all[0] = me;
        err = split_inter_leader(c, all, rep);
        mine = rep[0];
        free(all);
        free(rep);
    } else {
        err = vmpi_send(&me, (MPI_Count)sizeof me, BYTES(), 0, TAG_SPLIT, c->local, COLL, VMPI_SENDK_STD);
        if (!err)
            err = recv_inter_reply(c->local, 0, TAG_SPLIT_REPLY, &mine);
    }
    if (!err && mine.local)
        err = publish(new_inter(mine.local, mine.remote, mine.ctx, mine.lctx, c), out);
    vmpi_group_unref(mine.local);
    vmpi_group_unref(mine.remote);
    return err;
}

/* ---- create, create_group ---- */

int vmpi_comm_create(vmpi_comm *c, vmpi_group *g, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    if (vmpi_comm_is_inter(c)) {
        /* a split where the group's members take color 0 in group order: a side whose group is empty has
         * no member of color 0, so every rank gets MPI_COMM_NULL, as MPI-3.1 (6.4.2) asks */
        int me = vmpi_group_rank_of(g, vmpi_rank_self()->world_rank);
        return split_inter(c, me == MPI_UNDEFINED ? MPI_UNDEFINED : 0, me, out);
    }
    int ctx = c->rank == 0 ? vmpi_comm_ctx_alloc() : 0;
    int err = vmpi_coll_bcast(&ctx, 1, INT(), 0, c, NULL);
    if (err || vmpi_group_rank_of(g, vmpi_rank_self()->world_rank) == MPI_UNDEFINED)
        return err;
    return publish(vmpi_comm_new_intra(g, ctx, c), out);
}

int vmpi_comm_create_group(vmpi_comm *c, vmpi_group *g, int tag, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    int me = vmpi_group_rank_of(g, vmpi_rank_self()->world_rank), ctx = 0, err = MPI_SUCCESS;
    if (me == MPI_UNDEFINED)
        return MPI_ERR_GROUP; /* only members call it */
    /* a chain from the group's rank 0: each member learns the context from its predecessor; ranks of
     * the group are named by their rank in `c` */
    int itag = tag_create_group(tag);
    if (me == 0)
        ctx = vmpi_comm_ctx_alloc();
    else
        err = vmpi_recv(&ctx, 1, INT(), rank_of_world(c, g->world[me - 1]), itag, c, COLL, MPI_STATUS_IGNORE);
    if (!err && me + 1 < g->size)
        err = vmpi_send(&ctx, 1, INT(), rank_of_world(c, g->world[me + 1]), itag, c, COLL, VMPI_SENDK_STD);
    return err ? err : publish(vmpi_comm_new_intra(g, ctx, c), out);
}

/* ---- intercommunicators ---- */

int vmpi_intercomm_create(vmpi_comm *local, int local_leader, vmpi_comm *peer, int remote_leader, int tag,
                          MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    /* hdr: remote size, intercommunicator context, internal local context */
    int hdr[3] = {0, 0, 0}, err = MPI_SUCCESS, itag = tag_inter(tag);
    vmpi_group *lg = vmpi_comm_group(local);
    int *rw = NULL;
    if (lg == NULL)
        return MPI_ERR_NO_MEM;
    if (local->rank == local_leader) {
        /* the leaders swap (size, context candidate, leader's world rank) and then their members */
        int mine[3] = {lg->size, vmpi_comm_ctx_alloc(), vmpi_rank_self()->world_rank}, theirs[3];
        err = vmpi_send(mine, 3, INT(), remote_leader, itag, peer, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_recv(theirs, 3, INT(), remote_leader, itag, peer, COLL, MPI_STATUS_IGNORE);
        if (!err && (rw = malloc(sizeof(int) * (size_t)(theirs[0] ? theirs[0] : 1))) == NULL)
            err = MPI_ERR_NO_MEM;
        if (!err)
            err = vmpi_send(lg->world, lg->size, INT(), remote_leader, itag - 1, peer, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_recv(rw, theirs[0], INT(), remote_leader, itag - 1, peer, COLL, MPI_STATUS_IGNORE);
        hdr[0] = theirs[0];
        hdr[1] = mine[2] < theirs[2] ? mine[1] : theirs[1];
        hdr[2] = vmpi_comm_ctx_alloc();
    }
    int e = vmpi_coll_bcast(hdr, 3, INT(), local_leader, local, NULL);
    err = err ? err : e;
    if (!err && local->rank != local_leader && (rw = malloc(sizeof(int) * (size_t)(hdr[0] ? hdr[0] : 1))) == NULL)
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = vmpi_coll_bcast(rw, hdr[0], INT(), local_leader, local, NULL);
    vmpi_group *rg = err ? NULL : vmpi_group_new(rw, hdr[0]);
    if (!err && rg == NULL)
        err = MPI_ERR_NO_MEM;
    if (!err)
        err = publish(new_inter(lg, rg, hdr[1], hdr[2], local), out);
    vmpi_group_unref(rg);
    vmpi_group_unref(lg);
    free(rw);
    return err;
}

int vmpi_intercomm_merge(vmpi_comm *inter, int high, MPI_Comm *out)
{
    *out = MPI_COMM_NULL;
    /* info: my group goes first (1/0), merged context */
    int info[2] = {0, 0}, err = MPI_SUCCESS;
    if (inter->rank == 0) {
        int mine[3] = {high ? 1 : 0, vmpi_rank_self()->world_rank, vmpi_comm_ctx_alloc()}, theirs[3];
        err = vmpi_send(mine, 3, INT(), 0, TAG_MERGE, inter, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_recv(theirs, 3, INT(), 0, TAG_MERGE, inter, COLL, MPI_STATUS_IGNORE);
        /* the group that asked for "low" goes first; on a tie, the group whose leader has the lower world rank */
        info[0] = mine[0] != theirs[0] ? mine[0] < theirs[0] : mine[1] < theirs[1];
        info[1] = mine[1] < theirs[1] ? mine[2] : theirs[2];
    }
    int e = vmpi_coll_bcast(info, 2, INT(), 0, inter->local, NULL);
    err = err ? err : e;
    if (err)
        return err;
    vmpi_group *first = info[0] ? inter->group : inter->remote, *second = info[0] ? inter->remote : inter->group;
    int *w = malloc(sizeof(int) * (size_t)(first->size + second->size));
    if (w == NULL)
        return MPI_ERR_NO_MEM;
    memcpy(w, first->world, sizeof(int) * (size_t)first->size);
    memcpy(w + first->size, second->world, sizeof(int) * (size_t)second->size);
    vmpi_group *g = vmpi_group_new(w, first->size + second->size);
    free(w);
    if (g == NULL)
        return MPI_ERR_NO_MEM;
    err = publish(vmpi_comm_new_intra(g, info[1], inter), out);
    vmpi_group_unref(g);
    return err;
}

/* ---- compare ---- */

int vmpi_comm_compare(const vmpi_comm *a, const vmpi_comm *b)
{
    if (a == b)
        return MPI_IDENT;
    if (vmpi_comm_is_inter(a) != vmpi_comm_is_inter(b))
        return MPI_UNEQUAL;
    vmpi_group *ga = vmpi_comm_group(a), *gb = vmpi_comm_group(b);
    int r = ga && gb ? vmpi_group_compare(ga, gb) : MPI_UNEQUAL;
    if (r == MPI_IDENT && vmpi_comm_is_inter(a))
        r = vmpi_group_compare(a->remote, b->remote);
    vmpi_group_unref(ga);
    vmpi_group_unref(gb);
    return r == MPI_IDENT ? MPI_CONGRUENT : r;
}
