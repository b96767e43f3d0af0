/* SPDX-License-Identifier: BSD-3-Clause */
/* Part of mpi.h (include <mpi.h>, not this file): one-sided communication (MPI-3.1 chapter 11), windows'
 * attributes, names and error handlers, and MPI_Alloc_mem.  Every window uses the unified memory model. */
#ifndef VMPI_API_MPI_RMA_H
#define VMPI_API_MPI_RMA_H

typedef int MPI_Win;
#define MPI_WIN_NULL ((MPI_Win)0x28000000)

/* window flavors and memory models (values of MPI_WIN_CREATE_FLAVOR and MPI_WIN_MODEL) */
#define MPI_WIN_FLAVOR_CREATE 1
#define MPI_WIN_FLAVOR_ALLOCATE 2
#define MPI_WIN_FLAVOR_DYNAMIC 3
#define MPI_WIN_FLAVOR_SHARED 4
#define MPI_WIN_SEPARATE 1
#define MPI_WIN_UNIFIED 2

/* assertions of the synchronization calls (bits) */
#define MPI_MODE_NOCHECK 1024
#define MPI_MODE_NOSTORE 2048
#define MPI_MODE_NOPUT 4096
#define MPI_MODE_NOPRECEDE 8192
#define MPI_MODE_NOSUCCEED 16384

#define MPI_LOCK_EXCLUSIVE 234
#define MPI_LOCK_SHARED 235

/* predefined window attributes (keyvals; values are pointers: void * for the base, MPI_Aint * and int *) */
#define MPI_WIN_BASE 0x24000008
#define MPI_WIN_SIZE 0x24000009
#define MPI_WIN_DISP_UNIT 0x2400000a
#define MPI_WIN_CREATE_FLAVOR 0x2400000b
#define MPI_WIN_MODEL 0x2400000c

typedef int MPI_Win_copy_attr_function(MPI_Win oldwin, int win_keyval, void *extra_state, void *attribute_val_in,
                                       void *attribute_val_out, int *flag);
typedef int MPI_Win_delete_attr_function(MPI_Win win, int win_keyval, void *attribute_val, void *extra_state);
#define MPI_WIN_NULL_COPY_FN ((MPI_Win_copy_attr_function *)vmpi_attr_null_copy_fn)
#define MPI_WIN_DUP_FN ((MPI_Win_copy_attr_function *)vmpi_attr_dup_fn)
#define MPI_WIN_NULL_DELETE_FN ((MPI_Win_delete_attr_function *)vmpi_attr_null_delete_fn)
typedef void MPI_Win_errhandler_function(MPI_Win *, int *, ...);
typedef MPI_Win_errhandler_function MPI_Win_errhandler_fn;

/* ---- memory ---- */
/* From the calling rank's isomalloc slot: the memory moves with the rank. */
VMPI_DECL(int, Alloc_mem, (MPI_Aint size, MPI_Info info, void *baseptr))
VMPI_DECL(int, Free_mem, (void *base))

/* ---- windows ---- */
VMPI_DECL(int, Win_create, (void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win *win))
VMPI_DECL(int, Win_allocate, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                              MPI_Win *win))
VMPI_DECL(int, Win_allocate_shared, (MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                     MPI_Win *win))
VMPI_DECL(int, Win_shared_query, (MPI_Win win, int rank, MPI_Aint *size, int *disp_unit, void *baseptr))
VMPI_DECL(int, Win_create_c, (void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              MPI_Win *win))
VMPI_DECL(int, Win_allocate_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                                MPI_Win *win))
VMPI_DECL(int, Win_allocate_shared_c, (MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                                       void *baseptr, MPI_Win *win))
VMPI_DECL(int, Win_shared_query_c, (MPI_Win win, int rank, MPI_Aint *size, MPI_Aint *disp_unit, void *baseptr))
VMPI_DECL(int, Win_create_dynamic, (MPI_Info info, MPI_Comm comm, MPI_Win *win))
VMPI_DECL(int, Win_attach, (MPI_Win win, void *base, MPI_Aint size))
VMPI_DECL(int, Win_detach, (MPI_Win win, const void *base))
VMPI_DECL(int, Win_free, (MPI_Win *win))
VMPI_DECL(int, Win_get_group, (MPI_Win win, MPI_Group *group))
VMPI_DECL(int, Win_set_info, (MPI_Win win, MPI_Info info))
VMPI_DECL(int, Win_get_info, (MPI_Win win, MPI_Info *info_used))
VMPI_DECL(int, Win_set_name, (MPI_Win win, const char *win_name))
VMPI_DECL(int, Win_get_name, (MPI_Win win, char *win_name, int *resultlen))
VMPI_DECL(MPI_Fint, Win_c2f, (MPI_Win win))
VMPI_DECL(MPI_Win, Win_f2c, (MPI_Fint win))

