/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <pthread.h>
#include "base/log.h"
#include "sched/pin.h"

static hwloc_topology_t topo;
static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static int ncores = 1;
static size_t llc_bytes;
static hwloc_cpuset_t bound; /* the cores the launcher bound the process to; NULL: all of them */

static void load_topology(void)
{
    if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0) {
        vmpi_warn("hwloc could not read the machine's topology; PEs are not pinned");
        topo = NULL;
        return;
    }
    int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
    if (n <= 0)
        n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
    ncores = n > 0 ? n : 1;
    hwloc_cpuset_t set = hwloc_bitmap_alloc();
    if (set && hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 &&
        !hwloc_bitmap_isincluded(hwloc_topology_get_allowed_cpuset(topo), set))
        bound = set;
    else
        hwloc_bitmap_free(set);
    for (hwloc_obj_t o = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, 0); o; o = o->parent)
        if (hwloc_obj_type_is_cache(o->type) && o->attr->cache.size > llc_bytes)
            llc_bytes = (size_t)o->attr->cache.size;
}

size_t vmpi_pin_llc_bytes(void)
{
    pthread_once(&topo_once, load_topology);
    return llc_bytes;
}

int vmpi_pin_ncores(void)
{
    pthread_once(&topo_once, load_topology);
    return ncores;
}

/* The k-th core (or PU, on machines hwloc shows without cores) that intersects `within` (NULL: any). */
static hwloc_obj_t nth_core(int k, hwloc_const_cpuset_t within)
{
    hwloc_obj_type_t t = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topo, t, NULL); o; o = hwloc_get_next_obj_by_type(topo, t, o))
        if ((within == NULL || hwloc_bitmap_intersects(o->cpuset, within)) && k-- == 0)
            return o;
    return NULL;
}

void vmpi_pin_thread(int i, int n, int node_first, int node_threads)
{
    pthread_once(&topo_once, load_topology);
    if (topo == NULL)
        return;
    hwloc_obj_t core;
    if (bound)
        core = nth_core(n - 1, bound) ? nth_core(i, bound) : NULL; /* enough bound cores for every PE? */
    else
        core = node_threads <= ncores ? nth_core(node_first + i, NULL) : NULL;
    if (core == NULL)
        return;
    hwloc_bitmap_t set = hwloc_bitmap_dup(core->cpuset);
    if (bound)
        hwloc_bitmap_and(set, set, bound); /* (a core partly bound: its bound PUs) */
    hwloc_bitmap_singlify(set);
    if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0)
        vmpi_warn("could not pin PE thread %d of this process to core %u", i, core->logical_index);
    hwloc_bitmap_free(set);
}

static int put_level(vmpi_pin_level *out, int n, int max, hwloc_obj_t o)
{
    if (n >= max)
        return n;
    snprintf(out[n].type, sizeof out[n].type, "%s", hwloc_obj_type_string(o->type)); /* "L3Cache", "Core" */
    for (char *c = out[n].type; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    out[n].index = (int)o->logical_index;
    out[n].count = hwloc_get_nbobjs_by_depth(topo, o->depth);
    return n + 1;
}

int vmpi_pin_levels(vmpi_pin_level *out, int max)
{
    pthread_once(&topo_once, load_topology);
    int cpu = sched_getcpu();
    hwloc_obj_t pu = topo && cpu >= 0 ? hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu) : NULL;
    if (pu == NULL)
        return 0;
    hwloc_obj_t chain[64];
    int depth = 0;
    for (hwloc_obj_t o = pu; o && depth < 64; o = o->parent)
        if (o->type != HWLOC_OBJ_GROUP)
            chain[depth++] = o;
    int n = 0;
    for (int i = depth - 1; i >= 0; i--) {
        if (chain[i]->type != HWLOC_OBJ_MACHINE) /* the node: the MPI layer names it */
            n = put_level(out, n, max, chain[i]);
        /* NUMA nodes hang beside the CPU's ancestors (hwloc 2), under the machine or a package */
        for (hwloc_obj_t m = chain[i]->memory_first_child; m; m = m->next_sibling)
            if (m->type == HWLOC_OBJ_NUMANODE && hwloc_bitmap_isset(m->cpuset, (unsigned)cpu))
                n = put_level(out, n, max, m);
    }
    return n;
}
