/* SPDX-License-Identifier: BSD-3-Clause */
/* Checkpoint/restart of an ARMCI program (issue 8): ARMCI_Checkpoint(dir) carries ARMCI's state, and a job
 * restarted from it on another number of PEs (tests/tools/ckpt.sh) finds it intact and working:
 *   - two allocations (sizes that differ per rank, one with 0 bytes on the odd ranks), filled before the
 *     checkpoint: after it, every process's pointer array is unchanged, each block is still in its owner's
 *     slot, its contents are intact (read locally and with ARMCI_Get from every process);
 *   - mutexes (a count that differs per rank): each rank holds its own mutex 0 across the checkpoint and
 *     releases it after; a counter at rank 0 incremented under rank 0's mutex 1 before and after continues;
 *   - a group of the even ranks with a group allocation: usable after (group collectives, a put with world ids);
 *   - a notice sent before the checkpoint is waited for after it;
 *   - after it: puts, strided puts, accumulates and fetch-and-adds land, a new allocation and mutexes work.
 * Like the other ckpt/ programs: `armci_ckpt DIR [kill]` checkpoints into DIR (with `kill` a job that was not
 * restarted is killed right after the checkpoint); without arguments (the testlist) into a fresh directory,
 * and the job goes on; sanitizer builds, which refuse checkpoints to files, only migrate.  It says
 * "armci_ckpt: restarted" in a restarted job. */
#include <armci.h>
#include <message.h>
#include "ckpt_test.h"

enum { N = 500 };

