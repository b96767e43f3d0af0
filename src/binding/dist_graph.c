/* SPDX-License-Identifier: BSD-3-Clause */
/* Distributed graph topologies.  MPI_Dist_graph_create lets any rank name any edge: rank 0 of the
 * communicator collects every edge and tells each rank its in- and out-neighbours (in the order the edges
 * were given, by rank), which is also the order the neighbourhood collectives use. */
#include <stdlib.h>
#include <string.h>
#include "binding/check.h"
#include "mpi/comm/comm_create.h"
#include "mpi/comm/topo.h"
#include "mpi/core/handle.h"
#include "mpi/pt2pt/pt2pt.h"

enum { TAG_EDGES = -110, TAG_ADJ = -111 };
#define COLL 1

static bool weighted_arg(const int *w) { return w != MPI_UNWEIGHTED; }

/* Attaches `t` (owned) to a duplicate of `c`. */
static int dup_with(vmpi_comm *c, vmpi_topo *t, MPI_Comm *out)
{
    if (t == NULL)
        return MPI_ERR_NO_MEM;
    int err = vmpi_comm_split(c, 0, c->rank, out); /* a new communicator, not a duplicate: no attributes */
    if (!err) {
        vmpi_comm *n = vmpi_comm_get(*out);
        vmpi_topo_unref(n->topo);
        n->topo = t;
    } else {
        vmpi_topo_unref(t);
    }
    return err;
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

VMPI_WEAK(Dist_graph_create_adjacent)
int PMPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int *sources, const int *sourceweights,
                                    int outdegree, const int *destinations, const int *destweights, MPI_Info info,
                                    int reorder, MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) && !(err = vmpi_chk_intra(&ck, c)) &&
        !(err = vmpi_chk_nonneg_cls(&ck, indegree, "indegree", MPI_ERR_ARG)) &&
        !(err = vmpi_chk_nonneg_cls(&ck, outdegree, "outdegree", MPI_ERR_ARG)) &&
        !(err = chk_ranks(&ck, sources, indegree, c->size, "sources")) &&
        !(err = chk_ranks(&ck, destinations, outdegree, c->size, "destinations")) &&
        !(err = vmpi_chk_ptr(&ck, newcomm, "newcomm"))) {
        bool w = weighted_arg(sourceweights) && weighted_arg(destweights);
        if (w && ((indegree > 0 && (!sourceweights || sourceweights == MPI_WEIGHTS_EMPTY)) ||
                  (outdegree > 0 && (!destweights || destweights == MPI_WEIGHTS_EMPTY)))) {
            snprintf(ck.why, sizeof ck.why, "missing weights");
            err = MPI_ERR_ARG;
        } else {
            err = dup_with(c, vmpi_topo_dist(indegree, sources, sourceweights, outdegree, destinations, destweights, w),
                           newcomm);
        }
    }
    return err ? vmpi_fail(comm, err, "MPI_Dist_graph_create_adjacent", &ck) : MPI_SUCCESS;
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

/* Rank 0: receives every rank's edges, sends each rank [indeg, outdeg, sources, sweights, dests, dweights]. */
static int collect(vmpi_comm *c, edge *mine, int nmine, int **adj_out)
{
    const vmpi_dtype *INT = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT));
    int n = c->size, err = MPI_SUCCESS, total = nmine, cap = nmine + 16;
    edge *all = malloc(sizeof(edge) * (size_t)cap);
    int *indeg = calloc((size_t)n, sizeof(int)), *outdeg = calloc((size_t)n, sizeof(int));
    if (!all || !indeg || !outdeg) {
        free(all);
        free(indeg);
        free(outdeg);
        return MPI_ERR_NO_MEM;
    }
    memcpy(all, mine, sizeof(edge) * (size_t)nmine);
    for (int r = 1; r < n && !err; r++) {
        int cnt;
        err = vmpi_recv(&cnt, 1, INT, r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
        if (!err && total + cnt > cap) {
            cap = 2 * (total + cnt);
            edge *a = realloc(all, sizeof(edge) * (size_t)cap);
            if (a == NULL)
                err = MPI_ERR_NO_MEM;
            else
                all = a;
        }
        if (!err)
            err = vmpi_recv(all + total, 3 * cnt, INT, r, TAG_EDGES, c, COLL, MPI_STATUS_IGNORE);
        total += cnt;
    }
    for (int e = 0; !err && e < total; e++) {
        outdeg[all[e].src]++;
        indeg[all[e].dst]++;
    }
    for (int r = 0; r < n && !err; r++) {
        int len = 2 + 2 * (indeg[r] + outdeg[r]), *a = malloc(sizeof(int) * (size_t)len), ki = 0, ko = 0;
        if (a == NULL) {
            err = MPI_ERR_NO_MEM;
            break;
        }
        a[0] = indeg[r];
        a[1] = outdeg[r];
        int *src = a + 2, *sw = src + indeg[r], *dst = sw + indeg[r], *dw = dst + outdeg[r];
        for (int e = 0; e < total; e++) {
            if (all[e].dst == r) {
                src[ki] = all[e].src;
                sw[ki++] = all[e].w;
            }
            if (all[e].src == r) {
                dst[ko] = all[e].dst;
                dw[ko++] = all[e].w;
            }
        }
        if (r == 0) {
            *adj_out = a;
        } else {
            err = vmpi_send(&len, 1, INT, r, TAG_ADJ, c, COLL, VMPI_SENDK_STD);
            if (!err)
                err = vmpi_send(a, len, INT, r, TAG_ADJ, c, COLL, VMPI_SENDK_STD);
            free(a);
        }
    }
    free(all);
    free(indeg);
    free(outdeg);
    return err;
}

