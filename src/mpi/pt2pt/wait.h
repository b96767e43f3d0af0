/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef VMPI_MPI_WAIT_H
#define VMPI_MPI_WAIT_H

#include <mpi.h>

/* Handles already checked by the binding layer.  Return MPI error classes. */
int vmpi_wait(MPI_Request *h, MPI_Status *st);
int vmpi_test(MPI_Request *h, int *flag, MPI_Status *st);
int vmpi_waitall(int n, MPI_Request *reqs, MPI_Status *sts);
int vmpi_testall(int n, MPI_Request *reqs, int *flag, MPI_Status *sts);
int vmpi_waitany(int n, MPI_Request *reqs, int *index, MPI_Status *st);
int vmpi_testany(int n, MPI_Request *reqs, int *index, int *flag, MPI_Status *st);
int vmpi_waitsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts);
int vmpi_testsome(int n, MPI_Request *reqs, int *out, int *idx, MPI_Status *sts);

#endif
