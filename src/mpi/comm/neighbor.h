/* SPDX-License-Identifier: BSD-3-Clause */
/* Neighbourhood collectives over a communicator's process topology (arguments already checked).  Block i
 * of the receive buffer comes from in-neighbour i and block j of the send buffer (alltoall forms) goes to
 * out-neighbour j, in the order MPI defines: Cartesian: for each dimension the negative then the positive
 * neighbour (MPI_PROC_NULL off a non-periodic edge: its block is left alone); graph: the neighbour list;
 * distributed graph: sources in, destinations out. */
#ifndef VMPI_MPI_COMM_NEIGHBOR_H
#define VMPI_MPI_COMM_NEIGHBOR_H

#include <mpi.h>
#include "dtype/dtype.h"
#include "mpi/core/comm.h"
#include "mpi/core/ivec.h"

/* One side of a neighbourhood exchange: per neighbour, a (buffer offset in bytes, count, type). */
typedef struct vmpi_nbr_side {
    const MPI_Aint *off;     /* NULL: block k at k * count * extent */
    vmpi_ivec counts;        /* the program's counts, or regular (`count` for every block) */
    const vmpi_dtype *const *types; /* NULL: `type` for every block */
    MPI_Count count;
    const vmpi_dtype *type;
    bool same_block;         /* allgather: every neighbour gets the whole send buffer */
} vmpi_nbr_side;

/* In- and out-degree of `c`'s topology (MPI_ERR_TOPOLOGY when it has none). */
int vmpi_nbr_degrees(const vmpi_comm *c, int *in, int *out);
/* Blocking when req is NULL; otherwise *req completes it. */
int vmpi_nbr_exchange(vmpi_comm *c, const void *sbuf, const vmpi_nbr_side *s, void *rbuf, const vmpi_nbr_side *r,
                      MPI_Request *req, const char *why);

#endif
