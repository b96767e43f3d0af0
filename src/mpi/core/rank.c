/* SPDX-License-Identifier: BSD-3-Clause */
/* The job's ranks (made by boot, mpi/boot) and their extension slots. */
#include "base/log.h"
#include "mpi/core/rank.h"

static struct {
    vmpi_rank **ranks;       /* each in its own isomalloc slot */
    int n;
} R;

static int ext_keys; /* the same in every process: constructors take them */

int vmpi_rank_ext_key(void)
{
    if (ext_keys == VMPI_RANK_EXT_MAX)
        vmpi_fatal("more than %d layers keep per-rank state (VMPI_RANK_EXT_MAX)", VMPI_RANK_EXT_MAX);
    return ext_keys++;
}

static vmpi_rank_start_fn start_fns[VMPI_RANK_START_MAX];
static int nstart_fns;

void vmpi_rank_on_start(vmpi_rank_start_fn fn)
{
    if (nstart_fns == VMPI_RANK_START_MAX)
        vmpi_fatal("more than %d layers set ranks up (VMPI_RANK_START_MAX)", VMPI_RANK_START_MAX);
    start_fns[nstart_fns++] = fn;
}

void vmpi_rank_run_start(vmpi_rank *rk)
{
    for (int i = 0; i < nstart_fns; i++)
        start_fns[i](rk);
}

void vmpi_ranks_set(vmpi_rank **ranks, int n)
{
    R.ranks = ranks;
    R.n = n;
}

int vmpi_world_size(void) { return R.n; }
vmpi_rank *vmpi_rank_get(int r) { return R.ranks[r]; }
void vmpi_rank_set(int r, vmpi_rank *rk) { R.ranks[r] = rk; }

void vmpi_job_abort(int code)
{
    vmpi_die(code);
}
