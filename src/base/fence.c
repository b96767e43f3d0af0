/* SPDX-License-Identifier: BSD-3-Clause */
#include "base/fence.h"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/log.h"

bool vmpi_fence_asymmetric;

static long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }

void vmpi_fence_init(void)
{
    long cmds = membarrier(MEMBARRIER_CMD_QUERY);
    vmpi_fence_asymmetric = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                            membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

void vmpi_fence_set_symmetric(void) { vmpi_fence_asymmetric = false; }

void vmpi_fence_heavy(void)
{
    if (!vmpi_fence_asymmetric)
        atomic_thread_fence(memory_order_seq_cst);
    else if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) /* the light fences rely on it */
        vmpi_fatal("membarrier failed after it was registered");
}
