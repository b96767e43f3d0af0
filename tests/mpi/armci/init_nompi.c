/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI_Init_args (or with env MT_ARMCI_INIT=init ARMCI_Init) without MPI_Init (vmpi: ARMCI initializes MPI
 * when the program has not, as GA's ARMCI_Init_args does), then a nested init of the other kind: MPI works in
 * between (point-to-point, a collective), ARMCI works, and the last ARMCI_Finalize finalizes MPI
 * (MPI_Finalized is 1 afterwards).  The verdict is printed before the last ARMCI_Finalize (MPI is gone after
 * it); a rank that then finds MPI not finalized prints the error and exits with 1.  armci-mpi requires
 * MPI_Init first: there the test calls MPI_Init and MPI_Finalize itself. */
#include "armci_test.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag = -1;
#ifdef ARMCI_VMPI
    MPI_Initialized(&flag);
    MT_CHECK_INT(errs, "MPI_Initialized at the start", 0, flag);
#else
    MPI_Init(&argc, &argv);
#endif
    /* MT_ARMCI_INIT=init: the first call is ARMCI_Init, the nested one ARMCI_Init_args */
    const char *first = getenv("MT_ARMCI_INIT");
    int plain = first && !strcmp(first, "init");
    MT_CHECK_INT(errs, "ARMCI_Initialized before ARMCI_Init", 0, ARMCI_Initialized());
    MT_CHECK_INT(errs, plain ? "ARMCI_Init" : "ARMCI_Init_args", 0,
                 plain ? ARMCI_Init() : ARMCI_Init_args(&argc, &argv));
    flag = -1;
    MPI_Initialized(&flag);
    MT_CHECK_INT(errs, "MPI_Initialized after ARMCI's init", 1, flag);
    MT_CHECK_INT(errs, "nested init", 0, plain ? ARMCI_Init_args(&argc, &argv) : ARMCI_Init());
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MT_CHECK_INT(errs, "armci_msg_me", rank, armci_msg_me());
    MT_CHECK_INT(errs, "armci_msg_nproc", size, armci_msg_nproc());
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    long **ptr = mt_malloc(sizeof(long *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, sizeof(long)));
    *ptr[rank] = -1;
    int out = rank * 3, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MT_CHECK_INT(errs, "MPI_Sendrecv", left * 3, in);
    ARMCI_Barrier();
    long lv = (long)rank << 34;
    MT_CHECK_INT(errs, "ARMCI_Put", 0, ARMCI_Put(&lv, ptr[right], sizeof lv, right));
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "my ARMCI memory after the left neighbour's put", (long)left << 34, *ptr[rank]);
    int n = 0;
    MPI_Allreduce(&rank, &n, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MT_CHECK_INT(errs, "MPI_Allreduce", size - 1, n);
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(ptr[rank]));
    free(ptr);
    ARMCI_Finalize();
    MT_CHECK_INT(errs, "ARMCI_Initialized after 1 of 2 ARMCI_Finalize", 1, ARMCI_Initialized());

    int total = errs;
    armci_msg_igop(&total, 1, "+");
    if (rank == 0) {
        printf(total ? " Found %d errors\n" : " No Errors\n", total);
        fflush(stdout);
    }
    ARMCI_Finalize();
#ifdef ARMCI_VMPI
    flag = -1;
    MPI_Finalized(&flag);
    if (flag != 1) {
        fprintf(stderr, "[rank %d] MPI_Finalized after the last ARMCI_Finalize: expected 1, got %d\n", rank, flag);
        return 1;
    }
#else
    MPI_Finalize();
#endif
    return total ? 1 : 0;
}
