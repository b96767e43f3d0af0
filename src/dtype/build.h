/* SPDX-License-Identifier: BSD-3-Clause */
/* Building derived types: every constructor is a sequence of "count instances of type T at displacement D"
 * pieces in typemap order.  The builder appends their blocks (merging adjacent runs and regular strides),
 * their element runs, and computes bounds with MPI's rules (explicit MPI_LB/MPI_UB markers win; a struct
 * without an upper-bound marker pads its extent to its largest alignment). */
#ifndef VMPI_DTYPE_BUILD_H
#define VMPI_DTYPE_BUILD_H

#include "dtype/dtype.h"

typedef struct vmpi_dtype_builder {
    vmpi_dtype_block *blocks;
    int nblocks, bcap;
    vmpi_dtype_elems *elems;
    int nruns, rcap;
    MPI_Count size, nelems;
    bool has_data;
    MPI_Aint dlo, dhi;      /* bounds of data (of the components' lb/ub when they have no markers) */
    MPI_Aint tlo, thi;      /* true bounds */
    bool has_lb, has_ub;
    MPI_Aint mlb, mub;      /* explicit markers */
    int align;
    int basic;              /* -1: none yet, 0: mixed */
    MPI_Count groups;       /* > 1: the blocks and runs so far repeat `groups` times, group_stride apart */
    MPI_Aint group_stride;
    bool oom;
} vmpi_dtype_builder;

void vmpi_dtb_init(vmpi_dtype_builder *b);
/* Appends `count` instances of `t` at `disp`, `disp + extent(t)`, ... */
void vmpi_dtb_add(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Aint disp, MPI_Count count);
/* Appends `count` copies of `t` at disp + i * stride as one repeated group of t's blocks (memory for one copy,
 * not `count`): only into an empty builder, for a many-block `t` without groups; false (nothing appended)
 * when not applicable, and the caller appends normally. */
bool vmpi_dtb_add_repeated(vmpi_dtype_builder *b, const vmpi_dtype *t, MPI_Aint disp, MPI_Count count,
                           MPI_Aint stride);
/* The built type (refs = 1, no contents), or NULL when out of memory (the builder is freed either way).
 * `pad` applies the struct rule for the extent's alignment padding. */
vmpi_dtype *vmpi_dtb_finish(vmpi_dtype_builder *b, bool pad);
/* Gives a type being built explicit bounds (MPI_LB / MPI_UB markers), as MPI_Type_create_resized does. */
void vmpi_dtype_set_bounds(vmpi_dtype *t, MPI_Aint lb, MPI_Aint extent);

#endif
