/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic accumulates (atomic.h). */
#include <stdint.h>
#include <string.h>
#include "base/spin.h"
#include "sched/sched.h"
#include "mpi/op/op_builtin.h"
#include "mpi/rma/atomic.h"

void vmpi_rma_apply_plain(MPI_Op op, int basic, const void *in, void *target, void *old, MPI_Count n)
{
    size_t bytes = (size_t)(n * vmpi_dtype_builtin(basic)->extent);
    if (old)
        memcpy(old, target, bytes);
    if (op == MPI_NO_OP)
        return;
    if (op == MPI_REPLACE)
        memmove(target, in, bytes);
    else
        vmpi_op_builtin_apply(op, VMPI_DT(basic), in, target, n);
}

/* Integer types, where SUM is a fetch-add and the bitwise operations are fetch-and/or/xor (two's
 * complement: the same instruction for signed and unsigned).  Looked up once per type. */
static bool is_integer(int basic)
{
    static _Atomic signed char known[VMPI_DT_BUILTIN_COUNT]; /* 0: not yet, 1: integer, -1: not */
    signed char k = atomic_load_explicit(&known[basic], memory_order_relaxed);
    if (k == 0) { /* any thread computes the same value */
        k = vmpi_op_builtin_check(MPI_BAND, VMPI_DT(basic)) == MPI_SUCCESS ? 1 : -1;
        atomic_store_explicit(&known[basic], k, memory_order_relaxed);
    }
    return k > 0;
}

/* Operations one instruction does per element (MPI_NO_OP a load, MPI_REPLACE an exchange, integer SUM and
 * bitwise operations a fetch-op).  The others (MIN, MAX, PROD, logical operations, floating point, pairs)
 * run the operation's vectorized kernel under the target's accumulate lock: a compare-and-swap loop per
 * element costs 10 times more on arrays.  Either way a location is always updated the same way for one
 * operation, and concurrent accumulates to one location use one operation and MPI_NO_OP (MPI-3.1 11.2.1,
 * accumulate_ops, whose both values say so). */
static bool hw_op(MPI_Op op, int basic)
{
    return op == MPI_NO_OP || op == MPI_REPLACE ||
           ((op == MPI_SUM || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) && is_integer(basic));
}

#define ATOMIC_ELEMENT(W)                                                                                     \
    static inline void element##W(MPI_Op op, const char *in, uint##W##_t *p, char *old)                      \
    {                                                                                                         \
        uint##W##_t v = 0, cur;                                                                               \
        if (in)                                                                                               \
            memcpy(&v, in, sizeof v);                                                                         \
        if (op == MPI_NO_OP)                                                                                  \
            cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                                       \
        else if (op == MPI_REPLACE)                                                                           \
            cur = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                                \
        else if (op == MPI_SUM)                                                                               \
            cur = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                                 \
        else if (op == MPI_BAND)                                                                              \
            cur = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                                 \
        else if (op == MPI_BOR)                                                                               \
            cur = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                                  \
        else                                                                                                  \
            cur = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                                 \
        if (old)                                                                                              \
            memcpy(old, &cur, sizeof cur);                                                                    \
    }
ATOMIC_ELEMENT(8)
ATOMIC_ELEMENT(16)
ATOMIC_ELEMENT(32)
ATOMIC_ELEMENT(64)

bool vmpi_rma_hw_type(int basic)
{
    const vmpi_dtype *b = vmpi_dtype_builtin(basic);
    return b->size == b->extent && (b->size == 1 || b->size == 2 || b->size == 4 || b->size == 8);
}

