/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives on an intercommunicator (evens and odds of MPI_COMM_WORLD; needs 2 ranks or more), every
 * result checked:
 *   - Barrier; Bcast from each group's rank 1 (or 0) with MPI_ROOT / MPI_PROC_NULL / remote root;
 *   - Reduce to a root in each group, Allreduce: each group gets the sum over the other group;
 *   - Gather and Scatter through a root in the evens' group; Allgather: each group gets the other's values;
 *   - Alltoall: block j of rank i goes to remote rank j;
 *   - Gatherv, Scatterv, Allgatherv, Alltoallv and Alltoallw with counts that differ per remote rank;
 *   - Reduce_scatter_block and Reduce_scatter: the other group's vectors, summed, scattered over this group;
 *   - all of the above again in their nonblocking forms (started, then waited for), then several
 *     nonblocking ones outstanding at once, completed in reverse order, with a blocking one in between;
 *   - MPI_ERR_ROOT for a bad root, MPI_ERR_COMM for MPI_Scan (not defined on intercommunicators). */
#include "mtest.h"

/* Runs the blocking form, or (nb: a local of the caller; no globals: ranks share the process) the
 * nonblocking one and waits for it. */
static int waited(int err, MPI_Request *rq) { return err ? err : MPI_Wait(rq, MPI_STATUS_IGNORE); }
#define COLL(blocking, nonblocking, ...) \
    (nb ? waited(MPI_##nonblocking(__VA_ARGS__, &rq), &rq) : MPI_##blocking(__VA_ARGS__))

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2)
        return mt_finish(errs);
    MPI_Comm half, inter;
    int even = rank % 2 == 0;
    MPI_Comm_split(MPI_COMM_WORLD, !even, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 7, &inter);
    int lr, ls, rs;
    MPI_Comm_rank(inter, &lr);
    MPI_Comm_size(inter, &ls);
    MPI_Comm_remote_size(inter, &rs);
    /* world rank of remote rank j: the other parity */
#define REMOTE_WORLD(j) (2 * (j) + (even ? 1 : 0))
    int *all = malloc(sizeof(int) * (size_t)(rs > ls ? rs : ls)), one = -1;
    int *sb = malloc(sizeof(int) * (size_t)rs), *rb = malloc(sizeof(int) * (size_t)rs);
    MPI_Request rq;
    for (int nb = 0; nb < 2; nb++) {
        COLL(Barrier, Ibarrier, inter);

        /* bcast from each group's rank 0 in turn */
        for (int g = 0; g < 2; g++) {
            int in_root_group = (g == 0) == even, v = -1, root;
            if (in_root_group)
                root = lr == 0 ? MPI_ROOT : MPI_PROC_NULL;
            else
                root = 0;
            if (in_root_group && lr == 0)
                v = 500 + g;
            COLL(Bcast, Ibcast, &v, 1, MPI_INT, root, inter);
            if (!in_root_group && v != 500 + g)
                MT_ERR(errs, "bcast %d: got %d", g, v);
            if (in_root_group && lr != 0 && v != -1)
                MT_ERR(errs, "bcast %d: a MPI_PROC_NULL rank's buffer changed", g);
        }

        /* reduce: the odds' rank 0 gets the sum of the evens' world ranks, then the other way */
        for (int g = 0; g < 2; g++) {
            int root_group_even = g == 1, in_root_group = root_group_even == even, sum = -1, root;
            root = in_root_group ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
            COLL(Reduce, Ireduce, &rank, &sum, 1, MPI_INT, MPI_SUM, root, inter);
            int want = 0;
            for (int j = 0; j < rs; j++)
                want += REMOTE_WORLD(j);
            if (root == MPI_ROOT && sum != want)
                MT_ERR(errs, "reduce %d: %d, expected %d", g, sum, want);
        }
        int asum = -1, want = 0;
        for (int j = 0; j < rs; j++)
            want += REMOTE_WORLD(j);
        COLL(Allreduce, Iallreduce, &rank, &asum, 1, MPI_INT, MPI_SUM, inter);
        if (asum != want)
            MT_ERR(errs, "allreduce: %d, expected %d", asum, want);

        /* gather to / scatter from the evens' rank 0 */
        one = -1;
        int groot = even ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        for (int j = 0; j < rs; j++)
            all[j] = -1;
        COLL(Gather, Igather, &rank, 1, MPI_INT, all, 1, MPI_INT, groot, inter);
        for (int j = 0; groot == MPI_ROOT && j < rs; j++)
            if (all[j] != REMOTE_WORLD(j))
                MT_ERR(errs, "gather: [%d] = %d", j, all[j]);
        for (int j = 0; j < rs; j++)
            all[j] = 900 + j;
        COLL(Scatter, Iscatter, all, 1, MPI_INT, &one, 1, MPI_INT, groot, inter);
        if (!even && one != 900 + lr)
            MT_ERR(errs, "scatter: got %d", one);

        /* allgather: each side gets the other's world ranks */
        COLL(Allgather, Iallgather, &rank, 1, MPI_INT, all, 1, MPI_INT, inter);
        for (int j = 0; j < rs; j++)
            if (all[j] != REMOTE_WORLD(j))
                MT_ERR(errs, "allgather: [%d] = %d", j, all[j]);

        /* alltoall: block j = rank * 1000 + j */
        for (int j = 0; j < rs; j++)
            sb[j] = rank * 1000 + j;
        COLL(Alltoall, Ialltoall, sb, 1, MPI_INT, rb, 1, MPI_INT, inter);
        for (int j = 0; j < rs; j++)
            if (rb[j] != REMOTE_WORLD(j) * 1000 + lr)
                MT_ERR(errs, "alltoall: [%d] = %d", j, rb[j]);

        /* v forms: remote rank j contributes j + 1 copies of its world rank (gatherv, allgatherv), the root gives
         * remote rank j j + 1 values (scatterv), alltoallv/w send (j + 1) ints to remote rank j */
        {
            int *cnt = malloc(sizeof(int) * (size_t)rs), *dis = malloc(sizeof(int) * (size_t)rs), tot = 0;
            for (int j = 0; j < rs; j++) {
                cnt[j] = j + 1;
                dis[j] = tot;
                tot += j + 1;
            }
            int *big = malloc(sizeof(int) * (size_t)(tot + 1)), *mine = malloc(sizeof(int) * (size_t)(lr + 1));
            for (int i = 0; i <= lr; i++)
                mine[i] = rank;
            for (int i = 0; i < tot; i++)
                big[i] = -1;
            COLL(Gatherv, Igatherv, mine, lr + 1, MPI_INT, big, cnt, dis, MPI_INT, groot, inter);
            for (int j = 0; groot == MPI_ROOT && j < rs; j++)
                for (int i = 0; i < cnt[j]; i++)
                    if (big[dis[j] + i] != REMOTE_WORLD(j))
                        MT_ERR(errs, "gatherv: block %d [%d] = %d", j, i, big[dis[j] + i]);
            for (int i = 0; i < tot; i++)
                big[i] = 7000 + i;
            for (int i = 0; i <= lr; i++)
                mine[i] = -1;
            COLL(Scatterv, Iscatterv, big, cnt, dis, MPI_INT, mine, lr + 1, MPI_INT, groot, inter);
            for (int i = 0; !even && i <= lr; i++)
                if (mine[i] != 7000 + lr * (lr + 1) / 2 + i)
                    MT_ERR(errs, "scatterv: [%d] = %d", i, mine[i]);
            for (int i = 0; i <= lr; i++)
                mine[i] = rank;
            COLL(Allgatherv, Iallgatherv, mine, lr + 1, MPI_INT, big, cnt, dis, MPI_INT, inter);
            for (int j = 0; j < rs; j++)
                for (int i = 0; i < cnt[j]; i++)
                    if (big[dis[j] + i] != REMOTE_WORLD(j))
                        MT_ERR(errs, "allgatherv: block %d [%d] = %d", j, i, big[dis[j] + i]);
            /* alltoallv: j + 1 ints to remote rank j; from remote j we get lr + 1 ints of value world(j) */
            int *rcnt = malloc(sizeof(int) * (size_t)rs), *rdis = malloc(sizeof(int) * (size_t)rs);
            for (int j = 0; j < rs; j++) {
                rcnt[j] = lr + 1;
                rdis[j] = j * (lr + 1);
            }
            int *sbig = malloc(sizeof(int) * (size_t)(tot + 1)), *rbig = malloc(sizeof(int) * (size_t)(rs * (lr + 1) + 1));
            for (int i = 0; i < tot; i++)
                sbig[i] = rank;
            COLL(Alltoallv, Ialltoallv, sbig, cnt, dis, MPI_INT, rbig, rcnt, rdis, MPI_INT, inter);
            for (int j = 0; j < rs; j++)
                for (int i = 0; i <= lr; i++)
                    if (rbig[j * (lr + 1) + i] != REMOTE_WORLD(j))
                        MT_ERR(errs, "alltoallv: from %d [%d] = %d", j, i, rbig[j * (lr + 1) + i]);
            int *bdis = malloc(sizeof(int) * (size_t)rs);
            MPI_Datatype *ty = malloc(sizeof(MPI_Datatype) * (size_t)rs);
            for (int j = 0; j < rs; j++) {
                bdis[j] = dis[j] * (int)sizeof(int);
                ty[j] = MPI_INT;
            }
            int *rbdis = malloc(sizeof(int) * (size_t)rs);
            for (int j = 0; j < rs; j++)
                rbdis[j] = rdis[j] * (int)sizeof(int);
            for (int i = 0; i < rs * (lr + 1); i++)
                rbig[i] = -1;
            COLL(Alltoallw, Ialltoallw, sbig, cnt, bdis, ty, rbig, rcnt, rbdis, ty, inter);
            for (int j = 0; j < rs; j++)
                for (int i = 0; i <= lr; i++)
                    if (rbig[j * (lr + 1) + i] != REMOTE_WORLD(j))
                        MT_ERR(errs, "alltoallw: from %d [%d] = %d", j, i, rbig[j * (lr + 1) + i]);
            free(cnt);
            free(dis);
            free(big);
            free(mine);
            free(rcnt);
            free(rdis);
            free(sbig);
            free(rbig);
            free(bdis);
            free(ty);
            free(rbdis);
        }

        /* reduce-scatter: vectors of ls * rs ints (the same total in both groups), rs per local rank */
        {
            int tot = ls * rs, W = 0;
            for (int j = 0; j < rs; j++)
                W += REMOTE_WORLD(j);
            int *vec = malloc(sizeof(int) * (size_t)tot), *res = malloc(sizeof(int) * (size_t)rs);
            int *rc = malloc(sizeof(int) * (size_t)ls);
            for (int i = 0; i < tot; i++)
                vec[i] = rank + i;
            for (int i = 0; i < ls; i++)
                rc[i] = rs;
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j < rs; j++)
                    res[j] = -1;
                if (pass == 0)
                    COLL(Reduce_scatter_block, Ireduce_scatter_block, vec, res, rs, MPI_INT, MPI_SUM, inter);
                else
                    COLL(Reduce_scatter, Ireduce_scatter, vec, res, rc, MPI_INT, MPI_SUM, inter);
                for (int j = 0; j < rs; j++)
                    if (res[j] != W + rs * (lr * rs + j))
                        MT_ERR(errs, "%s: [%d] = %d, expected %d", pass ? "reduce_scatter" : "reduce_scatter_block", j,
                               res[j], W + rs * (lr * rs + j));
            }
            free(vec);
            free(res);
            free(rc);
        }

    }

    /* several at once: Iallreduce, Ibcast (evens' rank 0 the root), Ibarrier and Ialltoall outstanding,
     * a blocking Allreduce in between, completed in reverse order */
    {
        MPI_Request q[4];
        int s1 = -1, s2 = -1, v = even && lr == 0 ? 4242 : -1, wsum = 0;
        for (int j = 0; j < rs; j++)
            wsum += REMOTE_WORLD(j);
        int broot = even ? (lr == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        for (int j = 0; j < rs; j++)
            sb[j] = rank * 1000 + j;
        MPI_Iallreduce(&rank, &s1, 1, MPI_INT, MPI_SUM, inter, &q[0]);
        MPI_Ibcast(&v, 1, MPI_INT, broot, inter, &q[1]);
        MPI_Ibarrier(inter, &q[2]);
        MPI_Ialltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, inter, &q[3]);
        MPI_Allreduce(&lr, &s2, 1, MPI_INT, MPI_MAX, inter);
        mt_migrate(); /* and a migration point while they are outstanding */
        for (int i = 3; i >= 0; i--)
            MPI_Wait(&q[i], MPI_STATUS_IGNORE);
        if (s1 != wsum)
            MT_ERR(errs, "overlapped iallreduce: %d, expected %d", s1, wsum);
        if (s2 != rs - 1)
            MT_ERR(errs, "allreduce among nonblocking ones: %d, expected %d", s2, rs - 1);
        if (!even && v != 4242)
            MT_ERR(errs, "overlapped ibcast: got %d", v);
        for (int j = 0; j < rs; j++)
            if (rb[j] != REMOTE_WORLD(j) * 1000 + lr)
                MT_ERR(errs, "overlapped ialltoall: [%d] = %d", j, rb[j]);
    }

    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int x = 0;
    if (MPI_Bcast(&x, 1, MPI_INT, rs + 5, inter) != MPI_ERR_ROOT)
        MT_ERR(errs, "a bad root did not give MPI_ERR_ROOT");
    if (MPI_Scan(&x, &one, 1, MPI_INT, MPI_SUM, inter) != MPI_ERR_COMM)
        MT_ERR(errs, "MPI_Scan on an intercommunicator did not give MPI_ERR_COMM");
    MPI_Barrier(inter);
    free(all);
    free(sb);
    free(rb);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    return mt_finish(errs);
}
