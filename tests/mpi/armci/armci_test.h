/* SPDX-License-Identifier: BSD-3-Clause */
/* What the armci/ tests share: start and end (MPI_Init then ARMCI_Init, as every ARMCI requires; ARMCI_Finalize,
 * then mt_finish's verdict), the migration point (ARMCI_Migrate under vmpi, nothing on another ARMCI), the PE a
 * rank runs on, the ARMCI strided layout (byte offset of segment k, extent) that the reference copies follow,
 * and a byte-by-byte comparison that reports the first differences.
 *
 * The tests also validate against armci-mpi on Open MPI (`mpicc.openmpi -I tests/mpi/include t.c
 * -larmci-openmpi`, 2 or more processes): ARMCI_VMPI (vmpi's armci.h) guards what only vmpi promises. */
#ifndef ARMCI_TEST_H
#define ARMCI_TEST_H

#include "mtest.h"
#include <armci.h>
#include <message.h>

/* 1 when built against armci-mpi (to validate the tests): relaxes the few checks where it differs from what
 * GA's ARMCI and vmpi do (each use says why). */
#if defined(ARMCI_MPI) && !defined(ARMCI_VMPI)
#define MT_ARMCI_MPI 1
#else
#define MT_ARMCI_MPI 0
#endif
#ifndef ARMCI_MAX_STRIDE_LEVEL
#define ARMCI_MAX_STRIDE_LEVEL 8 /* GA's value; armci-mpi's header lacks it */
#endif

/* MPI_Init, then ARMCI_Init (a failure ends the job: nothing else could be checked). */
static inline void at_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    int rc = ARMCI_Init();
    if (rc != 0) {
        fprintf(stderr, "ARMCI_Init returned %d\n", rc);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
}

/* ARMCI_Finalize, then the verdict over MPI_COMM_WORLD and MPI_Finalize; returns main's status. */
static inline int at_finish(int errs)
{
    ARMCI_Finalize();
    return mt_finish(errs);
}

/* A load-balancing point (collective): under vmpi with VMPI_BALANCER=Rotate every rank moves to another PE. */
static inline void at_migrate(void)
{
#ifdef ARMCI_VMPI
    ARMCI_Migrate();
#endif
}

/* The PE the rank runs on under vmpi, -1 elsewhere. */
static inline int at_pe(void)
{
#ifdef AMPI
    return mt_world_attr(AMPI_MY_WTH);
#else
    return -1;
#endif
}

/* Whether this run moves every rank at every migration point (VMPI_BALANCER=Rotate with more than one PE in
 * the rank's process: all the job's PEs in a one-process job; ranks move only within their process). */
static inline int at_rotating(void)
{
#ifdef AMPI
    const char *lb = getenv("VMPI_BALANCER");
    /* (ARMCI keeps a rank in its process: its own process's PEs) */
    return lb && !strcmp(lb, "Rotate") && mt_proc_npes_own(mt_world_attr(AMPI_NUM_WTHS)) > 1;
#else
    return 0;
#endif
}

/* ARMCI's strided layout: count[0] bytes per segment, count[1..levels] segments per level, stride[l-1] the
 * byte distance between consecutive indices of level l; segment k (0 <= k < at_nseg) has indices
 * I1 = k mod count[1] (fastest), I2 = (k / count[1]) mod count[2], ... and starts at sum I_l * stride[l-1]. */
static inline long at_nseg(int levels, const int *count)
{
    long n = 1;
    for (int l = 1; l <= levels; l++)
        n *= count[l];
    return n;
}

static inline long at_seg_off(int levels, const int *count, const int *stride, long k)
{
    long off = 0;
    for (int l = 1; l <= levels; l++) {
        off += (k % count[l]) * (long)stride[l - 1];
        k /= count[l];
    }
    return off;
}

/* Bytes from the first to one past the last byte a section touches. */
static inline long at_extent(int levels, const int *count, const int *stride)
{
    long e = count[0];
    for (int l = 1; l <= levels; l++)
        e += (long)(count[l] - 1) * stride[l - 1];
    return e;
}

/* Reference copy of a section with plain loops: segment by segment from src (src_stride) to dst (dst_stride). */
static inline void at_ref_copy(unsigned char *dst, const int *dst_stride, const unsigned char *src,
                               const int *src_stride, const int *count, int levels)
{
    long n = at_nseg(levels, count);
    for (long k = 0; k < n; k++)
        memcpy(dst + at_seg_off(levels, count, dst_stride, k), src + at_seg_off(levels, count, src_stride, k),
               (size_t)count[0]);
}

/* Compares n bytes with the expected ones; reports the first few differences (with `what` and the offset),
 * counts one error for the buffer.  Returns 1 when equal. */
#define AT_CMP(errs, what, expected, got, n) at_cmp(&(errs), __FILE__, __LINE__, (what), (expected), (got), (n))
static inline int at_cmp(int *errs, const char *file, int line, const char *what, const void *expected,
                         const void *got, size_t n)
{
    const unsigned char *e = expected, *g = got;
    int shown = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (e[i] != g[i]) {
            if (shown < 3 && *errs + shown < MT_MAX_REPORT) {
                mt_report(file, line, "%s: byte %zu of %zu: expected %u, got %u", what, i, n, e[i], g[i]);
                shown++;
            }
            bad++;
        }
    if (bad) {
        if (*errs < MT_MAX_REPORT && bad > (size_t)shown)
            mt_report(file, line, "%s: %zu of %zu bytes differ", what, bad, n);
        ++*errs;
    }
    return bad == 0;
}

#endif
