/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI, the remote-memory-copy interface under Global Arrays, on vmpi (docs/ARMCI.md).
 *
 * The API is the one the ARMCI distribution (Global Arrays' armci.h) defines: the same names, types, op codes
 * and limits, so ARMCI programs build with vmpicc unchanged.  ARMCI processes are vmpi ranks: many per core,
 * migratable, checkpointable.  Extensions: the adaptive calls of the Charm++ ARMCI (ARMCI_Procs, ARMCI_Myid,
 * ARMCI_Migrate, ARMCI_Async_Migrate, ARMCI_Checkpoint, ARMCI_MemCheckpoint) and armci-mpi's ARMCI_NbAcc,
 * ARMCI_Init_thread, ARMCI_Access_begin/end.  ARMCI_VMPI tells a program it has them.
 *
 * Every call that moves data completes before it returns, at the origin and at the target: nonblocking calls
 * are the blocking ones, handles are complete at once (ARMCI_Test returns 0, as in every ARMCI).
 * Misuse aborts the job with a message naming the call, the process and the bad value (ARMCI has no error
 * handlers); with VMPI_ARMCI_ERRORS=return the calls return the MPI error class instead. */
#ifndef _ARMCI_H
#define _ARMCI_H

#include <stddef.h>
#include <stdlib.h>

#if defined(__cplusplus)
extern "C" {
#endif
#pragma GCC visibility push(default) /* exported when vmpi is built with hidden visibility */

#define ARMCI_VMPI 1

typedef long armci_size_t;

/* A vector transfer: ptr_array_len segments of `bytes` bytes, segment i from src_ptr_array[i] to
 * dst_ptr_array[i]. */
typedef struct {
    void **src_ptr_array;
    void **dst_ptr_array;
    int ptr_array_len;
    int bytes;
} armci_giov_t;

/* A nonblocking handle (GA's size and layout). */
typedef struct {
    int data[4];
    double dummy[72];
} armci_hdl_t;
#define armci_req_t armci_hdl_t
#define ARMCI_INIT_HANDLE(hdl)                                                                                  \
    do {                                                                                                        \
        ((double *)((hdl)->data))[0] = 0;                                                                       \
        ((double *)((hdl)->data))[1] = 0;                                                                       \
    } while (0)

typedef int ARMCI_Group;

#define FAIL -1
#define FAIL2 -2
#define FAIL3 -3
#define FAIL4 -4
#define FAIL5 -5
#define FAIL6 -6
#define FAIL7 -7
#define FAIL8 -8

/* ARMCI_Rmw operations */
#define ARMCI_SWAP 10
#define ARMCI_SWAP_LONG 11
#define ARMCI_FETCH_AND_ADD 12
#define ARMCI_FETCH_AND_ADD_LONG 13

/* accumulate types: dst += scale * src, element by element */
#define ARMCI_ACC_OFF 36
#define ARMCI_ACC_INT (ARMCI_ACC_OFF + 1)
#define ARMCI_ACC_DBL (ARMCI_ACC_OFF + 2)
#define ARMCI_ACC_FLT (ARMCI_ACC_OFF + 3)
#define ARMCI_ACC_CPL (ARMCI_ACC_OFF + 4) /* float complex: (re, im) pairs */
#define ARMCI_ACC_DCP (ARMCI_ACC_OFF + 5) /* double complex */
#define ARMCI_ACC_LNG (ARMCI_ACC_OFF + 6)

#define ARMCI_MAX_STRIDE_LEVEL 8

/* ---- initialization and termination ---- */
int ARMCI_Init(void);                       /* initializes MPI too if the program has not */
int ARMCI_Init_args(int *argc, char ***argv);
int ARMCI_Init_thread(int required);
int ARMCI_Initialized(void);
void ARMCI_Finalize(void);
void ARMCI_Cleanup(void);
void ARMCI_Error(char *msg, int code);      /* prints msg and code, stops every process */

/* ---- memory ---- */
int ARMCI_Malloc(void *ptr_arr[], armci_size_t bytes); /* collective; ptr_arr[i] = process i's block */
int ARMCI_Free(void *ptr);
void *ARMCI_Malloc_local(armci_size_t bytes);
int ARMCI_Free_local(void *ptr);

/* ---- contiguous transfers ---- */
int ARMCI_Put(void *src, void *dst, int bytes, int proc);
int ARMCI_Get(void *src, void *dst, int bytes, int proc);
int ARMCI_Acc(int optype, void *scale, void *src, void *dst, int bytes, int proc);
int ARMCI_Put_flag(void *src, void *dst, int bytes, int *f, int v, int proc);
void ARMCI_Copy(void *src, void *dst, int n);

/* ---- strided transfers: count[0] bytes per segment, count[1..levels] segments per level ---- */
int ARMCI_PutS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
               int stride_levels, int proc);
int ARMCI_GetS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
               int stride_levels, int proc);
int ARMCI_AccS(int optype, void *scale, void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[],
               int count[], int stride_levels, int proc);
