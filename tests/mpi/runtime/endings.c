/* SPDX-License-Identifier: BSD-3-Clause */
/* Output at every way a job can end (tests/tools/output.sh counts it).  Every rank prints K lines to stdout
 * and calls fflush ("F r k"), K lines to stderr ("E r k"), K more lines to stdout without flushing
 * ("U r k") and an unfinished line ("<P r>"); after a barrier the last rank ends the job the way
 * MT_ENDING (or argv[1]) says: _exit, abort, segv, fpe, ill, term, int (a signal sent to the process),
 * mpi_abort, fatal (an MPI error under MPI_ERRORS_ARE_FATAL), deadlock (every rank receives from nobody),
 * exit (exit(5) before MPI_Finalize), or none (the job ends normally, " No Errors").  The flushed lines must
 * always arrive; on the ends vmpi handles, every line, the unfinished ones after all complete ones. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mtest.h"

#define K 5

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *how = argc > 1 ? argv[1] : getenv("MT_ENDING");
    if (how == NULL)
        how = "none";
    for (int k = 0; k < K; k++) {
        printf("F %d %d\n", rank, k);
        fflush(stdout);
        MPI_Barrier(MPI_COMM_WORLD); /* other ranks run in between */
    }
    for (int k = 0; k < K; k++)
        fprintf(stderr, "E %d %d\n", rank, k);
    for (int k = 0; k < K; k++)
        printf("U %d %d\n", rank, k);
    printf("<P %d>", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1) {
        volatile int zero = 0;
        if (strcmp(how, "_exit") == 0)
            _exit(3);
        else if (strcmp(how, "abort") == 0)
            abort();
#if MT_SANITIZE /* UBSan reports the faults below and goes on without them */
        else if (strcmp(how, "segv") == 0)
            raise(SIGSEGV);
        else if (strcmp(how, "fpe") == 0)
            raise(SIGFPE);
#else
        else if (strcmp(how, "segv") == 0)
            *(volatile int *)(uintptr_t)zero = 1;
        else if (strcmp(how, "fpe") == 0)
            zero = rank / zero;
#endif
        else if (strcmp(how, "ill") == 0)
            __builtin_trap();
        else if (strcmp(how, "term") == 0 || strcmp(how, "int") == 0) {
            kill(getpid(), how[0] == 't' ? SIGTERM : SIGINT);
            for (;;) /* until it arrives (any thread may take it) */
                sleep(1);
        }
        else if (strcmp(how, "mpi_abort") == 0)
            MPI_Abort(MPI_COMM_WORLD, 7);
        else if (strcmp(how, "fatal") == 0)
            MPI_Send(&rank, 1, MPI_INT, size, 0, MPI_COMM_WORLD); /* no such rank */
        else if (strcmp(how, "exit") == 0)
            exit(5);
    }
    if (strcmp(how, "deadlock") == 0) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (strcmp(how, "none") != 0) { /* the others wait for the end */
        int v;
        MPI_Recv(&v, 1, MPI_INT, size - 1, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("\n");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf(" No Errors\n");
    MPI_Finalize();
    return 0;
}
