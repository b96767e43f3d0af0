/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of libvmpi's static variables that are part of a checkpoint (ckpt.h).  Filled by
 * constructors when libvmpi is loaded, so the same list, in the same order, exists in every process. */
#include "base/log.h"
#include "ckpt/ckpt.h"

#define MAX_STATICS 32

static vmpi_ckpt_static statics[MAX_STATICS];
static int nstatics;

void vmpi_ckpt_static_register(void *addr, size_t len, const char *name)
{
    if (nstatics == MAX_STATICS)
        vmpi_fatal("internal error: more than %d checkpointed statics (%s)", MAX_STATICS, name);
    statics[nstatics++] = (vmpi_ckpt_static){addr, len, name};
}

const vmpi_ckpt_static *vmpi_ckpt_statics(int *n)
{
    *n = nstatics;
    return statics;
}
