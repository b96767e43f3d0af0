/* SPDX-License-Identifier: BSD-3-Clause */
/* message.h: ARMCI's collectives and messages, over the ARMCI world's (or a group's) communicator, so they
 * never match the program's own MPI messages.  All processes are on one node: scopes are all the same. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "armci/armci_impl.h"

int armci_msg_me(void)
{
    ARMCI_CHECK_INIT(a, "armci_msg_me", -1);
    return a->me;
}

int armci_msg_nproc(void)
{
    ARMCI_CHECK_INIT(a, "armci_msg_nproc", -1);
    return a->nprocs;
}

double armci_timer(void) { return PMPI_Wtime(); }

static MPI_Comm comm_of(vmpi_armci *a, const char *fn, ARMCI_Group *group)
{
    if (group == NULL)
        return armci_world(a);
    armci_group *g = armci_group_member(a, fn, group);
    return g ? g->comm : MPI_COMM_NULL;
}

void armci_msg_barrier(void)
{
    ARMCI_CHECK_INIT(a, "armci_msg_barrier", );
    PMPI_Barrier(armci_world(a));
}

void armci_msg_group_barrier(ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, "armci_msg_group_barrier", );
    MPI_Comm c = comm_of(a, "armci_msg_group_barrier", group);
    if (c != MPI_COMM_NULL)
        PMPI_Barrier(c);
}

static void bcast(const char *fn, void *buf, int len, int root, ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, fn, );
    MPI_Comm c = comm_of(a, fn, group);
    if (c == MPI_COMM_NULL)
        return;
    int size;
    PMPI_Comm_size(c, &size);
    if (root < 0 || root >= size) {
        armci_fail(fn, MPI_ERR_ROOT, "root %d is not one of the %d processes", root, size);
        return;
    }
    if (len < 0) {
        armci_fail(fn, MPI_ERR_COUNT, "negative length %d", len);
        return;
    }
    PMPI_Bcast(buf, len, MPI_BYTE, root, c);
}

void armci_msg_bcast(void *buffer, int len, int root) { bcast("armci_msg_bcast", buffer, len, root, NULL); }
void armci_msg_brdcst(void *buffer, int len, int root) { bcast("armci_msg_brdcst", buffer, len, root, NULL); }
void armci_msg_bcast_scope(int scope, void *buffer, int len, int root)
{
    bcast("armci_msg_bcast_scope", buffer, len, root, NULL);
}
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root, ARMCI_Group *group)
{
    bcast("armci_msg_group_bcast_scope", buf, len, root, group);
}

void armci_msg_snd(int tag, void *buffer, int len, int to)
{
    ARMCI_CHECK_INIT(a, "armci_msg_snd", );
    if (armci_check_proc(a, "armci_msg_snd", to))
        return;
    int err = PMPI_Send(buffer, len, MPI_BYTE, to, tag, armci_world(a));
    if (err)
        armci_fail("armci_msg_snd", err, "sending %d bytes with tag %d to process %d failed", len, tag, to);
}

static int rcv(const char *fn, int tag, void *buffer, int buflen, int *msglen, int from)
{
    ARMCI_CHECK_INIT(a, fn, -1);
    if (from != MPI_ANY_SOURCE && armci_check_proc(a, fn, from))
        return -1;
    MPI_Status st;
    int err = PMPI_Recv(buffer, buflen, MPI_BYTE, from, tag, armci_world(a), &st);
    if (err) {
        armci_fail(fn, err, "receiving up to %d bytes with tag %d failed (a longer message?)", buflen, tag);
        return -1;
    }
    if (msglen)
        PMPI_Get_count(&st, MPI_BYTE, msglen);
    return st.MPI_SOURCE;
}

void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from)
{
    rcv("armci_msg_rcv", tag, buffer, buflen, msglen, from);
}

int armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen)
{
    return rcv("armci_msg_rcvany", tag, buffer, buflen, msglen, MPI_ANY_SOURCE);
}

/* ---- reductions: x = op over all processes, in place; "absmax"/"absmin" reduce absolute values ---- */

static MPI_Datatype type_of(int type)
{
    switch (type) {
    case ARMCI_INT: return MPI_INT;
    case ARMCI_LONG: return MPI_LONG;
    case ARMCI_LONG_LONG: return MPI_LONG_LONG;
    case ARMCI_FLOAT: return MPI_FLOAT;
    case ARMCI_DOUBLE: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;
    }
}

static void absolute(void *x, int n, int type)
{
    for (int i = 0; i < n; i++)
        switch (type) {
        /* through unsigned: |INT_MIN| is not an int (it stays INT_MIN) but is no undefined behaviour */
        case ARMCI_INT: { int v = ((int *)x)[i]; ((int *)x)[i] = v < 0 ? (int)(0u - (unsigned)v) : v; break; }
        case ARMCI_LONG: { long v = ((long *)x)[i]; ((long *)x)[i] = v < 0 ? (long)(0ul - (unsigned long)v) : v; break; }
        case ARMCI_LONG_LONG: {
            long long v = ((long long *)x)[i];
            ((long long *)x)[i] = v < 0 ? (long long)(0ull - (unsigned long long)v) : v;
            break;
        }
        case ARMCI_FLOAT: ((float *)x)[i] = fabsf(((float *)x)[i]); break;
        default: ((double *)x)[i] = fabs(((double *)x)[i]); break;
        }
}

