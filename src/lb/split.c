/* SPDX-License-Identifier: BSD-3-Clause */
/* Placement within processes: a problem whose PEs belong to several processes, cut into one sub-problem per
 * process (its objects, its PEs renumbered from 0, the communication between its own objects), each placed
 * by `fn`.  Ranks move only within their process until migration between processes exists. */
#include <stdlib.h>
#include "lb/lb.h"

int vmpi_lb_split_run(const vmpi_lb_problem *p, const int *proc_of_pe, int nprocs, vmpi_lb_sub_fn fn, void *arg,
                      int *pe)
{
    int n = p->nobjs, np = p->npes, rc = 0;
    int *obj = malloc(sizeof(int) * (size_t)(n ? n : 1));      /* sub-problem index -> object */
    int *idx = malloc(sizeof(int) * (size_t)(n ? n : 1));      /* object -> sub-problem index */
    int *pes = malloc(sizeof(int) * (size_t)np);               /* local PE -> PE */
    int *lpe = malloc(sizeof(int) * (size_t)np);               /* PE -> local PE */
    double *load = malloc(sizeof(double) * (size_t)(n ? n : 1)), *bg = malloc(sizeof(double) * (size_t)np);
    bool *movable = malloc(sizeof(bool) * (size_t)(n ? n : 1)), *active = malloc(sizeof(bool) * (size_t)np);
    int *spe = malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *xadj = NULL, *adj = NULL;
    double *bytes = NULL;
    if (p->graph) {
        int m = p->graph->xadj[n];
        xadj = malloc(sizeof(int) * (size_t)(n + 1));
        adj = malloc(sizeof(int) * (size_t)(m ? m : 1));
        bytes = malloc(sizeof(double) * (size_t)(m ? m : 1));
    }
    if (!obj || !idx || !pes || !lpe || !load || !bg || !movable || !active || !spe ||
        (p->graph && (!xadj || !adj || !bytes))) {
        rc = -1;
        goto out;
    }
    for (int k = 0; k < nprocs && rc == 0; k++) {
        int npk = 0, nk = 0;
        for (int q = 0; q < np; q++) {
            lpe[q] = -1;
            if (proc_of_pe[q] == k) {
                lpe[q] = npk;
                pes[npk] = q;
                bg[npk] = p->bg ? p->bg[q] : 0;
                active[npk] = p->active ? p->active[q] : true;
                npk++;
            }
        }
        for (int r = 0; r < n; r++) {
            idx[r] = -1;
            if (proc_of_pe[pe[r]] == k) {
                idx[r] = nk;
                obj[nk] = r;
                load[nk] = p->load[r];
                movable[nk] = p->movable[r];
                spe[nk] = lpe[pe[r]];
                nk++;
            }
        }
        if (nk == 0)
            continue;
        vmpi_lb_graph g;
        if (p->graph) {
            int m = 0;
            xadj[0] = 0;
            for (int i = 0; i < nk; i++) {
                int r = obj[i];
                for (int e = p->graph->xadj[r]; e < p->graph->xadj[r + 1]; e++)
                    if (idx[p->graph->adj[e]] >= 0) {
                        adj[m] = idx[p->graph->adj[e]];
                        bytes[m++] = p->graph->bytes[e];
                    }
                xadj[i + 1] = m;
            }
            g = (vmpi_lb_graph){xadj, adj, bytes};
        }
        vmpi_lb_problem sub = {.nobjs = nk, .npes = npk, .load = load, .movable = movable,
                               .bg = p->bg ? bg : NULL, .active = p->active ? active : NULL,
                               .graph = p->graph ? &g : NULL, .seed = p->seed + (unsigned)k};
        rc = fn(&sub, spe, arg);
        for (int i = 0; i < nk && rc == 0; i++)
            pe[obj[i]] = pes[spe[i]];
    }
out:
    free(obj);
    free(idx);
    free(pes);
    free(lpe);
    free(load);
    free(bg);
    free(movable);
    free(active);
    free(spe);
    free(xadj);
    free(adj);
    free(bytes);
    return rc;
}
