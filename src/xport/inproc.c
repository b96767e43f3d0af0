/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process transport: active messages through the channels (xport/chan.h), one-sided operations as
 * copies and atomic instructions in the one address space. */
#include <string.h>
#include "xport/chan.h"
#include "xport/xport.h"

static size_t inproc_am_max(const vmpi_xport *x) { return vmpi_chan_max_record(); }

static void inproc_am_send(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg)
{
    vmpi_chan_am_send(dst_pe, id, len, pack, arg);
}

static void inproc_get(vmpi_xport *x, int dst_pe, void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    memcpy(local, (const void *)(uintptr_t)remote, len);
    c->done(c);
}

static void inproc_put(vmpi_xport *x, int dst_pe, const void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    memcpy((void *)(uintptr_t)remote, local, len);
    c->done(c);
}

/* One atomic read-modify-write of `size` bytes at `addr` (shared with the emulated transport). */
uint64_t vmpi_xport_local_atomic(vmpi_xport_aop op, void *addr, int size, uint64_t operand, uint64_t compare)
{
#define AOP(T)                                                                                          \
    do {                                                                                                \
        T *a = addr, v = (T)operand, cmp = (T)compare;                                                  \
        switch (op) {                                                                                   \
        case VMPI_XPORT_FADD: return (uint64_t)__atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);              \
        case VMPI_XPORT_SWAP: return (uint64_t)__atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);             \
        case VMPI_XPORT_CSWAP:                                                                          \
            __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);         \
            return (uint64_t)cmp;                                                                       \
        }                                                                                               \
        return 0;                                                                                       \
    } while (0)
    switch (size) {
    case 1: AOP(uint8_t);
    case 2: AOP(uint16_t);
    case 4: AOP(uint32_t);
    default: AOP(uint64_t);
    }
#undef AOP
}

static void inproc_atomic(vmpi_xport *x, int dst_pe, vmpi_xport_aop op, uint64_t remote, int size, uint64_t operand,
                          uint64_t compare, uint64_t *result, vmpi_xport_comp *c)
{
    *result = vmpi_xport_local_atomic(op, (void *)(uintptr_t)remote, size, operand, compare);
    c->done(c);
}

static void inproc_flush(vmpi_xport *x, int pe) {} /* every one-sided operation completes in its call */

static const vmpi_xport_ops inproc_ops = {
    .name = "in-process channels",
    .am_max = inproc_am_max,
    .am_send = inproc_am_send,
    .get = inproc_get,
    .put = inproc_put,
    .atomic = inproc_atomic,
    .flush = inproc_flush,
};

vmpi_xport vmpi_xport_inproc = {&inproc_ops, "inproc"};
