/* SPDX-License-Identifier: BSD-3-Clause */
/* Put and get: contiguous, strided, vector, single values, and put with a flag.  The origin copies between its
 * buffer and the target's segment directly (one address space), after checking that every remote byte is in
 * one ARMCI allocation of the target; so every transfer is complete, at both ends, when its call returns.
 * A target of another process is reached through the transport's put and get instead (remote.h), each run
 * waited for. */
#include <string.h>
#include "armci/armci_impl.h"
#include "mpi/rma/far.h"
#include "mpi/rma/remote.h"

/* A copy of one run, `remote` the proc's side: through the transport when it lives in another process. */
static void copy_run(bool put, char *src, char *dst, size_t bytes, int proc)
{
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE)
        vmpi_rma_far_copy(put, put ? src : dst, put ? dst : src, bytes, proc);
    else
        memmove(dst, src, bytes); /* a process may copy within its own memory */
}

typedef struct run_to {
    bool put;
    int proc;
} run_to;

static void copy_each(char *src, char *dst, size_t bytes, void *arg)
{
    const run_to *r = arg;
    copy_run(r->put, src, dst, bytes, r->proc);
}

static int contig(const char *fn, bool put, void *src, void *dst, int bytes, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    int err;
    armci_seg seg;
    armci_poll(a);
    if ((err = armci_check_proc(a, fn, proc)))
        return err;
    if (bytes < 0)
        return armci_fail(fn, MPI_ERR_ARG, "negative byte count %d", bytes);
    if (bytes == 0)
        return 0;
    if ((put ? src : dst) == NULL) /* the remote one: the lookup reports it (MPI_ERR_RMA_RANGE) */
        return armci_fail(fn, MPI_ERR_ARG, "the local buffer is NULL");
    if ((err = armci_lookup(a, fn, proc, put ? dst : src, bytes, &seg)))
        return err;
    copy_run(put, src, dst, (size_t)bytes, proc);
    return 0;
}

int ARMCI_Put(void *src, void *dst, int bytes, int proc) { return contig("ARMCI_Put", true, src, dst, bytes, proc); }
int ARMCI_Get(void *src, void *dst, int bytes, int proc) { return contig("ARMCI_Get", false, src, dst, bytes, proc); }

int ARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *h)
{
    return contig("ARMCI_NbPut", true, src, dst, bytes, proc);
}

int ARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *h)
{
    return contig("ARMCI_NbGet", false, src, dst, bytes, proc);
}

void ARMCI_Copy(void *src, void *dst, int n) { memmove(dst, src, (size_t)(n > 0 ? n : 0)); }

static int strided(const char *fn, bool put, void *src, int *ss, void *dst, int *ds, int *count, int levels, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_seg seg;
    armci_poll(a);
    int err = put ? armci_strided_check(a, fn, proc, dst, ds, ss, count, levels, &seg)
                  : armci_strided_check(a, fn, proc, src, ss, ds, count, levels, &seg);
    if (err)
        return err;
    if (src == NULL || dst == NULL)
        return armci_fail(fn, MPI_ERR_ARG, "the %s pointer is NULL", src == NULL ? "source" : "destination");
    run_to r = {put, proc};
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE)
        armci_strided_each(src, ss, dst, ds, count, levels, copy_each, &r);
    else
        armci_strided_each(src, ss, dst, ds, count, levels, NULL, NULL);
    return 0;
}

int ARMCI_PutS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
               int stride_levels, int proc)
{
    return strided("ARMCI_PutS", true, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count, stride_levels, proc);
}

int ARMCI_GetS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
               int stride_levels, int proc)
{
    return strided("ARMCI_GetS", false, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count, stride_levels, proc);
}

int ARMCI_NbPutS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                 int stride_levels, int proc, armci_hdl_t *h)
{
    return strided("ARMCI_NbPutS", true, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count, stride_levels,
                   proc);
}

int ARMCI_NbGetS(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                 int stride_levels, int proc, armci_hdl_t *h)
{
    return strided("ARMCI_NbGetS", false, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count, stride_levels,
                   proc);
}

/* ---- vector transfers: every remote pointer is looked up (segments may be in different allocations) ---- */

