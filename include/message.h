/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI's message-passing helpers (Global Arrays' message.h): collectives and point-to-point messages among
 * the ARMCI processes, on the ARMCI world's own communicator (its messages never match the program's MPI
 * ones).  Reduction ops: "+", "*", "max", "min", "absmax", "absmin", and for the integer types "or". */
#ifndef _MESSAGE_H_
#define _MESSAGE_H_

#include "armci.h"

#if defined(__cplusplus)
extern "C" {
#endif
#pragma GCC visibility push(default) /* exported when vmpi is built with hidden visibility */

#define ARMCI_INT -99
#define ARMCI_LONG -101
#define ARMCI_LONG_LONG -102
#define ARMCI_FLOAT -306
#define ARMCI_DOUBLE -307

#define SCOPE_ALL 333
#define SCOPE_NODE 337
#define SCOPE_MASTERS 339

int armci_msg_me(void);
int armci_msg_nproc(void);
double armci_timer(void);
void armci_msg_barrier(void);
void armci_msg_bcast(void *buffer, int len, int root);
void armci_msg_brdcst(void *buffer, int len, int root);
void armci_msg_bcast_scope(int scope, void *buffer, int len, int root);
void armci_msg_snd(int tag, void *buffer, int len, int to);
void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from);
int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen);
void armci_msg_reduce(void *x, int n, char *op, int type);
void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);
void armci_msg_igop(int *x, int n, char *op);
void armci_msg_lgop(long *x, int n, char *op);
void armci_msg_llgop(long long *x, int n, char *op);
void armci_msg_fgop(float *x, int n, char *op);
void armci_msg_dgop(double *x, int n, char *op);
void armci_exchange_address(void *ptr_ar[], int n);
void armci_msg_abort(int code);
void armci_msg_finalize(void);

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type, ARMCI_Group *group);
void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_barrier(ARMCI_Group *group);
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root, ARMCI_Group *group);
void armci_exchange_address_grp(void *ptr_arr[], int n, ARMCI_Group *group);

#pragma GCC visibility pop
#if defined(__cplusplus)
}
#endif

#endif
