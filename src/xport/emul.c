/* SPDX-License-Identifier: BSD-3-Clause */
/* The emulated multi-process mode's transport.  With --emulate-procs K the job's PEs form K process groups
 * inside one process, and every operation between groups goes through this transport, as it would go
 * through a network's: active messages are copied through the channels (vmpi_chan_commit_remote, the only
 * way a record may cross groups), one-sided operations copy between the addresses that every process has at
 * the same value.  It counts what it carries, per PE (vmpi_xport_remote_counts), so that tests can tell that
 * operations between groups took the remote protocols. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/compiler.h"
#include "base/log.h"
#include "sched/sched.h"
#include "xport/chan.h"
#include "xport/emul.h"
#include "xport/procs.h"

typedef struct pe_counts {
    VMPI_ALIGNED_CL _Atomic uint64_t n[7]; /* in the order of vmpi_xport_counts' fields */
} pe_counts;
enum { N_AM, N_AM_BYTES, N_GET, N_GET_BYTES, N_PUT, N_PUT_BYTES, N_ATOMIC };

static struct {
    pe_counts *counts;
    int npes;
} E;

/* Only the PE itself writes its counters: a relaxed load and store, no locked instruction. */
static inline void count(int what, uint64_t by)
{
    _Atomic uint64_t *c = &E.counts[vmpi_pe_self()->id].n[what];
    atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + by, memory_order_relaxed);
}

/* The network transport's largest message (src/net/ucx.c: UCX's 8 KiB eager limit less its 16-byte header),
 * when the channels take more: the emulated mode then chooses the protocols a job of OS processes does
 * (eager only up to about 2 KiB between processes, rendezvous above, RMA chunks of the same size). */
enum { NET_AM_MAX = 8192 - 16 };
static size_t emul_am_max(const vmpi_xport *x)
{
    size_t m = vmpi_chan_max_record();
    return m < NET_AM_MAX ? m : NET_AM_MAX;
}

static void emul_am_send(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg)
{
    void *p = vmpi_chan_reserve(dst_pe, len);
    pack(p, len, arg);
    count(N_AM, 1); /* before the commit: an answer to it may be counted by a reader before we go on */
    count(N_AM_BYTES, len);
    vmpi_chan_commit_remote(dst_pe, id);
}

static void emul_get(vmpi_xport *x, int dst_pe, void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    memcpy(local, (const void *)(uintptr_t)remote, len);
    count(N_GET, 1);
    count(N_GET_BYTES, len);
    c->done(c);
}

static void emul_put(vmpi_xport *x, int dst_pe, const void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    memcpy((void *)(uintptr_t)remote, local, len);
    count(N_PUT, 1);
    count(N_PUT_BYTES, len);
    c->done(c);
}

static void emul_atomic(vmpi_xport *x, int dst_pe, vmpi_xport_aop op, uint64_t remote, int size, uint64_t operand,
                        uint64_t compare, uint64_t *result, vmpi_xport_comp *c)
{
    *result = vmpi_xport_local_atomic(op, (void *)(uintptr_t)remote, size, operand, compare);
    count(N_ATOMIC, 1);
    c->done(c);
}

static void emul_flush(vmpi_xport *x, int pe) {} /* one-sided operations complete in their call */

static const vmpi_xport_ops emul_ops = {
    .name = "emulated processes",
    .am_max = emul_am_max,
    .am_send = emul_am_send,
    .get = emul_get,
    .put = emul_put,
    .atomic = emul_atomic,
    .flush = emul_flush,
};

static vmpi_xport emul = {&emul_ops, "emul"};

void vmpi_xport_emul_init(int nprocs)
{
    E.npes = vmpi_xport_procs_.npes;
    E.counts = aligned_alloc(VMPI_CACHELINE, sizeof(pe_counts) * (size_t)E.npes);
    if (E.counts == NULL)
        vmpi_fatal("out of memory for the emulated transport of %d PEs", E.npes);
    memset(E.counts, 0, sizeof(pe_counts) * (size_t)E.npes);
}

void vmpi_xport_emul_fini(void)
{
    free(E.counts);
    E.counts = NULL;
    E.npes = 0;
}

vmpi_xport *vmpi_xport_emul(void) { return &emul; }

vmpi_xport_counts vmpi_xport_emul_counts(void)
{
    uint64_t t[7] = {0};
    for (int p = 0; p < E.npes; p++)
        for (int i = 0; i < 7; i++)
            t[i] += atomic_load_explicit(&E.counts[p].n[i], memory_order_relaxed);
    return (vmpi_xport_counts){t[N_AM], t[N_AM_BYTES], t[N_GET], t[N_GET_BYTES], t[N_PUT], t[N_PUT_BYTES], t[N_ATOMIC]};
}
