/* SPDX-License-Identifier: BSD-3-Clause */
/* The hardware resources a rank runs on (hwres.c): MPI_Get_hw_resource_info's info and the colors of
 * MPI_Comm_split_type's MPI_COMM_TYPE_HW_GUIDED and MPI_COMM_TYPE_HW_UNGUIDED. */
#ifndef VMPI_BINDING_HWRES_H
#define VMPI_BINDING_HWRES_H

#include <stddef.h>
#include "mpi/core/comm.h"

/* The calling rank's color for the resource named `type` (an mpi_hw_resource_type value): equal for the ranks
 * on one such resource now; MPI_UNDEFINED for a resource vmpi does not know. */
int vmpi_hwres_color(const char *type);
/* MPI_COMM_TYPE_HW_UNGUIDED, collective over the local group of `c`: the largest resource that splits the
 * group into strict subsets, its name into `type` (n bytes) and the calling rank's color; MPI_UNDEFINED and
 * "" when none does. */
int vmpi_hwres_unguided(vmpi_comm *c, int *color, char *type, size_t n);

#endif
