/* SPDX-License-Identifier: BSD-3-Clause */
/* The datatype engine: a type is a list of contiguous blocks repeated every `extent` bytes.  A block is
 * `reps` runs of `len` bytes, `stride` apart (a vector is one block), listed in typemap order; adjacent runs
 * are merged when types are built, so a contiguous derived type is one block and flagged `contig`.  Inside
 * an instance the whole block list may itself repeat (`groups` times, `group_stride` apart): a contiguous
 * or vector type of a many-block type keeps one copy of the blocks, not one per element.
 * Messaging copies between two (buffer, count, type) descriptions by walking both block lists.
 * Derived types are refcounted (a pending operation keeps its type alive after MPI_Type_free). */
#ifndef VMPI_DTYPE_DTYPE_H
#define VMPI_DTYPE_DTYPE_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct vmpi_dtype_block {
    MPI_Aint disp;
    MPI_Count len;
    MPI_Count reps;         /* >= 1 */
    MPI_Aint stride;        /* between runs when reps > 1 */
} vmpi_dtype_block;

/* A run of `n` basic elements of `esize` bytes each, of builtin type `basic`, in typemap order: what
 * Get_elements counts and what external32 converts. */
typedef struct vmpi_dtype_elems {
    MPI_Count n;
    int esize;
    int basic;
} vmpi_dtype_elems;

/* What the type was built from (MPI_Type_get_envelope / get_contents): a large-count constructor (MPI_X_c)
 * records its counts and displacements as large counts (`nl` > 0), its int arguments as integers. */
typedef struct vmpi_dtype_contents {
    int combiner;
    int ni, na, nl, nd;
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;
    struct vmpi_dtype **types;  /* each retained */
} vmpi_dtype_contents;

typedef struct vmpi_dtype {
    MPI_Count size;         /* bytes of data in one instance */
    MPI_Aint lb, extent;
    MPI_Aint true_lb, true_extent;
    bool contig;            /* one block of `size` bytes and extent == size: count instances are one memcpy */
    bool builtin;           /* static, never freed; its handle is VMPI_DT(basic) */
    bool committed;         /* usable in communication (MPI_Type_commit; predefined types always) */
    bool has_lb, has_ub;    /* explicit MPI_LB / MPI_UB markers (struct markers, resized) */
    int align;              /* largest alignment of its basic types (the struct extent's epsilon) */
    int nblocks;
    const vmpi_dtype_block *blocks;
    MPI_Count groups;       /* the block list (and element runs) repeat this often in an instance; 0 means 1 */
    MPI_Aint group_stride;
    int nelems_runs;
    const vmpi_dtype_elems *elems; /* runs of one group */
    MPI_Count nelems;       /* basic elements in one instance */
    int basic;              /* builtin index of its only basic type, 0 if mixed (reductions need one) */
    _Atomic int refs;       /* derived types: handles, parents and pending operations holding it */
    vmpi_dtype_contents contents;
    char name[MPI_MAX_OBJECT_NAME];
} vmpi_dtype;

/* How often the block list repeats in an instance (at least 1). */
static inline MPI_Count vmpi_dtype_groups(const vmpi_dtype *dt) { return dt->groups > 1 ? dt->groups : 1; }

/* Predefined type of builtin index `i` (1 <= i < VMPI_DT_BUILTIN_COUNT), NULL if none. */
const vmpi_dtype *vmpi_dtype_builtin(int i);

/* Reference counting of derived types (no-ops on builtins); the last release frees the type. */
void vmpi_dtype_retain(const vmpi_dtype *dt);
void vmpi_dtype_release(const vmpi_dtype *dt);

/* Copies min(bytes of source, bytes of destination) of data; returns the bytes copied. */
MPI_Count vmpi_dtype_copy(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                          const vmpi_dtype *rdt);
/* Packs at most `max` bytes of (buf, count, dt) into `out`; returns the bytes packed. */
MPI_Count vmpi_dtype_pack(const void *buf, MPI_Count count, const vmpi_dtype *dt, void *out, MPI_Count max);
/* Unpacks `bytes` packed bytes into (buf, count, dt), at most its capacity; returns the bytes unpacked. */
MPI_Count vmpi_dtype_unpack(const void *in, MPI_Count bytes, void *buf, MPI_Count count, const vmpi_dtype *dt);
/* Calls fn(address, bytes, arg) for each contiguous run of data of (buf, count, dt), in typemap order (one
 * run starts and ends between basic elements when they have no padding). */
typedef void vmpi_dtype_run_fn(char *p, MPI_Count len, void *arg);
void vmpi_dtype_each_run(void *buf, MPI_Count count, const vmpi_dtype *dt, vmpi_dtype_run_fn *fn, void *arg);
/* Basic elements in the first `bytes` bytes of data of `dt`, or MPI_UNDEFINED if `bytes` ends inside one. */
MPI_Count vmpi_dtype_elements(const vmpi_dtype *dt, MPI_Count bytes);
/* Bytes of data of the first `n` basic elements of instances of `dt` (MPI_Status_set_elements). */
MPI_Count vmpi_dtype_elements_bytes(const vmpi_dtype *dt, MPI_Count n);

#endif
