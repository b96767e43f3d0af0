/* SPDX-License-Identifier: BSD-3-Clause */
/* Metis: partitions the communication graph into one part per active PE with METIS (k-way), vertices
 * weighted by load and edges by bytes exchanged, so that heavy talkers share a PE while loads stay within
 * METIS's imbalance tolerance (3%).  Parts are then mapped to PEs so that as many ranks as possible stay
 * where they are (greedy on the overlap matrix), and Refine evens out what METIS's tolerance and pinned
 * ranks leave.  Without a measured graph it partitions by load alone. */
#include <metis.h>
#include <stdlib.h>
#include <string.h>
#include "lb/strategies.h"

/* Part -> PE: repeatedly the (part, PE) pair with the largest overlap that are both unassigned. */
static void map_parts(const vmpi_lb_problem *p, const idx_t *part, int nparts, const int *act, int *pe)
{
    int na = nparts;
    double *ov = calloc((size_t)na * (size_t)na, sizeof *ov);
    int *to = malloc(sizeof(int) * (size_t)na);
    bool *used = calloc((size_t)na, sizeof *used);
    int *slot_of = malloc(sizeof(int) * (size_t)p->npes);
    if (!ov || !to || !used || !slot_of) { /* out of memory: part k -> k-th active PE */
        for (int i = 0; i < p->nobjs; i++)
            if (p->movable == NULL || p->movable[i])
                pe[i] = act[part[i]];
        free(slot_of);
        goto out;
    }
    for (int q = 0; q < p->npes; q++)
        slot_of[q] = -1;
    for (int k = 0; k < na; k++)
        slot_of[act[k]] = k;
    for (int i = 0; i < p->nobjs; i++)
        if (slot_of[pe[i]] >= 0)
            ov[part[i] * na + slot_of[pe[i]]] += 1 + p->load[i];
    for (int k = 0; k < na; k++)
        to[k] = -1;
    for (int round = 0; round < na; round++) {
        int bp = -1, bq = -1;
        for (int a = 0; a < na; a++)
            for (int b = 0; b < na; b++)
                if (to[a] < 0 && !used[b] && (bp < 0 || ov[a * na + b] > ov[bp * na + bq])) {
                    bp = a;
                    bq = b;
                }
        to[bp] = bq;
        used[bq] = true;
    }
    for (int i = 0; i < p->nobjs; i++)
        if (p->movable == NULL || p->movable[i]) /* the others stay put */
            pe[i] = act[to[part[i]]];
    free(slot_of);
out:
    free(ov);
    free(to);
    free(used);
}

int vmpi_lb_metis(const vmpi_lb_problem *p, int *pe)
{
    int n = p->nobjs, na = 0;
    int *act = malloc(sizeof(int) * (size_t)p->npes);
    if (act == NULL)
        return -1;
    for (int q = 0; q < p->npes; q++)
        if (vmpi_lb_active(p, q))
            act[na++] = q;
    if (na <= 1 || n == 0) { /* METIS's k-way dies on one part */
        for (int i = 0; na == 1 && i < n; i++)
            pe[i] = act[0];
        free(act);
        return na ? 0 : -1;
    }
    const vmpi_lb_graph *g = p->graph;
    idx_t nv = n, ncon = 1, nparts = na, cut = 0;
    size_t ne = g ? (size_t)g->xadj[n] : 0;
    idx_t *xadj = malloc(sizeof(idx_t) * (size_t)(n + 1)), *adj = malloc(sizeof(idx_t) * (ne + 1));
    idx_t *vw = malloc(sizeof(idx_t) * (size_t)n), *ew = malloc(sizeof(idx_t) * (ne + 1));
    idx_t *part = malloc(sizeof(idx_t) * (size_t)n);
    int err = -1;
    if (!xadj || !adj || !vw || !ew || !part)
        goto out;
    double maxl = 0, maxb = 0;
    for (int i = 0; i < n; i++)
        maxl = p->load[i] > maxl ? p->load[i] : maxl;
    for (size_t e = 0; e < ne; e++)
        maxb = g->bytes[e] > maxb ? g->bytes[e] : maxb;
    for (int i = 0; i < n; i++) { /* integer weights >= 1, as METIS wants */
        xadj[i] = g ? g->xadj[i] : 0;
        vw[i] = 1 + (idx_t)(maxl > 0 ? 1000.0 * p->load[i] / maxl : 0);
    }
    xadj[n] = (idx_t)ne;
    for (size_t e = 0; e < ne; e++) {
        adj[e] = g->adj[e];
        ew[e] = 1 + (idx_t)(maxb > 0 ? 1000.0 * g->bytes[e] / maxb : 0);
    }
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = (idx_t)p->seed;
    opt[METIS_OPTION_UFACTOR] = 30;
    if (METIS_PartGraphKway(&nv, &ncon, xadj, adj, vw, NULL, ew, &nparts, NULL, NULL, opt, &cut, part) != METIS_OK)
        goto out;
    map_parts(p, part, na, act, pe);
    err = vmpi_lb_refine(p, pe); /* pinned ranks and METIS's own tolerance can leave a PE heavy */
out:
    free(xadj);
    free(adj);
    free(vw);
    free(ew);
    free(part);
    free(act);
    return err;
}
