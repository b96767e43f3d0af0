/* SPDX-License-Identifier: BSD-3-Clause */
#include <hwloc.h>
#include <pthread.h>
#include "base/log.h"
#include "sched/pin.h"

static hwloc_topology_t topo;
static pthread_once_t topo_once = PTHREAD_ONCE_INIT;
static int ncores = 1;
static size_t llc_bytes;

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

void vmpi_pin_thread(int pe, int npes)
{
    pthread_once(&topo_once, load_topology);
    if (topo == NULL || npes > ncores)
        return;
    hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)pe);
    if (core == NULL)
        core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)pe);
    if (core == NULL)
        return;
    hwloc_cpuset_t set = hwloc_bitmap_dup(core->cpuset);
    hwloc_bitmap_singlify(set);
    if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0)
        vmpi_warn("could not pin PE %d to core %d", pe, pe);
    hwloc_bitmap_free(set);
}
