/* SPDX-License-Identifier: BSD-3-Clause */
/* Strategies that ignore loads: Null, Rotate (the stress test of migration) and Random. */
#include <stddef.h>
#include "lb/strategies.h"

static bool movable(const vmpi_lb_problem *p, int i) { return p->movable == NULL || p->movable[i]; }

/* The first active PE after `q`, cyclically; -1 when none is. */
static int next_active(const vmpi_lb_problem *p, int q)
{
    for (int k = 1; k <= p->npes; k++) {
        int c = (q + k) % p->npes;
        if (vmpi_lb_active(p, c))
            return c;
    }
    return -1;
}

int vmpi_lb_null(const vmpi_lb_problem *p, int *pe)
{
    (void)p;
    (void)pe;
    return 0;
}

int vmpi_lb_rotate(const vmpi_lb_problem *p, int *pe)
{
    for (int i = 0; i < p->nobjs; i++)
        if (movable(p, i) && (pe[i] = next_active(p, pe[i])) < 0)
            return -1;
    return 0;
}

int vmpi_lb_random(const vmpi_lb_problem *p, int *pe)
{
    int nact = 0;
    for (int q = 0; q < p->npes; q++)
        nact += vmpi_lb_active(p, q);
    if (nact == 0)
        return -1;
    unsigned long long x = p->seed * 0x9e3779b97f4a7c15ull + 1; /* splitmix-style: same seed, same placement */
    for (int i = 0; i < p->nobjs; i++) {
        if (!movable(p, i))
            continue;
        x += 0x9e3779b97f4a7c15ull;
        unsigned long long z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        int k = (int)((z ^ (z >> 31)) % (unsigned long long)nact);
        for (int q = 0; q < p->npes; q++)
            if (vmpi_lb_active(p, q) && k-- == 0) {
                pe[i] = q;
                break;
            }
    }
    return 0;
}
