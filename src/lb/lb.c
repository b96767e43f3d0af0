/* SPDX-License-Identifier: BSD-3-Clause */
/* The strategy table, chains, and helpers shared by the strategies. */
#include "lb/lb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/compiler.h"
#include "lb/strategies.h"

static const vmpi_lb_strategy table[] = {
    {"Null", vmpi_lb_null, false, false, "never moves anything"},
    {"Rotate", vmpi_lb_rotate, false, false, "moves every rank to the next active PE (stress test of migration)"},
    {"Random", vmpi_lb_random, false, false, "puts every rank on a random active PE"},
    {"Greedy", vmpi_lb_greedy, true, false, "heaviest rank first onto the least loaded PE (ignores placement)"},
    {"Refine", vmpi_lb_refine, true, false, "moves a few ranks off overloaded PEs (keeps most in place)"},
    {"GreedyRefine", vmpi_lb_greedy_refine, true, false, "greedy, but keeps a rank in place when that costs little"},
    {"Metis", vmpi_lb_metis, true, true, "partitions the communication graph weighted by load (METIS)"},
};

const vmpi_lb_strategy *vmpi_lb_all(int *n)
{
    *n = (int)VMPI_ARRAY_LEN(table);
    return table;
}

const vmpi_lb_strategy *vmpi_lb_find(const char *name)
{
    size_t len = strlen(name);
    if (len > 2 && strcasecmp(name + len - 2, "LB") == 0)
        len -= 2;
    for (size_t i = 0; i < VMPI_ARRAY_LEN(table); i++)
        if (strlen(table[i].name) == len && strncasecmp(table[i].name, name, len) == 0)
            return &table[i];
    return NULL;
}

int vmpi_lb_parse(const char *spec, const vmpi_lb_strategy **chain, const char **bad)
{
    /* the offending name, per thread: ranks on several PEs may parse at once (MPI_T_cvar_write), and the
     * caller reads it before it can be switched out */
    static _Thread_local char bad_name[64];
    char name[64];
    int n = 0;
    const char *s = spec;
    while (*s) {
        size_t len = strcspn(s, ",:+");
        if (len == 0 || len >= sizeof name || n == VMPI_LB_CHAIN_MAX) {
            snprintf(bad_name, sizeof bad_name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), s);
            *bad = bad_name;
            return -1;
        }
        memcpy(name, s, len);
        name[len] = '\0';
        if ((chain[n++] = vmpi_lb_find(name)) == NULL) {
            memcpy(bad_name, name, len + 1);
            *bad = bad_name;
            return -1;
        }
        s += len;
        if (*s)
            s++;
    }
    return n;
}

int vmpi_lb_run(const vmpi_lb_strategy *const *chain, int n, const vmpi_lb_problem *p, int *pe)
{
    for (int i = 0; i < n; i++)
        if (chain[i]->fn(p, pe) != 0)
            return -1;
    return 0;
}

bool vmpi_lb_active(const vmpi_lb_problem *p, int pe) { return p->active == NULL || p->active[pe]; }

void vmpi_lb_pe_loads(const vmpi_lb_problem *p, const int *pe, double *out)
{
    for (int q = 0; q < p->npes; q++)
        out[q] = p->bg ? p->bg[q] : 0;
    for (int i = 0; i < p->nobjs; i++)
        out[pe[i]] += p->load[i];
}

static const double *sort_key;

static int by_load_desc(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_key[i] != sort_key[j])
        return sort_key[i] > sort_key[j] ? -1 : 1;
    return i - j;
}

int vmpi_lb_sorted_movable(const vmpi_lb_problem *p, int *order)
{
    int n = 0;
    for (int i = 0; i < p->nobjs; i++)
        if (p->movable == NULL || p->movable[i])
            order[n++] = i;
    sort_key = p->load; /* strategies run on one thread at a time (inside a stop of the world) */
    qsort(order, (size_t)n, sizeof *order, by_load_desc);
    return n;
}
