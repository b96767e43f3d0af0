/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/clock.h"
#include "base/log.h"
#include "base/sanitizer.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "lb/lb.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/shm.h"
#include "msg/loc.h"
#include "xport/netjob.h"
#include "xport/procs.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/pt2pt/pt2pt.h"

enum { TAG_ARRIVED = -400 }; /* on MPI_COMM_WORLD's collective context: the last rank in, to rank 0 */

static struct {
    const vmpi_lb_strategy *chain[VMPI_LB_CHAIN_MAX];
    int nchain;
    double last;             /* clock of the last balancing step */
    unsigned steps;
    double lb_seconds;       /* time spent in balancing steps (MPI_T: vmpi_adapt_stats) */
    uint64_t bytes_out;      /* bytes of slots this process sent to others with the ranks that left it */
    _Atomic bool rechain;    /* vmpi_cfg.balancer changed while running: the next step parses it again */
    _Atomic int active;      /* PEs 0 .. active-1 hold ranks after the next step */
    _Atomic long moves;
    _Atomic int arrived;     /* ranks other than 0 waiting at the current migration point */
    int ckpt_err;            /* the outcome of the current migration point's checkpoint, for every rank */
    int leader, nhere;       /* a job of several processes: this process's first rank and its number of ranks
                              * (they change when ranks move between processes; 0: not known yet) */
    bool stays_warned;
} A;

/* This process's ranks: its first one (which leads its part of a migration point) and their number. */
static void count_here(void)
{
    int n = vmpi_world_size();
    A.leader = -1;
    A.nhere = 0;
    for (int r = 0; r < n; r++)
        if (vmpi_rank_get(r)) {
            A.leader = A.leader < 0 ? r : A.leader;
            A.nhere++;
        }
}

void vmpi_adapt_count_ranks(void) { count_here(); }

/* The chain of vmpi_cfg.balancer, with what its strategies need turned on (the flags are read without
 * synchronization on the send and scheduling paths: set at boot, or inside a stop of the world). */
static int take_chain(const char **bad)
{
    A.nchain = vmpi_lb_parse(vmpi_cfg.balancer, A.chain, bad);
    for (int i = 0; i < A.nchain; i++) {
        if (A.chain[i]->wants_graph)
            vmpi_commstat_track(true);
        if (A.chain[i]->wants_load)
            vmpi_sched_measure(true);
    }
    return A.nchain;
}

void vmpi_adapt_balancer_changed(void) { atomic_store(&A.rechain, true); }

void vmpi_adapt_stats(unsigned *steps, double *seconds, uint64_t *bytes_out)
{
    *steps = A.steps;
    *seconds = A.lb_seconds;
    *bytes_out = A.bytes_out;
}

void vmpi_adapt_init(void)
{
    vmpi_loc_on_moved(vmpi_shm_relocate); /* ranks that move (migration, restart) regroup the collectives */
    const char *bad = NULL;
    if (take_chain(&bad) < 0) {
        int n;
        const vmpi_lb_strategy *all = vmpi_lb_all(&n);
        char names[256] = "";
        for (int i = 0; i < n; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", all[i].name);
        vmpi_fatal("unknown load balancer '%s' in --balancer / VMPI_BALANCER '%s' (known: %s)", bad,
                   vmpi_cfg.balancer, names);
    }
    A.last = vmpi_clock_now();
}

vmpi_adapt_rank *vmpi_adapt_self(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk->adapt == NULL && (rk->adapt = calloc(1, sizeof *rk->adapt)) != NULL)
        rk->adapt->want_pe = -1;
    return rk->adapt;
}

long vmpi_adapt_moves(void) { return atomic_load(&A.moves); }
void vmpi_adapt_set_active(int n) { atomic_store(&A.active, n); }
int vmpi_adapt_active(void) { return atomic_load(&A.active); }
int vmpi_adapt_my_pe(void) { return vmpi_pe_self()->id; }
int vmpi_adapt_num_pes(void) { return vmpi_sched_npes(); }

/* ---- measurement ---- */

void vmpi_adapt_load_stop(void)
{
    vmpi_adapt_rank *a = vmpi_adapt_self();
    if (a && !a->measuring_off) {
        a->measuring_off = true;
        a->off_at = vmpi_vp_busy_now();
    }
}

void vmpi_adapt_load_start(void)
{
    vmpi_adapt_rank *a = vmpi_adapt_self();
    if (a && a->measuring_off) {
        a->measuring_off = false;
        a->excluded += vmpi_vp_busy_now() - a->off_at;
    }
}

void vmpi_adapt_load_reset(void)
{
    vmpi_adapt_rank *a = vmpi_adapt_self();
    if (a) {
        a->excluded = vmpi_vp_busy_now();
        a->off_at = a->excluded;
        a->has_user_load = false;
    }
}

