/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the load-balancing strategies (src/lb):
 *   - names: AMPI spellings ("GreedyLB", any case) are found; chains parse; a bad name is reported;
 *   - Null moves nothing; Rotate moves every movable rank to the next active PE and skips inactive ones;
 *     Random is deterministic for a seed and only uses active PEs;
 *   - on an imbalanced set (a few heavy ranks, many light), Greedy, GreedyRefine, Refine and Metis reach a
 *     maximum PE load within 10% of the ideal (total / PEs) or of the largest single rank, whichever is
 *     larger; Refine and GreedyRefine move far fewer ranks than Greedy;
 *   - the bulk-synchronous loop of bench/lb_bsp (64 ranks on 2 PEs, 16 of weight 4 and 48 of weight 1,
 *     the heavy ones all on PE 0, each weight off by up to 2% as measured loads are): Greedy,
 *     GreedyRefine, Refine and Greedy,Refine leave the most loaded PE within 1% of the average (every
 *     step of such a loop waits for it), Refine and GreedyRefine with fewer moves than Greedy;
 *   - unmovable ranks never move; ranks on inactive PEs always leave them (shrink);
 *   - Metis keeps tightly coupled ranks together: on a ring of 64 equal ranks over 4 PEs it cuts at most
 *     a few edges (contiguous blocks), where a random placement cuts most. */
#include "lb/lb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

enum { N = 64, P = 4 };

static double maxload(const vmpi_lb_problem *p, const int *pe)
{
    double pl[P], m = 0;
    vmpi_lb_pe_loads(p, pe, pl);
    for (int q = 0; q < p->npes; q++)
        m = pl[q] > m ? pl[q] : m;
    return m;
}

static int moved(const int *a, const int *b, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += a[i] != b[i];
    return k;
}

static void names(void)
{
    CHECK(vmpi_lb_find("GreedyLB") && !strcmp(vmpi_lb_find("GreedyLB")->name, "Greedy"), "GreedyLB");
    CHECK(vmpi_lb_find("refine") && vmpi_lb_find("ROTATELB"), "case");
    CHECK(vmpi_lb_find("Nope") == NULL, "unknown name found");
    const vmpi_lb_strategy *c[VMPI_LB_CHAIN_MAX];
    const char *bad = NULL;
    CHECK(vmpi_lb_parse("Greedy,RefineLB", c, &bad) == 2 && c[1] == vmpi_lb_find("Refine"), "chain");
    CHECK(vmpi_lb_parse("Greedy,Bogus", c, &bad) == -1 && bad && !strcmp(bad, "Bogus"), "bad chain: %s", bad);
}

static void simple(void)
{
    double load[N];
    int pe[N], before[N];
    bool active[P] = {true, false, true, true};
    for (int i = 0; i < N; i++) {
        load[i] = 1;
        pe[i] = before[i] = i * P / N;
    }
    vmpi_lb_problem p = {.nobjs = N, .npes = P, .load = load};
    vmpi_lb_find("Null")->fn(&p, pe);
    CHECK(moved(pe, before, N) == 0, "Null moved ranks");
    vmpi_lb_find("Rotate")->fn(&p, pe);
    for (int i = 0; i < N; i++)
        CHECK(pe[i] == (before[i] + 1) % P, "Rotate: rank %d on %d", i, pe[i]);
    p.active = active;
    vmpi_lb_find("Rotate")->fn(&p, pe);
    for (int i = 0; i < N; i++)
        CHECK(active[pe[i]] && pe[i] != (before[i] + 1) % P, "Rotate with PE 1 inactive: rank %d on %d", i, pe[i]);
    int r1[N], r2[N];
    memcpy(r1, before, sizeof r1);
    memcpy(r2, before, sizeof r2);
    p.seed = 7;
    vmpi_lb_find("Random")->fn(&p, r1);
    vmpi_lb_find("Random")->fn(&p, r2);
    CHECK(moved(r1, r2, N) == 0, "Random not deterministic");
    for (int i = 0; i < N; i++)
        CHECK(active[r1[i]], "Random used inactive PE %d", r1[i]);
}

