/* SPDX-License-Identifier: BSD-3-Clause */
/* Fortran ALLOCATE in isomalloc slots (the Fortran half is fortran_alloc.f90): an array allocated in
 * Fortran lies in the rank's own slot with its contents, an ALLOCATABLE local too (small and large), and an
 * array allocated by one rank is DEALLOCATEd by the next, which receives it as a pointer.  Built without
 * gfortran, the test says so and checks nothing. */
#include <stdint.h>
#include "mtest.h"

#ifndef MT_FORTRAN
#define MT_FORTRAN 0
#endif
void *falloc(int n);
void ffree(void *p, int n);
int fslot_allocatable(int n);

enum { N = 100000 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#if MT_FORTRAN
    const int slot = MT_HEAP_SLOT(rank);
    MT_CHECK_INT(errs, "slot of a small ALLOCATABLE", slot, fslot_allocatable(10));
    MT_CHECK_INT(errs, "slot of a large ALLOCATABLE", slot, fslot_allocatable(1 << 20));
    double *a = falloc(N);
    MT_CHECK_INT(errs, "slot of an ALLOCATEd array", slot, MPIX_Iso_rank(a));
    uintptr_t out = (uintptr_t)a, in = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(&out, sizeof out, MPI_BYTE, next, 0, &in, sizeof in, MPI_BYTE, prev, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double *theirs = (double *)in;
    MT_CHECK_INT(errs, "slot of the received array", MT_HEAP_SLOT(prev), MPIX_Iso_rank(theirs));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += theirs[i] != i + 1;
    MT_CHECK_INT(errs, "elements of the received array that differ", 0, bad);
    ffree(theirs, N);
#else
    if (rank == 0)
        printf("built without a Fortran compiler: ALLOCATE not checked\n");
#endif
    return mt_finish(errs);
}