/* A rank's load in seconds in the current period, from its busy ticks so far. */
static double load_of(vmpi_rank *rk, double tick, unsigned long long busy)
{
    vmpi_adapt_rank *a = rk->adapt;
    if (a == NULL)
        return tick * (double)busy;
    if (a->has_user_load)
        return a->user_load;
    unsigned long long end = a->measuring_off ? a->off_at : busy;
    return end > a->excluded ? tick * (double)(end - a->excluded) : 0;
}

double vmpi_adapt_load_now(void)
{
    return load_of(vmpi_rank_self(), vmpi_sched_tick_seconds(), vmpi_vp_busy_now());
}

/* ---- the balancing step, while the world is stopped ---- */

/* The communication graph of the period: both directions of every rank pair summed (METIS wants it
 * symmetric), in compressed rows. */
typedef struct edge {
    int a, b;
    double bytes;
} edge;

typedef struct edges {
    edge *e;
    size_t n, cap;
    int src;
    bool nomem;
} edges;

static void push_edge(edges *E, edge e)
{
    if (E->nomem)
        return;
    if (E->n == E->cap) {
        size_t cap = E->cap ? 2 * E->cap : 1024;
        edge *ne = realloc(E->e, sizeof *ne * cap);
        if (ne == NULL) {
            E->nomem = true;
            return;
        }
        E->e = ne;
        E->cap = cap;
    }
    E->e[E->n++] = e;
}

static void add_edge(void *arg, int dst, double bytes, unsigned msgs)
{
    (void)msgs;
    edges *E = arg;
    if (dst == E->src)
        return;
    push_edge(E, (edge){E->src, dst, bytes});
    push_edge(E, (edge){dst, E->src, bytes});
}

static int by_pair(const void *x, const void *y)
{
    const edge *a = x, *b = y;
    return a->a != b->a ? (a->a > b->a) - (a->a < b->a) : (a->b > b->b) - (a->b < b->b);
}

/* This process's ranks' traffic of the period, one edge per (sender, receiver); false when out of memory. */
static bool local_edges(int n, edges *E)
{
    for (int r = 0; r < n && !E->nomem; r++) {
        E->src = r;
        if (vmpi_rank_get(r) && vmpi_msg_ep(r)) /* (another process's rank: its traffic is counted there) */
            vmpi_commstat_each(&vmpi_msg_ep(r)->sent, add_edge, E);
    }
    return !E->nomem;
}

/* Fills g from both directions of the edges in E (consumed; arrays malloc'ed); false when out of memory. */
static bool build_graph(int n, edges *E, vmpi_lb_graph *g, int **xadj, int **adj, double **bytes)
{
    qsort(E->e, E->n, sizeof *E->e, by_pair);
    *xadj = calloc((size_t)n + 1, sizeof(int));
    *adj = malloc(sizeof(int) * (E->n + 1));
    *bytes = malloc(sizeof(double) * (E->n + 1));
    if (E->nomem || !*xadj || !*adj || !*bytes) {
        free(E->e);
        *E = (edges){0};
        return false;
    }
    size_t m = 0;
    for (size_t i = 0; i < E->n; i++) {
        if (m > 0 && (*adj)[m - 1] == E->e[i].b && i > 0 && E->e[i - 1].a == E->e[i].a) {
            (*bytes)[m - 1] += E->e[i].bytes; /* the same pair again: merge */
            continue;
        }
        (*adj)[m] = E->e[i].b;
        (*bytes)[m] = E->e[i].bytes;
        (*xadj)[E->e[i].a + 1]++;
        m++;
    }
    for (int r = 0; r < n; r++)
        (*xadj)[r + 1] += (*xadj)[r];
    free(E->e);
    *E = (edges){0};
    *g = (vmpi_lb_graph){*xadj, *adj, *bytes};
    return true;
}

/* Shrink: whatever the strategy did (Null moves nothing), no rank stays on an inactive PE; each one left
 * there goes to the active PE with the least load in the new placement. */
static void evacuate(const vmpi_lb_problem *p, int *pe)
{
    double pl[p->npes];
    vmpi_lb_pe_loads(p, pe, pl);
    for (int r = 0; r < p->nobjs; r++) {
        if (p->active[pe[r]])
            continue;
        int best = 0;
        for (int q = 1; q < p->npes; q++)
            if (p->active[q] && (!p->active[best] || pl[q] < pl[best]))
                best = q;
        pl[pe[r]] -= p->load[r];
        pl[best] += p->load[r];
        pe[r] = best;
    }
}

/* The placement of one process's ranks: the strategy chain (when the step balances), then the evacuation of
 * inactive PEs. */
static int place(const vmpi_lb_problem *p, int *pe, void *run)
{
    bool any = p->active == NULL;
    for (int q = 0; q < p->npes && !any; q++)
        any = p->active[q];
    if (!any)
        return 0; /* a process whose PEs are all inactive keeps its ranks: they cannot leave it (yet) */
    if (*(bool *)run && vmpi_lb_run(A.chain, A.nchain, p, pe) != 0)
        return -1;
    evacuate(p, pe);
    return 0;
}