VMPI_WEAK(Dist_graph_create)
int PMPI_Dist_graph_create(MPI_Comm comm, int n, const int *sources, const int *degrees, const int *destinations,
                           const int *weights, MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if ((err = vmpi_chk_ranked(&ck)) || (err = vmpi_chk_comm(&ck, comm, &c)) || (err = vmpi_chk_intra(&ck, c)) ||
        (err = vmpi_chk_nonneg_cls(&ck, n, "n", MPI_ERR_ARG)) || (err = chk_ranks(&ck, sources, n, c->size, "sources")) ||
        (err = vmpi_chk_ptr(&ck, newcomm, "newcomm")))
        return vmpi_fail(comm, err, "MPI_Dist_graph_create", &ck);
    if (n > 0 && (err = vmpi_chk_ptr(&ck, degrees, "degrees")))
        return vmpi_fail(comm, err, "MPI_Dist_graph_create", &ck);
    int ne = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0) {
            snprintf(ck.why, sizeof ck.why, "degrees[%d] = %d is negative", i, degrees[i]);
            return vmpi_fail(comm, MPI_ERR_ARG, "MPI_Dist_graph_create", &ck);
        }
        ne += degrees[i];
    }
    if ((err = chk_ranks(&ck, destinations, ne, c->size, "destinations")))
        return vmpi_fail(comm, err, "MPI_Dist_graph_create", &ck);
    bool w = weighted_arg(weights);
    if (w && ne > 0 && (!weights || weights == MPI_WEIGHTS_EMPTY)) {
        snprintf(ck.why, sizeof ck.why, "missing weights");
        return vmpi_fail(comm, MPI_ERR_ARG, "MPI_Dist_graph_create", &ck);
    }
    edge *mine = malloc(sizeof(edge) * (size_t)(ne ? ne : 1));
    if (mine == NULL)
        return vmpi_fail(comm, MPI_ERR_NO_MEM, "MPI_Dist_graph_create", &ck);
    for (int i = 0, k = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++)
            mine[k] = (edge){sources[i], destinations[k], w ? weights[k] : 1};
    const vmpi_dtype *INT = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT));
    int *adj = NULL, len = 0;
    if (c->rank == 0) {
        err = collect(c, mine, ne, &adj);
    } else {
        err = vmpi_send(&ne, 1, INT, 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_send(mine, 3 * ne, INT, 0, TAG_EDGES, c, COLL, VMPI_SENDK_STD);
        if (!err)
            err = vmpi_recv(&len, 1, INT, 0, TAG_ADJ, c, COLL, MPI_STATUS_IGNORE);
        if (!err && (adj = malloc(sizeof(int) * (size_t)len)) == NULL)
            err = MPI_ERR_NO_MEM;
        if (!err)
            err = vmpi_recv(adj, len, INT, 0, TAG_ADJ, c, COLL, MPI_STATUS_IGNORE);
    }
    free(mine);
    if (!err) {
        int in = adj[0], out = adj[1];
        int *src = adj + 2, *sw = src + in, *dst = sw + in, *dw = dst + out;
        err = dup_with(c, vmpi_topo_dist(in, src, sw, out, dst, dw, w), newcomm);
    }
    free(adj);
    return err ? vmpi_fail(comm, err, "MPI_Dist_graph_create", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Dist_graph_neighbors_count)
int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) &&
        !(err = chk_dist(&ck, c)) &&
        !(err = vmpi_chk_ptr(&ck, indegree, "indegree")) && !(err = vmpi_chk_ptr(&ck, outdegree, "outdegree")) &&
        !(err = vmpi_chk_ptr(&ck, weighted, "weighted"))) {
        *indegree = c->topo->indegree;
        *outdegree = c->topo->outdegree;
        *weighted = c->topo->weighted;
    }
    return err ? vmpi_fail(comm, err, "MPI_Dist_graph_neighbors_count", &ck) : MPI_SUCCESS;
}

VMPI_WEAK(Dist_graph_neighbors)
int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int *sources, int *sourceweights, int maxoutdegree,
                              int *destinations, int *destweights)
{
    VMPI_CHK(ck);
    vmpi_comm *c;
    int err;
    if (!(err = vmpi_chk_ranked(&ck)) && !(err = vmpi_chk_comm(&ck, comm, &c)) &&
        !(err = chk_dist(&ck, c))) {
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
    }
    return err ? vmpi_fail(comm, err, "MPI_Dist_graph_neighbors", &ck) : MPI_SUCCESS;
}