int armci_iov_each(vmpi_armci *a, const char *fn, armci_giov_t *darr, int len, int proc, bool remote_dst, int acc_op,
                   armci_iov_fn each, void *arg)
{
    int err;
    if ((err = armci_check_proc(a, fn, proc)))
        return err;
    if (len < 0 || (len > 0 && darr == NULL))
        return armci_fail(fn, MPI_ERR_ARG, "%d descriptors at %p", len, (void *)darr);
    for (int d = 0; d < len; d++) {
        const armci_giov_t *v = &darr[d];
        if (v->bytes < 0 || v->ptr_array_len < 0)
            return armci_fail(fn, MPI_ERR_ARG, "descriptor %d: %d segments of %d bytes", d, v->ptr_array_len,
                              v->bytes);
        if (acc_op && (err = armci_acc_whole(fn, acc_op, v->bytes)))
            return err;
        if (v->bytes == 0 || v->ptr_array_len == 0)
            continue;
        if (v->src_ptr_array == NULL || v->dst_ptr_array == NULL)
            return armci_fail(fn, MPI_ERR_ARG, "descriptor %d: a pointer array is NULL", d);
        for (int i = 0; i < v->ptr_array_len; i++) {
            armci_seg seg;
            if ((err = armci_lookup(a, fn, proc, remote_dst ? v->dst_ptr_array[i] : v->src_ptr_array[i], v->bytes,
                                    &seg)))
                return err;
            each(v->src_ptr_array[i], v->dst_ptr_array[i], (size_t)v->bytes, seg.t, arg);
        }
    }
    return 0;
}

static void copy_seg(char *src, char *dst, size_t bytes, vmpi_win_target *t, void *arg) { copy_each(src, dst, bytes, arg); }

static int vector(const char *fn, bool put, armci_giov_t *darr, int len, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    armci_poll(a);
    run_to r = {put, proc};
    return armci_iov_each(a, fn, darr, len, proc, put, 0, copy_seg, &r);
}

int ARMCI_PutV(armci_giov_t darr[], int len, int proc) { return vector("ARMCI_PutV", true, darr, len, proc); }
int ARMCI_GetV(armci_giov_t darr[], int len, int proc) { return vector("ARMCI_GetV", false, darr, len, proc); }

int ARMCI_NbPutV(armci_giov_t darr[], int len, int proc, armci_hdl_t *h)
{
    return vector("ARMCI_NbPutV", true, darr, len, proc);
}

int ARMCI_NbGetV(armci_giov_t darr[], int len, int proc, armci_hdl_t *h)
{
    return vector("ARMCI_NbGetV", false, darr, len, proc);
}

/* ---- single values: one store or load, atomic when the address is aligned for the type ---- */

static int put_value(const char *fn, const void *v, size_t size, void *dst, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    int err;
    armci_seg seg;
    armci_poll(a);
    if ((err = armci_check_proc(a, fn, proc)) || (err = armci_lookup(a, fn, proc, dst, (MPI_Aint)size, &seg)))
        return err;
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE)
        vmpi_rma_far_copy(true, (void *)v, dst, size, proc);
    else if ((uintptr_t)dst % size == 0 && size == 4)
        __atomic_store((uint32_t *)dst, (const uint32_t *)v, __ATOMIC_RELAXED);
    else if ((uintptr_t)dst % size == 0 && size == 8)
        __atomic_store((uint64_t *)dst, (const uint64_t *)v, __ATOMIC_RELAXED);
    else
        memcpy(dst, v, size);
    return 0;
}

static int get_value(const char *fn, void *v, size_t size, const void *src, int proc)
{
    ARMCI_CHECK_INIT(a, fn, MPI_ERR_OTHER);
    int err;
    armci_seg seg;
    armci_poll(a);
    if ((err = armci_check_proc(a, fn, proc)) || (err = armci_lookup(a, fn, proc, src, (MPI_Aint)size, &seg)))
        return err;
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE)
        vmpi_rma_far_copy(false, v, (void *)src, size, proc);
    else if ((uintptr_t)src % size == 0 && size == 4)
        __atomic_load((const uint32_t *)src, (uint32_t *)v, __ATOMIC_ACQUIRE);
    else if ((uintptr_t)src % size == 0 && size == 8)
        __atomic_load((const uint64_t *)src, (uint64_t *)v, __ATOMIC_ACQUIRE);
    else
        memcpy(v, src, size);
    return 0;
}

