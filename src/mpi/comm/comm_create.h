/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicator constructors (collective over the parent, arguments already checked).  Each returns an MPI
 * error class and, in *out, the calling rank's new communicator handle or MPI_COMM_NULL. */
#ifndef VMPI_MPI_COMM_COMM_CREATE_H
#define VMPI_MPI_COMM_COMM_CREATE_H

#include "mpi/core/comm.h"
#include "mpi/core/group.h"

/* Copies topology, hints and attributes too (their copy callbacks run).  With own_info, the duplicate gets
 * the hints of `info` instead of the parent's. */
int vmpi_comm_dup(vmpi_comm *c, MPI_Comm *out);
int vmpi_comm_dup_with_info(vmpi_comm *c, bool own_info, MPI_Info info, MPI_Comm *out);
/* Nonblocking duplication: *out at once, usable once *req (a schedule bringing its context) is complete. */
/* own_info: the new communicator's hints are `info`'s (MPI_Comm_idup_with_info), else c's. */
int vmpi_comm_idup(vmpi_comm *c, bool own_info, MPI_Info info, MPI_Comm *out, MPI_Request *req);
int vmpi_comm_split(vmpi_comm *c, int color, int key, MPI_Comm *out);
/* Collective: rank r of intracommunicator `c` gets rank newrank[r] of a new communicator, or MPI_COMM_NULL
 * when newrank[r] is MPI_UNDEFINED (the others: 0..m-1, each once).  `newrank` is read at rank 0 only. */
int vmpi_comm_renumber(vmpi_comm *c, const int *newrank, MPI_Comm *out);
int vmpi_comm_create(vmpi_comm *c, vmpi_group *g, MPI_Comm *out);
/* Collective over the members of `g` only; `tag` tells concurrent calls apart. */
int vmpi_comm_create_group(vmpi_comm *c, vmpi_group *g, int tag, MPI_Comm *out);
int vmpi_intercomm_create(vmpi_comm *local, int local_leader, vmpi_comm *peer, int remote_leader, int tag,
                          MPI_Comm *out);
int vmpi_intercomm_merge(vmpi_comm *inter, int high, MPI_Comm *out);
/* MPI_IDENT, MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL. */
int vmpi_comm_compare(const vmpi_comm *a, const vmpi_comm *b);
/* Makes the calling rank's intracommunicator over `g` (which must hold the caller) with context `ctx`;
 * the error handler comes from `parent`.  Takes a reference to `g`.  NULL when out of memory. */
vmpi_comm *vmpi_comm_new_intra(vmpi_group *g, int ctx, const vmpi_comm *parent);

#endif