static void gop(const char *fn, void *x, int n, const char *op, int type, ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, fn, );
    MPI_Comm c = comm_of(a, fn, group);
    if (c == MPI_COMM_NULL)
        return;
    MPI_Datatype dt = type_of(type);
    if (dt == MPI_DATATYPE_NULL) {
        armci_fail(fn, MPI_ERR_TYPE, "%d is not an ARMCI type (ARMCI_INT, _LONG, _LONG_LONG, _FLOAT, _DOUBLE)", type);
        return;
    }
    if (n < 0 || (n > 0 && x == NULL)) {
        armci_fail(fn, MPI_ERR_COUNT, "%d elements at %p", n, x);
        return;
    }
    bool integer = type != ARMCI_FLOAT && type != ARMCI_DOUBLE;
    MPI_Op mop = MPI_OP_NULL;
    bool absval = false;
    if (op == NULL)
        ;
    else if (!strcmp(op, "+"))
        mop = MPI_SUM;
    else if (!strcmp(op, "*"))
        mop = MPI_PROD;
    else if (!strcmp(op, "max"))
        mop = MPI_MAX;
    else if (!strcmp(op, "min"))
        mop = MPI_MIN;
    else if (!strcmp(op, "absmax"))
        mop = MPI_MAX, absval = true;
    else if (!strcmp(op, "absmin"))
        mop = MPI_MIN, absval = true;
    else if (!strcmp(op, "or") && integer)
        mop = MPI_BOR;
    if (mop == MPI_OP_NULL) {
        armci_fail(fn, MPI_ERR_OP, "\"%s\" is not a reduction of this type (\"+\", \"*\", \"max\", \"min\", \"absmax\", "
                   "\"absmin\"%s)", op ? op : "(null)", integer ? ", \"or\"" : "");
        return;
    }
    if (absval)
        absolute(x, n, type);
    int err = PMPI_Allreduce(MPI_IN_PLACE, x, n, dt, mop, c);
    if (err)
        armci_fail(fn, err, "the reduction failed");
}

/* armci_msg_reduce: the result is wanted at process 0; every process gets it. */
void armci_msg_reduce(void *x, int n, char *op, int type) { gop("armci_msg_reduce", x, n, op, type, NULL); }

void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type) { gop("armci_msg_gop_scope", x, n, op, type, NULL); }
void armci_msg_igop(int *x, int n, char *op) { gop("armci_msg_igop", x, n, op, ARMCI_INT, NULL); }
void armci_msg_lgop(long *x, int n, char *op) { gop("armci_msg_lgop", x, n, op, ARMCI_LONG, NULL); }
void armci_msg_llgop(long long *x, int n, char *op) { gop("armci_msg_llgop", x, n, op, ARMCI_LONG_LONG, NULL); }
void armci_msg_fgop(float *x, int n, char *op) { gop("armci_msg_fgop", x, n, op, ARMCI_FLOAT, NULL); }
void armci_msg_dgop(double *x, int n, char *op) { gop("armci_msg_dgop", x, n, op, ARMCI_DOUBLE, NULL); }

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type, ARMCI_Group *group)
{
    gop("armci_msg_group_gop_scope", x, n, op, type, group);
}
void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group)
{
    gop("armci_msg_group_igop", x, n, op, ARMCI_INT, group);
}
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group)
{
    gop("armci_msg_group_lgop", x, n, op, ARMCI_LONG, group);
}
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group)
{
    gop("armci_msg_group_llgop", x, n, op, ARMCI_LONG_LONG, group);
}
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group)
{
    gop("armci_msg_group_fgop", x, n, op, ARMCI_FLOAT, group);
}
void armci_msg_group_dgop(double *x, int n, char *op, ARMCI_Group *group)
{
    gop("armci_msg_group_dgop", x, n, op, ARMCI_DOUBLE, group);
}

/* ptr_ar[me] is the caller's; the others' are filled in. */
static void exchange(const char *fn, void *ptr_ar[], int n, ARMCI_Group *group)
{
    ARMCI_CHECK_INIT(a, fn, );
    MPI_Comm c = comm_of(a, fn, group);
    if (c == MPI_COMM_NULL)
        return;
    int size;
    PMPI_Comm_size(c, &size);
    if (n != size) {
        armci_fail(fn, MPI_ERR_COUNT, "%d entries for %d processes", n, size);
        return;
    }
    PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ptr_ar, sizeof(void *), MPI_BYTE, c);
}

void armci_exchange_address(void *ptr_ar[], int n) { exchange("armci_exchange_address", ptr_ar, n, NULL); }
void armci_exchange_address_grp(void *ptr_arr[], int n, ARMCI_Group *group)
{
    exchange("armci_exchange_address_grp", ptr_arr, n, group);
}

void armci_msg_abort(int code) { ARMCI_Error("armci_msg_abort", code); }

void armci_msg_finalize(void)
{
    int init = 0, fin = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fin);
    if (init && !fin)
        PMPI_Finalize();
}