static long bsize(int r) { return (long)sizeof(int) * (N + 7 * (r % 5)); }
static int val(int owner, int i) { return owner * 7919 + i * 3; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    ckpt_test t;
    ckpt_test_open(&t, argc, argv, "armci_ckpt");

    int **a = mt_malloc(sizeof(int *) * (size_t)size), **z = mt_malloc(sizeof(int *) * (size_t)size);
    int **a0 = mt_malloc(sizeof(int *) * (size_t)size), **z0 = mt_malloc(sizeof(int *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)a, bsize(rank)));
    MT_CHECK_INT(errs, "ARMCI_Malloc (0 bytes on odd ranks)", 0, ARMCI_Malloc((void **)z, rank % 2 ? 0 : 64));
    memcpy(a0, a, sizeof(int *) * (size_t)size);
    memcpy(z0, z, sizeof(int *) * (size_t)size);
    int *mine = a[rank];
    for (long i = 0; i < bsize(rank) / (long)sizeof(int); i++)
        mine[i] = val(rank, (int)i);
    if (z[rank])
        memset(z[rank], 0, 64);
    MT_CHECK_INT(errs, "ARMCI_Create_mutexes", 0, ARMCI_Create_mutexes(rank % 3 + 2));
    int ng = (size + 1) / 2, *pid = mt_malloc(sizeof(int) * (size_t)ng), **gp = mt_malloc(sizeof(int *) * (size_t)ng);
    for (int i = 0; i < ng; i++)
        pid[i] = 2 * i;
    ARMCI_Group g;
    ARMCI_Group_create(ng, pid, &g);
    if (rank % 2 == 0) {
        MT_CHECK_INT(errs, "ARMCI_Malloc_group", 0, ARMCI_Malloc_group((void **)gp, sizeof(int) * 2, &g));
        gp[rank / 2][0] = gp[rank / 2][1] = -1;
    }
    ARMCI_Barrier();
    /* before: the counter under rank 0's mutex 1 (in z[0], rank 0 being even), a notice to the right */
    ARMCI_Lock(1, 0);
    int c = ARMCI_GetValueInt(z[0], 0);
    ARMCI_PutValueInt(c + 1, z[0], 0);
    ARMCI_Unlock(1, 0);
    armci_notify(right);
    ARMCI_Lock(0, rank);
    ARMCI_Barrier();

    if (rank == 0) {
        printf("armci_ckpt: before the checkpoint\n");
        fflush(stdout);
    }
    int restarted = 0;
    if (t.dir[0]) {
        ARMCI_Checkpoint(t.dir);
        VMPIX_Restarted(&restarted);
        if (restarted && rank == 0) {
            printf("armci_ckpt: restarted\n");
            fflush(stdout);
        }
        if (t.kill_after && !restarted) {
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) {
                fflush(stdout);
                kill(getpid(), SIGKILL);
            }
            MPI_Barrier(MPI_COMM_WORLD); /* never completes */
        }
    } else
        ARMCI_Migrate();

    /* ---- after: state ---- */
    ARMCI_Unlock(0, rank);
    for (int i = 0; i < size; i++) {
        MT_CHECK(errs, a[i] == a0[i] && z[i] == z0[i], "ptr_arr[%d] changed", i);
        MT_CHECK(errs, (z[i] == NULL) == (i % 2 == 1), "0-byte allocation: ptr_arr[%d] = %p", i, (void *)z[i]);
        MT_CHECK_INT(errs, "slot of a block after the checkpoint", MT_HEAP_SLOT(i), MPIX_Iso_rank(a[i]));
    }
    for (long i = 0, bad = 0; i < bsize(rank) / (long)sizeof(int); i++)
        if (mine[i] != val(rank, (int)i) && bad++ < 3)
            MT_ERR(errs, "my block's int %ld after the checkpoint: expected %d, got %d", i, val(rank, (int)i), mine[i]);
    int *buf = mt_malloc(sizeof(int) * (N + 28));
    for (int j = 0; j < size; j++) {
        int tg = (rank + j) % size;
        long n = bsize(tg) / (long)sizeof(int);
        MT_CHECK_INT(errs, "ARMCI_Get after the checkpoint", 0, ARMCI_Get(a[tg], buf, (int)bsize(tg), tg));
        for (long i = 0, bad = 0; i < n; i++)
            if (buf[i] != val(tg, (int)i) && bad++ < 3)
                MT_ERR(errs, "process %d's block, int %ld, got after the checkpoint: expected %d, got %d", tg, i,
                       val(tg, (int)i), buf[i]);
    }
    int v = -1;
    MT_CHECK_INT(errs, "armci_notify_wait: the notice sent before the checkpoint", 1, armci_notify_wait(left, &v));
    ARMCI_Barrier();

    /* ---- after: operations ---- */
    ARMCI_Lock(1, 0);
    c = ARMCI_GetValueInt(z[0], 0);
    ARMCI_PutValueInt(c + 1, z[0], 0);
    ARMCI_Unlock(1, 0);
    ARMCI_Lock(rank % 3 + 1, rank); /* the highest mutex number of mine */
    ARMCI_Unlock(rank % 3 + 1, rank);
    int s4[4] = {rank, rank + 1, rank + 2, rank + 3}, st[1] = {2 * sizeof(int)}, ss[1] = {sizeof(int)},
        cnt[2] = {sizeof(int), 4};
    MT_CHECK_INT(errs, "ARMCI_PutS after the checkpoint", 0, ARMCI_PutS(s4, ss, a[right] + 10, st, cnt, 1, right));
    int one = 1, ev = right - right % 2; /* the even rank at or left of my right neighbour */
    long old = -1;
    MT_CHECK_INT(errs, "ARMCI_Acc after the checkpoint", 0, ARMCI_Acc(ARMCI_ACC_INT, &one, &one, z[ev] + 2, sizeof one, ev));
    MT_CHECK_INT(errs, "ARMCI_Rmw after the checkpoint", 0,
                 ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, (long *)z[0] + 2, 1, 0));
    if (rank % 2 == 0) {
        int gnext = (rank / 2 + 1) % ng, mv = rank;
        MT_CHECK_INT(errs, "ARMCI_Put into the group allocation after the checkpoint", 0,
                     ARMCI_Put(&mv, gp[gnext], sizeof mv, pid[gnext]));
        int s = 1;
        armci_msg_group_igop(&s, 1, "+", &g);
        MT_CHECK_INT(errs, "armci_msg_group_igop after the checkpoint", ng, s);
    }
    void **n2 = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc after the checkpoint", 0, ARMCI_Malloc(n2, 8));
    *(long *)n2[rank] = 0;
    ARMCI_Barrier();
    long lv = 5L << 33;
    MT_CHECK_INT(errs, "ARMCI_Put to a new allocation", 0, ARMCI_Put(&lv, n2[right], sizeof lv, right));
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "new allocation after the checkpoint", 5L << 33, *(long *)n2[rank]);
    for (int k = 0; k < 4; k++)
        MT_CHECK_INT(errs, "strided put after the checkpoint", left + k, mine[10 + 2 * k]);
    if (rank == 0) {
        MT_CHECK_INT(errs, "counter under rank 0's mutex 1, before and after", 2 * size, z[0][0]);
        MT_CHECK_INT(errs, "fetch-and-add counter", size, ((long *)z[0])[2]);
    }
    if (rank % 2 == 0) {
        /* accumulates from the ranks whose right neighbour is me or my right one */
        MT_CHECK_INT(errs, "accumulates after the checkpoint", 1 + (rank + 1 < size), z[rank][2]);
        int gprev = (rank / 2 + ng - 1) % ng;
        MT_CHECK_INT(errs, "group allocation: the previous member's put", pid[gprev], gp[rank / 2][0]);
    }
    ARMCI_Barrier();

    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(n2[rank]));
    if (rank % 2 == 0)
        MT_CHECK_INT(errs, "ARMCI_Free_group", 0, ARMCI_Free_group(gp[rank / 2], &g));
    ARMCI_Group_free(&g);
    MT_CHECK_INT(errs, "ARMCI_Destroy_mutexes", 0, ARMCI_Destroy_mutexes());
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(z[rank]));
    free(a);
    free(z);
    free(a0);
    free(z0);
    free(pid);
    free(gp);
    free(buf);
    free(n2);
    ckpt_test_close(&t);
    ARMCI_Finalize();
    return mt_finish(errs);
}
