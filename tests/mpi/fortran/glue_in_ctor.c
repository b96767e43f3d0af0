/* SPDX-License-Identifier: BSD-3-Clause */
/* The Fortran glue recognizes the sentinels in calls a rank's copy of the program makes from its constructors,
 * before main (a C++ static object's constructor calling MPI, then Fortran code): the rank knows where its
 * copy's sentinel block is before the copy's constructors run.  The block is the COMMON block mpif.h and
 * mpi_f08 declare (src/fortran/fortran.h), defined here as C; the glue is called as mpi_f08 calls it (a
 * choice buffer as a C descriptor, src/fortran/fsection.h).  A status passed as MPI_STATUS_IGNORE must be left
 * alone and MPI_IN_PLACE must be in place, in the constructor as in main. */
#include <ISO_Fortran_binding.h>
#include <mpi.h>
#include <stdio.h>
#include "mtest.h"

struct f_sentinels {
    MPI_Fint bottom, in_place, buffer_automatic, unweighted, weights_empty;
    MPI_Fint status_ignore[6], statuses_ignore[6];
};
struct f_sentinels vmpi_f_sentinels_; /* gfortran's name of COMMON /vmpi_f_sentinels/ */

void MPI_Send_f08(CFI_cdesc_t *buf, MPI_Fint count, MPI_Fint datatype, MPI_Fint dest, MPI_Fint tag, MPI_Fint comm,
                  MPI_Fint *ierror);
void MPI_Recv_f08(CFI_cdesc_t *buf, MPI_Fint count, MPI_Fint datatype, MPI_Fint source, MPI_Fint tag, MPI_Fint comm,
                  MPI_Fint *status, MPI_Fint *ierror);
void MPI_Allreduce_f08(CFI_cdesc_t *sendbuf, CFI_cdesc_t *recvbuf, MPI_Fint count, MPI_Fint datatype, MPI_Fint op,
                       MPI_Fint comm, MPI_Fint *ierror);

static int errs, in_ctor_done;

/* an INTEGER scalar's descriptor, as gfortran passes it to TYPE(*), DIMENSION(..) */
typedef CFI_CDESC_T(0) scalar_desc;
static CFI_cdesc_t *scalar(scalar_desc *d, MPI_Fint *x)
{
    *d = (scalar_desc){.base_addr = x, .elem_len = sizeof *x, .version = CFI_VERSION, .rank = 0,
                          .attribute = CFI_attribute_other, .type = CFI_type_int};
    return (CFI_cdesc_t *)d;
}

static void exercise(const char *when)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 6; i++)
        vmpi_f_sentinels_.status_ignore[i] = -9;
    MPI_Fint out = rank, in = -1, ierr = -1;
    scalar_desc d1, d2;
    MPI_Send_f08(scalar(&d1, &out), 1, MPI_INT, rank, 7, MPI_COMM_WORLD, &ierr);
    MPI_Recv_f08(scalar(&d2, &in), 1, MPI_INT, rank, 7, MPI_COMM_WORLD, vmpi_f_sentinels_.status_ignore, &ierr);
    MT_CHECK(errs, in == rank && ierr == MPI_SUCCESS, "%s: self message %d (error %d)", when, in, (int)ierr);
    for (int i = 0; i < 6; i++)
        MT_CHECK(errs, vmpi_f_sentinels_.status_ignore[i] == -9,
                 "%s: MPI_STATUS_IGNORE's storage written (field %d is %d)", when, i,
                 (int)vmpi_f_sentinels_.status_ignore[i]);
    MPI_Fint v = rank + 1;
    MPI_Allreduce_f08(scalar(&d1, &vmpi_f_sentinels_.in_place), scalar(&d2, &v), 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                      &ierr);
    MT_CHECK(errs, v == size * (size + 1) / 2 && ierr == MPI_SUCCESS, "%s: MPI_IN_PLACE sum %d, expected %d",
             when, (int)v, size * (size + 1) / 2);
}

__attribute__((constructor)) static void early(void)
{
    MPI_Init(NULL, NULL);
    exercise("constructor");
    in_ctor_done = 1;
}

int main(int argc, char **argv)
{
    (void)argc, (void)argv;
    MT_CHECK(errs, in_ctor_done, "the constructor did not run before main");
    exercise("main");
    return mt_finish(errs);
}
