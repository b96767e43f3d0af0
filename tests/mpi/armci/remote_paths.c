/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI between processes (the emulated multi-process mode, vmpirun --emulate-procs K): accumulates and
 * read-modify-writes to rank 0's memory from every rank, rank 0's own process's ranks by the in-process way and
 * the others' through the transport (active messages applied by rank 0's process, atomics), mixed in one
 * epoch: every update lands exactly once, and the transport counted active messages and atomics exactly when
 * there are several processes. */
#include <armci.h>
#include "mtest.h"

enum { N = 600, ROUNDS = 20 }; /* 4800 bytes of doubles: more than one active message's worth per call */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int rank, size, errs = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    void **ptrs = malloc(sizeof(void *) * (size_t)size);
    ARMCI_Malloc(ptrs, N * sizeof(double) + 2 * sizeof(long));
    double *mine = ptrs[rank];
    long *cnt = (long *)(mine + N);
    for (int i = 0; i < N; i++)
        mine[i] = 0;
    cnt[0] = cnt[1] = 0;
    ARMCI_Barrier();
    VMPIX_Transport_counts c0, c1;
    VMPIX_Transport_counts_get(&c0);
    double *src = malloc(sizeof(double) * N), scale = 2.0;
    for (int i = 0; i < N; i++)
        src[i] = i + 1;
    long *rcnt = (long *)((double *)ptrs[0] + N);
    for (int k = 0; k < ROUNDS; k++) {
        ARMCI_Acc(ARMCI_ACC_DBL, &scale, src, ptrs[0], N * sizeof(double), 0);
        long old;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, rcnt, 1, 0);
        long mine_v = rank + 1;
        ARMCI_Rmw(ARMCI_SWAP_LONG, &mine_v, rcnt + 1, 0, 0);
        if (mine_v < 0 || mine_v > size)
            MT_ERR(errs, "swap returned %ld, not a rank's value", mine_v);
    }
    VMPIX_Transport_counts_get(&c1); /* this rank's own traffic is in by now (every call blocks) */
    ARMCI_Barrier();
    if (rank == 0) {
        for (int i = 0; i < N; i++)
            if (mine[i] != 2.0 * ROUNDS * size * (i + 1)) {
                MT_ERR(errs, "element %d is %g, expected %g", i, mine[i], 2.0 * ROUNDS * size * (i + 1));
                break;
            }
        if (cnt[0] != (long)ROUNDS * size)
            MT_ERR(errs, "the counter is %ld, expected %ld", cnt[0], (long)ROUNDS * size);
    }
    int proc, nprocs;
    VMPIX_Proc_of(0, &proc, &nprocs);
    int myproc;
    VMPIX_Proc_of(rank, &myproc, &nprocs);
    long long am = c1.am - c0.am, at = c1.atomic - c0.atomic;
    if (nprocs == 1 && (am || at))
        MT_ERR(errs, "one process, yet the transport counted %lld active messages and %lld atomics", am, at);
    if (myproc != proc && (am < 2 * ROUNDS || at < 2 * ROUNDS))
        MT_ERR(errs, "rank 0 is in another process, yet %lld active messages and %lld atomics were counted", am, at);
    free(src);
    ARMCI_Free(ptrs[rank]);
    free(ptrs);
    ARMCI_Finalize();
    return mt_finish(errs);
}
