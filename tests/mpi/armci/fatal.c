/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI misuse ends the whole job (vmpi's default; errors.c checks the classes with VMPI_ARMCI_ERRORS=return):
 * the last rank makes the misuse named by MT_ARMCI_FATAL while the others wait in a barrier, and the testlist
 * expects the job's exit status to be the error class and the output to name the call:
 *   before (a put before ARMCI_Init: MPI_ERR_OTHER), rank (a put to process nprocs: MPI_ERR_RANK), range (a get
 *   past a block's end: MPI_ERR_RMA_RANGE), levels (a strided put with 9 levels: MPI_ERR_ARG), op (an
 *   accumulate with op code 99: MPI_ERR_OP), unlock (of a mutex not held: MPI_ERR_RMA_SYNC), free (the
 *   collective ARMCI_Free, the last rank passing malloc'ed memory: MPI_ERR_BASE); error (ARMCI_Error(msg, 7):
 *   status 7, msg printed), abort (armci_msg_abort(5): status 5).
 * If the misuse returns, the program says so and exits with 0, which the testlist counts as a failure. */
#include "armci_test.h"

int main(int argc, char **argv)
{
    int rank, size, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *c = getenv("MT_ARMCI_FATAL");
    c = c ? c : "";
    int last = rank == size - 1;
    if (!strcmp(c, "before") && last)
        ARMCI_Put(&x, &x, sizeof x, 0);
    ARMCI_Init();
    void **p = mt_malloc(sizeof(void *) * (size_t)size);
    ARMCI_Malloc(p, 64);
    ARMCI_Create_mutexes(1);
    ARMCI_Barrier();
    if (!strcmp(c, "free")) { /* collective: every rank frees its block, the last one passes malloc'ed memory */
        char *heap = mt_malloc(64);
        ARMCI_Free(last ? heap : p[rank]);
        fprintf(stderr, "fatal: MT_ARMCI_FATAL=free: rank %d's ARMCI_Free returned\n", rank);
        MPI_Finalize();
        return 0;
    }
    if (last) {
        int st[8] = {8, 16, 32, 64, 128, 256, 512, 1024}, cnt[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, one = 1;
        char *heap = mt_malloc(64);
        if (!strcmp(c, "rank"))
            ARMCI_Put(&x, p[0], sizeof x, size);
        else if (!strcmp(c, "range"))
            ARMCI_Get((char *)p[0] + 62, &x, sizeof x, 0);
        else if (!strcmp(c, "levels"))
            ARMCI_PutS(&x, st, p[0], st, cnt, 9, 0);
        else if (!strcmp(c, "op"))
            ARMCI_Acc(99, &one, &x, p[0], sizeof x, 0);
        else if (!strcmp(c, "unlock"))
            ARMCI_Unlock(0, 0);
        else if (!strcmp(c, "error"))
            ARMCI_Error("armci-fatal-test-message", 7);
        else if (!strcmp(c, "abort"))
            armci_msg_abort(5);
        if (strcmp(c, "before")) {
            fprintf(stderr, "fatal: MT_ARMCI_FATAL=%s: the misuse returned\n", c);
            fflush(stderr);
        }
        free(heap);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    ARMCI_Destroy_mutexes();
    ARMCI_Free(p[rank]);
    free(p);
    ARMCI_Finalize();
    MPI_Finalize();
    return 0;
}