/* --lb-verbose: the measured load of each PE, the load the new placement predicts, and the moves. */
static void report(const vmpi_lb_problem *p, const double *load, const int *to, int npes, const double *bg,
                   double secs)
{
    double before[npes], after[npes];
    int moves = 0;
    for (int q = 0; q < npes; q++)
        before[q] = after[q] = 0;
    for (int r = 0; r < p->nobjs; r++) {
        int from = vmpi_loc_pe(r); /* (the world is stopped: nothing has moved yet) */
        before[from] += load[r];
        after[to[r]] += load[r];
        moves += to[r] != from;
    }
    char line[512];
    size_t k = 0;
#define PUT(...) (k += (size_t)snprintf(line + k, sizeof line - k, __VA_ARGS__), k = k < sizeof line ? k : sizeof line - 1)
    PUT("lb step %u (%s, %.3f ms): %d of %d ranks move; PE load s before -> after:", A.steps, vmpi_cfg.balancer,
        1e3 * secs, moves, p->nobjs);
    for (int q = 0; q < npes; q++)
        PUT(" %.4g->%.4g", before[q], after[q]);
    PUT("; background%s:", p->bg ? "" : " (not used)");
    for (int q = 0; q < npes; q++)
        PUT(" %.4g", bg[q]);
#undef PUT
    vmpi_warn("%s", line);
}

/* A job of several processes: each process's part of the balancing problem, which every process gathers, so
 * that all compute the same placement of every rank (the strategies are deterministic, their seeds the
 * same) and no placement needs to be sent.  The head, then nranks part_rank, npes background loads (double)
 * and nedges edges. */
typedef struct part_head {
    uint32_t nranks, npes, nedges;
    uint8_t run;             /* process 0's says whether this step balances (lb-period is per process) */
    uint8_t stays;           /* a rank here cannot leave its process: the job balances each process alone */
    uint8_t pad[2];
    int32_t nact;            /* process 0's says which PEs hold ranks (VMPIX_Set_active_pes is per process) */
    uint64_t libs;           /* the loaded objects (their list's hash): ranks move only between alike processes */
} part_head;
typedef struct part_rank {
    int32_t r, pe, movable, pad;
    double load;
} part_rank;

static uint64_t libs_hash(void)
{
    size_t len;
    const char *l = vmpi_adapt_ckpt_libs(&len);
    return vmpi_ckpt_hash(l, len);
}

/* Gathers every process's part into load, pe, movable, bg and E (this process's are in already); returns
 * whether ranks may move between processes in this step, and sets *run to process 0's. */
