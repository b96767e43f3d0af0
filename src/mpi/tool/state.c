/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's MPI_T state: its initialization count and the handles and sessions it opened, in its own memory
 * (allocated while it runs, so in its slot: they move and are saved with it). */
#include <stdlib.h>
#include "mpi/core/rank.h"
#include "mpi/tool/tool.h"

vmpi_tool_rank *vmpi_tool_self(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    return rk && rk->tool && rk->tool->refs > 0 ? rk->tool : NULL;
}

int vmpi_tool_init(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL)
        return MPI_T_ERR_CANNOT_INIT; /* a thread of the program's own, not an MPI process */
    if (rk->tool == NULL) {
        if ((rk->tool = calloc(1, sizeof *rk->tool)) == NULL)
            return MPI_T_ERR_MEMORY;
        vmpi_list_init(&rk->tool->cvars);
        vmpi_list_init(&rk->tool->sessions);
    }
    rk->tool->refs++;
    return MPI_SUCCESS;
}

void vmpi_tool_session_free(struct vmpi_t_pvar_session *s)
{
    vmpi_list_foreach_safe(it, tmp, &s->handles) {
        struct vmpi_t_pvar_handle *h = vmpi_container_of(it, struct vmpi_t_pvar_handle, node);
        vmpi_list_remove(&h->node);
        free(h->acc);
        free(h);
    }
    vmpi_list_remove(&s->node);
    free(s);
}

int vmpi_tool_fini(void)
{
    vmpi_tool_rank *t = vmpi_tool_self();
    if (t == NULL)
        return MPI_T_ERR_NOT_INITIALIZED;
    if (--t->refs > 0)
        return MPI_SUCCESS;
    vmpi_list_foreach_safe(it, tmp, &t->cvars) {
        vmpi_list_remove(it);
        free(vmpi_container_of(it, struct vmpi_t_cvar_handle, node));
    }
    vmpi_list_foreach_safe(it, tmp, &t->sessions)
        vmpi_tool_session_free(vmpi_container_of(it, struct vmpi_t_pvar_session, node));
    return MPI_SUCCESS;
}
