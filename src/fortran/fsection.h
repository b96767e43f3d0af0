/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi_f08's choice buffers: TYPE(*), DIMENSION(..) (MPI_SUBARRAYS_SUPPORTED is .TRUE. in mpi_f08), which
 * gfortran passes as a C descriptor (TS 29113) that may describe a noncontiguous array section, such as
 * a(1:7:3, 2:6:2).  A contiguous buffer (a scalar, an array, an assumed-size one) passes its address as it is.
 * For a section, MPI-4.1 19.1.12 lays the count elements of the datatype over the section's elements as if
 * they were contiguous: a datatype made for the section (one hvector per dimension over the datatype, or over
 * k of its elements when an array element holds k of them) replaces the count and the datatype for the call,
 * and is freed after it (a pending operation keeps its own reference): a nonblocking operation works on the
 * section itself.  Where no such datatype exists (the count and the datatype are another buffer's too, counts
 * per process, a datatype whose elements are not the array's) a blocking call works on a contiguous copy (in
 * before the call, back after it) and one that may outlive it (ASYNCHRONOUS in the standard's binding, or an
 * _init) fails with MPI_ERR_BUFFER on its communicator or window, as does a section given as a window's or a
 * buffer's memory, which must be contiguous. */
#ifndef VMPI_FORTRAN_FSECTION_H
#define VMPI_FORTRAN_FSECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/compiler.h"
#include "mpi.h"

#if __has_include(<ISO_Fortran_binding.h>)
#include <ISO_Fortran_binding.h>
#else
/* no gfortran (VMPI_FORTRAN=OFF): no mpi_f08 module calls this glue; gfortran's layout, for it to compile */
typedef ptrdiff_t CFI_index_t;
typedef struct CFI_dim_t {
    CFI_index_t lower_bound, extent, sm;
} CFI_dim_t;
#define CFI_CDESC_T(r)                                                                                        \
    struct {                                                                                                  \
        void *base_addr;                                                                                      \
        size_t elem_len;                                                                                      \
        int version;                                                                                          \
        int8_t rank, attribute;                                                                               \
        int16_t type;                                                                                         \
        CFI_dim_t dim[r];                                                                                     \
    }
typedef CFI_CDESC_T() CFI_cdesc_t;
#endif

/* what the call does with the buffer (the standard's direction), and whether it may outlive the call */
enum { VMPI_F_IN = 1, VMPI_F_OUT = 2, VMPI_F_ASYNC = 4 };

/* what a section became for the call */
enum { VMPI_F_PLAIN, VMPI_F_TYPED, VMPI_F_COPIED, VMPI_F_FAILED };

typedef struct vmpi_f_sect {
    int mode;          /* VMPI_F_*: the only field set for a contiguous buffer */
    MPI_Datatype type; /* TYPED: made for the section, the call's datatype with count 1; COPIED: see tmp */
    void *tmp;         /* COPIED: the contiguous copy (type: the section's bytes) */
    int how;
    const CFI_cdesc_t *d;
    int err;           /* FAILED: the error class, s->why the reason */
    char why[160];
} vmpi_f_sect;

/* Whether the descriptor's elements are contiguous, in order (a dimension of extent 1 has any stride; an
 * assumed-size array's last extent is -1, and it is contiguous; an array of no element is) */
static inline bool vmpi_f_contig_dims(const CFI_cdesc_t *d)
{
    CFI_index_t sm = (CFI_index_t)d->elem_len;
    bool contig = true;
    for (int i = 0; i < d->rank; i++) {
        if (d->dim[i].extent == 0)
            return true; /* no element: nothing to lay out */
        if (d->dim[i].extent != 1 && d->dim[i].sm != sm && d->dim[i].extent != -1)
            contig = false;
        sm *= d->dim[i].extent;
    }
    return contig;
}
/* ... a scalar or a whole vector at once */
static inline bool vmpi_f_contig(const CFI_cdesc_t *d)
{
    if (VMPI_LIKELY(d->rank == 1 && d->dim[0].sm == (CFI_index_t)d->elem_len)) /* a whole vector */
        return true;
    return d->rank == 0 || vmpi_f_contig_dims(d);
}

/* A scalar's descriptor (a contiguous buffer at `addr`, as the elements of `like`): what the path for sections
 * passes to the glue again */
typedef CFI_CDESC_T(0) vmpi_f_desc0;
static inline CFI_cdesc_t *vmpi_f_desc_at(vmpi_f_desc0 *d, void *addr, const CFI_cdesc_t *like)
{
    d->base_addr = addr;
    d->elem_len = like->elem_len;
    d->version = like->version;
    d->rank = 0;
    d->attribute = like->attribute;
    d->type = like->type;
    return (CFI_cdesc_t *)d;
}

/* The address of a buffer (the path for sections, which passes each buffer, contiguous or not) with a count
 * and a datatype of its own: for a section made TYPED, the caller passes count 1 and s->type instead; COPIED,
 * the address is the copy's */
void *vmpi_f_sect_typed(vmpi_f_sect *s, const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int how)
    __attribute__((cold));
/* The address of any other buffer (a section's copy) */
/* (count elements of dt, or count bytes when dt is MPI_BYTE, must fit in the copy: count -1 when the buffer's
 * size is not one count, as counts per process) */
void *vmpi_f_sect_copy(vmpi_f_sect *s, const CFI_cdesc_t *d, MPI_Count count, MPI_Datatype dt, int how)
    __attribute__((cold));
void vmpi_f_sect_undo(vmpi_f_sect *s) __attribute__((cold));
/* A section no call can take: its error, raised on the call's communicator or window (`on`, a handle of kind
 * `kind`, VMPI_F_ON_*); `fn` the call, `arg` the buffer */
enum { VMPI_F_ON_COMM, VMPI_F_ON_WIN };
int vmpi_f_sect_fail(const vmpi_f_sect *s, const char *fn, const char *arg, int kind, int on) __attribute__((cold));

/* After the call: the datatype freed, the copy written back */
static inline void vmpi_f_sect_end(vmpi_f_sect *s)
{
    if (VMPI_UNLIKELY(s->mode != VMPI_F_PLAIN))
        vmpi_f_sect_undo(s);
}

#endif
