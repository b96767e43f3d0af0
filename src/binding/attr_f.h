/* SPDX-License-Identifier: BSD-3-Clause */
/* Attributes as the Fortran bindings need them (src/fortran/f77_attr.c, f77_callbacks.c): checked and reported
 * as the C functions `fn` are, with Fortran's values (integers, whose keyvals' callbacks take values: see
 * mpi/core/attr.h on languages). */
#ifndef VMPI_BINDING_ATTR_F_H
#define VMPI_BINDING_ATTR_F_H

#include "mpi.h"
#include "mpi/core/attr.h"

int vmpi_b_keyval_create_f(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, int *keyval,
                           void *extra_state, const char *fn);
int vmpi_b_attr_set_f(int objkind, int obj, int keyval, MPI_Aint val, const char *fn);
/* The value Fortran reads: a Fortran attribute's value, a C attribute's address, a predefined one's value */
int vmpi_b_attr_get_f(int objkind, int obj, int keyval, MPI_Aint *val, int *flag, const char *fn);

#endif