static bool gather_parts(int n, double *load, int *pe, bool *movable, double *bg, edges *E, bool *run,
                         bool *active)
{
    int K = vmpi_xport_nprocs(), pe0 = vmpi_sched_local_first(), npl = vmpi_sched_local_npes();
    part_head h = {.npes = (uint32_t)npl, .nedges = (uint32_t)E->n, .run = *run, .libs = libs_hash(),
                   .nact = atomic_load(&A.active)};
    int stays_rank = -1, first_stays = -1;
    const char *stays_why = NULL;
    for (int r = 0; r < n; r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        if (rk == NULL)
            continue;
        h.nranks++;
        const char *why = vmpi_adapt_stays_why(rk); /* (an unmovable one too: evacuation moves it) */
        if (why && !h.stays) {
            h.stays = 1;
            stays_rank = r;
            stays_why = why;
        }
    }
    size_t len = sizeof h + sizeof(part_rank) * h.nranks + sizeof(double) * (size_t)npl + sizeof(edge) * E->n;
    char *blob = malloc(len), *p = blob;
    void **out = malloc(sizeof(void *) * (size_t)K);
    size_t *lens = malloc(sizeof(size_t) * (size_t)K);
    if (!blob || !out || !lens)
        vmpi_fatal("out of memory for a load-balancing step of %d ranks", n);
    memcpy(p, &h, sizeof h), p += sizeof h;
    for (int r = 0; r < n; r++)
        if (vmpi_rank_get(r)) {
            part_rank pr = {r, pe[r], movable[r], 0, load[r]};
            memcpy(p, &pr, sizeof pr), p += sizeof pr;
        }
    memcpy(p, bg + pe0, sizeof(double) * (size_t)npl), p += sizeof(double) * (size_t)npl;
    if (E->n)
        memcpy(p, E->e, sizeof(edge) * E->n);
    vmpi_xport_net_allgather(blob, len, out, lens);
    free(blob);
    bool across = vmpi_cfg.lb_procs && !VMPI_SANITIZER;
    for (int k = 0; k < K; k++) {
        const char *q = out[k], *end = q + lens[k];
        part_head g;
        if (lens[k] < sizeof g)
            vmpi_fatal("internal error: process %d's part of a load-balancing step is malformed", k);
        memcpy(&g, q, sizeof g), q += sizeof g;
        if ((size_t)(end - q) != sizeof(part_rank) * g.nranks + sizeof(double) * g.npes + sizeof(edge) * g.nedges ||
            (int)g.npes != vmpi_xport_proc_npes(k))
            vmpi_fatal("internal error: process %d's part of a load-balancing step is malformed", k);
        if (k == 0) {
            *run = g.run;
            for (int q = 0; q < vmpi_sched_npes(); q++)
                active[q] = q < g.nact;
        }
        across &= !g.stays && g.libs == h.libs;
        if (g.stays && first_stays < 0)
            first_stays = k;
        if (k == vmpi_xport_self_proc()) {
            free(out[k]);
            continue;
        }
        for (uint32_t i = 0; i < g.nranks; i++) {
            part_rank pr;
            memcpy(&pr, q, sizeof pr), q += sizeof pr;
            if (pr.r < 0 || pr.r >= n || vmpi_rank_get(pr.r) || pr.pe < 0 || pr.pe >= vmpi_sched_npes())
                vmpi_fatal("internal error: process %d's part of a load-balancing step names rank %d", k, pr.r);
            load[pr.r] = pr.load;
            pe[pr.r] = pr.pe;
            movable[pr.r] = pr.movable != 0;
        }
        memcpy(bg + vmpi_xport_first_pe(k), q, sizeof(double) * g.npes), q += sizeof(double) * g.npes;
        for (uint32_t i = 0; i < g.nedges && !E->nomem; i++) {
            edge e;
            memcpy(&e, q + sizeof e * i, sizeof e);
            if (e.a < 0 || e.a >= n || e.b < 0 || e.b >= n)
                vmpi_fatal("internal error: process %d's part of a load-balancing step is malformed", k);
            push_edge(E, e);
        }
        free(out[k]);
    }
    free(out);
    free(lens);
    /* once in the job, by the first process that has such a rank */
    if (first_stays == vmpi_xport_self_proc() && !A.stays_warned && vmpi_cfg.lb_procs)
        vmpi_warn("rank %d cannot leave process %d (%s): each process balances its own ranks", stays_rank,
                  vmpi_xport_self_proc(), stays_why);
    A.stays_warned |= first_stays >= 0;
    return across;
}

/* Ranks moving between processes: a process left without a rank would end (the job's end counts its
 * processes' ends), so each keeps at least one, its least loaded rank of before, where it was. */
static void keep_one_per_proc(int n, const double *load, int *pe)
{
    int K = vmpi_xport_nprocs();
    int *count = calloc((size_t)K, sizeof(int));
    if (count == NULL)
        vmpi_fatal("out of memory for a load-balancing step of %d ranks", n);
    for (int pass = 0; pass < K; pass++) {
        memset(count, 0, sizeof(int) * (size_t)K);
        for (int r = 0; r < n; r++)
            count[vmpi_xport_proc_of_pe(pe[r])]++;
        bool fixed = false;
        for (int k = 0; k < K; k++) {
            if (count[k] > 0)
                continue;
            int best = -1;
            for (int r = 0; r < n; r++)
                if (vmpi_xport_proc_of_pe(vmpi_loc_pe(r)) == k && (best < 0 || load[r] < load[best]))
                    best = r;
            if (best >= 0) {
                count[vmpi_xport_proc_of_pe(pe[best])]--;
                pe[best] = vmpi_loc_pe(best);
                count[k]++;
                fixed = true;
            }
        }
        if (!fixed)
            break;
    }
    free(count);
}

/* The step at a migration point, while the world is stopped.  With `run` the strategy chain places the
 * ranks on measured loads and a new measurement period starts; without (ampi_load_balance=false, or
 * within --lb-period) only the pending placement requests are applied: AMPI_Migrate_to_pe and the
 * evacuation of PEs made inactive.  In a job of several processes every process computes the placement of
 * every rank from the parts all gathered: over every PE of the job (ranks move between processes:
 * move_procs.c), or, when some rank cannot leave its process or --lb-procs 0, each process's ranks over its
 * own PEs. */
