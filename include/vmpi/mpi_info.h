/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): info objects, attribute caching (keyvals, predefined
 * attributes) and user error classes and codes. */
#ifndef VMPI_API_MPI_INFO_H
#define VMPI_API_MPI_INFO_H

/* ---- info objects ---- */
/* A key holds at most MPI_MAX_INFO_KEY - 1 characters and a value at most MPI_MAX_INFO_VAL - 1, so buffers
 * of MPI_MAX_INFO_KEY / MPI_MAX_INFO_VAL characters always hold them with their terminating null. */
#define MPI_MAX_INFO_KEY 255
#define MPI_MAX_INFO_VAL 1024
#define MPI_INFO_ENV ((MPI_Info)0x1c000001) /* read-only: the environment the job was started with */

VMPI_DECL(int, Info_create, (MPI_Info *info))
VMPI_DECL(int, Info_set, (MPI_Info info, const char *key, const char *value))
VMPI_DECL(int, Info_get, (MPI_Info info, const char *key, int valuelen, char *value, int *flag))
VMPI_DECL(int, Info_get_valuelen, (MPI_Info info, const char *key, int *valuelen, int *flag))
VMPI_DECL(int, Info_get_string, (MPI_Info info, const char *key, int *buflen, char *value, int *flag))
VMPI_DECL(int, Info_create_env, (int argc, char *argv[], MPI_Info *info))
VMPI_DECL(int, Info_delete, (MPI_Info info, const char *key))
VMPI_DECL(int, Info_get_nkeys, (MPI_Info info, int *nkeys))
VMPI_DECL(int, Info_get_nthkey, (MPI_Info info, int n, char *key))
VMPI_DECL(int, Info_dup, (MPI_Info info, MPI_Info *newinfo))
VMPI_DECL(int, Info_free, (MPI_Info *info))

/* ---- attribute caching ---- */
/* Predefined attribute keys (attached to every communicator; values are int *).  Keyvals are handles of
 * their own kind (MPI_KEYVAL_INVALID is its null handle, in mpi.h). */
#define MPI_TAG_UB 0x24000001
#define MPI_HOST 0x24000002
#define MPI_IO 0x24000003
#define MPI_WTIME_IS_GLOBAL 0x24000004
#define MPI_APPNUM 0x24000005
#define MPI_UNIVERSE_SIZE 0x24000006
#define MPI_LASTUSEDCODE 0x24000007

typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val, void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                          void *extra_state);
/* MPI-1 forms (deprecated, still in MPI-3.1) */
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                              void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state);

/* The predefined callbacks.  Handles of every kind are ints, so one function serves communicators,
 * datatypes (and windows): NULL_COPY copies nothing, DUP copies the value, NULL_DELETE does nothing. */
int vmpi_attr_null_copy_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in,
                           void *attribute_val_out, int *flag);
int vmpi_attr_dup_fn(int oldobj, int keyval, void *extra_state, void *attribute_val_in, void *attribute_val_out,
                     int *flag);
int vmpi_attr_null_delete_fn(int obj, int keyval, void *attribute_val, void *extra_state);
#define MPI_COMM_NULL_COPY_FN ((MPI_Comm_copy_attr_function *)vmpi_attr_null_copy_fn)
#define MPI_COMM_DUP_FN ((MPI_Comm_copy_attr_function *)vmpi_attr_dup_fn)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)vmpi_attr_null_delete_fn)
#define MPI_TYPE_NULL_COPY_FN ((MPI_Type_copy_attr_function *)vmpi_attr_null_copy_fn)
#define MPI_TYPE_DUP_FN ((MPI_Type_copy_attr_function *)vmpi_attr_dup_fn)
#define MPI_TYPE_NULL_DELETE_FN ((MPI_Type_delete_attr_function *)vmpi_attr_null_delete_fn)
#define MPI_NULL_COPY_FN ((MPI_Copy_function *)vmpi_attr_null_copy_fn)
#define MPI_DUP_FN ((MPI_Copy_function *)vmpi_attr_dup_fn)
#define MPI_NULL_DELETE_FN ((MPI_Delete_function *)vmpi_attr_null_delete_fn)

VMPI_DECL(int, Comm_create_keyval, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                    MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                    void *extra_state))
VMPI_DECL(int, Comm_free_keyval, (int *comm_keyval))
VMPI_DECL(int, Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
VMPI_DECL(int, Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
VMPI_DECL(int, Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
VMPI_DECL(int, Type_create_keyval, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                                    MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                                    void *extra_state))
VMPI_DECL(int, Type_free_keyval, (int *type_keyval))
VMPI_DECL(int, Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
VMPI_DECL(int, Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
VMPI_DECL(int, Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
VMPI_DECL(int, Keyval_create, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                               void *extra_state))
VMPI_DECL(int, Keyval_free, (int *keyval))
VMPI_DECL(int, Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
VMPI_DECL(int, Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
VMPI_DECL(int, Attr_delete, (MPI_Comm comm, int keyval))

/* ---- user error classes and codes ---- */
/* They are numbered above MPI_ERR_LASTCODE, per rank (like the processes of a process-based MPI: ranks that
 * add classes and codes in the same order get the same numbers); MPI_LASTUSEDCODE gives the largest. */
VMPI_DECL(int, Add_error_class, (int *errorclass))
VMPI_DECL(int, Add_error_code, (int errorclass, int *errorcode))
VMPI_DECL(int, Add_error_string, (int errorcode, const char *string))
VMPI_DECL(int, Remove_error_class, (int errorclass))
VMPI_DECL(int, Remove_error_code, (int errorcode))
VMPI_DECL(int, Remove_error_string, (int errorcode))

#endif
