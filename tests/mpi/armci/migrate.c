/* SPDX-License-Identifier: BSD-3-Clause */
/* ARMCI across migrations (the testlist runs it with VMPI_BALANCER=Rotate, which moves every rank to another
 * PE at every ARMCI_Migrate; elsewhere the points do nothing).  Before the first point: two allocations (one
 * with sizes that differ per rank), mutexes, a group allocation of the even ranks.  At each of STEPS points
 * (ARMCI_Migrate, ARMCI_Async_Migrate, ARMCI_MemCheckpoint: an in-memory checkpoint, which moves no rank, and
 * ARMCI_Migrate again):
 *   - every rank holds its own mutex 0 and mutex 1 of its right neighbour (taken by nobody else) across the
 *     point, and releases them after it; then every rank takes its right neighbour's mutex 0 (contended with
 *     nothing but checked to be free) and rank 0's mutex 1 (contended by all) for a read-increment-write;
 *   - the pointer arrays are unchanged, each block still lies in its owner's slot (vmpi), its contents (put
 *     by the left neighbour before the point) are intact, gets from every rank return the expected data;
 *   - puts, strided puts, accumulates and fetch-and-adds after the point land where they should;
 *   - under Rotate on more than one PE every rank is on another PE after each point but the checkpoint. */
#include "armci_test.h"

enum { STEPS = 4, N = 256 };

