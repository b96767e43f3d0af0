/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI's accumulates to another process go as active messages applied by a PE of the target's process (the
 * scaled data in chunks a record takes), each answered by a cookie naming the waiting call; its
 * read-modify-writes are the transport's atomics, the same instructions the target's own fetch-adds use. */
#include <string.h>
#include "base/log.h"
#include "dtype/dtype.h"
#include "mpi/rma/atomic.h"
#include "mpi/rma/far.h"
#include "msg/loc.h"

typedef struct far_hdr {
    uint64_t t, dst, cookie;  /* addresses in the target's process; the cookie names the origin's wait */
    int64_t n;
    int32_t origin, op, basic, unused;
} far_hdr;

typedef struct far_wait {
    vmpi_xport_comp c;        /* for the atomic's completion */
    vmpi_vp *vp;
    unsigned left;            /* answers still to come */
    uint64_t old;
} far_wait;

static uint32_t id_acc, id_done;

static void on_acc(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    far_hdr h;
    memcpy(&h, msg, sizeof h);
    if (vmpi_xport_proc_of_pe(vmpi_loc_pe(h.origin)) == vmpi_xport_proc_of_pe(pe->id))
        vmpi_fatal("internal error: an accumulate of another process came from this process (rank %d)", h.origin);
    /* the data follows the 48-byte header: 8-byte aligned in the record, as the kernels load it */
    vmpi_rma_apply((vmpi_win_target *)(uintptr_t)h.t, (MPI_Op)h.op, h.basic, (char *)msg + sizeof h,
                   (void *)(uintptr_t)h.dst, NULL, (MPI_Count)h.n, false);
    int to = vmpi_loc_pe(h.origin);
    vmpi_xport_am_send(vmpi_xport_remote(to), to, id_done, sizeof h.cookie, vmpi_xport_pack_copy, &h.cookie);
}

static void on_done(vmpi_pe *pe, int src_pe, void *msg, size_t len)
{
    uint64_t cookie;
    memcpy(&cookie, msg, sizeof cookie);
    far_wait *w = (far_wait *)(uintptr_t)cookie;
    if (--w->left == 0)
        vmpi_vp_wake(w->vp);
}

void vmpi_rma_far_init(void)
{
    id_acc = vmpi_xport_am_register(on_acc);
    id_done = vmpi_xport_am_register(on_done);
}

void vmpi_rma_far_apply(int owner, vmpi_win_target *t, MPI_Op op, int basic, const void *in, void *dst, MPI_Count n)
{
    int pe = vmpi_loc_pe(owner);
    vmpi_xport *x = vmpi_xport_remote(pe);
    size_t es = (size_t)vmpi_dtype_builtin(basic)->extent;
    MPI_Count per = (MPI_Count)((vmpi_xport_am_max(x) / 4 - sizeof(far_hdr)) / es);
    far_wait w = {.vp = vmpi_vp_self(), .left = (unsigned)((n + per - 1) / per)};
    for (MPI_Count done = 0; done < n; done += per) {
        MPI_Count k = n - done < per ? n - done : per;
        far_hdr h = {(uint64_t)(uintptr_t)t, (uint64_t)(uintptr_t)((char *)dst + done * (MPI_Count)es),
                     (uint64_t)(uintptr_t)&w, k, vmpi_vp_self()->id, (int32_t)op, basic, 0};
        vmpi_xport_am_send_hdr(x, pe, id_acc, &h, sizeof h, (const char *)in + done * (MPI_Count)es, (size_t)k * es);
    }
    while (w.left)
        vmpi_vp_block("an accumulate in another process");
}

static void rmw_done(vmpi_xport_comp *c)
{
    far_wait *w = (far_wait *)c;
    w->left = 0;
    vmpi_vp_wake(w->vp);
}

uint64_t vmpi_rma_far_rmw(int owner, vmpi_xport_aop op, void *remote, int size, uint64_t operand)
{
    int pe = vmpi_loc_pe(owner);
    vmpi_xport *x = vmpi_xport_remote(pe);
    far_wait w = {.c = {rmw_done}, .vp = vmpi_vp_self(), .left = 1};
    x->ops->atomic(x, pe, op, (uint64_t)(uintptr_t)remote, size, operand, 0, &w.old, &w.c);
    while (w.left)
        vmpi_vp_block("a read-modify-write in another process");
    return w.old;
}
