/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulates (dst += scale * src, atomic per element) and ARMCI_Rmw.  The update is the RMA layer's
 * MPI_SUM on the target (vmpi_rma_apply): a hardware fetch-add per element for int and long, the vectorized
 * kernel under the target's accumulate lock for floating point (a complex element's two parts under one hold).
 * Rmw uses the same instructions, so it is atomic with respect to integer accumulates on the same location. */
#include <string.h>
#include "armci/armci_impl.h"
#include "mpi/core/handle.h"
#include "mpi/rma/atomic.h"
#include "mpi/rma/far.h"
#include "msg/loc.h"

enum { CHUNK = 4096 }; /* scaled source bytes per pass, on the stack */

int armci_acc_elem(int op)
{
    switch (op) {
    case ARMCI_ACC_INT: return sizeof(int);
    case ARMCI_ACC_LNG: return sizeof(long);
    case ARMCI_ACC_FLT: return sizeof(float);
    case ARMCI_ACC_DBL: return sizeof(double);
    case ARMCI_ACC_CPL: return 2 * sizeof(float);
    case ARMCI_ACC_DCP: return 2 * sizeof(double);
    default: return 0;
    }
}

static MPI_Datatype basic_of(int op)
{
    switch (op) {
    case ARMCI_ACC_INT: return MPI_INT;
    case ARMCI_ACC_LNG: return MPI_LONG;
    case ARMCI_ACC_FLT: case ARMCI_ACC_CPL: return MPI_FLOAT;
    default: return MPI_DOUBLE;
    }
}

static bool scale_is_one(int op, const void *scale)
{
    switch (op) {
    case ARMCI_ACC_INT: return *(const int *)scale == 1;
    case ARMCI_ACC_LNG: return *(const long *)scale == 1;
    case ARMCI_ACC_FLT: return *(const float *)scale == 1;
    case ARMCI_ACC_DBL: return *(const double *)scale == 1;
    case ARMCI_ACC_CPL: return ((const float *)scale)[0] == 1 && ((const float *)scale)[1] == 0;
    default: return ((const double *)scale)[0] == 1 && ((const double *)scale)[1] == 0;
    }
}

/* out = scale * in for n elements of op's type (in may be misaligned; out is aligned); `one`: just the copy
 * (a complex scale (1, 0) would turn an infinite imaginary part into NaN). */
static void scale_into(int op, const void *scale, bool one, const char *in, void *out, size_t n)
{
    memcpy(out, in, n * (size_t)armci_acc_elem(op));
    if (one)
        return;
#define SCALE(T)                                                                                                \
    do {                                                                                                        \
        T s = *(const T *)scale, *o = out;                                                                      \
        for (size_t i = 0; i < n; i++)                                                                          \
            o[i] *= s;                                                                                          \
    } while (0)
#define CSCALE(T)                                                                                               \
    do {                                                                                                        \
        T sr = ((const T *)scale)[0], si = ((const T *)scale)[1], *o = out;                                     \
        for (size_t i = 0; i < n; i++) {                                                                        \
            T r = o[2 * i], im = o[2 * i + 1];                                                                  \
            o[2 * i] = sr * r - si * im;                                                                        \
            o[2 * i + 1] = sr * im + si * r;                                                                    \
        }                                                                                                       \
    } while (0)
    switch (op) {
    case ARMCI_ACC_INT: SCALE(int); break;
    case ARMCI_ACC_LNG: SCALE(long); break;
    case ARMCI_ACC_FLT: SCALE(float); break;
    case ARMCI_ACC_DBL: SCALE(double); break;
    case ARMCI_ACC_CPL: CSCALE(float); break;
    default: CSCALE(double); break;
    }
#undef SCALE
#undef CSCALE
}

