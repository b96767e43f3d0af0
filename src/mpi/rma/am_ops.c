/* SPDX-License-Identifier: BSD-3-Clause */
/* Active-message handlers: numbered per rank; an origin runs the target's registration of the number. */
#include <stdlib.h>
#include "mpi/core/handle.h"
#include "mpi/rma/am_impl.h"

enum { OPS_MAX = 256 };


typedef struct vmpi_am_table {
    am_entry e[OPS_MAX];
} vmpi_am_table;

int vmpi_am_op_create(void *fn, bool vector, void *extra_state, MPIX_Am_op *op)
{
    vmpi_rank *rk = vmpi_rank_self();
    vmpi_am_table *t = atomic_load_explicit(&rk->am_ops, memory_order_relaxed);
    if (t == NULL) {
        if ((t = calloc(1, sizeof *t)) == NULL)
            return MPI_ERR_NO_MEM;
        atomic_store_explicit(&rk->am_ops, t, memory_order_release); /* origins read it from other PEs */
    }
    int i = 0;
    while (i < OPS_MAX && atomic_load_explicit(&t->e[i].fn, memory_order_relaxed) != NULL)
        i++;
    if (i == OPS_MAX)
        return MPI_ERR_INTERN;
    t->e[i].vector = vector;
    t->e[i].extra = extra_state;
    atomic_store_explicit(&t->e[i].fn, fn, memory_order_release);
    *op = VMPI_HANDLE(VMPI_KIND_AM_OP, i + 1);
    return MPI_SUCCESS;
}

am_entry *vmpi_am_entry(vmpi_rank *rk, MPIX_Am_op op)
{
    vmpi_am_table *t = atomic_load_explicit(&rk->am_ops, memory_order_acquire);
    int i = VMPI_HANDLE_INDEX(op) - 1;
    if (t == NULL || VMPI_HANDLE_KIND(op) != VMPI_KIND_AM_OP || i < 0 || i >= OPS_MAX ||
        atomic_load_explicit(&t->e[i].fn, memory_order_acquire) == NULL)
        return NULL;
    return &t->e[i];
}

int vmpi_am_op_free(MPIX_Am_op *op)
{
    am_entry *e = vmpi_am_entry(vmpi_rank_self(), *op);
    if (e == NULL)
        return MPI_ERR_ARG;
    atomic_store_explicit(&e->fn, NULL, memory_order_release);
    *op = MPIX_AM_OP_NULL;
    return MPI_SUCCESS;
}

void vmpi_am_rank_fini(vmpi_rank *rk)
{
    free(atomic_load(&rk->am_ops));
    atomic_store(&rk->am_ops, NULL);
}
