/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed graph topologies.  MPI_Dist_graph_create lets any rank name any edge: rank 0 of the
 * communicator collects every edge and tells each rank its in- and out-neighbours (in the order the edges
 * were given, by rank), which is also the order the neighbourhood collectives use.  The graph's nodes are
 * ranks of the new communicator, as in MPI_Graph_create: with reorder (both constructors), rank 0 chooses
 * which rank takes which node (mpi/comm/topo_map.h) and hands each rank its node's lists, unchanged;
 * Dist_graph_create_adjacent then sends every rank's lists through rank 0 too.  The entry points are generated
 * (spec/dist_graph.toml: the caller, the communicator, info and the new communicator's pointer); these are
 * their implementations (binding/impl.h). */
#include <stdlib.h>
#include <string.h>
#include "binding/check.h"
#include "binding/impl.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/topo.h"
#include "mpi/comm/topo_reorder.h"
#include "mpi/core/handle.h"
#include "mpi/pt2pt/pt2pt.h"

enum { TAG_EDGES = -110, TAG_ADJ = -111 };
#define COLL 1

static const vmpi_dtype *INT(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT)); }

static bool weighted_arg(const int *w) { return w != MPI_UNWEIGHTED; }

/* An adjacency list: [indeg, outdeg, sources, sourceweights, dests, destweights]. */
static int adj_len(const int *a) { return 2 + 2 * (a[0] + a[1]); }

/* Every rank: a new communicator (not a duplicate: no attributes) where rank r of `c` is newrank[r] (read
 * at rank 0), carrying adjacency `a` (in its ranks). */
static int finish(vmpi_comm *c, const int *newrank, const int *a, bool weighted, MPI_Comm *out)
{
    int in = a[0], outd = a[1];
    const int *src = a + 2, *sw = src + in, *dst = sw + in, *dw = dst + outd;
    vmpi_topo *t = vmpi_topo_dist(in, src, sw, outd, dst, dw, weighted);
    int err = vmpi_comm_renumber(c, newrank, out);
    if (!err && t == NULL) {
        vmpi_comm_release(vmpi_comm_get(*out));
        *out = MPI_COMM_NULL;
        err = MPI_ERR_NO_MEM;
    }
    if (!err)
        vmpi_comm_get(*out)->topo = t;
    else
        vmpi_topo_unref(t);
    return err;
}

/* Rank 0: newrank for `reorder` (the identity without) and, to every rank r, the list of the node it takes
 * (newrank[r]); its own list in *a.  The others: their list in *a. */
static int hand_out(vmpi_comm *c, int **adj, bool reorder, int *newrank, int **a)
{
    int err = MPI_SUCCESS;
    if (c->rank != 0) {
        int len;
        err = vmpi_recv(&len, 1, INT(), 0, TAG_ADJ, c, COLL, MPI_STATUS_IGNORE);
        if (!err && (*a = malloc(sizeof(int) * (size_t)len)) == NULL)
            err = MPI_ERR_NO_MEM;
        if (!err)
            err = vmpi_recv(*a, len, INT(), 0, TAG_ADJ, c, COLL, MPI_STATUS_IGNORE);
        return err;
    }
    for (int r = 0; r < c->size; r++)
        newrank[r] = r;
    if (reorder)
        vmpi_topo_dist_map(c, adj, newrank);
    for (int r = 1; r < c->size; r++) {
        const int *list = adj[newrank[r]];
        int len = adj_len(list), e = vmpi_send(&len, 1, INT(), r, TAG_ADJ, c, COLL, VMPI_SENDK_STD);
        if (!e)
            e = vmpi_send(list, len, INT(), r, TAG_ADJ, c, COLL, VMPI_SENDK_STD);
        err = err ? err : e;
    }
    *a = adj[newrank[0]];
    adj[newrank[0]] = NULL;
    return err;
}

static void free_lists(int **adj, int n)
{
    for (int r = 0; adj && r < n; r++)
        free(adj[r]);
    free(adj);
}

static int chk_ranks(vmpi_chk *ck, const int *r, int n, int size, const char *what)
{
    if (n > 0 && r == NULL)
        return vmpi_chk_ptr(ck, NULL, what);
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= size) {
            snprintf(ck->why, sizeof ck->why, "%s[%d] = %d is not a rank of the communicator", what, i, r[i]);
            return MPI_ERR_RANK;
        }
    return MPI_SUCCESS;
}

/* Dist_graph_create_adjacent once the arguments are checked: each rank knows its lists already; only
 * reordering needs them at rank 0. */