static bool rebalance(bool run)
{
    int n = vmpi_world_size(), npes = vmpi_sched_npes();
    bool procs = vmpi_xport_net_job() && vmpi_xport_nprocs() > 1, across = false;
    double tick = vmpi_sched_tick_seconds();
    double *load = malloc(sizeof(double) * (size_t)n);
    int *pe = malloc(sizeof(int) * (size_t)n);
    bool *movable = malloc(sizeof(bool) * (size_t)n);
    int *xadj = NULL, *adj = NULL;
    double *bytes = NULL;
    bool *active = NULL;
    double *bg = NULL, *share = NULL;
    edges E = {0};
    double t_step = vmpi_clock_now();
    const char *bad = NULL;
    if (atomic_exchange(&A.rechain, false) && take_chain(&bad) < 0) /* (checked by its writer: mpi/tool) */
        A.nchain = 0;
    if (!load || !pe || !movable)
        goto nomem;
    /* The ranks' busy times are wall time, less what the scheduler found long runs waited for their core
     * (sched/runwait.h): while the OS ran something else on a PE's core, its ranks' clocks kept going.  Each PE's
     * share of the CPU while it was not asleep, with those corrections left out, scales its ranks' loads
     * to CPU time, and the time taken from it is its background load, which the strategies add to the PE
     * with --lb-background (off by default: on a shared machine it is mostly transient noise). */
    bg = malloc(sizeof(double) * (size_t)npes);
    share = malloc(sizeof(double) * (size_t)npes);
    if (!bg || !share)
        goto nomem;
    double period = vmpi_sched_load_period();
    int pe0 = vmpi_sched_local_first(), pe1 = pe0 + vmpi_sched_local_npes();
    for (int q = 0; q < npes; q++) {
        if (q < pe0 || q >= pe1) { /* another process's PE: its measurements come with its part */
            share[q] = 1;
            bg[q] = 0;
            continue;
        }
        vmpi_pe *x = vmpi_sched_pe(q);
        double awake = period - tick * (double)x->slept, now = vmpi_sched_pe_cpu_seconds(q);
        double cpu = now >= 0 && x->cpu0 >= 0 ? now - x->cpu0 : awake;
        double charged = awake - tick * (double)x->waited; /* the wall time the ranks were charged */
        share[q] = charged > 0 && cpu < charged ? cpu / charged : 1;
        bg[q] = awake > cpu ? awake - cpu : 0;
    }
    if ((active = malloc(sizeof(bool) * (size_t)npes)) == NULL)
        goto nomem;
    int nact = atomic_load(&A.active);
    for (int q = 0; q < npes; q++)
        active[q] = q < nact;
    for (int r = 0; r < n; r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        if (rk == NULL) { /* another process's rank: its part says */
            load[r] = 0;
            pe[r] = vmpi_loc_pe(r);
            movable[r] = false;
            continue;
        }
        int want = rk->adapt ? rk->adapt->want_pe : -1;
        load[r] = load_of(rk, tick, rk->vp.busy); /* the world is stopped: its busy ticks are final */
        if (!(rk->adapt && rk->adapt->has_user_load))
            load[r] *= share[rk->vp.pe->id];
        /* a rank sent elsewhere by AMPI_Migrate_to_pe counts where it goes (a request for an inactive PE
         * is dropped; one for another process's PE needs the ranks to move between processes) */
        if (want >= 0 && vmpi_xport_proc_of_pe(want) != vmpi_xport_proc_of_pe(rk->vp.pe->id) &&
            (!procs || !vmpi_cfg.lb_procs || vmpi_adapt_stays_why(rk))) {
            const char *why = !procs ? "ranks move within their process group in the emulated mode"
                              : !vmpi_cfg.lb_procs ? "--lb-procs is 0" : vmpi_adapt_stays_why(rk);
            vmpi_warn("AMPI_Migrate_to_pe: rank %d cannot move to PE %d, in another process (process %d; rank %d "
                      "is in process %d): %s", r, want, vmpi_xport_proc_of_pe(want), r,
                      vmpi_xport_proc_of_pe(rk->vp.pe->id), why);
            want = -1;
        }
        pe[r] = want >= 0 && active[want] ? want : rk->vp.pe->id;
        movable[r] = rk->vp.state != VMPI_VP_DONE && !(rk->adapt && (rk->adapt->fixed || want >= 0));
        if (rk->adapt)
            rk->adapt->want_pe = -1;
    }
    if (run && vmpi_commstat_tracking()) {
        local_edges(n, &E);
        for (int r = 0; r < n; r++)
            if (vmpi_rank_get(r) && vmpi_msg_ep(r))
                vmpi_commstat_reset(&vmpi_msg_ep(r)->sent);
    }
    if (procs)
        across = gather_parts(n, load, pe, movable, bg, &E, &run, active);
    bool split = vmpi_xport_nprocs() > 1 && !across; /* (the emulated mode's process groups too) */
    for (int r = 0; split && r < n; r++) /* AMPI_Migrate_to_pe to another process, refused */
        if (vmpi_xport_proc_of_pe(pe[r]) != vmpi_xport_proc_of_pe(vmpi_loc_pe(r))) {
            if (vmpi_rank_get(r))
                vmpi_warn("AMPI_Migrate_to_pe: rank %d cannot move to PE %d, in another process: some rank of the "
                          "job cannot leave its process, so each process balances its own ranks", r, pe[r]);
            pe[r] = vmpi_loc_pe(r);
        }
    vmpi_lb_problem p = {.nobjs = n, .npes = npes, .load = load, .movable = movable, .seed = A.steps,
                         .active = active, .bg = vmpi_cfg.lb_background ? bg : NULL};
    vmpi_lb_graph g;
    if (run && vmpi_commstat_tracking() && build_graph(n, &E, &g, &xadj, &adj, &bytes))
        p.graph = &g;
    else if (run && vmpi_commstat_tracking() && procs) /* (every process must place on the same data) */
        vmpi_fatal("out of memory for the communication graph of a load-balancing step of %d ranks", n);
    double t_lb = vmpi_clock_now();
    int lb_err = split ? vmpi_lb_split_run(&p, vmpi_xport_procs_.proc_of_pe, vmpi_xport_nprocs(), place, &run, pe)
                     : place(&p, pe, &run);
    if (lb_err == 0 && across)
        keep_one_per_proc(n, load, pe);
    t_lb = vmpi_clock_now() - t_lb;
    if (lb_err != 0) {
        vmpi_warn("load balancer '%s' failed: no rank moves", vmpi_cfg.balancer);
        goto out;
    }
    if (vmpi_cfg.lb_verbose && run && (!procs || vmpi_xport_self_proc() == 0))
        report(&p, load, pe, npes, bg, t_lb);
    long moved = 0;
    bool cross = false;
    for (int r = 0; r < n; r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        cross |= vmpi_xport_proc_of_pe(pe[r]) != vmpi_xport_proc_of_pe(vmpi_loc_pe(r));
        if (rk == NULL)
            continue;
        if (rk->adapt && run) { /* the next period starts now */
            rk->adapt->excluded = rk->adapt->off_at = 0;
            rk->adapt->has_user_load = false;
        }
        int to = pe[r];
        if (to != rk->vp.pe->id && rk->vp.state != VMPI_VP_DONE) {
            moved++;
            rk->vp.migrations++; /* (before it leaves the process, if it does: the count goes with it) */
            if (vmpi_xport_proc_of_pe(to) == vmpi_xport_proc_of_pe(rk->vp.pe->id))
                vmpi_loc_move(&rk->vp, to);
        }
    }
    if (cross) { /* every process knows: all take part */
        double t = vmpi_clock_now();
        uint64_t sent = 0;
        long across_moves = vmpi_adapt_move_procs(pe, &sent, false);
        A.bytes_out += sent;
        t = vmpi_clock_now() - t;
        if (vmpi_cfg.lb_verbose)
            vmpi_warn("process %d: %ld rank(s) moved between processes in %.3f ms (%.3f MB of slots sent from here)",
                      vmpi_xport_self_proc(), across_moves, 1e3 * t, 1e-6 * (double)sent);
    }
    if (procs) { /* the others' ranks, where the step put them */
        for (int r = 0; r < n; r++)
            if (vmpi_rank_get(r) == NULL)
                vmpi_loc_set(r, pe[r]);
        count_here();
    }
    vmpi_loc_moves_done(); /* the shared-memory collectives regroup */
    atomic_fetch_add(&A.moves, moved);
    if (run) {
        vmpi_sched_reset_load();
        A.steps++;
        A.lb_seconds += vmpi_clock_now() - t_step;
    }
    if (0) {
nomem: /* a job of several processes cannot leave a step alone: the others wait for its part */
        if (procs)
            vmpi_fatal("out of memory for a load-balancing step of %d ranks", n);
        vmpi_warn("out of memory for a load-balancing step of %d ranks: no rank moves", n);
    }
out:
    free(E.e);
    free(bg);
    free(share);
    free(active);
    free(xadj);
    free(adj);
    free(bytes);
    free(load);
    free(pe);
    free(movable);
    return run;
}

