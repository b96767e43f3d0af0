/* SPDX-License-Identifier: BSD-3-Clause */
/* A read-only view of a collective's count or displacement array as the program passed it: int (the int
 * forms), MPI_Count or MPI_Aint (the large-count _c forms), or a regular layout made on the fly (element i
 * is base + i * step: the counts and displacements of Gather, Scatter, Alltoall...).  The int and _c forms
 * of a collective share one implementation that reads the program's array in place through the view: no
 * conversion, no copy, one predictable branch per element.  The schedule builders read the elements while
 * they build (each step keeps its own MPI_Count), so a view never outlives the call that made it, even for a
 * nonblocking or persistent collective. */
#ifndef VMPI_MPI_CORE_IVEC_H
#define VMPI_MPI_CORE_IVEC_H

#include <mpi.h>
#include <stdbool.h>

enum { VMPI_IV_REGULAR, VMPI_IV_INT, VMPI_IV_COUNT, VMPI_IV_AINT };

typedef struct vmpi_ivec {
    const void *p;        /* the array (not for VMPI_IV_REGULAR) */
    MPI_Count base, step; /* VMPI_IV_REGULAR: element i is base + i * step */
    int kind;
} vmpi_ivec;

static inline vmpi_ivec vmpi_iv_int(const int *p) { return (vmpi_ivec){p, 0, 0, VMPI_IV_INT}; }
static inline vmpi_ivec vmpi_iv_count(const MPI_Count *p) { return (vmpi_ivec){p, 0, 0, VMPI_IV_COUNT}; }
static inline vmpi_ivec vmpi_iv_aint(const MPI_Aint *p) { return (vmpi_ivec){p, 0, 0, VMPI_IV_AINT}; }
static inline vmpi_ivec vmpi_iv_regular(MPI_Count base, MPI_Count step)
{
    return (vmpi_ivec){NULL, base, step, VMPI_IV_REGULAR};
}

/* An array view the program passed as NULL. */
static inline bool vmpi_iv_null(vmpi_ivec v) { return v.kind != VMPI_IV_REGULAR && v.p == NULL; }

static inline MPI_Count vmpi_iv_at(vmpi_ivec v, int i)
{
    switch (v.kind) {
    case VMPI_IV_INT:
        return ((const int *)v.p)[i];
    case VMPI_IV_COUNT:
        return ((const MPI_Count *)v.p)[i];
    case VMPI_IV_AINT:
        return ((const MPI_Aint *)v.p)[i];
    default:
        return v.base + (MPI_Count)i * v.step;
    }
}

#endif
