/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi's ARMCI error classes, with VMPI_ARMCI_ERRORS=return (the testlist sets it): each misuse prints one line
 * and returns its MPI error class (docs/ARMCI.md "Errors"); ARMCI keeps working afterwards.
 *   OTHER: a call before ARMCI_Init;
 *   RANK: a process id = nprocs or -1 (put, get, acc, strided, vector, value, nonblocking, rmw);
 *   RMA_RANGE: an address in another process's block, on the stack, NULL, before a block, a transfer past a
 *     block's end (contiguous, strided extent, a vector segment, rmw, a flag outside ARMCI memory);
 *   ARG: negative byte counts, stride levels 9 and -1, a count of 0 (count[0] = 0 is fine only without
 *     levels), overlapping strides (stride[0] < count[0] on either side, stride[1] < stride[0] * count[1]),
 *     accumulate bytes that are not a whole number of elements, misaligned Rmw targets, a negative vector
 *     segment size;
 *   OP: unknown accumulate op codes (0, 99, ARMCI_SWAP) and Rmw op codes (99, ARMCI_ACC_INT);
 *   RMA_SYNC: creating mutexes twice, destroying them while one is held (the void Lock / Unlock misuses,
 *     lock without mutexes, number out of range, unlock of a mutex not held, just return: the mutexes are
 *     then still free, which the final Destroy checks);
 *   BASE: ARMCI_Free of malloc'ed memory, of a pointer inside a block, of a freed block.
 * Built against another ARMCI the program only says No Errors. */
#include "armci_test.h"