/* Inside the stop: lets every rank waiting at the migration point go (on its PE, possibly a new one). */
static void release_all(void)
{
    for (int r = 0; r < vmpi_world_size(); r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        if (rk && rk->adapt && rk->adapt->in_migrate) {
            rk->adapt->in_migrate = false;
            vmpi_vp_wake(&rk->vp);
        }
    }
}

/* Every rank must ask for the same, valid, checkpoint at a migration point (in a job of several processes,
 * each process checks its own ranks here, and the processes compare their hints: ckpt_procs.c). */
static int checkpoint_agreed(vmpi_ckpt_kind *kind, const char **dir)
{
    int n = vmpi_world_size(), r0 = 0;
    while (vmpi_rank_get(r0) == NULL) /* the process's first rank */
        r0++;
    vmpi_adapt_rank *a0 = vmpi_rank_get(r0)->adapt;
    *kind = a0->ckpt;
    *dir = a0->ckpt_dir;
    for (int r = r0; r < n; r++)
        if (vmpi_rank_get(r) && vmpi_rank_get(r)->adapt->ckpt == VMPI_CKPT_INVALID) {
            vmpi_warn("AMPI_Migrate: rank %d gives an ampi_checkpoint value that is neither to_file=DIR nor "
                      "in_memory: no checkpoint is taken", r);
            return MPI_ERR_INFO_VALUE;
        }
    for (int r = r0 + 1; r < n; r++) {
        vmpi_adapt_rank *a = vmpi_rank_get(r) ? vmpi_rank_get(r)->adapt : NULL;
        if (a && (a->ckpt != a0->ckpt || (a0->ckpt == VMPI_CKPT_TO_FILE && strcmp(a->ckpt_dir, a0->ckpt_dir) != 0))) {
            vmpi_warn("AMPI_Migrate: ranks %d and %d give different ampi_checkpoint hints: no checkpoint is taken",
                      r0, r);
            return MPI_ERR_INFO_VALUE;
        }
    }
    return MPI_SUCCESS;
}

