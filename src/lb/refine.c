/* SPDX-License-Identifier: BSD-3-Clause */
/* Refine: few moves.  Ranks on PEs that are not active leave first (to the least loaded active PE); then,
 * while the most loaded PE is above the average by more than 0.5%, one of its movable ranks goes to the
 * least loaded PE: the one that lowers the larger of the two PEs' new loads the most.  It stops when no
 * move helps, so it never makes the balance worse (after Charm++'s RefineLB).  The limit was 2% (RefineLB's
 * overload factor); a move within a process costs well under a microsecond, so the tighter balance is
 * worth its few extra moves: a bulk-synchronous loop pays the most loaded PE's excess at every step. */
#include <stdlib.h>
#include "lb/strategies.h"

static int lightest(const vmpi_lb_problem *p, const double *pl)
{
    int best = -1;
    for (int q = 0; q < p->npes; q++)
        if (vmpi_lb_active(p, q) && (best < 0 || pl[q] < pl[best]))
            best = q;
    return best;
}

int vmpi_lb_refine(const vmpi_lb_problem *p, int *pe)
{
    double *pl = malloc(sizeof(double) * (size_t)p->npes);
    if (pl == NULL)
        return -1;
    vmpi_lb_pe_loads(p, pe, pl);
    int nact = 0;
    double total = 0;
    for (int q = 0; q < p->npes; q++)
        if (vmpi_lb_active(p, q)) {
            nact++;
            total += pl[q];
        }
    int err = nact ? 0 : -1;
    for (int i = 0; !err && i < p->nobjs; i++) { /* evacuate inactive PEs, movable or not */
        if (vmpi_lb_active(p, pe[i]))
            continue;
        int to = lightest(p, pl);
        pl[pe[i]] -= p->load[i];
        pl[to] += p->load[i];
        total += p->load[i];
        pe[i] = to;
    }
    double limit = 1.005 * total / (nact ? nact : 1);
    for (int step = 0; !err && step < p->nobjs; step++) {
        int donor = -1;
        for (int q = 0; q < p->npes; q++)
            if (vmpi_lb_active(p, q) && (donor < 0 || pl[q] > pl[donor]))
                donor = q;
        int to = lightest(p, pl);
        if (pl[donor] <= limit || donor == to)
            break;
        int pick = -1;
        double best = pl[donor]; /* the larger new load must drop below the donor's current one */
        for (int i = 0; i < p->nobjs; i++) {
            if (pe[i] != donor || (p->movable && !p->movable[i]) || p->load[i] <= 0)
                continue;
            double a = pl[donor] - p->load[i], b = pl[to] + p->load[i], worst = a > b ? a : b;
            if (worst < best) {
                best = worst;
                pick = i;
            }
        }
        if (pick < 0)
            break;
        pl[donor] -= p->load[pick];
        pl[to] += p->load[pick];
        pe[pick] = to;
    }
    free(pl);
    return err;
}
