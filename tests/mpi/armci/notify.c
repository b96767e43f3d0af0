/* SPDX-License-Identifier: BSD-3-Clause */
/* armci_notify / armci_notify_wait (GA's notification calls; vmpi has them, armci-mpi does not: there the
 * test only says No Errors).  GA's semantics: armci_notify(p) counts one more notice from the caller at p
 * and returns the number the caller has sent to p; armci_notify_wait(p, &v) blocks until p's notices to the
 * caller exceed the number already waited for, stores that waited-for number (now one more) in v and returns
 * the number received from p.
 *   - ROUNDS rounds: each rank puts data into its right neighbour, then notifies it; the neighbour waits for
 *     the notice from its left and must find the data (the notice follows the data); sent, waited and
 *     received counts are exact (one notice per round, rounds separated by a barrier);
 *   - a burst of 3 notices without waiting for the target: three waits, each with v = the waits so far and
 *     a received count between that and the notices sent;
 *   - notices to oneself. */
#include "armci_test.h"

enum { ROUNDS = 5, N = 100 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef ARMCI_VMPI
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int **ptr = mt_malloc(sizeof(int *) * (size_t)size), *src = mt_malloc(sizeof(int) * N);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, sizeof(int) * N));
    int *mine = ptr[rank], v;
    memset(mine, 0, sizeof(int) * N);
    ARMCI_Barrier();
    /* with one rank, left = right = me: the counts below hold as well (one notice per round) */
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++)
            src[i] = rank * 1000 + r * N + i;
        MT_CHECK_INT(errs, "ARMCI_Put", 0, ARMCI_Put(src, ptr[right], sizeof(int) * N, right));
        MT_CHECK_INT(errs, "armci_notify: notices sent to the right neighbour", r + 1, armci_notify(right));
        v = -1;
        MT_CHECK_INT(errs, "armci_notify_wait: notices received from the left neighbour", r + 1,
                     armci_notify_wait(left, &v));
        MT_CHECK_INT(errs, "armci_notify_wait: notices waited for", r + 1, v);
        for (int i = 0, bad = 0; i < N; i++)
            if (mine[i] != left * 1000 + r * N + i && bad++ < 3)
                MT_ERR(errs, "round %d: data when the notice came, int %d: expected %d, got %d", r, i,
                       left * 1000 + r * N + i, mine[i]);
        ARMCI_Barrier();
        at_migrate();
    }
    /* a burst of 3 */
    for (int k = 0; k < 3; k++)
        MT_CHECK_INT(errs, "armci_notify (burst): notices sent", ROUNDS + k + 1, armci_notify(right));
    for (int k = 0; k < 3; k++) {
        v = -1;
        int got = armci_notify_wait(left, &v);
        MT_CHECK_INT(errs, "armci_notify_wait (burst): notices waited for", ROUNDS + k + 1, v);
        MT_CHECK(errs, got >= ROUNDS + k + 1 && got <= ROUNDS + 3,
                 "armci_notify_wait (burst): %d notices received, expected %d..%d", got, ROUNDS + k + 1, ROUNDS + 3);
    }
    ARMCI_Barrier();
    /* to myself (with one rank: the counts go on from the ones above) */
    int base = size == 1 ? ROUNDS + 3 : 0;
    MT_CHECK_INT(errs, "armci_notify to myself", base + 1, armci_notify(rank));
    v = -1;
    MT_CHECK_INT(errs, "armci_notify_wait on myself", base + 1, armci_notify_wait(rank, &v));
    MT_CHECK_INT(errs, "armci_notify_wait on myself: waited for", base + 1, v);
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(src);
#endif
    return at_finish(errs);
}
