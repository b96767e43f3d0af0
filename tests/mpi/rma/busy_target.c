/* SPDX-License-Identifier: BSD-3-Clause */
/* Passive target while the target's PE does nothing but compute: rank 0 spins on its own window memory
 * without any call into the runtime (not even AMPI_Yield: its PE runs nothing else, polls nothing) until
 * every other rank has put its mark there.  The others, in a lock_all epoch with MPI_MODE_NOCHECK (no lock
 * message), get a word of rank 0's window, put their mark into their slot of it and flush.  A get or put
 * that needs rank 0's PE to serve it (a message, or UCX's software RMA, which its worker's progress serves)
 * never completes: the job hangs (the test's timeout).  It completes when the operation is one-sided: in
 * one process (a copy by the origin), and between processes of one node by the kernel's copy.  UCX's RMA
 * with remote keys is one-sided only on transports that offer it on registered memory (RDMA devices; UCX
 * 1.13's shared-memory and TCP transports do not: it emulates get and put with active messages), so with
 * the kernel copy off (VMPI_NET_CMA=0, or processes said to be on several nodes) the busy part runs only
 * with MT_RMA_OFFLOAD=1 (a machine with such a device); it is skipped too when rank 0 shares its PE with
 * another rank, which its spinning would starve. */
#include <string.h>
#include "mtest.h"

enum { FLAG_WORD = 0, SLOTS = 1 };

static int env_off(const char *name)
{
    const char *v = getenv(name);
    return v && (!strcmp(v, "0") || !strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false"));
}

/* Whether a get or put from another process reaches rank 0 without rank 0's PE. */
static int one_sided_expected(void)
{
    if (getenv("PMIX_NAMESPACE") == NULL || mt_nprocs() < 2)
        return 1; /* one process (or the emulated mode): the origin copies */
    if (!env_off("VMPI_NET_CMA") && mt_nnodes() == 1)
        return 1; /* the kernel's copy */
    return !env_off("VMPI_NET_RMA") && getenv("MT_RMA_OFFLOAD") && !strcmp(getenv("MT_RMA_OFFLOAD"), "1");
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long *base;
    MPI_Win win;
    MT_CALL(MPI_Win_allocate(sizeof(long) * (SLOTS + size), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                             &win));
    base[FLAG_WORD] = 4242 + rank;
    for (int r = 0; r < size; r++)
        base[SLOTS + r] = 0;
    /* rank 0 must be alone on its PE */
#ifdef AMPI
    int pe = mt_world_attr(AMPI_MY_WTH);
#else
    int pe = rank; /* (every rank is a process) */
#endif
    int *pes = mt_malloc(sizeof(int) * (size_t)size), alone = 1;
    MPI_Allgather(&pe, 1, MPI_INT, pes, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 1; r < size; r++)
        if (mt_proc_of(r, NULL) == mt_proc_of(0, NULL) && pes[r] == pes[0])
            alone = 0;
    int run = size > 1 && alone && one_sided_expected();
    MPI_Barrier(MPI_COMM_WORLD);
    if (run && rank == 0) {
        /* no call into the runtime from here until every mark is in */
        for (;;) {
            int in = 0;
            for (int r = 1; r < size; r++)
                in += __atomic_load_n(&base[SLOTS + r], __ATOMIC_ACQUIRE) == 1000 + r;
            if (in == size - 1)
                break;
            __builtin_ia32_pause();
        }
    } else if (run) {
        long word = -1, mark = 1000 + rank;
        MT_CALL(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
        MT_CALL(MPI_Get(&word, 1, MPI_LONG, 0, FLAG_WORD, 1, MPI_LONG, win));
        MT_CALL(MPI_Win_flush(0, win));
        MT_CHECK_INT(errs, "rank 0's word, read while it computes", 4242L, word);
        MT_CALL(MPI_Put(&mark, 1, MPI_LONG, 0, SLOTS + rank, 1, MPI_LONG, win));
        MT_CALL(MPI_Win_flush(0, win));
        MT_CALL(MPI_Win_unlock_all(win));
    } else if (rank == 0) {
        printf("busy_target: skipped (%s)\n", size < 2 ? "one rank" : !alone ? "rank 0 shares its PE" :
               "no one-sided path to rank 0 here");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(pes);
    MT_CALL(MPI_Win_free(&win));
    return mt_finish(errs);
}
