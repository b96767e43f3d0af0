/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 8 research: the measurement of ARMCI's perf.c (GlobalArrays/ga armci/testing/perf.c), written anew:
 * process 0 times blocking contiguous and strided put/get/acc to every other process.  Contiguous: chunk^2
 * doubles in one piece; strided: a chunk x chunk section of a 550 x 550 array of doubles (count[0] = 8 chunk
 * bytes, stride 4400 bytes, one stride level).  Source and target move by +-128 doubles between iterations
 * (as perf.c does, against cache reuse).  Unlike perf.c the iteration count is chosen for a steady time
 * (about 64 MiB or 20,000 calls per size) and the best of 3 runs is printed; ARMCI_PERF_FENCE=1 adds an
 * ARMCI_Fence after every put/acc (perf.c times blocking put/acc, which ARMCI completes locally only).  Not built by CMake. */
#include <armci.h>
#include <message.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SIZE = 550 };
static const int chunk[] = {1, 3, 4, 6, 9, 12, 16, 20, 24, 30, 40, 48, 52, 64, 78, 91, 104, 128, 142, 171, 210, 256,
                            300, 353, 400, 440, 476, 512};

static int fence_each; /* ARMCI_PERF_FENCE=1: ARMCI_Fence after every put/acc (remote completion each time) */

/* kind: 0 get, 1 put, 2 acc; strided or not.  Returns seconds per call. */
static double run(int kind, int strided, double *local, double *remote, int c, int proc, int iters)
{
    int stride[1] = {SIZE * (int)sizeof(double)}, count[2];
    count[0] = strided ? c * (int)sizeof(double) : c * c * (int)sizeof(double);
    count[1] = c;
    double scale = 1.0, best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double *l = local, *r = remote;
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (kind == 0)
                strided ? ARMCI_GetS(r, stride, l, stride, count, 1, proc) : ARMCI_Get(r, l, count[0], proc);
            else if (kind == 1)
                strided ? ARMCI_PutS(l, stride, r, stride, count, 1, proc) : ARMCI_Put(l, r, count[0], proc);
            else
                strided ? ARMCI_AccS(ARMCI_ACC_DBL, &scale, l, stride, r, stride, count, 1, proc)
                        : ARMCI_Acc(ARMCI_ACC_DBL, &scale, l, r, count[0], proc);
            if (fence_each && kind != 0)
                ARMCI_Fence(proc);
            int d = (i & 1) ? -128 : 128;
            l += d;
            r += d;
        }
        if (kind != 0)
            ARMCI_Fence(proc); /* blocking put/acc are locally complete only */
        double t = (MPI_Wtime() - t0) / iters;
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int me = armci_msg_me(), np = armci_msg_nproc();
    fence_each = getenv("ARMCI_PERF_FENCE") && atoi(getenv("ARMCI_PERF_FENCE"));
    void **ptr = malloc(sizeof(void *) * np);
    size_t bytes = (size_t)SIZE * SIZE * sizeof(double) + 256 * sizeof(double);
    ARMCI_Malloc(ptr, (armci_size_t)bytes);
    memset(ptr[me], 0, bytes);
    double *local = ARMCI_Malloc_local((armci_size_t)bytes);
    memset(local, 0, bytes);
    ARMCI_Barrier();
    if (me == 0 && np > 1) {
        printf("# kind bytes  get_us get_MBs  put_us put_MBs  acc_us acc_MBs   (to process 1, best of 3)\n");
        for (int strided = 0; strided < 2; strided++)
            for (size_t i = 0; i < sizeof chunk / sizeof chunk[0]; i++) {
                int c = chunk[i];
                long nb = (long)c * c * (long)sizeof(double);
                int iters = (int)((64L << 20) / nb);
                iters = iters < 20 ? 20 : iters > 20000 ? 20000 : iters;
                double *l = local + 128, *r = (double *)ptr[1] + 128;
                double tg = run(0, strided, l, r, c, 1, iters), tp = run(1, strided, l, r, c, 1, iters),
                       ta = run(2, strided, l, r, c, 1, iters);
                printf("%s %7ld  %7.2f %7.0f  %7.2f %7.0f  %7.2f %7.0f\n", strided ? "strided" : "contig ", nb, tg * 1e6,
                       nb / tg / 1e6, tp * 1e6, nb / tp / 1e6, ta * 1e6, nb / ta / 1e6);
                fflush(stdout);
            }
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    ARMCI_Free_local(local);
    free(ptr);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