typedef struct step_req {
    bool balance;
    bool ckpt;               /* a job of several processes: some rank of some process asked for a checkpoint */
} step_req;

/* A checkpoint of a job of several processes is each process's block of ranks (process k's part holds ranks
 * [k n / K, (k + 1) n / K), which a restart on any number of processes relies on): ranks that moved to
 * another process go back to their block's process first, to the PE they started on (a migration of its
 * own, inside the step; the balancing that follows places them again).  Collective: every process knows
 * every rank's place. */
static int ranks_home(void)
{
    int n = vmpi_world_size(), npes = vmpi_sched_npes(), K = vmpi_xport_nprocs();
    int *to = malloc(sizeof(int) * (size_t)n);
    if (to == NULL)
        vmpi_fatal("out of memory for a checkpoint of %d ranks", n);
    bool away = false;
    for (int r = 0; r < n; r++) {
        int pe = vmpi_loc_pe(r);
        bool home = vmpi_xport_proc_of_pe(pe) == vmpi_loc_start_proc(r, n);
        to[r] = home ? pe : vmpi_loc_start_pe(r, n, npes);
        away |= !home;
    }
    int err = MPI_SUCCESS;
    if (away) {
        /* a rank away from home that cannot leave its process now (it made a window since...) refuses the
         * checkpoint everywhere: the processes say so to each other */
        int32_t stuck = -1;
        for (int r = 0; r < n && stuck < 0; r++) {
            vmpi_rank *rk = vmpi_rank_get(r);
            const char *why = rk && to[r] != vmpi_loc_pe(r) ? vmpi_adapt_stays_why(rk) : NULL;
            if (why) {
                stuck = r;
                vmpi_warn("checkpoint refused: rank %d is in process %d, away from its block's process %d, and cannot "
                          "go back (%s)", r, vmpi_xport_self_proc(), vmpi_loc_start_proc(r, n), why);
            }
        }
        int32_t *all = malloc(sizeof *all * (size_t)K);
        if (all == NULL)
            vmpi_fatal("out of memory for a checkpoint of %d ranks", n);
        vmpi_xport_net_allgather_fixed(&stuck, sizeof stuck, all);
        for (int k = 0; k < K; k++)
            if (all[k] >= 0)
                err = MPI_ERR_OTHER;
        free(all);
    }
    if (away && err == MPI_SUCCESS) {
        vmpi_adapt_move_procs(to, NULL, true);
        for (int r = 0; r < n; r++)
            if (vmpi_rank_get(r) == NULL)
                vmpi_loc_set(r, to[r]);
        count_here();
        vmpi_loc_moves_done();
    }
    free(to);
    return err;
}

/* After the stop, once its requester is woken: the network's handlers run again (they may wake it too). */
static void release_hold(void) { vmpi_xport_net_hold(false); }

static void step(void *arg)
{
    /* a copy: the request is on the stack of the rank that asked for the stop, which may leave the process */
    const step_req qv = *(const step_req *)arg, *q = &qv;
    vmpi_ckpt_kind kind;
    const char *dir;
    if (vmpi_xport_net_job() && vmpi_xport_nprocs() > 1) {
        /* a job of several processes: the checkpoint is agreed with the others, and each places its own ranks */
        A.ckpt_err = MPI_SUCCESS;
        if (q->ckpt) { /* a checkpoint, or another number of processes (which checkpoints), asked somewhere */
            int home = ranks_home(), m = vmpi_adapt_resize_agree();
            A.ckpt_err = checkpoint_agreed(&kind, &dir);
            A.ckpt_err = vmpi_adapt_checkpoint_procs(home ? home : A.ckpt_err, kind, dir);
            if (m > 0) { /* (returns only when the job stays as it is) */
                int e = vmpi_adapt_resize(m, home);
                A.ckpt_err = A.ckpt_err ? A.ckpt_err : e;
            }
        }
        if (rebalance(q->balance)) /* (here: the rank that asked for the stop may have left the process) */
            A.last = vmpi_clock_now();
        release_all();
        vmpi_sched_stop_then(release_hold);
        return;
    }
    A.ckpt_err = checkpoint_agreed(&kind, &dir);
    if (A.ckpt_err == MPI_SUCCESS && kind != VMPI_CKPT_NONE) {
        char err[512];
        A.ckpt_err = vmpi_adapt_checkpoint(kind, dir, err, sizeof err);
        if (A.ckpt_err)
            vmpi_warn("checkpoint failed: %s", err);
    }
    if (vmpi_adapt_resize_wanted()) { /* a job of one process that vmpirun supervises may grow */
        int m = vmpi_adapt_resize_agree(), e = m > 0 ? vmpi_adapt_resize(m, MPI_SUCCESS) : MPI_SUCCESS;
        A.ckpt_err = A.ckpt_err ? A.ckpt_err : e;
    }
    if (rebalance(q->balance))
        A.last = vmpi_clock_now();
    release_all();
}

