/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi's isomalloc extension (mpi_iso.h): a query, valid before MPI_Init and from any thread. */
#include <mpi.h>
#include "iso/iso.h"

int MPIX_Iso_rank(const void *ptr) { return vmpi_iso_slot_of(ptr); }
