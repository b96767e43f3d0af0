/* SPDX-License-Identifier: BSD-3-Clause */
/* The group constructors and queries of MPI (Group_incl ... Group_compare), on group objects.  Each
 * constructor returns MPI_SUCCESS and a new group with one reference, or an error class. */
#ifndef VMPI_MPI_COMM_GROUP_OPS_H
#define VMPI_MPI_COMM_GROUP_OPS_H

#include "mpi/core/group.h"

int vmpi_group_incl(const vmpi_group *g, int n, const int *ranks, vmpi_group **out);
int vmpi_group_excl(const vmpi_group *g, int n, const int *ranks, vmpi_group **out);
int vmpi_group_range_incl(const vmpi_group *g, int n, int ranges[][3], vmpi_group **out);
int vmpi_group_range_excl(const vmpi_group *g, int n, int ranges[][3], vmpi_group **out);
int vmpi_group_union(const vmpi_group *a, const vmpi_group *b, vmpi_group **out);
int vmpi_group_intersection(const vmpi_group *a, const vmpi_group *b, vmpi_group **out);
int vmpi_group_difference(const vmpi_group *a, const vmpi_group *b, vmpi_group **out);
/* MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL. */
int vmpi_group_compare(const vmpi_group *a, const vmpi_group *b);
/* Ranks of `a`'s ranks in `b` (MPI_UNDEFINED if absent; MPI_PROC_NULL maps to itself). */
int vmpi_group_translate(const vmpi_group *a, int n, const int *ranks, const vmpi_group *b, int *out);

#endif
