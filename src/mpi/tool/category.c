/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_T's categories: one per group of the tunables table and of the performance variables ("lb" holds the
 * balancer's settings and counters), named "vmpi_<group>", in the order the groups first appear.  Made once
 * per process; they never change (MPI_T_category_changed's number stays 0). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "base/sysmem.h"
#include "base/tunables.h"
#include "mpi/tool/tool.h"

/* What each group is about; a group missing here is described by its name. */
static const struct {
    const char *group, *desc;
} about[] = {
    {"job", "the job's shape: ranks, PEs, processes, stacks"},
    {"msg", "messaging: protocols, channels, messages sent and queued"},
    {"net", "jobs of several processes: the network transport"},
    {"sched", "the PEs' scheduling: pinning, waiting, deadlock check, context switches, idle time"},
    {"lb", "load balancing and migration: strategies, steps, ranks moved"},
    {"iso", "isomalloc: the address range of the ranks' slots"},
    {"ckpt", "checkpoint and restart"},
    {"rma", "one-sided communication and active messages"},
    {"armci", "the ARMCI library"},
};

enum { MAX_CATS = 32 };

static struct {
    pthread_once_t once;
    int n;
    vmpi_category cats[MAX_CATS];
    char names[MAX_CATS][32];
} K = {.once = PTHREAD_ONCE_INIT};

static int find_group(const char *group)
{
    for (int i = 0; i < K.n; i++)
        if (strcmp(K.names[i] + 5, group) == 0)
            return i;
    if (K.n == MAX_CATS)
        return -1;
    vmpi_category *c = &K.cats[K.n];
    snprintf(K.names[K.n], sizeof K.names[K.n], "vmpi_%s", group);
    c->name = K.names[K.n];
    c->desc = group;
    for (size_t a = 0; a < sizeof about / sizeof about[0]; a++)
        if (strcmp(about[a].group, group) == 0)
            c->desc = about[a].desc;
    return K.n++;
}

/* Appends index `v` to a category's list (the process's memory: the tables are shared by its ranks). */
static void add(const int **list, int *n, int v)
{
    int *l = vmpi_sys_realloc((void *)*list, sizeof *l * (size_t)(*n + 1));
    if (l == NULL)
        return;
    l[(*n)++] = v;
    *list = l;
}

static void build(void)
{
    size_t nt;
    const vmpi_tunable *t = vmpi_tunables(&nt);
    for (size_t i = 0; i < nt; i++) {
        int c = find_group(t[i].group);
        if (c >= 0)
            add(&K.cats[c].cvars, &K.cats[c].ncvars, (int)i);
    }
    for (int i = 0; i < vmpi_pvar_count(); i++) {
        int c = find_group(vmpi_pvar_get(i)->group);
        if (c >= 0)
            add(&K.cats[c].pvars, &K.cats[c].npvars, i);
    }
}

int vmpi_category_count(void)
{
    pthread_once(&K.once, build);
    return K.n;
}

const vmpi_category *vmpi_category_get(int i)
{
    pthread_once(&K.once, build);
    return &K.cats[i];
}

int vmpi_category_index(const char *name)
{
    for (int i = 0; i < vmpi_category_count(); i++)
        if (strcmp(K.cats[i].name, name) == 0)
            return i;
    return -1;
}
