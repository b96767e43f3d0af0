/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): vmpi's isomalloc extension.  Each rank's stack and every
 * block its malloc returns (C++ new and Fortran ALLOCATE included) live in the rank's own slot of one
 * address range, at addresses no other rank uses. */
#ifndef VMPI_API_MPI_ISO_H
#define VMPI_API_MPI_ISO_H

/* The world rank whose slot holds `ptr`, or -1 when `ptr` lies outside every slot (static data, memory
 * allocated outside any rank or by a thread the rank created). */
int MPIX_Iso_rank(const void *ptr);

#endif
