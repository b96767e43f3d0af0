/* SPDX-License-Identifier: BSD-3-Clause */
/* User error classes and codes (MPI_Add_error_class/code/string).  Their values are above MPI_ERR_LASTCODE
 * and are numbered per rank, as each process of a process-based MPI numbers its own: ranks that add classes
 * and codes in the same order get the same values.  Classes and codes share one numbering. */
#ifndef VMPI_MPI_ERRCODE_H
#define VMPI_MPI_ERRCODE_H

#include <mpi.h>
#include <stdbool.h>

int vmpi_errcode_add_class(int *errorclass);
/* `errorclass` is a predefined class other than MPI_SUCCESS or a user class; else MPI_ERR_ARG. */
int vmpi_errcode_add_code(int errorclass, int *errorcode);
/* `code` is a user class or code; else MPI_ERR_ARG. */
int vmpi_errcode_set_string(int code, const char *string);
/* MPI-4.1's removals: a user class (is_class) or code, which must have no string left and, for a class, no
 * code left; its value may be given again by a later addition.  The string of a user class or code.
 * MPI_SUCCESS or why not: */
enum { VMPI_ERRCODE_NOT_USER = -1, VMPI_ERRCODE_HAS_STRING = -2, VMPI_ERRCODE_HAS_CODES = -3 };
int vmpi_errcode_remove(int code, bool is_class);
int vmpi_errcode_remove_string(int code);
/* The class of a predefined or user error code, or -1 when `code` is neither. */
int vmpi_errcode_class(int code);
/* The string given to a user class or code ("" when none was), or NULL when `code` is not one. */
const char *vmpi_errcode_user_string(int code);
/* The rank's MPI_LASTUSEDCODE value (the largest value a user class or code was given, or
 * MPI_ERR_LASTCODE): its address is the attribute's value, so it stays current. */
int *vmpi_errcode_lastused(void);

struct vmpi_rank;
void vmpi_errcode_rank_fini(struct vmpi_rank *rk);

#endif
