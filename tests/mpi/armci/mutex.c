/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI mutexes:
 *   - ARMCI_Create_mutexes with a count that differs per rank (r % 3 + 1);
 *   - mutual exclusion: a read-increment-write of a plain counter (ARMCI_GetValueInt, fence, ARMCI_PutValueInt,
 *     not atomic by itself) under mutex m of process p, by every rank over every (p, m) in turn: each counter
 *     ends exactly at the number of increments made to it; inside, the holder marks an owner word and finds its
 *     own mark before leaving (nobody else got in); two mutexes of one process held at once (in increasing
 *     order); a mutex of one's own process (lock on self) protecting local loads and stores;
 *   - ARMCI_Destroy_mutexes, then ARMCI_Create_mutexes again with other counts;
 *   - vmpi: grants are FIFO.  Every rank moves to PE 0 (AMPI_Migrate_to_pe, ARMCI_Migrate), so that the
 *     ranks run one at a time and the order in which they queue is known: rank 0 holds mutex 0 of process 0
 *     and sends a token to rank N-1; each rank r >= 1, on receiving it, lets the others run once (AMPI_Yield:
 *     its predecessor, if it had not yet queued, does so and blocks), passes the token on to r - 1 (rank 1 to
 *     rank 0), then locks; rank 0, getting the token back, yields once too, unlocks and locks again.  Each
 *     holder appends its rank to a log kept in the protected memory: it must read N-1, N-2, ..., 1, 0 (each
 *     waiter in arrival order, which is not rank order, the re-lock of the releasing rank after all of them).
 *     armci-mpi hands a mutex on in rank order, not FIFO.  Not checked in vmpi's emulated multi-process mode
 *     (ranks cannot leave their process, so they cannot all run on one PE): it says so and skips it. */
#include "armci_test.h"

static int nmutex(int r) { return r % 3 + 1; }