void armci_acc_apply(int op, const void *scale, const char *src, char *dst, size_t bytes, vmpi_win_target *t,
                     int proc)
{
    int basic = VMPI_HANDLE_INDEX(basic_of(op));
    size_t es = (size_t)armci_acc_elem(op), cs = op == ARMCI_ACC_CPL || op == ARMCI_ACC_DCP ? 2 : 1;
    bool one = scale_is_one(op, scale);
    /* a target in another process: the scaled data goes to it (far.h), as a network would carry it */
    bool far = vmpi_loc_path(proc) == VMPI_PATH_REMOTE;
    if (one && !far && (uintptr_t)src % (es / cs) == 0) { /* the operation's kernels load the source as its type */
        vmpi_rma_apply(t, MPI_SUM, basic, src, dst, NULL, (MPI_Count)(bytes / es * cs), false);
        return;
    }
    _Alignas(16) char tmp[CHUNK];
    for (size_t done = 0; done < bytes;) {
        size_t n = (bytes - done < CHUNK ? bytes - done : CHUNK) / es;
        scale_into(op, scale, one, src + done, tmp, n);
        if (far)
            vmpi_rma_far_apply(proc, t, MPI_SUM, basic, tmp, dst + done, (MPI_Count)(n * cs));
        else
            vmpi_rma_apply(t, MPI_SUM, basic, tmp, dst + done, NULL, (MPI_Count)(n * cs), false);
        done += n * es;
    }
}

static int check_op(const char *fn, int op, const void *scale)
{
    if (armci_acc_elem(op) == 0)
        return armci_fail(fn, MPI_ERR_OP,
                          "%d is not an accumulate type (ARMCI_ACC_INT %d, _DBL %d, _FLT %d, _CPL %d, _DCP %d, _LNG %d)",
                          op, ARMCI_ACC_INT, ARMCI_ACC_DBL, ARMCI_ACC_FLT, ARMCI_ACC_CPL, ARMCI_ACC_DCP, ARMCI_ACC_LNG);
    if (scale == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "the scale factor is NULL");
    return MPI_SUCCESS;
}

int armci_acc_whole(const char *fn, int op, long bytes)
{
    int es = armci_acc_elem(op);
    if (bytes % es == 0)
        return MPI_SUCCESS;
    return armci_fail(fn, MPI_ERR_ARG, "%ld bytes is not a whole number of %d-byte elements of accumulate type %d",
                      bytes, es, op);
}

static int acc(const char *fn, int op, void *scale, void *src, void *dst, int bytes, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    int err;
    armci_seg seg;
    armci_poll(a);
    if ((err = check_op(fn, op, scale)) || (err = armci_check_proc(a, fn, proc)))
        return err;
    if (bytes < 0)
        return armci_fail(fn, MPI_ERR_ARG, "negative byte count %d", bytes);
    if ((err = armci_acc_whole(fn, op, bytes)))
        return err;
    if (bytes == 0)
        return 0;
    if (src == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "the source buffer is NULL");
    if ((err = armci_lookup(a, fn, proc, dst, bytes, &seg)))
        return err;
    armci_acc_apply(op, scale, src, dst, (size_t)bytes, seg.t, proc);
    return 0;
}

int ARMCI_Acc(int optype, void *scale, void *src, void *dst, int bytes, int proc)
{
    return acc("ARMCI_Acc", optype, scale, src, dst, bytes, proc);
}

int ARMCI_NbAcc(int optype, void *scale, void *src, void *dst, int bytes, int proc, armci_hdl_t *h)
{
    return acc("ARMCI_NbAcc", optype, scale, src, dst, bytes, proc);
}

typedef struct acc_ctx {
    int op;
    const void *scale;
    vmpi_win_target *t;
    int proc;
} acc_ctx;

static void acc_seg(char *src, char *dst, size_t bytes, void *arg)
{
    acc_ctx *c = arg;
    armci_acc_apply(c->op, c->scale, src, dst, bytes, c->t, c->proc);
}

static int accs(const char *fn, int op, void *scale, void *src, int *ss, void *dst, int *ds, int *count, int levels,
                int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_seg seg;
    armci_poll(a);
    int err;
    if ((err = check_op(fn, op, scale)) || (err = armci_strided_check(a, fn, proc, dst, ds, ss, count, levels, &seg)) ||
        (err = armci_acc_whole(fn, op, count[0])))
        return err;
    if (src == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "the source pointer is NULL");
    acc_ctx c = {op, scale, seg.t, proc};
    armci_strided_each(src, ss, dst, ds, count, levels, acc_seg, &c);
    return 0;
}

int ARMCI_AccS(int optype, void *scale, void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[],
               int count[], int stride_levels, int proc)
{
    return accs("ARMCI_AccS", optype, scale, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count, stride_levels,
                proc);
}

int ARMCI_NbAccS(int optype, void *scale, void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[],
                 int count[], int stride_levels, int proc, armci_hdl_t *h)
{
    return accs("ARMCI_NbAccS", optype, scale, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count,
                stride_levels, proc);
}

