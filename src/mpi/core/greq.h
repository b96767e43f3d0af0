/* SPDX-License-Identifier: BSD-3-Clause */
/* Generalized requests (MPI_Grequest_start/complete): requests whose work the user does.  The owning rank
 * completes them (vmpi ranks are the MPI "processes"; a pthread outside any rank has no request table).
 * Wait/Test call the query callback for the status, then the free callback; Cancel calls the cancel one. */
#ifndef VMPI_MPI_CORE_GREQ_H
#define VMPI_MPI_CORE_GREQ_H

#include "mpi/core/request.h"

int vmpi_greq_start(MPI_Grequest_query_function *q, MPI_Grequest_free_function *f, MPI_Grequest_cancel_function *c,
                    void *extra, MPI_Request *out);
int vmpi_greq_complete(vmpi_mreq *m);
/* Wait/Test's completion of a finished generalized request: status from the query callback, then the free
 * callback; returns the first error. */
int vmpi_greq_finish(vmpi_mreq *m, MPI_Request *h, MPI_Status *st);
/* Status of a finished one without freeing it (MPI_Request_get_status). */
int vmpi_greq_status(vmpi_mreq *m, MPI_Status *st);
int vmpi_greq_cancel(vmpi_mreq *m);
/* MPI_Request_free: the free callback runs now if complete, else at MPI_Grequest_complete. */
int vmpi_greq_request_free(vmpi_mreq *m);

#endif
