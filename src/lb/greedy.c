/* SPDX-License-Identifier: BSD-3-Clause */
/* Greedy and GreedyRefine.  Greedy gives the heaviest movable rank to the least loaded active PE, and so
 * on down; the PEs start with their background load and their unmovable ranks.  GreedyRefine does the same
 * but keeps a rank where it is when its PE would stay within 1.5 x the least loaded one and not above the
 * greedy placement's maximum, so that it moves far fewer ranks for the same maximum load (as Charm++'s
 * GreedyRefineLB does when no migration budget is given).  An earlier version let a PE keep ranks up to
 * 1.03 x that maximum: the PE that kept its ranks ended 3% above the average and the others below it, 6%
 * apart, which a bulk-synchronous loop pays in full at every step (bench/lb_bsp). */
#include <stdlib.h>
#include "lb/strategies.h"

/* Places the movable ranks in `order` (heaviest first) on top of the fixed load in `pl`.  With cap > 0 a
 * rank stays on its current PE q when pl[q] + load <= keep_b * (least + load) and <= cap. */
static int place(const vmpi_lb_problem *p, int *pe, const int *order, int n, double *pl, double keep_b,
                 double cap)
{
    for (int k = 0; k < n; k++) {
        int i = order[k], best = -1;
        for (int q = 0; q < p->npes; q++)
            if (vmpi_lb_active(p, q) && (best < 0 || pl[q] < pl[best]))
                best = q;
        if (best < 0)
            return -1;
        int cur = pe[i];
        double w = p->load[i];
        if (cap > 0 && vmpi_lb_active(p, cur) && pl[cur] + w <= keep_b * (pl[best] + w) && pl[cur] + w <= cap)
            best = cur;
        pe[i] = best;
        pl[best] += w;
    }
    return 0;
}

/* Fixed load per PE: background plus the ranks that may not move. */
static void fixed_loads(const vmpi_lb_problem *p, const int *pe, double *pl)
{
    for (int q = 0; q < p->npes; q++)
        pl[q] = p->bg ? p->bg[q] : 0;
    for (int i = 0; i < p->nobjs; i++)
        if (p->movable && !p->movable[i])
            pl[pe[i]] += p->load[i];
}

static int run(const vmpi_lb_problem *p, int *pe, bool refine)
{
    int *order = malloc(sizeof(int) * (size_t)(p->nobjs + 1));
    double *pl = malloc(sizeof(double) * (size_t)p->npes);
    int *trial = refine ? malloc(sizeof(int) * (size_t)(p->nobjs + 1)) : NULL;
    int err = -1;
    if (order && pl && (!refine || trial)) {
        int n = vmpi_lb_sorted_movable(p, order);
        fixed_loads(p, pe, pl);
        if (!refine) {
            err = place(p, pe, order, n, pl, 0, 0);
        } else {
            /* the greedy maximum first, then the placement that keeps ranks where they are below it (a
             * relative 1e-9 absorbs the rounding of the sums in another order) */
            for (int i = 0; i < p->nobjs; i++)
                trial[i] = pe[i];
            err = place(p, trial, order, n, pl, 0, 0);
            double cap = 0;
            for (int q = 0; q < p->npes; q++)
                cap = vmpi_lb_active(p, q) && pl[q] > cap ? pl[q] : cap;
            cap *= 1 + 1e-9;
            fixed_loads(p, pe, pl);
            if (!err)
                err = place(p, pe, order, n, pl, 1.5, cap);
        }
    }
    free(order);
    free(pl);
    free(trial);
    return err;
}

int vmpi_lb_greedy(const vmpi_lb_problem *p, int *pe) { return run(p, pe, false); }
int vmpi_lb_greedy_refine(const vmpi_lb_problem *p, int *pe) { return run(p, pe, true); }
