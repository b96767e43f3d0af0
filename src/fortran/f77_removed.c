/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue of MPI-1's functions MPI-3.0 removed, which vmpi keeps for old programs (mpi_removed.h; the
 * standard's data no longer has them).  Their addresses, extents and displacements are default INTEGERs: a
 * value that does not fit is MPI_ERR_ARG, not a wrong number. */
#include <limits.h>
#include <stdlib.h>
#include "fortran/f77.h"

/* *f = v, or MPI_ERR_ARG when v is no INTEGER */
static int narrow(MPI_Aint v, MPI_Fint *f, int rc)
{
    if (rc != MPI_SUCCESS)
        return rc;
    if (v < INT_MIN || v > INT_MAX)
        return MPI_ERR_ARG;
    *f = (MPI_Fint)v;
    return MPI_SUCCESS;
}

F77(mpi_address, (void *location, MPI_Fint *address, MPI_Fint *ierror))
{
    MPI_Aint a = 0;
    *ierror = narrow(a, address, PMPI_Address(vmpi_f_buf_at(vmpi_f_sent(), location), &a));
}

#define EXTENT(fname, cname)                                                                                  \
    F77(fname, (MPI_Fint * datatype, MPI_Fint * v, MPI_Fint * ierror))                                     \
    {                                                                                                         \
        MPI_Aint a = 0;                                                                                       \
        int rc = cname(*datatype, &a);                                                                        \
        *ierror = narrow(a, v, rc);                                                                           \
    }
EXTENT(mpi_type_extent, PMPI_Type_extent)
EXTENT(mpi_type_lb, PMPI_Type_lb)
EXTENT(mpi_type_ub, PMPI_Type_ub)

F77(mpi_type_hvector, (MPI_Fint * count, MPI_Fint *blocklength, MPI_Fint *stride, MPI_Fint *oldtype,
                       MPI_Fint *newtype, MPI_Fint *ierror))
{
    *ierror = PMPI_Type_hvector(*count, *blocklength, *stride, *oldtype, newtype);
}

/* the displacements widened to MPI_Aint (NULL: out of memory) */
static MPI_Aint *widen(const MPI_Fint *d, int n)
{
    MPI_Aint *a = malloc(sizeof *a * (size_t)(n > 0 ? n : 1));
    for (int i = 0; a && i < n; i++)
        a[i] = d[i];
    return a;
}

F77(mpi_type_hindexed, (MPI_Fint * count, MPI_Fint *blocklengths, MPI_Fint *displacements, MPI_Fint *oldtype,
                        MPI_Fint *newtype, MPI_Fint *ierror))
{
    MPI_Aint *d = widen(displacements, *count);
    *ierror = d ? PMPI_Type_hindexed(*count, blocklengths, d, *oldtype, newtype) : MPI_ERR_NO_MEM;
    free(d);
}

F77(mpi_type_struct, (MPI_Fint * count, MPI_Fint *blocklengths, MPI_Fint *displacements, MPI_Fint *types,
                      MPI_Fint *newtype, MPI_Fint *ierror))
{
    MPI_Aint *d = widen(displacements, *count);
    *ierror = d ? PMPI_Type_struct(*count, blocklengths, d, types, newtype) : MPI_ERR_NO_MEM;
    free(d);
}

F77(mpi_errhandler_create, (MPI_Handler_function * fn, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Errhandler_create(fn, errhandler);
}
F77(mpi_errhandler_set, (MPI_Fint * comm, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Errhandler_set(*comm, *errhandler);
}
F77(mpi_errhandler_get, (MPI_Fint * comm, MPI_Fint *errhandler, MPI_Fint *ierror))
{
    *ierror = PMPI_Errhandler_get(*comm, errhandler);
}
