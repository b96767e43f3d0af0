/* SPDX-License-Identifier: BSD-3-Clause */
/* The deadlock report's description of a blocked rank (waits.c). */
#ifndef VMPI_MPI_WAITS_H
#define VMPI_MPI_WAITS_H

#include <stddef.h>
#include "sched/sched.h"

/* "waits in MPI_Recv for a message from rank 0 (tag 7) on MPI_COMM_WORLD" into out[n]. */
void vmpi_waits_describe(const vmpi_vp *vp, char *out, size_t n);

#endif