void vmpi_rma_apply(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                    MPI_Count n, bool exclusive)
{
    const vmpi_dtype *b = vmpi_dtype_builtin(basic);
    size_t es = (size_t)b->size;
    bool aligned = (uintptr_t)target % es == 0;
    if (aligned && (exclusive || !hw_op(op, basic))) {
        if (!exclusive)
            vmpi_spin_lock(&t->acc);
        vmpi_rma_apply_plain(op, basic, in, target, old, n);
        if (!exclusive)
            vmpi_spin_unlock(&t->acc);
        return;
    }
    if (!aligned) { /* misaligned: always under the lock, through an aligned copy */
        uint64_t tmp[32];
        if (!exclusive)
            vmpi_spin_lock(&t->acc);
        for (MPI_Count i = 0; i < n; i += 32) {
            MPI_Count k = n - i < 32 ? n - i : 32;
            char *tp = (char *)target + i * (MPI_Count)es;
            memcpy(tmp, tp, (size_t)k * es);
            vmpi_rma_apply_plain(op, basic, in ? (const char *)in + i * (MPI_Count)es : NULL, tmp,
                                 old ? (char *)old + i * (MPI_Count)es : NULL, k);
            memcpy(tp, tmp, (size_t)k * es);
        }
        if (!exclusive)
            vmpi_spin_unlock(&t->acc);
        return;
    }
    const char *ip = in;
    char *op_ = old;
    for (MPI_Count i = 0; i < n; i++) {
        const char *x = ip ? ip + i * (MPI_Count)es : NULL;
        char *o = op_ ? op_ + i * (MPI_Count)es : NULL;
        switch (es) {
        case 1: element8(op, x, (uint8_t *)target + i, o); break;
        case 2: element16(op, x, (uint16_t *)target + i, o); break;
        case 4: element32(op, x, (uint32_t *)target + i, o); break;
        default: element64(op, x, (uint64_t *)target + i, o); break;
        }
    }
}

/* ---- whole operations (MPI accumulates) ---- */

/* A plain update of n elements at any alignment (misaligned: through an aligned copy). */
void vmpi_rma_apply_plain_any(MPI_Op op, int basic, const void *in, void *target, void *old, MPI_Count n)
{
    const vmpi_dtype *b = vmpi_dtype_builtin(basic);
    size_t es = (size_t)b->extent; /* pair types: their C struct, padding included */
    if ((uintptr_t)target % (uintptr_t)b->align == 0) {
        vmpi_rma_apply_plain(op, basic, in, target, old, n);
        return;
    }
    _Alignas(16) char tmp[256];
    MPI_Count per = (MPI_Count)(sizeof tmp / es);
    for (MPI_Count i = 0; i < n; i += per) {
        MPI_Count k = n - i < per ? n - i : per;
        char *tp = (char *)target + i * (MPI_Count)es;
        memcpy(tmp, tp, (size_t)k * es);
        vmpi_rma_apply_plain(op, basic, in ? (const char *)in + i * (MPI_Count)es : NULL, tmp,
                             old ? (char *)old + i * (MPI_Count)es : NULL, k);
        if (op != MPI_NO_OP)
            memcpy(tp, tmp, (size_t)k * es);
    }
}

/* Per PE: the window target it is updating with one lock-free atomic now, or NULL.  Each on a line of its
 * own (the PE writes it twice per update); PEs numbered beyond the table never update lock-free. */
enum { SINGLE_PES = 256 };
typedef struct {
    _Alignas(64) void *_Atomic t;
} single_slot;
static single_slot singles[SINGLE_PES];

void vmpi_rma_bulk_begin(vmpi_win_target *t)
{
    vmpi_spin_lock(&t->acc);
    /* Dekker with single_begin: the flag's store, then every PE's slot.  A PE that announced t before it
     * could see the flag finishes its one atomic; those that come later see the flag and take acc. */
    atomic_store_explicit(&t->bulk, true, memory_order_seq_cst);
    atomic_thread_fence(memory_order_seq_cst);
    for (int i = 0, n = vmpi_sched_npes() < SINGLE_PES ? vmpi_sched_npes() : SINGLE_PES; i < n; i++)
        while (atomic_load_explicit(&singles[i].t, memory_order_acquire) == (void *)t)
            __builtin_ia32_pause();
}

void vmpi_rma_bulk_end(vmpi_win_target *t)
{
    atomic_store_explicit(&t->bulk, false, memory_order_release);
    vmpi_spin_unlock(&t->acc);
}

