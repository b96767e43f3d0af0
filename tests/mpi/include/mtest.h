/* SPDX-License-Identifier: BSD-3-Clause */
/* mtest.h: tiny helpers shared by the vmpi MPI tests (MPICH test-suite conventions).
 *
 * Every test counts its errors in a LOCAL variable (vmpi ranks are threads of one process, so a test must
 * never keep mutable state in globals or statics), reports each failure on stderr with its rank, and ends
 * with mt_finish(errs): the error counts are summed over MPI_COMM_WORLD, rank 0 prints " No Errors" (or
 * " Found N errors"), MPI_Finalize is called, and the value to return from main is 0 or 1.
 * Large buffers are always malloc'ed: a rank's stack may be small. */
#ifndef MTEST_H
#define MTEST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MT_MPICH_BUGS is 1 only when a test is built against MPICH (used to validate the tests themselves): it
 * relaxes the few checks where MPICH 4.0.x deviates from MPI-3.1 or from what vmpi guarantees (each use says
 * why).  vmpi always gets the full checks. */
#if defined(MPICH_VERSION) && !defined(VMPI)
#define MT_MPICH_BUGS 1
#else
#define MT_MPICH_BUGS 0
#endif
/* MT_OMPI_BUGS: the same for Open MPI 4.1 (the rma/ tests were validated against it too). */
#if defined(OPEN_MPI) && !defined(VMPI)
#define MT_OMPI_BUGS 1
#else
#define MT_OMPI_BUGS 0
#endif

/* MT_SANITIZE is 1 in vmpi's sanitizer builds (tests/CMakeLists.txt), where malloc is the sanitizer's, not
 * the isomalloc slots': MT_HEAP_SLOT(r) is the slot (MPIX_Iso_rank) of the blocks rank r allocates. */
#ifndef MT_SANITIZE
#define MT_SANITIZE 0
#endif
#define MT_HEAP_SLOT(r) (MT_SANITIZE ? -1 : (r))

/* GCC >= 11 warns (-Wstringop-overflow) when MPI_STATUSES_IGNORE, a small integer cast to a pointer, is
 * passed for an `MPI_Status statuses[]` parameter; the tests do that on purpose. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

#define MT_MAX_REPORT 10 /* per rank, per test: print at most this many failures */

static inline void mt_vreport(const char *file, int line, const char *fmt, va_list ap)
{
    int init = 0, fin = 0, rank = -1;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "[rank %d] %s:%d: %s\n", rank, file, line, msg);
    fflush(stderr);
}

static inline void mt_report(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mt_vreport(file, line, fmt, ap);
    va_end(ap);
}

/* MT_ERR(errs, fmt, ...): count one error and describe it (expected / got). */
#define MT_ERR(errs, ...)                                                                                     \
    do {                                                                                                      \
        if (++(errs) <= MT_MAX_REPORT)                                                                        \
            mt_report(__FILE__, __LINE__, __VA_ARGS__);                                                       \
    } while (0)

/* MT_CHECK(errs, cond, fmt, ...): count an error when cond is false. */
#define MT_CHECK(errs, cond, ...)                                                                             \
    do {                                                                                                      \
        if (!(cond))                                                                                          \
            MT_ERR(errs, __VA_ARGS__);                                                                        \
    } while (0)

/* MT_CHECK_INT(errs, what, expected, got) */
#define MT_CHECK_INT(errs, what, expected, got)                                                               \
    do {                                                                                                      \
        long long mt_e_ = (long long)(expected), mt_g_ = (long long)(got);                                    \
        if (mt_e_ != mt_g_)                                                                                   \
            MT_ERR(errs, "%s: expected %lld, got %lld", (what), mt_e_, mt_g_);                                \
    } while (0)

