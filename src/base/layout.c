/* SPDX-License-Identifier: BSD-3-Clause */
/* A checkpoint holds addresses of the libraries' code and data (return addresses on the ranks' stacks,
 * pointers in their globals), so a restart needs every library where it was: jobs run without address-space
 * randomization.  vmpirun turns it off before it starts the program; a program started directly turns it
 * off and executes itself again, once (then the address space is laid out the same in every run). */
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>
#include "base/layout.h"

void vmpi_layout_fix(char **argv)
{
    int p = personality(0xffffffff);
    if (VMPI_SANITIZER || p == -1 || (p & ADDR_NO_RANDOMIZE) || getenv("VMPI_LAYOUT_FIXED"))
        return; /* sanitizer builds cannot take checkpoints anyway; or already done, or tried */
    const char *pre = getenv("LD_PRELOAD");
    if (pre && strstr(pre, "vgpreload"))
        return; /* valgrind lays the process out itself */
    if (personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1)
        return;
    setenv("VMPI_LAYOUT_FIXED", "1", 1);
    execv("/proc/self/exe", argv);
    personality((unsigned long)p); /* could not: go on as it was */
}