static int create_adjacent(vmpi_comm *c, int in, const int *src, const int *sw, int outd, const int *dst,
                           const int *dw, bool w, bool reorder, MPI_Comm *out)
{
    int len = 2 + 2 * (in + outd), n = c->size, *a = malloc(sizeof(int) * (size_t)len), *newrank = NULL;
    int **adj = NULL, err = MPI_SUCCESS;
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    a[0] = in;
    a[1] = outd;
    for (int i = 0; i < in; i++) {
        a[2 + i] = src[i];
        a[2 + in + i] = w ? sw[i] : 1;
    }
    for (int i = 0; i < outd; i++) {
        a[2 + 2 * in + i] = dst[i];
        a[2 + 2 * in + outd + i] = w ? dw[i] : 1;
    }
    if (c->rank == 0 && ((newrank = malloc(sizeof(int) * (size_t)n)) == NULL ||
                         (adj = calloc((size_t)n, sizeof *adj)) == NULL))
        err = MPI_ERR_NO_MEM; /* the others then wait: out of memory is fatal in practice */
    if (err) {
    } else if (!reorder) {
        for (int r = 0; newrank && r < n; r++)
            newrank[r] = r;
    } else if (c->rank == 0) {
        adj[0] = a;
        a = NULL;
        for (int r = 1; r < n && !err; r++) {
            err = vmpi_recv(&len, 1, INT(), r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
            if (!err && (adj[r] = malloc(sizeof(int) * (size_t)len)) == NULL)
                err = MPI_ERR_NO_MEM;
            if (!err)
                err = vmpi_recv(adj[r], len, INT(), r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
        }
        if (!err)
            err = hand_out(c, adj, true, newrank, &a);
    } else {
        err = vmpi_send(&len, 1, INT(), 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_send(a, len, INT(), 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        free(a);
        a = NULL;
        if (!err)
            err = hand_out(c, NULL, true, NULL, &a);
    }
    if (!err)
        err = finish(c, newrank, a, w, out);
    free(a);
    free(newrank);
    free_lists(adj, n);
    return err;
}

int vmpi_b_Dist_graph_create_adjacent(vmpi_comm *c, int indegree, const int sources[], const int sourceweights[],
                                      int outdegree, const int destinations[], const int destweights[], MPI_Info info,
                                      int reorder, MPI_Comm *newcomm, vmpi_chk *ck)
{
    (void)info; /* vmpi takes no hint from it */
    int err;
    if ((err = vmpi_chk_intra(ck, c)) || (err = vmpi_chk_nonneg_cls(ck, indegree, "indegree", MPI_ERR_ARG)) ||
        (err = vmpi_chk_nonneg_cls(ck, outdegree, "outdegree", MPI_ERR_ARG)) ||
        (err = chk_ranks(ck, sources, indegree, c->size, "sources")) ||
        (err = chk_ranks(ck, destinations, outdegree, c->size, "destinations")))
        return err;
    bool w = weighted_arg(sourceweights) && weighted_arg(destweights);
    if (w && ((indegree > 0 && (!sourceweights || sourceweights == MPI_WEIGHTS_EMPTY)) ||
              (outdegree > 0 && (!destweights || destweights == MPI_WEIGHTS_EMPTY)))) {
        snprintf(ck->why, sizeof ck->why, "missing weights");
        return MPI_ERR_ARG;
    }
    return create_adjacent(c, indegree, sources, sourceweights, outdegree, destinations, destweights, w, reorder != 0,
                           newcomm);
}

static int chk_dist(vmpi_chk *ck, const vmpi_comm *c)
{
    if (c->topo && c->topo->kind == MPI_DIST_GRAPH)
        return MPI_SUCCESS;
    snprintf(ck->why, sizeof ck->why, "the communicator has no distributed graph topology");
    return MPI_ERR_TOPOLOGY;
}

typedef struct edge {
    int src, dst, w;
} edge;

/* Rank 0: receives every rank's edges and makes each rank's adjacency list in adj[r], edges in the order
 * they were given (by giving rank). */
static int collect(vmpi_comm *c, edge *mine, int nmine, int **adj)
{
    int n = c->size, err = MPI_SUCCESS, total = nmine, cap = nmine + 16;
    edge *all = malloc(sizeof(edge) * (size_t)cap);
    int *indeg = calloc((size_t)n, sizeof(int)), *outdeg = calloc((size_t)n, sizeof(int));
    int *ki = calloc((size_t)n, sizeof(int)), *ko = calloc((size_t)n, sizeof(int));
    if (!all || !indeg || !outdeg || !ki || !ko)
        err = MPI_ERR_NO_MEM;
    if (!err)
        memcpy(all, mine, sizeof(edge) * (size_t)nmine);
    for (int r = 1; r < n && !err; r++) {
        int cnt;
        err = vmpi_recv(&cnt, 1, INT(), r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
        if (!err && total + cnt > cap) {
            cap = 2 * (total + cnt);
            edge *a = realloc(all, sizeof(edge) * (size_t)cap);
            if (a == NULL)
                err = MPI_ERR_NO_MEM;
            else
                all = a;
        }
        if (!err)
            err = vmpi_recv(all + total, 3 * cnt, INT(), r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
        total += cnt;
    }
    for (int e = 0; !err && e < total; e++) {
        outdeg[all[e].src]++;
        indeg[all[e].dst]++;
    }
    for (int r = 0; r < n && !err; r++) {
        if ((adj[r] = malloc(sizeof(int) * (size_t)(2 + 2 * (indeg[r] + outdeg[r])))) == NULL)
            err = MPI_ERR_NO_MEM;
        else {
            adj[r][0] = indeg[r];
            adj[r][1] = outdeg[r];
        }
    }
    for (int e = 0; !err && e < total; e++) {
        int *d = adj[all[e].dst], *s = adj[all[e].src];
        d[2 + ki[all[e].dst]] = all[e].src; /* sources, then their weights */
        d[2 + d[0] + ki[all[e].dst]++] = all[e].w;
        s[2 + 2 * s[0] + ko[all[e].src]] = all[e].dst; /* dests, then their weights */
        s[2 + 2 * s[0] + s[1] + ko[all[e].src]++] = all[e].w;
    }
    free(all);
    free(indeg);
    free(outdeg);
    free(ki);
    free(ko);
    return err;
}

int vmpi_b_Dist_graph_create(vmpi_comm *c, int n, const int sources[], const int degrees[], const int destinations[],
                             const int weights[], MPI_Info info, int reorder, MPI_Comm *newcomm, vmpi_chk *ck)
{
    (void)info; /* vmpi takes no hint from it */
    int err;
    if ((err = vmpi_chk_intra(ck, c)) || (err = vmpi_chk_nonneg_cls(ck, n, "n", MPI_ERR_ARG)) ||
        (err = chk_ranks(ck, sources, n, c->size, "sources")) ||
        (n > 0 && (err = vmpi_chk_ptr(ck, degrees, "degrees"))))
        return err;
    int ne = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0) {
            snprintf(ck->why, sizeof ck->why, "degrees[%d] = %d is negative", i, degrees[i]);
            return MPI_ERR_ARG;
        }
        ne += degrees[i];
    }
    if ((err = chk_ranks(ck, destinations, ne, c->size, "destinations")))
        return err;
    bool w = weighted_arg(weights);
    if (w && ne > 0 && (!weights || weights == MPI_WEIGHTS_EMPTY)) {
        snprintf(ck->why, sizeof ck->why, "missing weights");
        return MPI_ERR_ARG;
    }
    edge *mine = malloc(sizeof(edge) * (size_t)(ne ? ne : 1));
    if (mine == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++)
            mine[k] = (edge){sources[i], destinations[k], w ? weights[k] : 1};
    int *a = NULL, **adj = NULL, *newrank = NULL;
    if (c->rank == 0) {
        adj = calloc((size_t)c->size, sizeof *adj);
        newrank = malloc(sizeof(int) * (size_t)c->size);
        err = adj && newrank ? collect(c, mine, ne, adj) : MPI_ERR_NO_MEM;
        if (!err)
            err = hand_out(c, adj, reorder != 0, newrank, &a);
    } else {
        err = vmpi_send(&ne, 1, INT(), 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_send(mine, 3 * ne, INT(), 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = hand_out(c, NULL, reorder != 0, NULL, &a);
    }
    free(mine);
    if (!err)
        err = finish(c, newrank, a, w, newcomm);
    free(a);
    free(newrank);
    free_lists(adj, c->size);
    return err;
}

int vmpi_b_Dist_graph_neighbors_count(vmpi_comm *c, int *indegree, int *outdegree, int *weighted, vmpi_chk *ck)
{
    int err;
    if ((err = chk_dist(ck, c)) || (err = vmpi_chk_ptr(ck, indegree, "indegree")) ||
        (err = vmpi_chk_ptr(ck, outdegree, "outdegree")) || (err = vmpi_chk_ptr(ck, weighted, "weighted")))
        return err;
    *indegree = c->topo->indegree;
    *outdegree = c->topo->outdegree;
    *weighted = c->topo->weighted;
    return MPI_SUCCESS;
}

int vmpi_b_Dist_graph_neighbors(vmpi_comm *c, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                                int destinations[], int destweights[], vmpi_chk *ck)
{
    int err = chk_dist(ck, c);
    if (err)
        return err;
    const vmpi_topo *t = c->topo;
    for (int i = 0; i < t->indegree && i < maxindegree; i++) {
        sources[i] = t->sources[i];
        if (t->weighted && weighted_arg(sourceweights) && sourceweights)
            sourceweights[i] = t->sweights[i];
    }
    for (int i = 0; i < t->outdegree && i < maxoutdegree; i++) {
        destinations[i] = t->dests[i];
        if (t->weighted && weighted_arg(destweights) && destweights)
            destweights[i] = t->dweights[i];
    }
    return MPI_SUCCESS;
}