static void acc_iov_seg(char *src, char *dst, size_t bytes, vmpi_win_target *t, void *arg)
{
    const acc_ctx *c = arg;
    armci_acc_apply(c->op, c->scale, src, dst, bytes, t, c->proc);
}

static int accv(const char *fn, int op, void *scale, armci_giov_t *darr, int len, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_poll(a);
    int err = check_op(fn, op, scale);
    acc_ctx c = {op, scale, NULL, proc};
    return err ? err : armci_iov_each(a, fn, darr, len, proc, true, op, acc_iov_seg, &c);
}

int ARMCI_AccV(int op, void *scale, armci_giov_t darr[], int len, int proc)
{
    return accv("ARMCI_AccV", op, scale, darr, len, proc);
}

int ARMCI_NbAccV(int op, void *scale, armci_giov_t darr[], int len, int proc, armci_hdl_t *h)
{
    return accv("ARMCI_NbAccV", op, scale, darr, len, proc);
}

/* ---- read-modify-write ---- */

int ARMCI_Rmw(int op, void *ploc, void *prem, int extra, int proc)
{
    static const char fn[] = "ARMCI_Rmw";
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    int err;
    armci_seg seg;
    armci_poll(a);
    bool is_long = op == ARMCI_SWAP_LONG || op == ARMCI_FETCH_AND_ADD_LONG;
    size_t size = is_long ? sizeof(long) : sizeof(int);
    if (op != ARMCI_SWAP && op != ARMCI_SWAP_LONG && op != ARMCI_FETCH_AND_ADD && op != ARMCI_FETCH_AND_ADD_LONG)
        return armci_fail(fn, MPI_ERR_OP,
                          "%d is not an Rmw operation (ARMCI_SWAP %d, _SWAP_LONG %d, _FETCH_AND_ADD %d, "
                          "_FETCH_AND_ADD_LONG %d)",
                          op, ARMCI_SWAP, ARMCI_SWAP_LONG, ARMCI_FETCH_AND_ADD, ARMCI_FETCH_AND_ADD_LONG);
    if ((err = armci_check_proc(a, fn, proc)))
        return err;
    if (ploc == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "the local pointer is NULL");
    if ((err = armci_lookup(a, fn, proc, prem, (MPI_Aint)size, &seg)))
        return err;
    if ((uintptr_t)prem % size)
        return armci_fail(fn, MPI_ERR_ARG, "the remote %s at %p is not aligned", is_long ? "long" : "int", prem);
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE) { /* the transport's atomic: the same instruction there */
        bool add = op == ARMCI_FETCH_AND_ADD || op == ARMCI_FETCH_AND_ADD_LONG;
        uint64_t v = 0;
        if (add)
            v = is_long ? (uint64_t)(long)extra : (uint64_t)(uint32_t)extra;
        else if (is_long)
            memcpy(&v, ploc, sizeof(long));
        else {
            uint32_t i;
            memcpy(&i, ploc, sizeof i);
            v = i;
        }
        uint64_t old = vmpi_rma_far_rmw(proc, add ? VMPI_XPORT_FADD : VMPI_XPORT_SWAP, prem, (int)size, v);
        if (is_long)
            memcpy(ploc, &old, sizeof(long));
        else {
            uint32_t i = (uint32_t)old;
            memcpy(ploc, &i, sizeof i);
        }
        return 0;
    }
    switch (op) {
    case ARMCI_FETCH_AND_ADD: {
        int old = __atomic_fetch_add((int *)prem, extra, __ATOMIC_SEQ_CST);
        memcpy(ploc, &old, sizeof old);
        break;
    }
    case ARMCI_FETCH_AND_ADD_LONG: {
        long old = __atomic_fetch_add((long *)prem, (long)extra, __ATOMIC_SEQ_CST);
        memcpy(ploc, &old, sizeof old);
        break;
    }
    case ARMCI_SWAP: {
        int v;
        memcpy(&v, ploc, sizeof v);
        v = __atomic_exchange_n((int *)prem, v, __ATOMIC_SEQ_CST);
        memcpy(ploc, &v, sizeof v);
        break;
    }
    default: {
        long v;
        memcpy(&v, ploc, sizeof v);
        v = __atomic_exchange_n((long *)prem, v, __ATOMIC_SEQ_CST);
        memcpy(ploc, &v, sizeof v);
        break;
    }
    }
    return 0;
}
