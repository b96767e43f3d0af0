/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI's strided descriptors: count[0] bytes per contiguous segment, count[l] segments at level l
 * (1 <= l <= levels), stride[l-1] bytes between consecutive level-l elements, separately for each side.
 * Checked once per call, then walked by an odometer; the innermost level is a loop of copies of one size. */
#include <string.h>
#include "armci/armci_impl.h"

/* The extent of the section on one side, or -1 (after reporting) when its strides overlap. */
static long side_extent(const char *fn, const char *side, const int *stride, const int *count, int levels)
{
    long ext = count[0];
    for (int l = 1; l <= levels; l++) {
        if (count[l] > 1 && stride[l - 1] < ext) {
            armci_fail(fn, MPI_ERR_ARG,
                       "%s stride of level %d is %d bytes, less than the %ld bytes of one element of that level "
                       "(count[0..%d] and the lower strides): elements would overlap",
                       side, l, stride[l - 1], ext, l - 1);
            return -1;
        }
        ext += (long)(count[l] - 1) * stride[l - 1];
    }
    return ext;
}

int armci_strided_check(vmpi_armci *a, const char *fn, int proc, const void *remote, const int *rstride,
                        const int *lstride, const int *count, int levels, armci_seg *seg)
{
    int err;
    if ((err = armci_check_proc(a, fn, proc)))
        return err;
    if (levels < 0 || levels > ARMCI_MAX_STRIDE_LEVEL)
        return armci_fail(fn, MPI_ERR_ARG, "stride_levels is %d: it must be in 0..%d", levels, ARMCI_MAX_STRIDE_LEVEL);
    if (count == NULL || (levels > 0 && (rstride == NULL || lstride == NULL)))
        return armci_fail(fn, MPI_ERR_ARG, "a count or stride array is NULL");
    for (int l = 0; l <= levels; l++)
        if (count[l] < 1 && !(levels == 0 && count[0] == 0)) /* 0 bytes without levels: a contiguous nothing */
            return armci_fail(fn, MPI_ERR_ARG, "count[%d] is %d: counts must be at least 1", l, count[l]);
    long rext = side_extent(fn, "the remote", rstride, count, levels);
    if (rext < 0 || side_extent(fn, "the local", lstride, count, levels) < 0)
        return MPI_ERR_ARG;
    return armci_lookup(a, fn, proc, remote, rext, seg);
}

/* The innermost level, n segments of `bytes`, specialized for the sizes a compiler copies in registers.
 * memmove, as for contiguous transfers: a process may copy within its own block, source and segment overlapping. */
#define INNER(B)                                                                                                \
    for (int i = 0; i < n; i++, src += ss, dst += ds)                                                           \
        memmove(dst, src, B)

static void copy_inner(char *src, long ss, char *dst, long ds, size_t bytes, int n)
{
    switch (bytes) {
    case 4: INNER(4); break;
    case 8: INNER(8); break;
    case 16: INNER(16); break;
    default: INNER(bytes); break;
    }
}

/* An odometer over levels 2..L around the innermost loop of level 1. */
static void walk(char *src, const int *ss, char *dst, const int *ds, const int *count, int levels, armci_seg_fn fn,
                 void *arg)
{
    if (levels == 0) {
        if (fn)
            fn(src, dst, (size_t)count[0], arg);
        else
            memmove(dst, src, (size_t)count[0]);
        return;
    }
    int idx[ARMCI_MAX_STRIDE_LEVEL + 1] = {0};
    for (;;) {
        if (fn) {
            char *s = src, *d = dst;
            for (int i = 0; i < count[1]; i++, s += ss[0], d += ds[0])
                fn(s, d, (size_t)count[0], arg);
        } else
            copy_inner(src, ss[0], dst, ds[0], (size_t)count[0], count[1]);
        int l = 2;
        for (; l <= levels; l++) {
            if (++idx[l] < count[l]) {
                src += ss[l - 1];
                dst += ds[l - 1];
                break;
            }
            src -= (long)(count[l] - 1) * ss[l - 1];
            dst -= (long)(count[l] - 1) * ds[l - 1];
            idx[l] = 0;
        }
        if (l > levels)
            return;
    }
}

void armci_strided_each(char *src, const int *sstride, char *dst, const int *dstride, const int *count, int levels,
                        armci_seg_fn fn, void *arg)
{
    walk(src, sstride, dst, dstride, count, levels, fn, arg);
}