static long bsize(int r) { return (long)sizeof(int) * (N + 16 + 16 * (r % 4)); } /* N ints, a tail of 16, more */

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, moves = 0;
    int **a = mt_malloc(sizeof(int *) * (size_t)size), **b = mt_malloc(sizeof(int *) * (size_t)size);
    int **a0 = mt_malloc(sizeof(int *) * (size_t)size), **b0 = mt_malloc(sizeof(int *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc (a)", 0, ARMCI_Malloc((void **)a, bsize(rank)));
    MT_CHECK_INT(errs, "ARMCI_Malloc (b)", 0, ARMCI_Malloc((void **)b, sizeof(long) * 4));
    memcpy(a0, a, sizeof(int *) * (size_t)size);
    memcpy(b0, b, sizeof(int *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Create_mutexes", 0, ARMCI_Create_mutexes(2));
    int *mine = a[rank];
    long *cnt = (long *)b[rank];
    for (long i = 0; i < bsize(rank) / (long)sizeof(int); i++)
        mine[i] = -1;
    memset(cnt, 0, sizeof(long) * 4);
    /* the even ranks' group and its allocation */
    int ng = (size + 1) / 2, *pid = mt_malloc(sizeof(int) * (size_t)ng), **gp = mt_malloc(sizeof(int *) * (size_t)ng);
    for (int i = 0; i < ng; i++)
        pid[i] = 2 * i;
    ARMCI_Group g;
    ARMCI_Group_create(ng, pid, &g);
    if (rank % 2 == 0) {
        MT_CHECK_INT(errs, "ARMCI_Malloc_group", 0, ARMCI_Malloc_group((void **)gp, sizeof(int) * 4, &g));
        gp[rank / 2][0] = rank * 11;
    }
    int *src = mt_malloc(sizeof(int) * N);
    ARMCI_Barrier();

    for (int step = 0; step < STEPS; step++) {
        /* before the point: data into the right neighbour, mutexes taken */
        for (int i = 0; i < N; i++)
            src[i] = rank * 100000 + step * 1000 + i;
        MT_CHECK_INT(errs, "ARMCI_Put before the point", 0, ARMCI_Put(src, a[right], sizeof(int) * N, right));
        ARMCI_Lock(0, rank);
        ARMCI_Lock(1, right);
        ARMCI_Barrier();
        int pe0 = at_pe();
#ifdef ARMCI_VMPI
        /* the points: ARMCI_Migrate, ARMCI_Async_Migrate (the same on vmpi), ARMCI_MemCheckpoint (an in-memory
         * checkpoint: it balances no load, so the ranks stay), ARMCI_Migrate */
        if (step == 1)
            ARMCI_Async_Migrate();
        else if (step == 2 && !MT_SANITIZE) /* sanitizer builds refuse checkpoints */
            ARMCI_MemCheckpoint();
        else
            ARMCI_Migrate();
#endif
        if (at_rotating() && (step != 2 || MT_SANITIZE))
            moves += at_pe() != pe0;
        /* the pointers, the slots, the contents */
        for (int i = 0; i < size; i++) {
            MT_CHECK(errs, a[i] == a0[i] && b[i] == b0[i], "step %d: ptr_arr[%d] changed", step, i);
#ifdef ARMCI_VMPI
            MT_CHECK_INT(errs, "slot of an allocation after migrating", MT_HEAP_SLOT(i), MPIX_Iso_rank(a[i]));
#endif
        }
        for (int i = 0, bad = 0; i < N; i++)
            if (mine[i] != left * 100000 + step * 1000 + i && bad++ < 3)
                MT_ERR(errs, "step %d: my block's int %d after the point: expected %d, got %d", step, i,
                       left * 100000 + step * 1000 + i, mine[i]);
        /* the held mutexes are released after the point */
        ARMCI_Unlock(1, right);
        ARMCI_Unlock(0, rank);
        /* gets from every rank: its block holds its left neighbour's data */
        for (int j = 0; j < size; j++) {
            int t = (rank + j) % size, tl = (t + size - 1) % size, v[2] = {0, 0};
            MT_CHECK_INT(errs, "ARMCI_Get after the point", 0, ARMCI_Get(a[t] + 5, v, sizeof v, t));
            MT_CHECK_INT(errs, "ARMCI_Get after the point, int 5", tl * 100000 + step * 1000 + 5, v[0]);
        }
        if (rank % 2 == 0) {
            int gv = -1, gnext = (rank / 2 + 1) % ng;
            MT_CHECK_INT(errs, "ARMCI_Get from the group allocation", 0, ARMCI_Get(gp[gnext], &gv, sizeof gv, pid[gnext]));
            MT_CHECK_INT(errs, "group allocation after the point", pid[gnext] * 11 + step, gv);
        }
        ARMCI_Barrier();
        if (rank % 2 == 0)
            gp[rank / 2][0] += 1;
        /* operations after the point: a strided put into the block's tail, accumulate, fetch-and-add, mutexes */
        int st[1] = {4 * sizeof(int)}, count[2] = {2 * sizeof(int), 4}, ss[1] = {2 * sizeof(int)};
        int s8[8] = {step + 1, rank, step + 1, rank, step + 1, rank, step + 1, rank};
        MT_CHECK_INT(errs, "ARMCI_PutS after the point", 0,
                     ARMCI_PutS(s8, ss, a[right] + N, st, count, 1, right));
        long one = 1, lone = 1, old = -1;
        MT_CHECK_INT(errs, "ARMCI_Acc after the point", 0,
                     ARMCI_Acc(ARMCI_ACC_LNG, &lone, &one, (long *)b[0], sizeof one, 0));
        MT_CHECK_INT(errs, "ARMCI_Rmw after the point", 0,
                     ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, (long *)b[right] + 1, 1, right));
        MT_CHECK_INT(errs, "fetch-and-add after the point: old value (one per step from the left)", step, old);
        ARMCI_Lock(1, 0);
        long c = ARMCI_GetValueLong((long *)b[0] + 2, 0);
        ARMCI_PutValueLong(c + 1, (long *)b[0] + 2, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(1, 0);
        ARMCI_Lock(0, right);
        ARMCI_Unlock(0, right);
        ARMCI_Barrier();
        for (int k = 0; k < 4; k++) {
            MT_CHECK_INT(errs, "strided put after the point (first int)", step + 1, mine[N + 4 * k]);
            MT_CHECK_INT(errs, "strided put after the point (second int)", left, mine[N + 4 * k + 1]);
        }
        if (rank == 0) {
            MT_CHECK_INT(errs, "accumulated counter", (long)size * (step + 1), cnt[0]);
            MT_CHECK_INT(errs, "counter under rank 0's mutex 1", (long)size * (step + 1), cnt[2]);
        }
        MT_CHECK_INT(errs, "fetch-and-add counter", step + 1, cnt[1]);
        ARMCI_Barrier();
    }
    if (at_rotating())
        MT_CHECK_INT(errs, "moves under Rotate (one per migration point but the checkpoint)", STEPS - !MT_SANITIZE, moves);

    ARMCI_Barrier();
    if (rank % 2 == 0)
        MT_CHECK_INT(errs, "ARMCI_Free_group", 0, ARMCI_Free_group(gp[rank / 2], &g));
    ARMCI_Group_free(&g);
    MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes", 0, ARMCI_Destroy_mutexes());
    MT_CHECK_INT(errs, "ARMCI_Free (a)", 0, ARMCI_Free(mine));
    MT_CHECK_INT(errs, "ARMCI_Free (b)", 0, ARMCI_Free(cnt));
    free(a);
    free(b);
    free(a0);
    free(b0);
    free(pid);
    free(gp);
    free(src);
    return at_finish(errs);
}
