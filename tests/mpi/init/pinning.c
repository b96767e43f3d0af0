/* SPDX-License-Identifier: BSD-3-Clause */
/* PE threads are pinned (--pin, the default) when the node's PE threads fit its cores: every PE thread on a
 * core of its own, ranks of one PE on its core, in one process and in several (a process places its PEs by
 * its rank on the node, PMIx's local rank, or within the cores its launcher bound it to: what differs on
 * several nodes, where PEs numbered in the job exceed a node's cores, this machine cannot show).  Cores are
 * counted from sysfs (package, core) pairs; with more PE threads than cores nothing is checked. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "mtest.h"

static int ncores(void)
{
    long seen[1024];
    int n = 0;
    for (int cpu = 0; cpu < 1024; cpu++) {
        char path[128];
        long pkg = -1, core = -1;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            break;
        if (fscanf(f, "%ld", &pkg) != 1)
            pkg = -1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
        if ((f = fopen(path, "r")) != NULL) {
            if (fscanf(f, "%ld", &core) != 1)
                core = -1;
            fclose(f);
        }
        long key = pkg * 100000 + core;
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = seen[i] == key;
        if (!dup)
            seen[n++] = key;
    }
    return n;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, *pe, *npes, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &pe, &flag);
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &npes, &flag);
    cpu_set_t set;
    uint64_t mine[2] = {0, (uint64_t)*pe};
    MT_CHECK(errs, sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity failed");
    for (int c = 0; c < 64; c++)
        if (CPU_ISSET(c, &set))
            mine[0] |= 1ull << c;
    uint64_t *all = mt_malloc(sizeof mine * (size_t)size);
    MPI_Allgather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, MPI_COMM_WORLD);
    int cores = ncores();
    if (rank == 0 && cores > 0 && cores <= 64 && *npes <= cores) {
        for (int r = 0; r < size; r++) {
            uint64_t m = all[2 * r];
            MT_CHECK(errs, m != 0 && (m & (m - 1)) == 0, "rank %d (PE %d) may run on CPUs %#llx, not on one", r,
                     (int)all[2 * r + 1], (unsigned long long)m);
            for (int q = 0; q < r; q++)
                MT_CHECK(errs, (all[2 * q + 1] == all[2 * r + 1]) == (all[2 * q] == m),
                         "ranks %d (PE %d, CPUs %#llx) and %d (PE %d, CPUs %#llx): one core per PE", q,
                         (int)all[2 * q + 1], (unsigned long long)all[2 * q], r, (int)all[2 * r + 1],
                         (unsigned long long)m);
        }
    }
    free(all);
    return mt_finish(errs);
}
