/* SPDX-License-Identifier: BSD-3-Clause */
/* Hand-written Fortran glue: F77(mpi_x, (params)) { body } defines pmpi_x_ and its weak alias mpi_x_, as the
 * generated glue does (tools/mpistd/emit_f77.py). */
#ifndef VMPI_FORTRAN_F77_H
#define VMPI_FORTRAN_F77_H

#include "fortran/fortran.h"

#define F77(name, params)                                                                                      \
    VMPI_EXPORT void p##name##_ params;                                                                        \
    VMPI_EXPORT __attribute__((weak, alias("p" #name "_"))) void name##_ params;                               \
    VMPI_EXPORT void p##name##_ params

#endif
