/* SPDX-License-Identifier: BSD-3-Clause */
/* The process's address-space layout, fixed so that a checkpoint can be restarted (layout.c). */
#ifndef VMPI_BASE_LAYOUT_H
#define VMPI_BASE_LAYOUT_H

#include "base/sanitizer.h"

/* At boot, before anything else: when address-space randomization is on, turns it off and executes the
 * program again with the same arguments (`argv` as main got it).  Returns when nothing had to change, or
 * when it could not be changed. */
void vmpi_layout_fix(char **argv);

#endif
