/* SPDX-License-Identifier: BSD-3-Clause */
/* Nonblocking collectives: every I-form checked against its result; several outstanding on one
 * communicator and completed in reverse order, by Waitany, by a Test loop; overlapped with point-to-point
 * (an Issend whose receive is posted only after the Ibarrier started: the barrier cannot complete before
 * every rank entered it, and the synchronous send needs the receiver, so both must progress together);
 * blocking collectives issued while nonblocking ones are outstanding on the same communicator. */
#include "mtest.h"

#define K 1030 /* ints: above the eager limit */

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *a = mt_malloc(sizeof(int) * K), *b = mt_malloc(sizeof(int) * K), *c = mt_malloc(sizeof(int) * K);
    int *all = mt_malloc(sizeof(int) * (size_t)n * 4), *all2 = mt_malloc(sizeof(int) * (size_t)n * 4);
    int *cnt = mt_malloc(sizeof(int) * (size_t)n * 2), *dsp = cnt + n;
    for (int round = 0; round < 3; round++) {
        MPI_Request rq[8];
        for (int i = 0; i < K; i++) {
            a[i] = rank == round % n ? i * 3 + round : -1; /* bcast payload */
            b[i] = rank + i;                                /* allreduce input */
            c[i] = -1;
        }
        for (int i = 0; i < 2 * n; i++)
            all[i] = rank * 100 + i;
        for (int i = 0; i < n; i++) {
            cnt[i] = 2;
            dsp[i] = 2 * i;
        }
        int sc = -1, ex = -1, one = 1;
        MT_CHECK_RC(errs, MPI_Ibarrier(MPI_COMM_WORLD, &rq[0]));
        MT_CHECK_RC(errs, MPI_Ibcast(a, K, MPI_INT, round % n, MPI_COMM_WORLD, &rq[1]));
        MT_CHECK_RC(errs, MPI_Iallreduce(b, c, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[2]));
        MT_CHECK_RC(errs, MPI_Ialltoall(all, 2, MPI_INT, all2, 2, MPI_INT, MPI_COMM_WORLD, &rq[3]));
        MT_CHECK_RC(errs, MPI_Iscan(&one, &sc, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[4]));
        MT_CHECK_RC(errs, MPI_Iexscan(&one, &ex, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[5]));
        int *g = mt_malloc(sizeof(int) * (size_t)n * 2);
        MT_CHECK_RC(errs, MPI_Iallgatherv(&all[0], 2, MPI_INT, g, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &rq[6]));
        int rs = -1;
        MT_CHECK_RC(errs, MPI_Ireduce_scatter_block(cnt, &rs, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &rq[7]));
        mt_migrate(); /* eight collectives in flight across a migration point */
        if (round == 0) {
            for (int i = 7; i >= 0; i--)
                MT_CHECK_RC(errs, MPI_Wait(&rq[i], MPI_STATUS_IGNORE));
        } else if (round == 1) {
            for (int left = 8; left > 0; left--) {
                int idx = -1;
                MT_CHECK_RC(errs, MPI_Waitany(8, rq, &idx, MPI_STATUS_IGNORE));
            }
        } else {
            int flag = 0;
            while (!flag)
                MT_CHECK_RC(errs, MPI_Testall(8, rq, &flag, MPI_STATUSES_IGNORE));
        }
        for (int i = 0; i < K; i++)
            if (a[i] != i * 3 + round || c[i] != n * (n - 1) / 2 + n * i) {
                MT_ERR(errs, "round %d element %d: bcast %d (expected %d), allreduce %d (expected %d)", round, i,
                       a[i], i * 3 + round, c[i], n * (n - 1) / 2 + n * i);
                break;
            }
        for (int p = 0; p < n; p++)
            for (int j = 0; j < 2; j++) {
                MT_CHECK_INT(errs, "Ialltoall element", p * 100 + rank * 2 + j, all2[p * 2 + j]);
                MT_CHECK_INT(errs, "Iallgatherv element", p * 100 + j, g[p * 2 + j]);
            }
        MT_CHECK_INT(errs, "Iscan", rank + 1, sc);
        if (rank > 0)
            MT_CHECK_INT(errs, "Iexscan", rank, ex);
        MT_CHECK_INT(errs, "Ireduce_scatter_block", 2 * n, rs);
        free(g);
    }
    /* Ibarrier overlapped with a synchronous send around a ring */
    if (n > 1) {
        MPI_Request br, sr;
        int out = rank, in = -1;
        MT_CHECK_RC(errs, MPI_Ibarrier(MPI_COMM_WORLD, &br));
        MT_CHECK_RC(errs, MPI_Issend(&out, 1, MPI_INT, (rank + 1) % n, 5, MPI_COMM_WORLD, &sr));
        MT_CHECK_RC(errs, MPI_Recv(&in, 1, MPI_INT, (rank + n - 1) % n, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_Wait(&br, MPI_STATUS_IGNORE));
        MT_CHECK_RC(errs, MPI_Wait(&sr, MPI_STATUS_IGNORE));
        MT_CHECK_INT(errs, "ring value", (rank + n - 1) % n, in);
    }
    /* blocking collectives (the shared-memory path) while nonblocking ones are outstanding on the same
     * communicator, completed afterwards */
    {
        MPI_Request q[2];
        int x = rank + 1, sx = 0, y = 2 * rank, sy = 0, z = 0, bz = rank == 0 ? 77 : 0;
        MT_CHECK_RC(errs, MPI_Iallreduce(&x, &sx, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q[0]));
        MT_CHECK_RC(errs, MPI_Ibcast(&bz, 1, MPI_INT, 0, MPI_COMM_WORLD, &q[1]));
        MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Allreduce(&y, &sy, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Bcast(&z, 1, MPI_INT, n - 1, MPI_COMM_WORLD));
        MT_CHECK_RC(errs, MPI_Waitall(2, q, MPI_STATUSES_IGNORE));
        MT_CHECK_INT(errs, "Iallreduce around blocking ones", n * (n + 1) / 2, sx);
        MT_CHECK_INT(errs, "Allreduce between nonblocking ones", n * (n - 1), sy);
        MT_CHECK_INT(errs, "Ibcast around blocking ones", 77, bz);
    }
    /* every other I-form once, with its blocking twin's result */
    MPI_Request r;
    int *gat = mt_malloc(sizeof(int) * (size_t)n), v = rank * 7 + 1, w = -1;
    MT_CHECK_RC(errs, MPI_Igather(&v, 1, MPI_INT, gat, 1, MPI_INT, n - 1, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; rank == n - 1 && p < n; p++)
        MT_CHECK_INT(errs, "Igather", p * 7 + 1, gat[p]);
    MT_CHECK_RC(errs, MPI_Iscatter(gat, 1, MPI_INT, &w, 1, MPI_INT, n - 1, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "Iscatter", rank * 7 + 1, w);
    for (int i = 0; i < n; i++) {
        cnt[i] = 1;
        dsp[i] = n - 1 - i;
    }
    MT_CHECK_RC(errs, MPI_Igatherv(&v, 1, MPI_INT, gat, cnt, dsp, MPI_INT, 0, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; rank == 0 && p < n; p++)
        MT_CHECK_INT(errs, "Igatherv", p * 7 + 1, gat[n - 1 - p]);
    MT_CHECK_RC(errs, MPI_Iscatterv(gat, cnt, dsp, MPI_INT, &w, 1, MPI_INT, 0, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK_INT(errs, "Iscatterv", rank * 7 + 1, w);
    MT_CHECK_RC(errs, MPI_Iallgather(&v, 1, MPI_INT, gat, 1, MPI_INT, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; p < n; p++)
        MT_CHECK_INT(errs, "Iallgather", p * 7 + 1, gat[p]);
    MT_CHECK_RC(errs, MPI_Ireduce(&v, &w, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    if (rank == 0)
        MT_CHECK_INT(errs, "Ireduce", (n - 1) * 7 + 1, w);
    for (int i = 0; i < n; i++) {
        cnt[i] = 1;
        dsp[i] = i;
        all[i] = rank * 1000 + i;
    }
    MT_CHECK_RC(errs, MPI_Ialltoallv(all, cnt, dsp, MPI_INT, all2, cnt, dsp, MPI_INT, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; p < n; p++)
        MT_CHECK_INT(errs, "Ialltoallv", p * 1000 + rank, all2[p]);
    MPI_Datatype *ts = mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
    for (int i = 0; i < n; i++) {
        ts[i] = MPI_INT;
        dsp[i] = i * (int)sizeof(int);
    }
    MT_CHECK_RC(errs, MPI_Ialltoallw(all, cnt, dsp, ts, all2, cnt, dsp, ts, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int p = 0; p < n; p++)
        MT_CHECK_INT(errs, "Ialltoallw", p * 1000 + rank, all2[p]);
    for (int i = 0; i < n; i++)
        cnt[i] = i + 1;
    int *rsv = mt_malloc(sizeof(int) * (size_t)(n + 1) * (size_t)n), *rso = mt_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n * (n + 1) / 2; i++)
        rsv[i] = i;
    MT_CHECK_RC(errs, MPI_Ireduce_scatter(rsv, rso, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int i = 0; i <= rank; i++)
        MT_CHECK_INT(errs, "Ireduce_scatter", (rank * (rank + 1) / 2 + i) * n, rso[i]);
    free(rsv);
    free(rso);
    free(ts);
    free(gat);
    free(a);
    free(b);
    free(c);
    free(all);
    free(all2);
    free(cnt);
    return mt_finish(errs);
}