/* Announces a lock-free one-element update of t on this PE: false (nothing announced) while a bulk
 * operation runs there.  The exchange is a full barrier before the flag's load. */
static inline single_slot *single_begin(vmpi_win_target *t)
{
    vmpi_pe *pe = vmpi_pe_self();
    if (pe == NULL || pe->id >= SINGLE_PES)
        return NULL;
    single_slot *s = &singles[pe->id];
    atomic_exchange_explicit(&s->t, (void *)t, memory_order_seq_cst);
    if (!atomic_load_explicit(&t->bulk, memory_order_seq_cst))
        return s;
    atomic_store_explicit(&s->t, NULL, memory_order_release);
    return NULL;
}

static inline void single_end(single_slot *s) { atomic_store_explicit(&s->t, NULL, memory_order_release); }

static inline void element(size_t es, MPI_Op op, const void *in, void *target, void *old)
{
    switch (es) {
    case 1: element8(op, in, target, old); break;
    case 2: element16(op, in, target, old); break;
    case 4: element32(op, in, target, old); break;
    default: element64(op, in, target, old); break;
    }
}

void vmpi_rma_acc_one(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                      bool exclusive)
{
    size_t es = (size_t)vmpi_dtype_builtin(basic)->size;
    if (exclusive) {
        vmpi_rma_apply_plain_any(op, basic, in, target, old, 1);
        return;
    }
    if (vmpi_rma_hw_type(basic) && (uintptr_t)target % es == 0 && hw_op(op, basic)) {
        single_slot *pe = single_begin(t);
        if (pe) {
            element(es, op, in, target, old);
            single_end(pe);
        } else { /* a bulk operation runs: after it (other one-element updates may still run lock-free) */
            vmpi_spin_lock(&t->acc);
            element(es, op, in, target, old);
            vmpi_spin_unlock(&t->acc);
        }
        return;
    }
    vmpi_rma_bulk_begin(t);
    vmpi_rma_apply_plain_any(op, basic, in, target, old, 1);
    vmpi_rma_bulk_end(t);
}

void vmpi_rma_acc_whole(vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *target, void *old,
                        MPI_Count n, bool exclusive)
{
    if (n == 1) {
        vmpi_rma_acc_one(t, op, basic, in, target, old, exclusive);
        return;
    }
    if (!exclusive)
        vmpi_rma_bulk_begin(t);
    vmpi_rma_apply_plain_any(op, basic, in, target, old, n);
    if (!exclusive)
        vmpi_rma_bulk_end(t);
}

void vmpi_rma_cas_apply(vmpi_win_target *t, int basic, const void *origin, const void *compare, void *target,
                        void *old, bool exclusive)
{
    size_t es = (size_t)vmpi_dtype_builtin(basic)->size;
    if (!vmpi_rma_hw_type(basic) || (uintptr_t)target % es != 0 || exclusive) {
        if (!exclusive)
            vmpi_rma_bulk_begin(t);
        memcpy(old, target, es);
        if (memcmp(old, compare, es) == 0)
            memcpy(target, origin, es);
        if (!exclusive)
            vmpi_rma_bulk_end(t);
        return;
    }
    single_slot *pe = single_begin(t);
    if (pe == NULL)
        vmpi_spin_lock(&t->acc); /* after the bulk operation that runs */
#define CAS(W)                                                                                                \
    do {                                                                                                      \
        uint##W##_t c, v;                                                                                     \
        memcpy(&c, compare, sizeof c);                                                                        \
        memcpy(&v, origin, sizeof v);                                                                         \
        __atomic_compare_exchange_n((uint##W##_t *)target, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
        memcpy(old, &c, sizeof c); /* the value found: compare's if it matched */                            \
    } while (0)
    switch (es) {
    case 1: CAS(8); break;
    case 2: CAS(16); break;
    case 4: CAS(32); break;
    default: CAS(64); break;
    }
#undef CAS
    if (pe)
        single_end(pe);
    else
        vmpi_spin_unlock(&t->acc);
}
