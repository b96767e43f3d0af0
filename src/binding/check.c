/* SPDX-License-Identifier: BSD-3-Clause */
/* The cold path of the binding's first check (check.h): why the caller may not use MPI now. */
#include "binding/check.h"

int vmpi_chk_unranked(vmpi_chk *ck, const vmpi_rank *rk, bool need_init)
{
    if (rk == NULL && vmpi_world_size() == 0) /* vmpi never booted: main was not started by the wrappers */
        snprintf(ck->why, sizeof ck->why, "vmpi was not started: the program was not linked by vmpicc or vmpicxx "
                                          "(which run its main once per rank); link it with them");
    else if (rk == NULL)
        snprintf(ck->why, sizeof ck->why, "called outside an MPI rank (from a thread vmpi did not start)");
    else if (need_init && rk->finalized)
        snprintf(ck->why, sizeof ck->why, "called after MPI_Finalize (MPI-3.1 8.7) with no session open");
    else if (need_init && !rk->initialized)
        snprintf(ck->why, sizeof ck->why, "called before MPI_Init (MPI-3.1 8.7) or MPI_Session_init");
    else
        return MPI_SUCCESS;
    return MPI_ERR_OTHER;
}