/* MT_CHECK_RC(errs, call): the MPI call must return MPI_SUCCESS. */
#define MT_CHECK_RC(errs, call)                                                                               \
    do {                                                                                                      \
        int mt_rc_ = (call);                                                                                  \
        if (mt_rc_ != MPI_SUCCESS)                                                                            \
            MT_ERR(errs, "%s returned %d, expected MPI_SUCCESS", #call, mt_rc_);                              \
    } while (0)

/* MT_CALL(call): the MPI call must return MPI_SUCCESS, else the job stops (MPI_Abort): for steps the rest
 * of a test depends on. */
#define MT_CALL(call)                                                                                         \
    do {                                                                                                      \
        if ((call) != MPI_SUCCESS) {                                                                          \
            fprintf(stderr, "%s failed\n", #call);                                                            \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                     \
        }                                                                                                     \
    } while (0)

/* MT_CHECK_CLASS(errs, rc, cls): rc must be an error code of class cls. */
#define MT_CHECK_CLASS(errs, rc, cls)                                                                         \
    do {                                                                                                      \
        int mt_rc_ = (rc), mt_cls_ = -1;                                                                      \
        if (mt_rc_ == MPI_SUCCESS)                                                                            \
            MT_ERR(errs, "expected error class %s (%d), got MPI_SUCCESS", #cls, (int)(cls));                  \
        else {                                                                                                \
            MPI_Error_class(mt_rc_, &mt_cls_);                                                                \
            if (mt_cls_ != (cls))                                                                             \
                MT_ERR(errs, "expected error class %s (%d), got code %d of class %d", #cls, (int)(cls),       \
                       mt_rc_, mt_cls_);                                                                      \
        }                                                                                                     \
    } while (0)

/* A migration point: AMPI_Migrate under vmpi (ranks may move to another PE, as --balancer decides; the
 * testlists run such tests with Rotate too, which moves every rank at every point), nothing elsewhere.
 * Collective over MPI_COMM_WORLD: every rank must call it at the same point. */
static inline void mt_migrate(void)
{
#ifdef AMPI
    AMPI_Migrate(MPI_INFO_NULL);
#endif
}

#ifdef AMPI
/* An int-valued predefined attribute of MPI_COMM_WORLD (AMPI_MY_WTH, AMPI_NUM_WTHS...), -1 without it. */
static inline int mt_world_attr(int key)
{
    int *v, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, key, &v, &flag);
    return flag ? *v : -1;
}
#endif

/* Placement in vmpi's emulated multi-process mode (vmpirun --emulate-procs K): the job's npes PEs form K
 * contiguous processes (process k holds PEs k*npes/K .. (k+1)*npes/K - 1) and ranks move only within their
 * process (balancing, AMPI_Migrate_to_pe, shrinking).  In a one-process job (and under other MPIs, which
 * have no VMPIX_Proc_of) the process is the whole job: mt_nprocs() is 1 and mt_proc_pes gives all PEs, so
 * a test's expectations are unchanged there.
 * mt_proc_of(r, &nprocs): the process hosting world rank r now (0 of 1 without the emulated mode). */
static inline int mt_proc_of(int world_rank, int *nprocs)
{
    int proc = 0, n = 1;
#ifdef VMPI
    if (VMPIX_Proc_of(world_rank, &proc, &n) != MPI_SUCCESS)
        proc = 0, n = 1;
#else
    (void)world_rank;
#endif
    if (nprocs)
        *nprocs = n;
    return proc;
}

/* The world ranks sharing world rank r's process, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups them:
 * their number, and the sum of their ranks in *sum (every rank in a one-process job). */
static inline int mt_proc_ranks(int r, int size, int *sum)
{
    int n = 0, s = 0, me = mt_proc_of(r, NULL);
    for (int q = 0; q < size; q++)
        if (mt_proc_of(q, NULL) == me)
            n++, s += q;
    if (sum)
        *sum = s;
    return n;
}

/* The number of processes of the job (1 unless emulated). */
static inline int mt_nprocs(void)
{
    int n = 1;
    mt_proc_of(0, &n);
    return n;
}

/* The PEs of process `proc` of nprocs, of a job of npes PEs: *first .. *first + *n - 1. */
static inline void mt_pes_of_proc(int proc, int nprocs, int npes, int *first, int *n)
{
    int f = (int)((long)proc * npes / nprocs), e = (int)((long)(proc + 1) * npes / nprocs);
    *first = f;
    *n = e - f;
}

/* The process (of nprocs) that holds PE pe of npes. */
static inline int mt_proc_of_pe(int pe, int nprocs, int npes)
{
    for (int k = 0; k < nprocs; k++)
        if (pe < (int)((long)(k + 1) * npes / nprocs))
            return k;
    return nprocs - 1;
}

/* Whether balancers place ranks over every PE of the job, moving them between processes: a job of several OS
 * processes (not the emulated mode, whose process groups keep their ranks), unless VMPI_LB_PROCS=0. */
static inline int mt_lb_across(void)
{
    const char *v = getenv("VMPI_LB_PROCS");
    return getenv("PMIX_NAMESPACE") != NULL && mt_nprocs() > 1 && !(v && !strcmp(v, "0"));
}

/* The PEs a balancer may move the calling rank to: those of its process (all npes PEs in a one-process job,
 * and when ranks move between processes). */
static inline void mt_proc_pes(int npes, int *first, int *n)
{
    if (mt_lb_across()) {
        *first = 0;
        *n = npes;
        return;
    }
    int rank = 0, nprocs = 1, proc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    proc = mt_proc_of(rank, &nprocs);
    mt_pes_of_proc(proc, nprocs, npes, first, n);
}

/* The nodes the job's processes are told they run on: tests/run-test.sh sets MT_NODES=M for the job only
 * when it starts it as processes with vmpirun --emulate-nodes M (blocks of processes on M nodes named
 * HOST-node0 ..); otherwise every process is on this one node.  mt_node_of(r): the node of world rank r. */
static inline int mt_nnodes(void)
{
    const char *m = getenv("MT_NODES");
    int n = m ? atoi(m) : 1, np = mt_nprocs();
    return n < 1 ? 1 : n > np ? np : n;
}

static inline int mt_node_of(int world_rank)
{
    int np = 1, p = mt_proc_of(world_rank, &np);
    return (int)((long)p * mt_nnodes() / np);
}

/* The number of PEs of the calling rank's process itself (npes in a one-process job): where balancers move a
 * rank that cannot leave its process (it has an MPI window, or uses ARMCI), and every rank of such a job. */
static inline int mt_proc_npes_own(int npes)
{
    int rank = 0, nprocs = 1, first, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int proc = mt_proc_of(rank, &nprocs);
    mt_pes_of_proc(proc, nprocs, npes, &first, &n);
    return n;
}

/* The number of PEs a balancer may move the calling rank to (npes in a one-process job): it can move only
 * when it is more than 1. */
static inline int mt_proc_npes(int npes)
{
    int first, n;
    mt_proc_pes(npes, &first, &n);
    return n;
}

/* Where the Rotate balancer sends a rank on PE pe: the next PE of its process, cyclically ((pe + 1) % npes in
 * a one-process job, and when ranks move between processes). */
static inline int mt_rotate_next(int pe, int npes)
{
    int first, n;
    mt_proc_pes(npes, &first, &n);
    return first + (pe - first + 1) % n;
}

/* Floating-point work of n steps (a dependent chain: not optimized away, about 1 ns a step). */
static inline double mt_spin(long n)
{
    volatile double x = 1;
    for (long i = 0; i < n; i++)
        x = x * 1.0000001 + 1e-9;
    return x;
}

/* Sum the error counts over `comm`, print the verdict on its rank 0; without MPI_Finalize (the Sessions
 * model: a program that never called MPI_Init, or that goes on after MPI_Finalize).  Returns the exit
 * status for main. */
static inline int mt_verdict(int errs, MPI_Comm comm)
{
    int total = 0, rank = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Allreduce(&errs, &total, 1, MPI_INT, MPI_SUM, comm);
    if (rank == 0) {
        if (total)
            printf(" Found %d errors\n", total);
        else
            printf(" No Errors\n");
        fflush(stdout);
    }
    return total ? 1 : 0;
}

/* mt_verdict over MPI_COMM_WORLD, then MPI_Finalize.  Returns the exit status for main. */
static inline int mt_finish(int errs)
{
    int status = mt_verdict(errs, MPI_COMM_WORLD);
    MPI_Finalize();
    return status;
}

static inline void *mt_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "mtest: out of memory (%zu bytes)\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* A byte pattern that identifies (source, tag/message id, position). */
static inline unsigned char mt_pat(int src, int id, size_t i)
{
    return (unsigned char)(src * 131u + id * 29u + i * 7u + (i >> 8) * 3u + 1u);
}

static inline void mt_fill(unsigned char *buf, size_t n, int src, int id)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = mt_pat(src, id, i);
}

/* Returns the index of the first differing byte, or -1. */
static inline long mt_verify(const unsigned char *buf, size_t n, int src, int id)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != mt_pat(src, id, i))
            return (long)i;
    return -1;
}

/* Check that a status is the "empty" status (MPI-3.1 3.7.3). */
#define MT_CHECK_EMPTY_STATUS(errs, st)                                                                       \
    do {                                                                                                      \
        int mt_cnt_ = -1;                                                                                     \
        MPI_Get_count(&(st), MPI_BYTE, &mt_cnt_);                                                             \
        MT_CHECK(errs, (st).MPI_SOURCE == MPI_ANY_SOURCE && (st).MPI_TAG == MPI_ANY_TAG && mt_cnt_ == 0,      \
                 "expected empty status (source %d tag %d count 0), got source %d tag %d count %d",           \
                 MPI_ANY_SOURCE, MPI_ANY_TAG, (st).MPI_SOURCE, (st).MPI_TAG, mt_cnt_);                        \
    } while (0)

#endif /* MTEST_H */
