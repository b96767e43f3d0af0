/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue of the attribute functions.  A Fortran attribute value is an INTEGER(KIND=MPI_ADDRESS_KIND)
 * (an INTEGER for MPI-1's MPI_ATTR_PUT/GET), stored as the C value itself (void *).  The predefined
 * attributes are C pointers to their value, except MPI_WIN_BASE, which is the address: Fortran gets the
 * values (MPI-4.1 19.3.7). */
#include <stdint.h>
#include "fortran/f77.h"

/* the predefined keyvals' handles, MPI_TAG_UB first and AMPI_NUM_PROCESSES last (mpi_info.h, mpi_rma.h,
 * mpi_ampi.h); user keyvals come after them */
static int predefined(int keyval) { return keyval >= MPI_TAG_UB && keyval <= AMPI_NUM_PROCESSES; }

/* the value Fortran sees of attribute `v` of `keyval` */
static MPI_Aint value(int keyval, void *v)
{
    if (!predefined(keyval) || keyval == MPI_WIN_BASE)
        return (MPI_Aint)(intptr_t)v;
    if (keyval == MPI_WIN_SIZE)
        return *(MPI_Aint *)v;
    return *(int *)v;
}

#define SET_ATTR(fname, cname)                                                                             \
    F77(fname, (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * ierror))                  \
    {                                                                                                      \
        *ierror = cname(*obj, *keyval, (void *)(intptr_t)*val);                                            \
    }
#define GET_ATTR(fname, cname)                                                                             \
    F77(fname, (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * flag, MPI_Fint * ierror)) \
    {                                                                                                      \
        void *v = NULL;                                                                                    \
        int found = 0;                                                                                     \
        *ierror = cname(*obj, *keyval, &v, &found);                                                        \
        *flag = found != 0;                                                                                \
        if (*ierror == MPI_SUCCESS && found)                                                               \
            *val = value(*keyval, v);                                                                      \
    }

SET_ATTR(mpi_comm_set_attr, PMPI_Comm_set_attr)
SET_ATTR(mpi_type_set_attr, PMPI_Type_set_attr)
SET_ATTR(mpi_win_set_attr, PMPI_Win_set_attr)
GET_ATTR(mpi_comm_get_attr, PMPI_Comm_get_attr)
GET_ATTR(mpi_type_get_attr, PMPI_Type_get_attr)
GET_ATTR(mpi_win_get_attr, PMPI_Win_get_attr)

F77(mpi_attr_put, (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierror))
{
    *ierror = PMPI_Attr_put(*comm, *keyval, (void *)(intptr_t)*val);
}

F77(mpi_attr_get, (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierror))
{
    void *v = NULL;
    int found = 0;
    *ierror = PMPI_Attr_get(*comm, *keyval, &v, &found);
    *flag = found != 0;
    if (*ierror == MPI_SUCCESS && found)
        *val = (MPI_Fint)value(*keyval, v);
}