static void balance(const char *name, int max_moves)
{
    double load[N], total = 0, biggest = 0;
    int pe[N], before[N];
    bool movable[N];
    for (int i = 0; i < N; i++) { /* ranks 0-7 do 8x the work: PE 0 holds all of them */
        load[i] = i < 8 ? 8.0 : 1.0;
        total += load[i];
        biggest = load[i] > biggest ? load[i] : biggest;
        pe[i] = before[i] = i * P / N;
        movable[i] = i != 5; /* one heavy rank is pinned */
    }
    vmpi_lb_problem p = {.nobjs = N, .npes = P, .load = load, .movable = movable};
    double ideal = total / P > biggest ? total / P : biggest;
    CHECK(vmpi_lb_find(name)->fn(&p, pe) == 0, "%s failed", name);
    double m = maxload(&p, pe);
    CHECK(m <= 1.10 * ideal, "%s: max load %.1f, ideal %.1f", name, m, ideal);
    CHECK(pe[5] == before[5], "%s moved the unmovable rank", name);
    int k = moved(pe, before, N);
    CHECK(k <= max_moves, "%s moved %d ranks (at most %d expected)", name, k, max_moves);
    /* shrink: PE 3 inactive, every rank leaves it */
    bool active[P] = {true, true, true, false};
    p.active = active;
    memcpy(pe, before, sizeof pe);
    for (int i = 0; i < N; i++)
        movable[i] = true;
    CHECK(vmpi_lb_find(name)->fn(&p, pe) == 0, "%s failed (shrink)", name);
    for (int i = 0; i < N; i++)
        CHECK(pe[i] != 3, "%s left rank %d on inactive PE 3", name, i);
    double m3 = maxload(&p, pe), ideal3 = total / 3;
    CHECK(m3 <= 1.10 * ideal3, "%s (shrink): max load %.1f, ideal %.1f", name, m3, ideal3);
}

static void bsp_loop(const char *chain, int max_moves)
{
    enum { R = 64, Q = 2 };
    double load[R], total = 0;
    int pe[R], before[R];
    unsigned x = 12345;
    for (int i = 0; i < R; i++) {
        x = x * 1103515245u + 12345u;
        double noise = 1 + 0.02 * ((double)(x >> 16 & 0x7fff) / 0x7fff * 2 - 1);
        load[i] = (i < R / 4 ? 4.0 : 1.0) * noise;
        total += load[i];
        pe[i] = before[i] = i * Q / R;
    }
    vmpi_lb_problem p = {.nobjs = R, .npes = Q, .load = load};
    const vmpi_lb_strategy *c[VMPI_LB_CHAIN_MAX];
    const char *bad = NULL;
    int n = vmpi_lb_parse(chain, c, &bad);
    CHECK(n > 0 && vmpi_lb_run(c, n, &p, pe) == 0, "%s failed", chain);
    double pl[Q];
    vmpi_lb_pe_loads(&p, pe, pl);
    double m = pl[0] > pl[1] ? pl[0] : pl[1];
    CHECK(m <= 1.01 * total / Q, "%s: PE loads %.3f and %.3f, average %.3f", chain, pl[0], pl[1], total / Q);
    int k = moved(pe, before, R);
    CHECK(k <= max_moves, "%s moved %d ranks (at most %d expected)", chain, k, max_moves);
}

static void metis_ring(void)
{
    int xadj[N + 1], adj[2 * N], pe[N];
    double bytes[2 * N], load[N];
    for (int i = 0; i < N; i++) {
        xadj[i] = 2 * i;
        adj[2 * i] = (i + N - 1) % N;
        adj[2 * i + 1] = (i + 1) % N;
        bytes[2 * i] = bytes[2 * i + 1] = 1e6;
        load[i] = 1;
        pe[i] = i % P; /* round robin: every edge cut */
    }
    xadj[N] = 2 * N;
    vmpi_lb_graph g = {xadj, adj, bytes};
    vmpi_lb_problem p = {.nobjs = N, .npes = P, .load = load, .graph = &g, .seed = 1};
    CHECK(vmpi_lb_find("Metis")->fn(&p, pe) == 0, "Metis failed");
    int cut = 0;
    for (int i = 0; i < N; i++)
        cut += pe[i] != pe[(i + 1) % N];
    CHECK(cut <= 2 * P, "Metis cut %d ring edges", cut);
    CHECK(maxload(&p, pe) <= 1.10 * N / P, "Metis imbalance: %.1f", maxload(&p, pe));
}

