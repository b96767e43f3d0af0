/* SPDX-License-Identifier: BSD-3-Clause */
/* User-defined operations and the common apply path for every operation. */
#include "mpi/op/op.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "ckpt/ckpt.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/op/op_builtin.h"

typedef struct user_op {
    MPI_User_function *_Atomic fn; /* NULL: free slot; an MPI_User_function_c when `large` */
    bool large;
    bool abi;                      /* the ABI's function (libmpi_abi): called through vmpi_op_abi_call */
    bool commute;
    bool freed;                    /* MPI_Op_free'd: invalid for new calls, kept while pending ones use it */
    _Atomic int holds;             /* pending nonblocking reductions using it */
    _Atomic unsigned gen;          /* bumped at every reuse of the slot: part of the handle */
    int owner;                     /* the world rank that made it */
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
/* Slots unique in the job (handle.h): process p of K takes base + i K + p, the first free one. */
static vmpi_handle_seq seq = {VMPI_OP_USER_FIRST, 0, VMPI_OP_USER_FIRST - 1};
VMPI_CKPT_STATIC(seq)
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

void (*vmpi_op_abi_call)(MPI_User_function *fn, bool large, void *in, void *inout, MPI_Count len, MPI_Datatype dt);

int vmpi_op_create(void (*fn)(void), int form, bool commute, MPI_Op *out)
{
    int err = MPI_ERR_INTERN;
    pthread_mutex_lock(&users_lock);
    vmpi_handle_seq s = seq;
    s.next = 0;
    for (int i; (i = vmpi_handle_seq_take(&s, VMPI_OP_USER_MAX)) >= 0;)
        if (users[i].fn == NULL) {
            vmpi_handle_seq_saw(&seq, i);
            vmpi_rank *rk = vmpi_rank_self();
            users[i].owner = rk ? rk->world_rank : -1;
            unsigned gen = (atomic_load(&users[i].gen) + 1) & GEN_MASK;
            atomic_store(&users[i].gen, gen ? gen : 1);
            users[i].commute = commute;
            users[i].freed = false;
            users[i].large = form & VMPI_OP_LARGE;
            users[i].abi = form & VMPI_OP_ABI;
            users[i].fn = (MPI_User_function *)fn;
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

static void call_user(const user_op *u, MPI_Datatype dth, void *in, void *inout, MPI_Count len)
{
    if (u->abi) {
        vmpi_op_abi_call(u->fn, u->large, in, inout, len, dth);
    } else if (u->large) {
        ((MPI_User_function_c *)u->fn)(in, inout, &len, &dth);
    } else {
        int n = (int)len;
        u->fn(in, inout, &n, &dth);
    }
}

static void apply_user(const user_op *u, MPI_Datatype dth, const vmpi_dtype *dt, const void *in, void *inout,
                       MPI_Count count)
{
    if (u->large) {
        call_user(u, dth, (void *)in, inout, count);
        return;
    }
    /* an int length: pieces of at most INT_MAX instances (a large-count reduction with an MPI_Op_create op) */
    for (MPI_Count done = 0; done < count;) {
        MPI_Count len = count - done > INT_MAX ? INT_MAX : count - done;
        MPI_Aint at = done * dt->extent;
        call_user(u, dth, (char *)in + at, (char *)inout + at, len);
        done += len;
    }
}

void vmpi_op_apply(MPI_Op op, MPI_Datatype dth, const vmpi_dtype *dt, const void *in, void *inout, MPI_Count count)
{
    if (count <= 0)
        return;
    user_op *u = user_get(op);
    if (u) {
        apply_user(u, dth, dt, in, inout, count);
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

int vmpi_op_each_owned(int owner, vmpi_op_entry_fn fn, void *arg)
{
    int n = 0;
    pthread_mutex_lock(&users_lock);
    for (int i = VMPI_OP_USER_FIRST; i < VMPI_OP_USER_MAX; i++)
        if (users[i].fn != NULL && users[i].owner == owner) {
            vmpi_op_entry e = {i, atomic_load(&users[i].gen), users[i].commute, users[i].freed,
                               atomic_load(&users[i].holds), users[i].fn, users[i].large, users[i].abi};
            fn(arg, &e);
            n++;
        }
    pthread_mutex_unlock(&users_lock);
    return n;
}

bool vmpi_op_install(const vmpi_op_entry *e, int owner)
{
    bool ok = false;
    pthread_mutex_lock(&users_lock);
    if (e->slot >= VMPI_OP_USER_FIRST && e->slot < VMPI_OP_USER_MAX && e->fn != NULL && users[e->slot].fn == NULL) {
        user_op *u = &users[e->slot];
        atomic_store(&u->gen, e->gen);
        u->commute = e->commute;
        u->freed = e->freed;
        atomic_store(&u->holds, e->holds);
        u->owner = owner;
        u->large = e->large;
        u->abi = e->abi;
        u->fn = e->fn;
        vmpi_handle_seq_saw(&seq, e->slot);
        ok = true;
    }
    pthread_mutex_unlock(&users_lock);
    return ok;
}

void vmpi_op_keep_only(bool (*here)(int owner))
{
    pthread_mutex_lock(&users_lock);
    for (int i = VMPI_OP_USER_FIRST; i < VMPI_OP_USER_MAX; i++)
        if (users[i].fn != NULL && users[i].owner >= 0 && !here(users[i].owner))
            users[i].fn = NULL;
    pthread_mutex_unlock(&users_lock);
}

void vmpi_op_forget_owned(int owner)
{
    pthread_mutex_lock(&users_lock);
    for (int i = VMPI_OP_USER_FIRST; i < VMPI_OP_USER_MAX; i++)
        if (users[i].fn != NULL && users[i].owner == owner)
            users[i].fn = NULL;
    pthread_mutex_unlock(&users_lock);
}

int vmpi_op_top(void) { return seq.top; }

void vmpi_op_rebase(int above)
{
    pthread_mutex_lock(&users_lock);
    vmpi_handle_seq_rebase(&seq, above);
    pthread_mutex_unlock(&users_lock);
}
