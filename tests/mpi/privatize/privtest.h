/* SPDX-License-Identifier: BSD-3-Clause */
/* privtest.h: the driver the privatization tests share (unlike every other area, these programs are about
 * their globals, so they have many).  A program defines
 *
 *   void priv_announce(void)                       the destructor counts it expects (privcount.h)
 *   void priv_check_initial(int *errs)             every global still holds its initial value
 *   void priv_set(int v)                           writes v into every global
 *   void priv_check(const char *when, int own, int last, int *errs)
 *                                                  every per-rank global holds `own` (what this rank wrote),
 *                                                  every shared one `last` (what the last writer wrote)
 *   int priv_probe(int *per_rank)                  one global's value, and whether it is per rank here
 *   const void *priv_addr(void)                    the address of a global that is per rank here (or NULL)
 *
 * and its main returns priv_main(argc, argv).  Each of two phases: every rank, in turn, writes
 * PRIV_VAL(rank, phase); then the values are checked after the writes, after an Allreduce and a ring
 * exchange of the probe, after AMPI_Yield, and after two AMPI_Migrate (under Rotate with 2 PEs or more in the
 * rank's process, each moves every rank to another PE, which is checked too).  Destructors check their objects
 * themselves (priv_dtor_ran) and count their runs in the shared library privcount.
 *
 * Variants (tests/mpi/privatize/CMakeLists.txt): the default build privatizes everything (-privatize=auto)
 * and every global must be per rank.  MT_PRIVATIZE_TLS=1 (-privatize=tls): only thread_locals are per rank,
 * everything else is one copy for the process, constructed once.  MT_PRIVATIZE_NONE=1 (-privatize=none):
 * the checks of auto except where the globals live and where destructors run; with more than one rank the
 * ranks share their globals, so the values are wrong and the job must fail (exit 1): that is what shows the
 * checks see a missing privatization.  Ranks write in turn so that with shared globals no two ranks modify
 * a std::vector at once: the failure is a wrong value, deterministically, not a crash. */
#ifndef PRIVTEST_H
#define PRIVTEST_H

#include "lib/privcount.h"
#include "mtest.h"

#ifndef MT_PRIVATIZE_TLS
#define MT_PRIVATIZE_TLS 0
#endif
#ifndef MT_PRIVATIZE_NONE
#define MT_PRIVATIZE_NONE 0
#endif
/* what a non-thread_local global is expected to hold: per rank, except under tls */
#define PRIV_G(own, last) (MT_PRIVATIZE_TLS ? (last) : (own))

/* The value rank r writes in phase p. */
#define PRIV_VAL(r, p) (1000 * (p) + (r))

#ifdef __cplusplus
extern "C" {
#endif
void priv_announce(void);
void priv_check_initial(int *errs);
void priv_set(int v);
void priv_check(const char *when, int own, int last, int *errs);
int priv_probe(int *per_rank);
const void *priv_addr(void);
#ifdef __cplusplus
}
#endif

/* PRIV_CK(errs, when, what, expected, got): each evaluated once. */
#define PRIV_CK(errs, when, what, expected, got)                                                              \
    do {                                                                                                      \
        long long pc_e_ = (long long)(expected), pc_g_ = (long long)(got);                                    \
        if (pc_e_ != pc_g_)                                                                                   \
            MT_ERR(errs, "%s: %s: expected %lld, got %lld", (when), (what), pc_e_, pc_g_);                    \
    } while (0)

/* The world rank running the caller (its stack is in its slot), or -1 outside any rank (constructors and
 * destructors of the process, PE threads). */
static inline int priv_here(void)
{
    volatile int local = 0;
    return MPIX_Iso_rank((const void *)&local);
}

/* Called by the destructor of kind `kind` on the object at `obj` holding `v`.  `per_rank`: the object is
 * per rank in this variant (then it must be in a rank's slot, destroyed on that rank, and hold that rank's
 * value); otherwise it is the process's one copy (destroyed outside every rank, holding the last writer's
 * value, or its initial value `init` if no rank ever wrote it).  Under none, where the test is expected to
 * fail with more than one rank, only the count is kept.  A wrong object ends the process with status 1. */