int ARMCI_PutValueInt(int src, void *dst, int proc) { return put_value("ARMCI_PutValueInt", &src, sizeof src, dst, proc); }
int ARMCI_PutValueLong(long src, void *dst, int proc)
{
    return put_value("ARMCI_PutValueLong", &src, sizeof src, dst, proc);
}
int ARMCI_PutValueFloat(float src, void *dst, int proc)
{
    return put_value("ARMCI_PutValueFloat", &src, sizeof src, dst, proc);
}
int ARMCI_PutValueDouble(double src, void *dst, int proc)
{
    return put_value("ARMCI_PutValueDouble", &src, sizeof src, dst, proc);
}
int ARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *h)
{
    return put_value("ARMCI_NbPutValueInt", &src, sizeof src, dst, proc);
}
int ARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *h)
{
    return put_value("ARMCI_NbPutValueLong", &src, sizeof src, dst, proc);
}
int ARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *h)
{
    return put_value("ARMCI_NbPutValueFloat", &src, sizeof src, dst, proc);
}
int ARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *h)
{
    return put_value("ARMCI_NbPutValueDouble", &src, sizeof src, dst, proc);
}

/* The get forms have no error return: a failure (with VMPI_ARMCI_ERRORS=return) reads as 0. */
int ARMCI_GetValueInt(void *src, int proc)
{
    int v = 0;
    get_value("ARMCI_GetValueInt", &v, sizeof v, src, proc);
    return v;
}

long ARMCI_GetValueLong(void *src, int proc)
{
    long v = 0;
    get_value("ARMCI_GetValueLong", &v, sizeof v, src, proc);
    return v;
}

float ARMCI_GetValueFloat(void *src, int proc)
{
    float v = 0;
    get_value("ARMCI_GetValueFloat", &v, sizeof v, src, proc);
    return v;
}

double ARMCI_GetValueDouble(void *src, int proc)
{
    double v = 0;
    get_value("ARMCI_GetValueDouble", &v, sizeof v, src, proc);
    return v;
}

/* ---- put with flag: the data, then (release) the flag, so a process that sees the flag sees the data ---- */

static int set_flag(const char *fn, int *flag, int val, int proc)
{
    vmpi_armci *a = armci_self(fn);
    armci_seg seg;
    int err = armci_lookup(a, fn, proc, flag, sizeof *flag, &seg);
    if (err)
        return err;
    if ((uintptr_t)flag % sizeof *flag)
        return armci_fail(fn, MPI_ERR_ARG, "the flag %p is not aligned for an int", (void *)flag);
    if (vmpi_loc_path(proc) == VMPI_PATH_REMOTE) /* after the data (complete): one atomic swap at the target */
        (void)vmpi_rma_far_rmw(proc, VMPI_XPORT_SWAP, flag, (int)sizeof *flag, (uint64_t)(unsigned)val);
    else
        __atomic_store_n(flag, val, __ATOMIC_RELEASE);
    return 0;
}

int ARMCI_Put_flag(void *src, void *dst, int bytes, int *f, int v, int proc)
{
    int err = contig("ARMCI_Put_flag", true, src, dst, bytes, proc);
    return err ? err : set_flag("ARMCI_Put_flag", f, v, proc);
}

int ARMCI_PutS_flag(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                    int stride_levels, int *flag, int val, int proc)
{
    int err = strided("ARMCI_PutS_flag", true, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count,
                      stride_levels, proc);
    return err ? err : set_flag("ARMCI_PutS_flag", flag, val, proc);
}

int ARMCI_PutS_flag_dir(void *src_ptr, int src_stride_arr[], void *dst_ptr, int dst_stride_arr[], int count[],
                        int stride_levels, int *flag, int val, int proc)
{
    int err = strided("ARMCI_PutS_flag_dir", true, src_ptr, src_stride_arr, dst_ptr, dst_stride_arr, count,
                      stride_levels, proc);
    return err ? err : set_flag("ARMCI_PutS_flag_dir", flag, val, proc);
}
