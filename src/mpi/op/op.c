/* SPDX-License-Identifier: BSD-3-Clause */
/* User-defined operations and the common apply path for every operation. */
#include "mpi/op/op.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "ckpt/ckpt.h"
#include "mpi/core/handle.h"
#include "mpi/op/op_builtin.h"

typedef struct user_op {
    MPI_User_function *_Atomic fn; /* NULL: free slot */
    bool commute;
    bool freed;                    /* MPI_Op_free'd: invalid for new calls, kept while pending ones use it */
    _Atomic int holds;             /* pending nonblocking reductions using it */
    _Atomic unsigned gen;          /* bumped at every reuse of the slot: part of the handle */
} user_op;

/* A handle's index is (generation << 12) | slot, so a freed handle does not name the op that reuses its
 * slot (ranks create and free ops concurrently in one table). */
#define SLOT_BITS 12
#define GEN_MASK ((1u << (26 - SLOT_BITS)) - 1)
_Static_assert(VMPI_OP_USER_MAX == 1 << SLOT_BITS, "slot field of the handle");

/* Created and freed under the lock; read without it (a rank only uses handles it was given after the
 * create returned, so the entry is published by then). */
static user_op users[VMPI_OP_USER_MAX];
VMPI_CKPT_STATIC(users) /* a restarted job's ranks hold these handles; the functions are in their copies */
static pthread_mutex_t users_lock = PTHREAD_MUTEX_INITIALIZER;

static user_op *user_get(MPI_Op op)
{
    if (VMPI_HANDLE_KIND(op) != VMPI_KIND_OP)
        return NULL;
    int idx = VMPI_HANDLE_INDEX(op), i = idx & (VMPI_OP_USER_MAX - 1);
    unsigned gen = (unsigned)idx >> SLOT_BITS;
    if (i < VMPI_OP_USER_FIRST || gen == 0 || users[i].fn == NULL || atomic_load(&users[i].gen) != gen)
        return NULL;
    return &users[i];
}

static user_op *user_live(MPI_Op op)
{
    user_op *u = user_get(op);
    return u && !u->freed ? u : NULL;
}

static bool builtin(MPI_Op op)
{
    return VMPI_HANDLE_KIND(op) == VMPI_KIND_OP && op > MPI_OP_NULL && op <= MPI_NO_OP;
}

int vmpi_op_create(MPI_User_function *fn, bool commute, MPI_Op *out)
{
    int err = MPI_ERR_INTERN;
    pthread_mutex_lock(&users_lock);
    for (int i = VMPI_OP_USER_FIRST; i < VMPI_OP_USER_MAX; i++)
        if (users[i].fn == NULL) {
            unsigned gen = (atomic_load(&users[i].gen) + 1) & GEN_MASK;
            atomic_store(&users[i].gen, gen ? gen : 1);
            users[i].commute = commute;
            users[i].freed = false;
            users[i].fn = fn;
            *out = VMPI_HANDLE(VMPI_KIND_OP, (int)(atomic_load(&users[i].gen) << SLOT_BITS) | i);
            err = MPI_SUCCESS;
            break;
        }
    pthread_mutex_unlock(&users_lock);
    return err;
}

int vmpi_op_free(MPI_Op *op)
{
    user_op *u = user_live(*op);
    if (u == NULL)
        return MPI_ERR_OP;
    pthread_mutex_lock(&users_lock);
    u->freed = true;
    if (atomic_load(&u->holds) == 0)
        u->fn = NULL;
    pthread_mutex_unlock(&users_lock);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

void vmpi_op_hold(MPI_Op op)
{
    user_op *u = user_get(op);
    if (u)
        atomic_fetch_add(&u->holds, 1);
}

void vmpi_op_release(MPI_Op op)
{
    user_op *u = user_get(op);
    if (u == NULL || atomic_fetch_sub(&u->holds, 1) != 1)
        return;
    pthread_mutex_lock(&users_lock);
    if (u->freed && atomic_load(&u->holds) == 0)
        u->fn = NULL;
    pthread_mutex_unlock(&users_lock);
}

bool vmpi_op_valid(MPI_Op op) { return builtin(op) || user_live(op) != NULL; }

bool vmpi_op_commutative(MPI_Op op)
{
    user_op *u = user_get(op);
    return u ? u->commute : true;
}

bool vmpi_op_reassociable(MPI_Op op, const vmpi_dtype *dt)
{
    return builtin(op) && dt->basic != 0 && vmpi_op_builtin_exact(op, VMPI_HANDLE(VMPI_KIND_DATATYPE, dt->basic));
}

int vmpi_op_check(MPI_Op op, const vmpi_dtype *dt)
{
    if (user_get(op))
        return MPI_SUCCESS;
    if (!builtin(op) || dt->basic == 0)
        return MPI_ERR_OP;
    return vmpi_op_builtin_check(op, VMPI_HANDLE(VMPI_KIND_DATATYPE, dt->basic));
}

static void apply_user(MPI_User_function *fn, MPI_Datatype dth, const void *in, void *inout, MPI_Count count)
{
    int len = (int)count; /* counts come from int arguments of the C binding */
    fn((void *)in, inout, &len, &dth);
}

void vmpi_op_apply(MPI_Op op, MPI_Datatype dth, const vmpi_dtype *dt, const void *in, void *inout, MPI_Count count)
{
    if (count <= 0)
        return;
    user_op *u = user_get(op);
    if (u) {
        apply_user(u->fn, dth, in, inout, count);
        return;
    }
    MPI_Datatype basic = VMPI_HANDLE(VMPI_KIND_DATATYPE, dt->basic);
    const vmpi_dtype *b = vmpi_dtype_builtin(dt->basic);
    if (dt == b) { /* a predefined type: the kernel knows its C layout (pair types included) */
        vmpi_op_builtin_apply(op, basic, in, inout, count);
        return;
    }
    MPI_Count n = count * dt->size / b->size;
    if (dt->contig && b->size == b->extent) {
        vmpi_op_builtin_apply(op, basic, (const char *)in + dt->lb, (char *)inout + dt->lb, n);
        return;
    }
    /* a derived type with gaps: reduce copies laid out as arrays of the basic type, then copy back */
    size_t bytes = (size_t)(n * b->extent);
    char *x = malloc(bytes ? bytes : 1), *y = malloc(bytes ? bytes : 1);
    if (x && y) {
        vmpi_dtype_copy(in, count, dt, x, n, b);
        vmpi_dtype_copy(inout, count, dt, y, n, b);
        vmpi_op_builtin_apply(op, basic, x, y, n);
        vmpi_dtype_copy(y, n, b, inout, count, dt);
    }
    free(x);
    free(y);
}