/* Placement within processes (split.c): PEs 0-1 are process 0, PEs 2-4 process 1, PE 5 process 2.  Greedy
 * with Metis's graph run per process: no object leaves its process, each process is balanced over its own
 * PEs (its objects' loads differ), the graph a strategy sees holds only its process's edges, and an
 * unmovable object stays. */
static int split_fn(const vmpi_lb_problem *sub, int *pe, void *arg)
{
    int *calls = arg;
    calls[0]++;
    for (int i = 0; i < sub->nobjs; i++)
        for (int e = sub->graph->xadj[i]; e < sub->graph->xadj[i + 1]; e++)
            if (sub->graph->adj[e] < 0 || sub->graph->adj[e] >= sub->nobjs)
                calls[1]++; /* an edge to an object of another process */
    return vmpi_lb_find("Greedy")->fn(sub, pe);
}

static void split(void)
{
    enum { NO = 30, NP = 6 };
    const int proc_of_pe[NP] = {0, 0, 1, 1, 1, 2};
    int pe[NO], before[NO], xadj[NO + 1], adj[2 * NO];
    double load[NO], bytes[2 * NO];
    bool movable[NO];
    for (int i = 0; i < NO; i++) {
        pe[i] = before[i] = i < 10 ? 0 : i < 25 ? 2 : 5; /* every object on its process's first PE */
        load[i] = 1 + i % 3;
        movable[i] = i != 12;
        xadj[i] = 2 * i;
        adj[2 * i] = (i + NO - 1) % NO; /* a ring across the processes */
        adj[2 * i + 1] = (i + 1) % NO;
        bytes[2 * i] = bytes[2 * i + 1] = 1;
    }
    xadj[NO] = 2 * NO;
    vmpi_lb_graph g = {xadj, adj, bytes};
    vmpi_lb_problem p = {.nobjs = NO, .npes = NP, .load = load, .movable = movable, .graph = &g, .seed = 1};
    int calls[2] = {0, 0};
    CHECK(vmpi_lb_split_run(&p, proc_of_pe, 3, split_fn, calls, pe) == 0, "split run failed");
    CHECK(calls[0] == 3 && calls[1] == 0, "split: %d sub-problems (expected 3), %d edges out of range", calls[0],
          calls[1]);
    double pl[NP] = {0};
    for (int i = 0; i < NO; i++) {
        CHECK(proc_of_pe[pe[i]] == proc_of_pe[before[i]], "split: object %d moved from PE %d to PE %d, in another "
              "process", i, before[i], pe[i]);
        pl[pe[i]] += load[i];
    }
    CHECK(pe[12] == before[12], "split: the unmovable object moved");
    CHECK(pl[0] > 0 && pl[1] > 0 && pl[2] > 0 && pl[3] > 0 && pl[4] > 0,
          "split: a process was not balanced over its PEs (loads %.0f %.0f | %.0f %.0f %.0f)", pl[0], pl[1], pl[2],
          pl[3], pl[4]);
    CHECK(pl[0] - pl[1] <= 3 && pl[1] - pl[0] <= 3, "split: process 0's PEs hold %.0f and %.0f", pl[0], pl[1]);
}

int main(void)
{
    split();
    names();
    simple();
    balance("Greedy", N);
    balance("GreedyRefine", N / 2);
    balance("Refine", N / 2);
    balance("Metis", N);
    bsp_loop("Greedy", 64);
    bsp_loop("GreedyRefine", 24);
    bsp_loop("Refine", 16);
    bsp_loop("Greedy,Refine", 64);
    metis_ring();
    if (errs == 0)
        printf(" No Errors\n");
    return errs != 0;
}
