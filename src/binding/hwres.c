/* SPDX-License-Identifier: BSD-3-Clause */
/* Hardware resources (MPI-4.1 7.4.2, 11.4): the node, the process (the ranks sharing memory), then the
 * machine's levels hwloc sees holding the CPU the rank's PE runs on now (package, NUMA node, caches, core,
 * PU).  A rank that migrates moves to other resources: what these report holds at the moment of the call,
 * as MPI-4.1 says of MPI_Get_hw_resource_info. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "binding/check.h"
#include "binding/hwres.h"
#include "binding/impl.h"
#include "mpi/coll/coll.h"
#include "mpi/core/handle.h"
#include "mpi/core/info.h"
#include "sched/pin.h"
#include "xport/netjob.h"
#include "xport/procs.h"

#define MAX_LEVELS 16

typedef struct level {
    char type[24];
    int color, index, count;
} level;

/* The calling rank's resources, largest first: "machine" (the node, as hwloc and MPICH name it),
 * "mpi_shared_memory" (the process: MPI-4.1's name for MPI_COMM_TYPE_SHARED's domain), then hwloc's. */
static int levels(level *out)
{
    int proc = vmpi_xport_self_proc(), node = vmpi_xport_net_node_of(proc) & 0x7fff;
    out[0] = (level){"machine", node, node, 0}; /* node ids are not numbered from 0: no count */
    out[1] = (level){"mpi_shared_memory", proc, proc, vmpi_xport_nprocs()};
    vmpi_pin_level hw[MAX_LEVELS - 2];
    int n = vmpi_pin_levels(hw, MAX_LEVELS - 2);
    for (int i = 0; i < n; i++) {
        level *l = &out[2 + i];
        snprintf(l->type, sizeof l->type, "%s", hw[i].type);
        l->index = hw[i].index;
        l->count = hw[i].count;
        l->color = (int)(((unsigned)node << 16 | (unsigned)hw[i].index) & INT_MAX); /* objects of one node */
    }
    return 2 + n;
}

/* Other names programs use (MPICH's test suite, Open MPI): hwloc 1's and plain words; hwloc's unified
 * caches ("l2ucache") are its caches ("l2cache"). */
static void canonical(const char *type, char *out, size_t n)
{
    static const char *const alias[][2] = {{"host", "machine"}, {"node", "machine"}, {"socket", "package"},
                                           {"numa", "numanode"}, {"hwthread", "pu"}, {"l3", "l3cache"},
                                           {"l2", "l2cache"},     {"l1", "l1cache"}};
    snprintf(out, n, "%s", type);
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (!strcasecmp(type, alias[i][0]))
            snprintf(out, n, "%s", alias[i][1]);
    if (strlen(out) == 8 && (out[0] == 'l' || out[0] == 'L') && (out[2] == 'u' || out[2] == 'U') &&
        !strcasecmp(out + 3, "cache"))
        memmove(out + 2, out + 3, 6);
}

int vmpi_hwres_color(const char *type)
{
    level l[MAX_LEVELS];
    int n = levels(l);
    char t[32];
    canonical(type, t, sizeof t);
    for (int i = 0; i < n; i++)
        if (!strcasecmp(t, l[i].type))
            return l[i].color;
    return MPI_UNDEFINED;
}

int vmpi_hwres_unguided(vmpi_comm *c, int *color, char *type, size_t n)
{
    level l[MAX_LEVELS];
    int nl = levels(l);
    vmpi_comm *g = vmpi_comm_is_inter(c) ? c->local : c;
    const vmpi_dtype *dt = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_INT));
    for (int i = 0; i < MAX_LEVELS; i++) {
        /* the same number of rounds everywhere: a rank with fewer levels repeats its last */
        int mine = l[i < nl ? i : nl - 1].color, in[3] = {mine, -mine, i < nl}, out[3];
        int err = vmpi_coll_allreduce(in, out, 3, dt, MPI_INT, MPI_MAX, g, NULL);
        if (err)
            return err;
        if (out[2] == 0)
            break;
        if (out[0] != -out[1]) { /* the colors differ: this level splits the group */
            *color = mine;
            snprintf(type, n, "%s", l[i < nl ? i : nl - 1].type);
            return MPI_SUCCESS;
        }
    }
    *color = MPI_UNDEFINED;
    type[0] = '\0';
    return MPI_SUCCESS;
}

/* MPI_Get_hw_resource_info (its entry point generated): a key per resource type the rank runs on, largest
 * first, each usable as the value of mpi_hw_resource_type; its value "I/N": the rank is on resource I of the N
 * the job (processes) or the machine (hwloc's levels) has, or "I" for the node (I its id). */
int vmpi_b_Get_hw_resource_info(MPI_Info *hw_info)
{
    level l[MAX_LEVELS];
    int nl = levels(l);
    MPI_Info info = MPI_INFO_NULL;
    int err = vmpi_info_create(&info);
    for (int i = 0; !err && i < nl; i++) {
        char v[32];
        if (l[i].count > 0)
            snprintf(v, sizeof v, "%d/%d", l[i].index, l[i].count);
        else
            snprintf(v, sizeof v, "%d", l[i].index);
        err = vmpi_info_set(info, l[i].type, v);
    }
    if (err) {
        if (info != MPI_INFO_NULL)
            vmpi_info_free(&info);
        return err;
    }
    *hw_info = info;
    return MPI_SUCCESS;
}
