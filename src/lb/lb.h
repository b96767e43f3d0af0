/* SPDX-License-Identifier: BSD-3-Clause */
/* Load-balancing strategies: pure functions from measured loads (and, for the communication-aware one, the
 * communication graph) to a new placement of objects (ranks) on PEs.  They know nothing of ranks or
 * migration; the adaptivity code (mpi/adapt) measures, calls a chain of them and moves what changed. */
#ifndef VMPI_LB_LB_H
#define VMPI_LB_LB_H

#include <stdbool.h>

/* Symmetric communication graph over the objects, in compressed rows (no self edges): the neighbours of
 * object i are adj[xadj[i] .. xadj[i+1]), with the bytes exchanged both ways. */
typedef struct vmpi_lb_graph {
    const int *xadj, *adj;
    const double *bytes;
} vmpi_lb_graph;

typedef struct vmpi_lb_problem {
    int nobjs, npes;
    const double *load;        /* seconds each object ran in the measured period */
    const bool *movable;       /* objects that may move; the others stay where they are */
    const double *bg;          /* background seconds of each PE (runtime work), or NULL */
    const bool *active;        /* PEs that may hold objects (shrink/expand); NULL: all */
    const vmpi_lb_graph *graph; /* NULL when not measured */
    unsigned seed;             /* for the random strategy (the same everywhere: deterministic) */
} vmpi_lb_problem;

/* A strategy reads the current placement in pe[] and writes the new one there.  Returns 0, or -1 when it
 * cannot run (e.g. no active PE). */
typedef int (*vmpi_lb_fn)(const vmpi_lb_problem *p, int *pe);

typedef struct vmpi_lb_strategy {
    const char *name;          /* "Greedy", "Refine", ... (AMPI's names without "LB") */
    vmpi_lb_fn fn;
    bool wants_load;           /* uses the measured loads (else they need not be measured) */
    bool wants_graph;          /* needs the communication graph measured */
    const char *help;
} vmpi_lb_strategy;

/* The strategy called `name` (case-insensitive; AMPI's "GreedyLB" spelling works too), or NULL. */
const vmpi_lb_strategy *vmpi_lb_find(const char *name);
/* Every strategy, for --help. */
const vmpi_lb_strategy *vmpi_lb_all(int *n);

enum { VMPI_LB_CHAIN_MAX = 8 };
/* Parses a chain such as "Greedy,Refine" (',' or ':' or '+' separated).  Returns its length, or -1 with
 * *bad set to the offending name (pointer into a buffer of the calling thread). */
int vmpi_lb_parse(const char *spec, const vmpi_lb_strategy **chain, const char **bad);
/* Runs the chain, each strategy on the previous one's placement; returns -1 when one failed. */
int vmpi_lb_run(const vmpi_lb_strategy *const *chain, int n, const vmpi_lb_problem *p, int *pe);

/* Places the objects of each process separately (split.c): the PEs of process k are those with
 * proc_of_pe[q] == k; each process's objects (by their current PE in pe[]) and PEs form a sub-problem (PEs
 * numbered from 0 in order, the graph's edges between its own objects) placed by fn(sub, sub_pe, arg), which
 * rewrites sub_pe as a strategy does.  Returns -1 when fn fails for a process or memory runs out. */
typedef int (*vmpi_lb_sub_fn)(const vmpi_lb_problem *sub, int *pe, void *arg);
int vmpi_lb_split_run(const vmpi_lb_problem *p, const int *proc_of_pe, int nprocs, vmpi_lb_sub_fn fn, void *arg,
                      int *pe);

/* Helpers shared by the strategies (lb_util.c). */
bool vmpi_lb_active(const vmpi_lb_problem *p, int pe);
/* Per-PE load of a placement: background plus every object's load. */
void vmpi_lb_pe_loads(const vmpi_lb_problem *p, const int *pe, double *out);
/* Movable objects sorted by decreasing load (ties: lower index first); returns their number. */
int vmpi_lb_sorted_movable(const vmpi_lb_problem *p, int *order);

#endif
