/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran glue of the attribute functions.  A Fortran attribute value is an INTEGER(KIND=MPI_ADDRESS_KIND)
 * (an INTEGER for MPI-1's MPI_ATTR_PUT/GET); the attribute layer keeps it as a Fortran value, which C reads
 * as the address of the value, and gives Fortran the value of its own attributes, the address of C's and
 * the value of the predefined ones (MPI-4.1 19.3.7; binding/attr_f.h). */
#include "binding/attr_f.h"
#include "fortran/f77.h"
#include "mpi/core/handle.h"

#define SET_ATTR(fname, kind, cname)                                                                       \
    F77(fname, (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * ierror))                  \
    {                                                                                                      \
        *ierror = vmpi_b_attr_set_f(kind, *obj, *keyval, *val, cname);                                     \
    }
#define GET_ATTR(fname, kind, cname)                                                                       \
    F77(fname, (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * val, MPI_Fint * flag, MPI_Fint * ierror)) \
    {                                                                                                      \
        int found = 0;                                                                                     \
        *ierror = vmpi_b_attr_get_f(kind, *obj, *keyval, val, &found, cname);                              \
        *flag = found != 0;                                                                                \
    }

SET_ATTR(mpi_comm_set_attr, VMPI_KIND_COMM, "MPI_Comm_set_attr")
SET_ATTR(mpi_type_set_attr, VMPI_KIND_DATATYPE, "MPI_Type_set_attr")
SET_ATTR(mpi_win_set_attr, VMPI_KIND_WIN, "MPI_Win_set_attr")
GET_ATTR(mpi_comm_get_attr, VMPI_KIND_COMM, "MPI_Comm_get_attr")
GET_ATTR(mpi_type_get_attr, VMPI_KIND_DATATYPE, "MPI_Type_get_attr")
GET_ATTR(mpi_win_get_attr, VMPI_KIND_WIN, "MPI_Win_get_attr")

F77(mpi_attr_put, (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *ierror))
{
    *ierror = vmpi_b_attr_set_f(VMPI_KIND_COMM, *comm, *keyval, *val, "MPI_Attr_put");
}

/* an INTEGER: a value that does not fit (a C attribute's address) is MPI_ERR_ARG */
F77(mpi_attr_get, (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierror))
{
    MPI_Aint v = 0;
    int found = 0;
    *ierror = vmpi_b_attr_get_f(VMPI_KIND_COMM, *comm, *keyval, &v, &found, "MPI_Attr_get");
    *flag = found != 0;
    if (*ierror == MPI_SUCCESS && found) {
        if (v < -2147483647 - 1 || v > 2147483647)
            *ierror = MPI_ERR_ARG;
        else
            *val = (MPI_Fint)v;
    }
}