int vmpi_adapt_migrate(bool balance, vmpi_ckpt_kind ckpt, const char *dir)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_adapt_rank *a = vmpi_adapt_self();
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    a->restarted = false;
    a->ckpt = ckpt;
    free(a->ckpt_dir);
    a->ckpt_dir = NULL;
    if (ckpt == VMPI_CKPT_TO_FILE && (a->ckpt_dir = strdup(dir)) == NULL)
        return MPI_ERR_NO_MEM;
    if (balance && a->about_to)
        a->about_to();
    int before = vmpi_pe_self()->id, n = vmpi_world_size();
    int err = vmpi_coll_barrier(&rk->world, NULL);
    if (err)
        return err;
    /* Every rank has entered the migration point.  Each counts itself once it has left the barrier
     * entirely (the shared-memory collectives may be regrouped only when no rank is inside one) and waits;
     * rank 0 blocks until the last one tells it (a message, so a rank that never comes is reported by the
     * deadlock check), then stops the world, balances, and releases them there. */
    const vmpi_dtype *byte = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    /* In a job of several OS processes each process does the same with its own ranks (leader: its first),
     * once no message between processes is in flight (the other processes' ranks are all at the migration
     * point too), with the network's handlers held while its world is stopped. */
    bool procs = vmpi_xport_net_job() && vmpi_xport_nprocs() > 1;
    int leader = 0, nhere = n;
    if (procs) { /* (counted at boot, and again by every step that moves ranks between processes) */
        leader = A.leader;
        nhere = A.nhere;
    }
    if (rk->world_rank != leader) {
        a->in_migrate = true;
        if (atomic_fetch_add(&A.arrived, 1) + 1 == nhere - 1) /* the last one: word to the leader, which blocks */
            vmpi_send(NULL, 0, byte, leader, TAG_ARRIVED, &rk->world, 1, VMPI_SENDK_STD);
        while (a->in_migrate) /* a request completing meanwhile may wake it: only the release counts */
            vmpi_vp_block("AMPI_Migrate");
    } else {
        err = nhere > 1 ? vmpi_recv(NULL, 0, byte, MPI_ANY_SOURCE, TAG_ARRIVED, &rk->world, 1, MPI_STATUS_IGNORE)
                        : MPI_SUCCESS;
        if (err)
            return err;
        atomic_store(&A.arrived, 0);
        step_req q = {.balance = balance && vmpi_clock_now() - A.last >= vmpi_cfg.lb_period};
        if (procs) { /* whether any rank anywhere asked for a checkpoint comes with the quiescence */
            bool mine = false;
            for (int r = leader; r < n && !mine; r++)
                mine = vmpi_rank_get(r) && vmpi_rank_get(r)->adapt && vmpi_rank_get(r)->adapt->ckpt != VMPI_CKPT_NONE;
            mine |= vmpi_adapt_resize_wanted();
            q.ckpt = vmpi_xport_net_quiesce(mine);
            vmpi_xport_net_hold(true);
        }
        vmpi_sched_stop_world(step, &q); /* (it may return in another process: the step moved this rank) */
        if (ckpt == VMPI_CKPT_TO_FILE && A.ckpt_err == MPI_SUCCESS && !a->restarted)
            vmpi_ckpt_prune(dir); /* the previous checkpoint, once the others are on their way again */
    }
    /* here too after a restart from a checkpoint taken at this point (restart.c) */
    if (vmpi_pe_self()->id != before && a->just_migrated)
        a->just_migrated();
    return a->restarted ? MPI_SUCCESS : A.ckpt_err;
}

bool vmpi_adapt_restarted(void)
{
    vmpi_adapt_rank *a = vmpi_rank_self()->adapt;
    return a && a->restarted;
}

int vmpi_adapt_migrate_to_pe(int pe)
{
    vmpi_adapt_rank *a = vmpi_adapt_self();
    if (a == NULL)
        return MPI_ERR_NO_MEM;
    a->want_pe = pe;
    return MPI_SUCCESS;
}
