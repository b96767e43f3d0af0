/* SPDX-License-Identifier: BSD-3-Clause */
/* Attribute caching: keyvals and attribute values, per rank (ranks are threads, and a handle such as
 * MPI_COMM_WORLD is the same number in every rank, but each rank has its own attributes).  Attributes live in
 * a side table of the rank keyed by the object's handle (the handle's kind bits tell communicators, datatypes
 * and windows apart), so objects carry no attribute field.  Values of the predefined attributes are kept per
 * rank too and are never stored in the table.
 *
 * ---- The two hooks for the areas that own objects with attributes ----
 *
 *   int vmpi_attr_copy_all(int oldobj, int newobj);
 *       Call when `newobj` is created as a duplicate of `oldobj` (MPI_Comm_dup, Comm_idup, Comm_dup_with_info,
 *       MPI_Type_dup; later Win has no dup), after the new handle exists and before it is returned to the user.
 *       Runs the copy callback of every attribute of `oldobj` in the order they were set, with
 *       (oldobj, keyval, extra_state, value, &new_value, &flag), and attaches new_value to `newobj` when the
 *       callback sets flag.  Returns MPI_SUCCESS, or the error code a callback returned: then the attributes
 *       already copied to `newobj` have been deleted again (their delete callbacks ran), `newobj` has none, and
 *       the caller frees `newobj` WITHOUT calling vmpi_attr_delete_all and fails the dup with that code.
 *
 *   int vmpi_attr_delete_all(int obj);
 *       Call when `obj` is freed (MPI_Comm_free, MPI_Comm_disconnect, MPI_Type_free; later MPI_Win_free),
 *       first thing, while the object is still valid (callbacks may use it).  Runs the delete callback of every
 *       attribute of `obj`, last set first, and removes each.  Returns MPI_SUCCESS, or the error code of the
 *       first callback that failed: that attribute and the ones set before it stay attached, and the caller
 *       must fail the free with that code and keep the object.
 *
 * Both take the calling rank's table (call them from the rank that owns the object) and are reentrant:
 * callbacks may set, get and delete attributes, also on the same object.  Handles given to the hooks are
 * only table keys: they need not be valid for vmpi_comm_get/vmpi_dt_get.
 *
 * Everything returns MPI_SUCCESS or an MPI error class/code; the binding reports it. */
#ifndef VMPI_MPI_ATTR_H
#define VMPI_MPI_ATTR_H

#include <mpi.h>
#include <stdbool.h>

int vmpi_attr_copy_all(int oldobj, int newobj);
int vmpi_attr_delete_all(int obj);

/* MPI_Finalize, at its start while MPI still works: deletes the attributes of MPI_COMM_SELF, then of
 * MPI_COMM_WORLD, last set first (MPI-3.1 8.7.1).  Every callback runs even if one fails; returns the first
 * failure. */
int vmpi_attr_finalize(void);

/* A keyval for objects of handle kind `objkind` (VMPI_KIND_COMM, VMPI_KIND_DATATYPE, later windows).  NULL
 * callbacks act as the predefined null ones.  The function types are the MPI ones (all take int handles). */
typedef int vmpi_attr_copy_fn(int oldobj, int keyval, void *extra_state, void *val_in, void *val_out, int *flag);
typedef int vmpi_attr_delete_fn(int obj, int keyval, void *val, void *extra_state);
/* `fortran`: a keyval made from Fortran, whose callbacks take attribute values as integers (the value passed
 * as void *, and the copy's result read so), whichever language set the attribute. */
int vmpi_keyval_create(int objkind, vmpi_attr_copy_fn *copy, vmpi_attr_delete_fn *del, void *extra_state,
                       bool fortran, int *keyval);
/* MPI_SUCCESS when `keyval` is a live keyval for objects of `objkind`; predefined keys pass only when
 * `predef_ok`; a keyval the program freed while attributes still use it only when `freed_ok` (getting and
 * deleting those attributes, freeing it again: its handle stays valid while it lives, as in MPICH and Open
 * MPI).  Otherwise MPI_ERR_KEYVAL. */
int vmpi_keyval_check(int keyval, int objkind, bool predef_ok, bool freed_ok);
/* Whether `keyval` is one of the predefined communicator keys (MPI_TAG_UB..., AMPI's), whose values are int *;
 * the window keys (MPI_WIN_BASE...) are the window layer's. */
bool vmpi_keyval_predefined(int keyval);
/* Marks the keyval freed (it lives on while attributes use it; freeing it again then does nothing) and sets
 * *keyval to MPI_KEYVAL_INVALID. */
int vmpi_keyval_free(int *keyval);

/* Sets (running the delete callback of a value it replaces), gets, deletes (running the delete callback; no
 * attribute: nothing happens) one attribute of object `obj`.  The keyval has been checked.
 *
 * Languages (MPI-4.1 19.3.7): C sets and gets a pointer; Fortran sets an integer (`fortran`: val is the
 * value, kept in a cell of the attribute's own).  C reads a Fortran attribute as the address of its cell;
 * vmpi_attr_get's *fortran says which kind an attribute is, so that Fortran reads the value of its own
 * attributes and the address of C's. */
int vmpi_attr_set(int obj, int keyval, void *val, bool fortran);
int vmpi_attr_get(int obj, int keyval, void **val, int *flag, bool *fortran);
int vmpi_attr_delete(int obj, int keyval);

struct vmpi_rank;
/* Releases a rank's tables at the end of the job. */
void vmpi_attr_rank_fini(struct vmpi_rank *rk);

#endif