#define EXPECT(call, cls) MT_CHECK_INT(errs, #call, cls, call)

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifdef ARMCI_VMPI
    const char *mode = getenv("VMPI_ARMCI_ERRORS");
    if (!mode || strcmp(mode, "return")) {
        MT_ERR(errs, "run with VMPI_ARMCI_ERRORS=return (the testlist does)");
        return mt_finish(errs);
    }
    int right = (rank + 1) % size, x = 0, one = 1, local[32];
    double dbl[4] = {0};
    void **p = mt_malloc(sizeof(void *) * (size_t)size);

    /* ---- before ARMCI_Init ---- */
    EXPECT(ARMCI_Put(&x, local, sizeof x, rank), MPI_ERR_OTHER);
    EXPECT(ARMCI_Malloc(p, 8), MPI_ERR_OTHER);
    EXPECT(ARMCI_Create_mutexes(1), MPI_ERR_OTHER);
    MT_CHECK_INT(errs, "ARMCI_Initialized before ARMCI_Init", 0, ARMCI_Initialized());

    MT_CHECK_INT(errs, "ARMCI_Init", 0, ARMCI_Init());
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc(p, 64));
    char *mine = p[rank];
    memset(mine, 0, 64);
    int st[2] = {16, 64}, cnt[3] = {8, 2, 2};
    void *sp[2] = {local, local + 4}, *dp[2] = {mine, mine + 8};
    armci_giov_t iov = {.src_ptr_array = sp, .dst_ptr_array = dp, .ptr_array_len = 2, .bytes = 8};
    ARMCI_Barrier();

    /* ---- process ids ---- */
    EXPECT(ARMCI_Put(&x, mine, sizeof x, size), MPI_ERR_RANK);
    EXPECT(ARMCI_Put(&x, mine, sizeof x, -1), MPI_ERR_RANK);
    EXPECT(ARMCI_Get(mine, &x, sizeof x, size), MPI_ERR_RANK);
    EXPECT(ARMCI_Acc(ARMCI_ACC_INT, &one, &x, mine, sizeof x, size), MPI_ERR_RANK);
    EXPECT(ARMCI_PutS(local, st, mine, st, cnt, 1, size), MPI_ERR_RANK);
    EXPECT(ARMCI_GetS(mine, st, local, st, cnt, 1, -1), MPI_ERR_RANK);
    EXPECT(ARMCI_PutV(&iov, 1, size), MPI_ERR_RANK);
    EXPECT(ARMCI_PutValueInt(1, mine, size), MPI_ERR_RANK);
    EXPECT(ARMCI_NbPut(&x, mine, sizeof x, size, NULL), MPI_ERR_RANK);
    EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &x, mine, 1, -1), MPI_ERR_RANK);
    ARMCI_Fence(size); /* void: returns */

    /* ---- addresses ---- */
    if (size > 1)
        EXPECT(ARMCI_Put(&x, p[right], sizeof x, rank), MPI_ERR_RMA_RANGE); /* the right one's block */
    EXPECT(ARMCI_Put(&x, local, sizeof x, rank), MPI_ERR_RMA_RANGE);         /* my stack */
    EXPECT(ARMCI_Put(&x, NULL, sizeof x, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_Put(&x, mine - 4, sizeof x, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_Put(local, mine + 60, 8, rank), MPI_ERR_RMA_RANGE);         /* past the end */
    EXPECT(ARMCI_Get(mine + 64, &x, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_Get(mine, local, 65, rank), MPI_ERR_RMA_RANGE);
    int st5[1] = {16}, cnt5[2] = {8, 5}; /* extent 8 + 4 * 16 = 72 > 64 */
    EXPECT(ARMCI_PutS(local, st5, mine, st5, cnt5, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_GetS(mine, st5, local, st5, cnt5, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_AccS(ARMCI_ACC_INT, &one, local, st5, mine, st5, cnt5, 1, rank), MPI_ERR_RMA_RANGE);
    dp[1] = mine + 60;
    EXPECT(ARMCI_PutV(&iov, 1, rank), MPI_ERR_RMA_RANGE);
    sp[0] = mine + 60;
    sp[1] = mine;
    dp[0] = local;
    dp[1] = local + 8;
    EXPECT(ARMCI_GetV(&iov, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &x, mine + 64, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_Put_flag(&x, mine, sizeof x, local, 1, rank), MPI_ERR_RMA_RANGE);
    EXPECT(ARMCI_PutValueLong(1, mine + 60, rank), MPI_ERR_RMA_RANGE);

    /* ---- arguments ---- */
    EXPECT(ARMCI_Put(local, mine, -1, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_Get(mine, local, -1, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_PutS(local, st, mine, st, cnt, 9, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_PutS(local, st, mine, st, cnt, -1, rank), MPI_ERR_ARG);
    int c0[2] = {8, 0}, c00[2] = {0, 2}, cz[1] = {0};
    EXPECT(ARMCI_PutS(local, st, mine, st, c0, 1, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_GetS(mine, st, local, st, c00, 1, rank), MPI_ERR_ARG);
    MT_CHECK_INT(errs, "ARMCI_PutS of 0 bytes without levels", 0, ARMCI_PutS(local, st, mine, st, cz, 0, rank));
    int small[1] = {4}, c82[2] = {8, 2};
    EXPECT(ARMCI_PutS(local, small, mine, st, c82, 1, rank), MPI_ERR_ARG); /* source stride[0] < count[0] */
    EXPECT(ARMCI_PutS(local, st, mine, small, c82, 1, rank), MPI_ERR_ARG); /* target stride[0] < count[0] */
    int s816[2] = {8, 16}, c432[3] = {4, 3, 2};                              /* stride[1] 16 < 8 * 3 */
    EXPECT(ARMCI_GetS(mine, s816, local, s816, c432, 2, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_Acc(ARMCI_ACC_DBL, dbl, dbl, mine, 12, rank), MPI_ERR_ARG);
    int c12[2] = {12, 2}, s16[1] = {16};
    EXPECT(ARMCI_AccS(ARMCI_ACC_DBL, dbl, dbl, s16, mine, s16, c12, 1, rank), MPI_ERR_ARG);
    sp[0] = local;
    sp[1] = local + 4;
    dp[0] = mine;
    dp[1] = mine + 8;
    iov.bytes = 6;
    EXPECT(ARMCI_AccV(ARMCI_ACC_INT, &one, &iov, 1, rank), MPI_ERR_ARG);
    iov.bytes = -1;
    EXPECT(ARMCI_PutV(&iov, 1, rank), MPI_ERR_ARG);
    iov.bytes = 8;
    long lx = 0;
    EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &x, mine + 2, 1, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lx, mine + 4, 1, rank), MPI_ERR_ARG);
    EXPECT(ARMCI_Rmw(ARMCI_SWAP, &x, mine + 1, 0, rank), MPI_ERR_ARG);

    /* ---- op codes ---- */
    EXPECT(ARMCI_Acc(0, &one, &x, mine, sizeof x, rank), MPI_ERR_OP);
    EXPECT(ARMCI_Acc(99, &one, &x, mine, sizeof x, rank), MPI_ERR_OP);
    EXPECT(ARMCI_Acc(ARMCI_SWAP, &one, &x, mine, sizeof x, rank), MPI_ERR_OP);
    EXPECT(ARMCI_AccS(99, &one, local, st, mine, st, cnt, 1, rank), MPI_ERR_OP);
    EXPECT(ARMCI_AccV(99, &one, &iov, 1, rank), MPI_ERR_OP);
    EXPECT(ARMCI_Rmw(99, &x, mine, 1, rank), MPI_ERR_OP);
    EXPECT(ARMCI_Rmw(ARMCI_ACC_INT, &x, mine, 1, rank), MPI_ERR_OP);

    /* ---- mutexes ---- */
    ARMCI_Lock(0, rank);   /* no mutexes yet: returns */
    ARMCI_Unlock(0, rank); /* the same */
    MT_CHECK_INT(errs, "ARMCI_Create_mutexes", 0, ARMCI_Create_mutexes(2));
    EXPECT(ARMCI_Create_mutexes(2), MPI_ERR_RMA_SYNC);
    ARMCI_Lock(2, rank);   /* out of range: returns, holds nothing */
    ARMCI_Lock(-1, right);
    ARMCI_Unlock(1, rank); /* not held: returns */
    ARMCI_Lock(0, rank);
    EXPECT(ARMCI_Destroy_mutexes(), MPI_ERR_RMA_SYNC);
    ARMCI_Unlock(0, rank);
    ARMCI_Lock(1, right); /* all free: takes it at once */
    ARMCI_Unlock(1, right);
    MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes (nothing held)", 0, ARMCI_Destroy_mutexes());
    /* groups: a repeated or absent member is refused before any communicator is made (the group is not set) */
    {
        int dup[2] = {rank, rank}, absent[1] = {size};
        ARMCI_Group g = -7;
        ARMCI_Group_create(2, dup, &g);
        MT_CHECK_INT(errs, "ARMCI_Group_create with a repeated member leaves the group unset", -7, g);
        ARMCI_Group_create(1, absent, &g);
        MT_CHECK_INT(errs, "ARMCI_Group_create with a member out of range leaves the group unset", -7, g);
    }

    /* ---- frees ---- */
    char *heap = mt_malloc(64);
    EXPECT(ARMCI_Free(heap), MPI_ERR_BASE);
    EXPECT(ARMCI_Free(mine + 8), MPI_ERR_BASE);

    /* ARMCI still works: a put to the right neighbour, a get back, a new allocation */
    int v = 4242 + rank, w = -1;
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Put after the errors", 0, ARMCI_Put(&v, (int *)p[right] + 3, sizeof v, right));
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Get after the errors", 0, ARMCI_Get((int *)p[right] + 3, &w, sizeof w, right));
    MT_CHECK_INT(errs, "data after the errors", 4242 + rank, w);
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    EXPECT(ARMCI_Free(mine), MPI_ERR_BASE); /* freed already */
    MT_CHECK_INT(errs, "ARMCI_Malloc after the errors", 0, ARMCI_Malloc(p, 16));
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(p[rank]));
    free(heap);
    free(p);
    ARMCI_Finalize();
    return mt_finish(errs);
#else
    ARMCI_Init();
    return at_finish(errs);
#endif
}
