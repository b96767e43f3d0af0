/* SPDX-License-Identifier: BSD-3-Clause */
/* Element-wise atomic accumulate (atomic.h). */
#include <stdint.h>
#include <string.h>
#include "mpi/op/op_builtin.h"
#include "mpi/rma/atomic.h"

static inline void acc_lock(vmpi_win_target *t)
{
    while (atomic_flag_test_and_set_explicit(&t->acc, memory_order_acquire))
        __builtin_ia32_pause();
}

static inline void acc_unlock(vmpi_win_target *t) { atomic_flag_clear_explicit(&t->acc, memory_order_release); }

void vmpi_rma_acc_lock(vmpi_win_target *t) { acc_lock(t); }
void vmpi_rma_acc_unlock(vmpi_win_target *t) { acc_unlock(t); }

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
 * complement: the same instruction for signed and unsigned). */
static bool is_integer(int basic) { return vmpi_op_builtin_check(MPI_BAND, VMPI_DT(basic)) == MPI_SUCCESS; }

/* One element of W bits: the dedicated instruction when there is one, else a compare-and-swap loop around the
 * operation's kernel (min, max, products, floating point, logical operations, MINLOC/MAXLOC pairs). */
#define ATOMIC_ELEMENT(W)                                                                                     \
    static void element##W(MPI_Op op, int basic, bool integer, vmpi_op_builtin_fn *kernel, const char *in,    \
                           uint##W##_t *p, char *old)                                                         \
    {                                                                                                         \
        uint##W##_t v = 0, cur;                                                                               \
        if (in)                                                                                               \
            memcpy(&v, in, sizeof v);                                                                         \
        if (op == MPI_NO_OP)                                                                                  \
            cur = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                                       \
        else if (op == MPI_REPLACE)                                                                           \
            cur = __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);                                                \
        else if (integer && op == MPI_SUM)                                                                    \
            cur = __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);                                                 \
        else if (integer && op == MPI_BAND)                                                                   \
            cur = __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);                                                 \
        else if (integer && op == MPI_BOR)                                                                    \
            cur = __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);                                                  \
        else if (integer && op == MPI_BXOR)                                                                   \
            cur = __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);                                                 \
        else {                                                                                                \
            cur = __atomic_load_n(p, __ATOMIC_RELAXED);                                                       \
            uint##W##_t nv;                                                                                   \
            do {                                                                                              \
                nv = cur;                                                                                     \
                kernel(&v, &nv, 1);                                                                           \
            } while (!__atomic_compare_exchange_n(p, &cur, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));   \
        }                                                                                                     \
        if (old)                                                                                              \
            memcpy(old, &cur, sizeof cur);                                                                    \
        (void)basic;                                                                                          \
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
    if (exclusive && (uintptr_t)target % es == 0) {
        vmpi_rma_apply_plain(op, basic, in, target, old, n);
        return;
    }
    if ((uintptr_t)target % es != 0) { /* misaligned: always under the lock, through an aligned copy */
        uint64_t tmp[32];
        if (!exclusive)
            acc_lock(t);
        for (MPI_Count i = 0; i < n; i += 32) {
            MPI_Count k = n - i < 32 ? n - i : 32;
            char *tp = (char *)target + i * (MPI_Count)es;
            memcpy(tmp, tp, (size_t)k * es);
            vmpi_rma_apply_plain(op, basic, in ? (const char *)in + i * (MPI_Count)es : NULL, tmp,
                                 old ? (char *)old + i * (MPI_Count)es : NULL, k);
            memcpy(tp, tmp, (size_t)k * es);
        }
        if (!exclusive)
            acc_unlock(t);
        return;
    }
    bool integer = is_integer(basic);
    vmpi_op_builtin_fn *kernel =
        op == MPI_NO_OP || op == MPI_REPLACE ? NULL : vmpi_op_builtin_kernel(op, VMPI_DT(basic));
    const char *ip = in;
    char *op_ = old;
    for (MPI_Count i = 0; i < n; i++) {
        const char *x = ip ? ip + i * (MPI_Count)es : NULL;
        char *o = op_ ? op_ + i * (MPI_Count)es : NULL;
        switch (es) {
        case 1: element8(op, basic, integer, kernel, x, (uint8_t *)target + i, o); break;
        case 2: element16(op, basic, integer, kernel, x, (uint16_t *)target + i, o); break;
        case 4: element32(op, basic, integer, kernel, x, (uint32_t *)target + i, o); break;
        default: element64(op, basic, integer, kernel, x, (uint64_t *)target + i, o); break;
        }
    }
}

void vmpi_rma_cas_apply(vmpi_win_target *t, int basic, const void *origin, const void *compare, void *target,
                        void *old, bool exclusive)
{
    size_t es = (size_t)vmpi_dtype_builtin(basic)->size;
    if (!vmpi_rma_hw_type(basic) || (uintptr_t)target % es != 0 || exclusive) {
        if (!exclusive)
            acc_lock(t);
        memcpy(old, target, es);
        if (memcmp(old, compare, es) == 0)
            memcpy(target, origin, es);
        if (!exclusive)
            acc_unlock(t);
        return;
    }
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
}
