/* SPDX-License-Identifier: BSD-3-Clause */
/* Info objects: ordered (key, value) lists in one process-wide table (ranks are threads on several PEs), so
 * every operation takes the table's mutex.  An object belongs to the rank that created it (MPI-3.1 makes
 * info objects local to a process): another rank's handle is invalid here (MPI_ERR_INFO), as it would be in
 * another process.  MPI_INFO_ENV is built on first use
 * and is read-only.  Keys and values are checked for length by the binding (check.h); these functions
 * return MPI_SUCCESS or an MPI error class (MPI_ERR_INFO for a bad handle, MPI_ERR_INFO_NOKEY, ...).
 *
 * For other areas (Comm_set_info/get_info, Comm_dup_with_info, later windows and files):
 *   vmpi_info_dup(in, &out)   a new, independent copy of `in`; `in` may be MPI_INFO_NULL (out: empty object),
 *                             so an object that keeps hints can store a private copy and hand out copies;
 *   vmpi_info_get(...)        read one hint; vmpi_info_free(&h) releases a copy. */
#ifndef VMPI_MPI_INFO_H
#define VMPI_MPI_INFO_H

#include <mpi.h>
#include <stdbool.h>

int vmpi_info_create(MPI_Info *out);
/* MPI_SUCCESS when `h` is a live info object (MPI_INFO_ENV included), else MPI_ERR_INFO. */
int vmpi_info_check(MPI_Info h);
bool vmpi_info_is_readonly(MPI_Info h);
/* Adds `key` or replaces its value (it keeps its place in the key order). */
int vmpi_info_set(MPI_Info h, const char *key, const char *value);
/* Copies at most `valuelen` characters of the value and a null after them; *flag says whether `key` is set. */
int vmpi_info_get(MPI_Info h, const char *key, int valuelen, char *value, int *flag);
int vmpi_info_get_valuelen(MPI_Info h, const char *key, int *valuelen, int *flag);
/* MPI-4's string query: at most *buflen - 1 characters and a terminator into value (nothing when *buflen is
 * 0), *buflen set to the value's length + 1; unchanged when the key is not set (*flag 0). */
int vmpi_info_get_string(MPI_Info h, const char *key, int *buflen, char *value, int *flag);
/* A new object with the environment's keys (MPI_INFO_ENV's), "command" and "argv" from argc/argv. */
int vmpi_info_create_env(int argc, char **argv, MPI_Info *out);
int vmpi_info_delete(MPI_Info h, const char *key);
int vmpi_info_get_nkeys(MPI_Info h, int *nkeys);
/* Keys are numbered in the order they were first set; MPI_ERR_ARG when n is not in [0, nkeys). */
int vmpi_info_get_nthkey(MPI_Info h, int n, char *key);
int vmpi_info_dup(MPI_Info h, MPI_Info *out);
/* Frees the object and sets *h to MPI_INFO_NULL. */
int vmpi_info_free(MPI_Info *h);
/* Handles are unique in the job and each object has its owner, the rank that made it, in whose slot it is
 * (handle.h, iso.h): a checkpoint writes each rank's (index, object), and a restart that brings the rank
 * into another process's table re-registers them (false when the index is taken or the object not the
 * owner's).  The largest index given, and a restart's new numbering above the job's largest (MPI_INFO_ENV,
 * the process's, is made again). */
typedef struct vmpi_info vmpi_info;
typedef void (*vmpi_info_entry_fn)(void *arg, int idx, vmpi_info *o);
int vmpi_info_each_owned(int owner, vmpi_info_entry_fn fn, void *arg);
bool vmpi_info_install(int idx, vmpi_info *o, int owner);
int vmpi_info_top(void);
void vmpi_info_forget_owned(int owner);
void vmpi_info_keep_only(bool (*here)(int owner));
void vmpi_info_rebase(int above);

#endif
