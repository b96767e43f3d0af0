/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators made from groups with no parent communicator (the Sessions model, MPI-4.1 7.4.2 and 7.6.2),
 * arguments already checked.  Each returns an MPI error class and, in *out, the new handle. */
#ifndef VMPI_MPI_COMM_COMM_FROM_GROUP_H
#define VMPI_MPI_COMM_COMM_FROM_GROUP_H

#include "mpi/core/comm.h"
#include "mpi/core/group.h"

/* Collective over the members of `g` (the caller is one), which pass the same `stringtag`; the new
 * communicator has error handler `errh` and the hints of `info` (or none). */
int vmpi_comm_from_group(vmpi_group *g, const char *stringtag, MPI_Info info, MPI_Errhandler errh, MPI_Comm *out);
/* Collective over the members of both groups (disjoint; the caller is in `lg`): an intercommunicator whose
 * leaders are lg's rank `ll` and rg's rank `rl`. */
int vmpi_intercomm_from_groups(vmpi_group *lg, int ll, vmpi_group *rg, int rl, const char *stringtag, MPI_Info info,
                               MPI_Errhandler errh, MPI_Comm *out);

#endif