static inline void priv_dtor_ran(int kind, const char *what, const void *obj, int v, int init, int per_rank)
{
    privcount_ran(kind);
    if (MT_PRIVATIZE_NONE)
        return;
    int here = priv_here(), slot = MPIX_Iso_rank(obj);
    if (per_rank) {
        if (here < 0 || slot != here || v % 1000 != here)
            privcount_die("destructor of %s ran on rank %d, for the object in rank %d's slot holding %d", what, here,
                          slot, v);
    } else {
        int last = privcount_nranks() - 1;
        if (here != -1 || slot != -1 || (v != init && v % 1000 != last))
            privcount_die("destructor of %s (the process's one copy) ran on rank %d, object in slot %d holding "
                          "%d (expected: outside every rank and slot, holding %d or last writer %d's value)",
                          what, here, slot, v, init, last);
    }
}

static inline int priv_pe(void)
{
    int *v, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_MY_WTH, &v, &flag);
    return flag ? *v : -1;
}

/* Every rank writes v, one after the other in rank order (a token passed down the ranks), once every rank
 * has done its checks of the previous values. */
static inline void priv_set_in_turn(int rank, int size, int v)
{
    int token = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0)
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    priv_set(v);
    if (rank + 1 < size)
        MPI_Send(&token, 1, MPI_INT, rank + 1, 77, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
}

static inline void priv_check_slot(const char *when, int rank, int *errs)
{
    const void *a = priv_addr();
    if (!MT_PRIVATIZE_NONE && a != NULL)
        PRIV_CK(*errs, when, "slot of a per-rank global", rank, MPIX_Iso_rank(a));
}

static inline int priv_main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *nw, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, AMPI_NUM_WTHS, &nw, &flag);
    const char *lb = getenv("VMPI_BALANCER");
    /* Rotate moves every rank whose process (the whole job in a one-process job) has 2 PEs or more */
    int rotate = flag && mt_proc_npes(*nw) > 1 && lb && !strcmp(lb, "Rotate");
    if (size != privcount_nranks())
        MT_ERR(errs, "VMPI_NRANKS is %d, the job has %d ranks", privcount_nranks(), size);
    priv_announce();

    priv_check_initial(&errs);
    priv_check_slot("at start", rank, &errs);
    for (int phase = 1; phase <= 2; phase++) {
        int own = PRIV_VAL(rank, phase), last = PRIV_VAL(size - 1, phase);
        priv_set_in_turn(rank, size, own);
        priv_check("after the writes", own, last, &errs);

        int per_rank = 0, mine = priv_probe(&per_rank), sum = 0, left = -1;
        int lr = (rank + size - 1) % size;
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 78, &left, 1, MPI_INT, lr, 78, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        PRIV_CK(errs, "Allreduce", "sum of the probes", per_rank ? 1000 * phase * size + size * (size - 1) / 2
                                                                 : size * last, sum);
        PRIV_CK(errs, "ring", "left neighbour's probe", per_rank ? PRIV_VAL(lr, phase) : last, left);
        priv_check("after Allreduce and a ring exchange", own, last, &errs);

        for (int i = 0; i < 3; i++)
            AMPI_Yield();
        priv_check("after AMPI_Yield", own, last, &errs);

        for (int m = 0; m < 2; m++) {
            int pe = priv_pe();
            mt_migrate();
            if (rotate && priv_pe() == pe)
                MT_ERR(errs, "phase %d: under Rotate, AMPI_Migrate left the rank on PE %d", phase, pe);
            priv_check(m ? "after a second AMPI_Migrate" : "after AMPI_Migrate", own, last, &errs);
        }
        priv_check_slot("after migrations", rank, &errs);
    }
    return mt_finish(errs);
}

#endif