VMPI_DECL(int, Win_create_keyval, (MPI_Win_copy_attr_function *win_copy_attr_fn,
                                   MPI_Win_delete_attr_function *win_delete_attr_fn, int *win_keyval,
                                   void *extra_state))
VMPI_DECL(int, Win_free_keyval, (int *win_keyval))
VMPI_DECL(int, Win_set_attr, (MPI_Win win, int win_keyval, void *attribute_val))
VMPI_DECL(int, Win_get_attr, (MPI_Win win, int win_keyval, void *attribute_val, int *flag))
VMPI_DECL(int, Win_delete_attr, (MPI_Win win, int win_keyval))

VMPI_DECL(int, Win_create_errhandler, (MPI_Win_errhandler_function *win_errhandler_fn, MPI_Errhandler *errhandler))
VMPI_DECL(int, Win_set_errhandler, (MPI_Win win, MPI_Errhandler errhandler))
VMPI_DECL(int, Win_get_errhandler, (MPI_Win win, MPI_Errhandler *errhandler))
VMPI_DECL(int, Win_call_errhandler, (MPI_Win win, int errorcode))

/* ---- communication ---- */
VMPI_DECL(int, Put, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
VMPI_DECL(int, Get, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win))
VMPI_DECL(int, Accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                            int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                            MPI_Op op, MPI_Win win))
VMPI_DECL(int, Get_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                MPI_Win win))
VMPI_DECL(int, Fetch_and_op, (const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                              MPI_Aint target_disp, MPI_Op op, MPI_Win win))
VMPI_DECL(int, Compare_and_swap, (const void *origin_addr, const void *compare_addr, void *result_addr,
                                  MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Win win))
VMPI_DECL(int, Rput, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                      MPI_Request *request))
VMPI_DECL(int, Rget, (void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win,
                      MPI_Request *request))
VMPI_DECL(int, Raccumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                             int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
                             MPI_Op op, MPI_Win win, MPI_Request *request))
VMPI_DECL(int, Rget_accumulate, (const void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
                                 void *result_addr, int result_count, MPI_Datatype result_datatype, int target_rank,
                                 MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op,
                                 MPI_Win win, MPI_Request *request))

/* the large-count forms */
VMPI_DECL(int, Put_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
VMPI_DECL(int, Get_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                       MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win))
VMPI_DECL(int, Accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                              int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
VMPI_DECL(int, Get_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                  void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                  int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win))
VMPI_DECL(int, Rput_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request *request))
VMPI_DECL(int, Rget_c, (void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                        MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
                        MPI_Request *request))
VMPI_DECL(int, Raccumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                               int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                               MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))
VMPI_DECL(int, Rget_accumulate_c, (const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                                   void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype,
                                   int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                                   MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request))

/* ---- synchronization ---- */
VMPI_DECL(int, Win_fence, (int assert, MPI_Win win))
VMPI_DECL(int, Win_start, (MPI_Group group, int assert, MPI_Win win))
VMPI_DECL(int, Win_complete, (MPI_Win win))
VMPI_DECL(int, Win_post, (MPI_Group group, int assert, MPI_Win win))
VMPI_DECL(int, Win_wait, (MPI_Win win))
VMPI_DECL(int, Win_test, (MPI_Win win, int *flag))
VMPI_DECL(int, Win_lock, (int lock_type, int rank, int assert, MPI_Win win))
VMPI_DECL(int, Win_unlock, (int rank, MPI_Win win))
VMPI_DECL(int, Win_lock_all, (int assert, MPI_Win win))
VMPI_DECL(int, Win_unlock_all, (MPI_Win win))
VMPI_DECL(int, Win_flush, (int rank, MPI_Win win))
VMPI_DECL(int, Win_flush_all, (MPI_Win win))
VMPI_DECL(int, Win_flush_local, (int rank, MPI_Win win))
VMPI_DECL(int, Win_flush_local_all, (MPI_Win win))
VMPI_DECL(int, Win_sync, (MPI_Win win))

#endif
