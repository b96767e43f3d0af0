/* SPDX-License-Identifier: BSD-3-Clause */
/* The datatype engine: a type is a list of contiguous blocks (displacement, length) repeated every `extent`
 * bytes.  Messaging copies between two (buffer, count, type) descriptions by walking both block lists, so
 * derived types (next: their constructors) only have to produce blocks; a contiguous type is one memcpy. */
#ifndef VMPI_DTYPE_DTYPE_H
#define VMPI_DTYPE_DTYPE_H

#include <mpi.h>
#include <stdbool.h>

typedef struct vmpi_dtype_block {
    MPI_Aint disp;
    MPI_Count len;
} vmpi_dtype_block;

/* A run of `n` basic elements of `esize` bytes each, in typemap order: what Get_elements counts. */
typedef struct vmpi_dtype_elems {
    MPI_Count n;
    int esize;
} vmpi_dtype_elems;

typedef struct vmpi_dtype {
    MPI_Count size;         /* bytes of data in one instance */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    bool contig;            /* `count` instances are one block of count*size bytes at lb */
    int nblocks;
    const vmpi_dtype_block *blocks;
    int nelems_runs;
    const vmpi_dtype_elems *elems;
    MPI_Count nelems;       /* basic elements in one instance */
    int basic;              /* builtin index of its only basic type, 0 if mixed (reductions need one) */
    const char *name;
} vmpi_dtype;

/* Predefined type of builtin index `i` (1 <= i < VMPI_DT_BUILTIN_COUNT), NULL if none. */
const vmpi_dtype *vmpi_dtype_builtin(int i);

/* Copies min(bytes of source, bytes of destination) of data; returns the bytes copied. */
MPI_Count vmpi_dtype_copy(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                          const vmpi_dtype *rdt);
/* Packs at most `max` bytes of (buf, count, dt) into `out`; returns the bytes packed. */
MPI_Count vmpi_dtype_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out, MPI_Count max);
/* Unpacks `bytes` packed bytes into (buf, count, dt), at most its capacity; returns the bytes unpacked. */
MPI_Count vmpi_dtype_unpack(const void *in, MPI_Count bytes, void *buf, MPI_Count count, const vmpi_dtype *dt);
/* Basic elements in the first `bytes` bytes of data of `dt`, or MPI_UNDEFINED if `bytes` ends inside one. */
MPI_Count vmpi_dtype_elements(const vmpi_dtype *dt, MPI_Count bytes);

#endif
