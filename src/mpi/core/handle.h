/* SPDX-License-Identifier: BSD-3-Clause */
/* Handles are (kind << 26) | index (see mpi.h); index 0 is the kind's null handle. */
#ifndef VMPI_MPI_HANDLE_H
#define VMPI_MPI_HANDLE_H

enum {
    VMPI_KIND_COMM = 1,
    VMPI_KIND_GROUP = 2,
    VMPI_KIND_DATATYPE = 3,
    VMPI_KIND_REQUEST = 4,
    VMPI_KIND_OP = 5,
    VMPI_KIND_ERRHANDLER = 6,
    VMPI_KIND_INFO = 7,
    VMPI_KIND_MESSAGE = 8,
    VMPI_KIND_KEYVAL = 9, /* attribute keys (MPI_KEYVAL_INVALID is its null handle) */
    VMPI_KIND_WIN = 10,
    VMPI_KIND_AM_OP = 11, /* active-message handlers (mpix_am.h) */
};

#define VMPI_HANDLE_KIND(h) ((int)((unsigned)(h) >> 26))
#define VMPI_HANDLE_INDEX(h) ((int)((unsigned)(h)&0x03ffffffu))
#define VMPI_HANDLE(kind, idx) ((int)(((unsigned)(kind) << 26) | (unsigned)(idx)))

#endif