int ARMCI_PutS_flag(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                    int stride_levels, int *flag, int val, int proc);
int ARMCI_PutS_flag_dir(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                        int stride_levels, int *flag, int val, int proc);

/* ---- vector transfers ---- */
int ARMCI_PutV(armci_giov_t darr[], int len, int proc);
int ARMCI_GetV(armci_giov_t darr[], int len, int proc);
int ARMCI_AccV(int op, void *scale, armci_giov_t darr[], int len, int proc);

/* ---- single values ---- */
int ARMCI_PutValueInt(int src, void *dst, int proc);
int ARMCI_PutValueLong(long src, void *dst, int proc);
int ARMCI_PutValueFloat(float src, void *dst, int proc);
int ARMCI_PutValueDouble(double src, void *dst, int proc);
int ARMCI_GetValueInt(void *src, int proc);
long ARMCI_GetValueLong(void *src, int proc);
float ARMCI_GetValueFloat(void *src, int proc);
double ARMCI_GetValueDouble(void *src, int proc);

/* ---- nonblocking forms (complete when they return) ---- */
int ARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbAcc(int optype, void *scale, void *src, void *dst, int bytes, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                 int stride_levels, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbGetS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                 int stride_levels, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbAccS(int optype, void *scale, void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[],
                 int count[], int stride_levels, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutV(armci_giov_t darr[], int len, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbGetV(armci_giov_t darr[], int len, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbAccV(int op, void *scale, armci_giov_t darr[], int len, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *nb_handle);
int ARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *nb_handle);
int ARMCI_Wait(armci_hdl_t *nb_handle);
int ARMCI_Test(armci_hdl_t *nb_handle);     /* 0: complete */
int ARMCI_WaitAll(void);
int ARMCI_WaitProc(int proc);
void ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t *nb_handle);
void ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t *nb_handle);

/* ---- synchronization ---- */
void ARMCI_Fence(int proc);
void ARMCI_AllFence(void);
void ARMCI_Barrier(void);
int ARMCI_Rmw(int op, void *ploc, void *prem, int extra, int proc);
int ARMCI_Create_mutexes(int num);
int ARMCI_Destroy_mutexes(void);
void ARMCI_Lock(int mutex, int proc);
void ARMCI_Unlock(int mutex, int proc);
/* Notification (GA): armci_notify(proc) counts a notice at proc; armci_notify_wait(proc, &v) blocks until
 * proc's notices to the caller exceed those already waited for, and returns the count. */
int armci_notify(int proc);
int armci_notify_wait(int proc, int *pval);

/* ---- processes, locality ---- */
int ARMCI_Procs(int *procs);
int ARMCI_Myid(int *myid);
int ARMCI_Same_node(int proc);
int armci_sameclusnode(int proc);
int ARMCI_Uses_shm(void);
void ARMCI_Set_shm_limit(unsigned long shmemlimit);
typedef int armci_domain_t;
#define ARMCI_DOMAIN_SMP 0
int armci_domain_nprocs(armci_domain_t domain, int id);
int armci_domain_id(armci_domain_t domain, int glob_proc_id);
int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id);
int armci_domain_my_id(armci_domain_t domain);
int armci_domain_count(armci_domain_t domain);
int armci_domain_same_id(armci_domain_t domain, int proc);
/* armci-mpi's direct-access epochs on one's own ARMCI memory: nothing to do in one address space. */
void ARMCI_Access_begin(void *ptr);
void ARMCI_Access_end(void *ptr);

/* ---- groups: ids in transfers stay absolute (world) ids ---- */
void ARMCI_Group_create(int n, int *pid_list, ARMCI_Group *group_out);
void ARMCI_Group_create_child(int n, int *pid_list, ARMCI_Group *group_out, ARMCI_Group *group_parent);
void ARMCI_Group_free(ARMCI_Group *group);
int ARMCI_Group_rank(ARMCI_Group *group, int *rank);
void ARMCI_Group_size(ARMCI_Group *group, int *size);
void ARMCI_Group_set_default(ARMCI_Group *group);
void ARMCI_Group_get_default(ARMCI_Group *group_out);
void ARMCI_Group_get_world(ARMCI_Group *group_out);
void ARMCI_GroupFence(ARMCI_Group *group);
int ARMCI_Absolute_id(ARMCI_Group *group, int group_rank);
int ARMCI_Uses_shm_grp(ARMCI_Group *group);
int ARMCI_Malloc_group(void *ptr_arr[], armci_size_t bytes, ARMCI_Group *group);
int ARMCI_Free_group(void *ptr, ARMCI_Group *group);

/* ---- adaptivity (the Charm++ ARMCI's extensions): collective over all processes ---- */
void ARMCI_Migrate(void);                   /* a load-balancing point */
void ARMCI_Async_Migrate(void);             /* the same: vmpi has no asynchronous migration point */
void ARMCI_Checkpoint(char *dirname);       /* a checkpoint to dirname; restart with vmpirun --restart */
void ARMCI_MemCheckpoint(void);             /* an in-memory checkpoint */

#pragma GCC visibility pop
#if defined(__cplusplus)
}
#endif

#endif