enum { CNT = 0, OWNER = 4, M5 = 7, LOGLEN = 12, LOG = 13 }; /* int offsets in each block: counters, owners, log */

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int K = size <= 8 ? 100 : 1600 / size > 10 ? 1600 / size : 10;
    int **ptr = mt_malloc(sizeof(int *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, (armci_size_t)sizeof(int) * (LOG + size)));
    int *mine = ptr[rank];
    memset(mine, 0, sizeof(int) * (size_t)(LOG + size));
    MT_CHECK_INT(errs, "ARMCI_Create_mutexes (r % 3 + 1)", 0, ARMCI_Create_mutexes(nmutex(rank)));
    ARMCI_Barrier();

    /* ---- mutual exclusion ---- */
    for (int j = 0; j < K; j++) {
        int p = (rank + j) % size, m = j % nmutex(p);
        ARMCI_Lock(m, p);
        int owner = ARMCI_GetValueInt(ptr[p] + OWNER + m, p);
        MT_CHECK(errs, owner == 0, "mutex %d of process %d: owner word %d when I got it", m, p, owner);
        ARMCI_PutValueInt(rank + 1, ptr[p] + OWNER + m, p);
        ARMCI_Fence(p);
        int v = ARMCI_GetValueInt(ptr[p] + CNT + m, p);
        ARMCI_Fence(p);
        ARMCI_PutValueInt(v + 1, ptr[p] + CNT + m, p);
        ARMCI_Fence(p);
        owner = ARMCI_GetValueInt(ptr[p] + OWNER + m, p);
        MT_CHECK(errs, owner == rank + 1, "mutex %d of process %d: owner word %d while I hold it", m, p, owner);
        ARMCI_PutValueInt(0, ptr[p] + OWNER + m, p);
        ARMCI_Fence(p);
        ARMCI_Unlock(m, p);
        /* two of p's mutexes at once, in increasing order; then one of mine */
        if (nmutex(p) > 1 && j % 5 == 0) {
            ARMCI_Lock(0, p);
            ARMCI_Lock(nmutex(p) - 1, p);
            ARMCI_Unlock(nmutex(p) - 1, p);
            ARMCI_Unlock(0, p);
        }
        if (j % 7 == 0) {
            int ms = j % nmutex(rank);
            ARMCI_Lock(ms, rank);
            mine[CNT + 3] += 1; /* only under mutex ms of mine, by me: never contended, but held */
            ARMCI_Unlock(ms, rank);
        }
    }
    ARMCI_Barrier();
    for (int m = 0; m < 3; m++) {
        long e = 0;
        for (int r = 0; r < size; r++)
            for (int j = 0; j < K; j++)
                e += (r + j) % size == rank && j % nmutex(rank) == m;
        MT_CHECK_INT(errs, "counter under a mutex", e, mine[CNT + m]);
        MT_CHECK_INT(errs, "owner word at the end", 0, mine[OWNER + m]);
    }
    MT_CHECK_INT(errs, "local counter under my own mutex", (K + 6) / 7, mine[CNT + 3]);
    MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes", 0, ARMCI_Destroy_mutexes());
    at_migrate();

    /* ---- other counts: 5 on rank 0, 1 elsewhere; rank r's increments of counter r % 5 at rank 0 under rank 0's
     * mutex r % 5 ---- */
    MT_CHECK_INT(errs, "ARMCI_Create_mutexes again", 0, ARMCI_Create_mutexes(rank == 0 ? 5 : 1));
    ARMCI_Barrier();
    for (int j = 0; j < 10; j++) {
        ARMCI_Lock(rank % 5, 0);
        int v = ARMCI_GetValueInt(ptr[0] + M5 + rank % 5, 0);
        ARMCI_Fence(0);
        ARMCI_PutValueInt(v + 1, ptr[0] + M5 + rank % 5, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(rank % 5, 0);
        ARMCI_Lock(0, rank); /* everybody's mutex 0 exists */
        ARMCI_Unlock(0, rank);
    }
    ARMCI_Barrier();
    if (rank == 0)
        for (int m = 0; m < 5; m++)
            MT_CHECK_INT(errs, "counter under one of rank 0's 5 mutexes", 10 * ((size - m + 4) / 5), mine[M5 + m]);
    MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes", 0, ARMCI_Destroy_mutexes());

#ifdef ARMCI_VMPI
    /* ---- FIFO grants, with every rank on PE 0 ---- */
    int nprocs = mt_nprocs();
    if (nprocs > 1 && rank == 0)
        printf("mutex: FIFO grants not checked: the ranks are in %d processes (emulated mode) and cannot all "
               "move to PE 0\n", nprocs);
    if (nprocs == 1) {
        MT_CHECK_INT(errs, "ARMCI_Create_mutexes (FIFO)", 0, ARMCI_Create_mutexes(1));
        AMPI_Migrate_to_pe(0);
        ARMCI_Migrate();
        if (at_pe() != -1)
            MT_CHECK_INT(errs, "PE after AMPI_Migrate_to_pe(0)", 0, at_pe());
        mine[LOGLEN] = 0;
        ARMCI_Barrier();
        int token = 0;
        MPI_Request req = MPI_REQUEST_NULL;
        /* the token goes 0 -> N-1 -> N-2 ... -> 1 -> 0: the queue is in descending rank order (not rank order) */
        if (rank == 0) {
            ARMCI_Lock(0, 0);
            if (size > 1) {
                MPI_Isend(&token, 1, MPI_INT, size - 1, 9, MPI_COMM_WORLD, &req);
                MPI_Recv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                AMPI_Yield();
            }
            ARMCI_Unlock(0, 0);
            ARMCI_Lock(0, 0);
        } else {
            MPI_Recv(&token, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            AMPI_Yield();
            MPI_Isend(&token, 1, MPI_INT, rank - 1, 9, MPI_COMM_WORLD, &req);
            ARMCI_Lock(0, 0);
        }
        int n = ARMCI_GetValueInt(ptr[0] + LOGLEN, 0);
        if (n >= 0 && n < size)
            ARMCI_PutValueInt(rank, ptr[0] + LOG + n, 0);
        ARMCI_PutValueInt(n + 1, ptr[0] + LOGLEN, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(0, 0);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        ARMCI_Barrier();
        if (rank == 0) {
            MT_CHECK_INT(errs, "FIFO: holders logged", size, mine[LOGLEN]);
            for (int i = 0; i < size && i < mine[LOGLEN]; i++)
                MT_CHECK_INT(errs, "FIFO: grant order (rank of the i-th holder after rank 0's first hold)",
                             i == size - 1 ? 0 : size - 1 - i, mine[LOG + i]);
        }
        MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes (FIFO)", 0, ARMCI_Destroy_mutexes());
    }
#endif

    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    return at_finish(errs);
}
