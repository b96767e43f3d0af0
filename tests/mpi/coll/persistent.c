/* SPDX-License-Identifier: BSD-3-Clause */
/* Persistent collectives (MPI-4.1 6.13, 7.8): every one is made once with its _init call and started ITERS
 * times, its buffers refilled before each start with values that depend on the rank, the iteration and the
 * element, and every rank checks its result exactly after each.  Starts are completed with MPI_Wait on odd
 * iterations and an MPI_Test loop on even ones, and a migration point (every rank moves under the Rotate
 * balancer) comes between iterations, while the requests exist, and once while an allreduce is active. */
#include "mtest.h"

#define ITERS 6
#define K 3 /* elements per block */

static int val(int r, int it, int i) { return r * 1000 + it * 100 + i; }

/* The sum over ranks 0..n-1 of val(r, it, i). */
static int vsum(int n, int it, int i) { return 1000 * (n * (n - 1) / 2) + n * (it * 100 + i); }

static void complete(MPI_Request *req, int it)
{
    if (it % 2) {
        MPI_Wait(req, MPI_STATUS_IGNORE);
        return;
    }
    int flag = 0;
    while (!flag)
        MPI_Test(req, &flag, MPI_STATUS_IGNORE);
}

static void run(MPI_Request *req, int it)
{
    MPI_Start(req);
    complete(req, it);
}

static void fill(int *b, int len, int r, int it)
{
    for (int i = 0; i < len; i++)
        b[i] = val(r, it, i);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "vmpi_unknown_hint", "ignored"); /* hints vmpi does not know are ignored */
    int root = n - 1;
    int *cnt = mt_malloc(sizeof(int) * (size_t)n), *dsp = mt_malloc(sizeof(int) * (size_t)n);
    int *rcnt = mt_malloc(sizeof(int) * (size_t)n), *rdsp = mt_malloc(sizeof(int) * (size_t)n);
    int *wsd = mt_malloc(sizeof(int) * (size_t)n), *wrd = mt_malloc(sizeof(int) * (size_t)n);
    MPI_Datatype *wt = mt_malloc(sizeof(MPI_Datatype) * (size_t)n);
    /* the v forms: rank i's block holds i % K + 1 elements, blocks in reverse order with a gap of one */
    int total = 0;
    for (int i = n - 1; i >= 0; i--) {
        cnt[i] = i % K + 1;
        dsp[i] = total;
        total += cnt[i] + 1;
    }
    for (int i = 0; i < n; i++) {
        rcnt[i] = rank % K + 1; /* alltoallv: what rank i sends me is my own size */
        rdsp[i] = i * K;
        wsd[i] = i * K * (int)sizeof(int); /* bytes */
        wrd[i] = wsd[i];
        wt[i] = MPI_INT;
    }

    enum { BARRIER, BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV,
           ALLTOALLW, REDUCE, ALLREDUCE, ALLREDUCE_INPLACE, RSCAT, RSCAT_BLOCK, SCAN, EXSCAN, NCOLL };
    static const char *names[NCOLL] = {"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv",
                                       "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
                                       "reduce", "allreduce", "allreduce in place", "reduce_scatter",
                                       "reduce_scatter_block", "scan", "exscan"};
    /* each collective gets its own buffers, so that all requests exist at once */
    int *S[NCOLL], *R[NCOLL];
    for (int c = 0; c < NCOLL; c++) {
        S[c] = mt_malloc(sizeof(int) * (size_t)(n * K + total));
        R[c] = mt_malloc(sizeof(int) * (size_t)(n * K + total));
    }
    int *rscnt = mt_malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        rscnt[i] = i % K + 1;
    MPI_Request req[NCOLL];
    MT_CALL(MPI_Barrier_init(w, info, &req[BARRIER]));
    MT_CALL(MPI_Bcast_init(S[BCAST], K, MPI_INT, root, w, MPI_INFO_NULL, &req[BCAST]));
    MT_CALL(MPI_Gather_init(S[GATHER], K, MPI_INT, R[GATHER], K, MPI_INT, root, w, info, &req[GATHER]));
    MT_CALL(MPI_Gatherv_init(S[GATHERV], cnt[rank], MPI_INT, R[GATHERV], cnt, dsp, MPI_INT, root, w, info,
                             &req[GATHERV]));
    MT_CALL(MPI_Scatter_init(S[SCATTER], K, MPI_INT, R[SCATTER], K, MPI_INT, root, w, info, &req[SCATTER]));
    MT_CALL(MPI_Scatterv_init(S[SCATTERV], cnt, dsp, MPI_INT, R[SCATTERV], cnt[rank], MPI_INT, root, w, info,
                              &req[SCATTERV]));
    MT_CALL(MPI_Allgather_init(S[ALLGATHER], K, MPI_INT, R[ALLGATHER], K, MPI_INT, w, info, &req[ALLGATHER]));
    MT_CALL(MPI_Allgatherv_init(S[ALLGATHERV], cnt[rank], MPI_INT, R[ALLGATHERV], cnt, dsp, MPI_INT, w, info,
                                &req[ALLGATHERV]));
    MT_CALL(MPI_Alltoall_init(S[ALLTOALL], K, MPI_INT, R[ALLTOALL], K, MPI_INT, w, info, &req[ALLTOALL]));
    /* alltoallv: I send rank i (i % K + 1) elements from i * K; I receive my size from each */
    MT_CALL(MPI_Alltoallv_init(S[ALLTOALLV], rscnt, rdsp, MPI_INT, R[ALLTOALLV], rcnt, rdsp, MPI_INT, w, info,
                               &req[ALLTOALLV]));
    MT_CALL(MPI_Alltoallw_init(S[ALLTOALLW], rscnt, wsd, wt, R[ALLTOALLW], rcnt, wrd, wt, w, info,
                               &req[ALLTOALLW]));
    MT_CALL(MPI_Reduce_init(S[REDUCE], R[REDUCE], K, MPI_INT, MPI_SUM, root, w, info, &req[REDUCE]));
    MT_CALL(MPI_Allreduce_init(S[ALLREDUCE], R[ALLREDUCE], K, MPI_INT, MPI_SUM, w, info, &req[ALLREDUCE]));
    MT_CALL(MPI_Allreduce_init(MPI_IN_PLACE, R[ALLREDUCE_INPLACE], K, MPI_INT, MPI_SUM, w, info,
                               &req[ALLREDUCE_INPLACE]));
    MT_CALL(MPI_Reduce_scatter_init(S[RSCAT], R[RSCAT], rscnt, MPI_INT, MPI_SUM, w, info, &req[RSCAT]));
    MT_CALL(MPI_Reduce_scatter_block_init(S[RSCAT_BLOCK], R[RSCAT_BLOCK], K, MPI_INT, MPI_SUM, w, info,
                                          &req[RSCAT_BLOCK]));
    MT_CALL(MPI_Scan_init(S[SCAN], R[SCAN], K, MPI_INT, MPI_SUM, w, info, &req[SCAN]));
    MT_CALL(MPI_Exscan_init(S[EXSCAN], R[EXSCAN], K, MPI_INT, MPI_SUM, w, info, &req[EXSCAN]));
    MPI_Info_free(&info); /* the requests do not need it */

    int rsoff = 0; /* my block's start in the reduce_scatter vector */
    for (int i = 0; i < rank; i++)
        rsoff += rscnt[i];
    for (int it = 0; it < ITERS; it++) {
        for (int c = 0; c < NCOLL; c++) {
            for (int i = 0; i < n * K + total; i++) {
                S[c][i] = val(rank, it, i);
                R[c][i] = -1;
            }
            if (c == BCAST && rank != root)
                fill(S[c], K, -7, it); /* overwritten */
            if (c == ALLREDUCE_INPLACE)
                fill(R[c], K, rank, it);
            run(&req[c], it);
            const int *g = R[c];
            switch (c) {
            case BARRIER:
                break;
            case BCAST:
                for (int i = 0; i < K; i++)
                    MT_CHECK_INT(errs, names[c], val(root, it, i), S[c][i]);
                break;
            case GATHER:
                for (int p = 0; rank == root && p < n; p++)
                    for (int i = 0; i < K; i++)
                        MT_CHECK_INT(errs, names[c], val(p, it, i), g[p * K + i]);
                break;
            case GATHERV:
                for (int p = 0; rank == root && p < n; p++) {
                    for (int i = 0; i < cnt[p]; i++)
                        MT_CHECK_INT(errs, names[c], val(p, it, i), g[dsp[p] + i]);
                    MT_CHECK_INT(errs, "gatherv gap", -1, g[dsp[p] + cnt[p]]);
                }
                break;
            case SCATTER:
                for (int i = 0; i < K; i++)
                    MT_CHECK_INT(errs, names[c], val(root, it, rank * K + i), g[i]);
                MT_CHECK_INT(errs, "scatter beyond", -1, g[K]);
                break;
            case SCATTERV:
                for (int i = 0; i < cnt[rank]; i++)
                    MT_CHECK_INT(errs, names[c], val(root, it, dsp[rank] + i), g[i]);
                MT_CHECK_INT(errs, "scatterv beyond", -1, g[cnt[rank]]);
                break;
            case ALLGATHER:
            case ALLTOALL:
                for (int p = 0; p < n; p++)
                    for (int i = 0; i < K; i++)
                        MT_CHECK_INT(errs, names[c], val(p, it, (c == ALLTOALL ? rank * K : 0) + i),
                                     g[p * K + i]);
                break;
            case ALLGATHERV:
                for (int p = 0; p < n; p++)
                    for (int i = 0; i < cnt[p]; i++)
                        MT_CHECK_INT(errs, names[c], val(p, it, i), g[dsp[p] + i]);
                break;
            case ALLTOALLV:
            case ALLTOALLW:
                for (int p = 0; p < n; p++) {
                    for (int i = 0; i < rcnt[p]; i++)
                        MT_CHECK_INT(errs, names[c], val(p, it, rank * K + i), g[p * K + i]);
                    if (rcnt[p] < K)
                        MT_CHECK_INT(errs, "alltoallv gap", -1, g[p * K + rcnt[p]]);
                }
                break;
            case REDUCE:
                for (int i = 0; rank == root && i < K; i++)
                    MT_CHECK_INT(errs, names[c], vsum(n, it, i), g[i]);
                if (rank != root)
                    MT_CHECK_INT(errs, "reduce at a non-root", -1, g[0]);
                break;
            case ALLREDUCE:
            case ALLREDUCE_INPLACE:
                for (int i = 0; i < K; i++)
                    MT_CHECK_INT(errs, names[c], vsum(n, it, i), g[i]);
                break;
            case RSCAT:
                for (int i = 0; i < rscnt[rank]; i++)
                    MT_CHECK_INT(errs, names[c], vsum(n, it, rsoff + i), g[i]);
                break;
            case RSCAT_BLOCK:
                for (int i = 0; i < K; i++)
                    MT_CHECK_INT(errs, names[c], vsum(n, it, rank * K + i), g[i]);
                break;
            case SCAN:
            case EXSCAN:
                for (int i = 0; i < K && (c == SCAN || rank > 0); i++)
                    MT_CHECK_INT(errs, names[c], vsum(c == SCAN ? rank + 1 : rank, it, i), g[i]);
                break;
            }
        }
        mt_migrate();
    }

    /* active across a migration point: the schedule's callbacks follow the rank */
    fill(S[ALLREDUCE], K, rank, ITERS);
    MT_CALL(MPI_Start(&req[ALLREDUCE]));
    mt_migrate();
    MPI_Wait(&req[ALLREDUCE], MPI_STATUS_IGNORE);
    for (int i = 0; i < K; i++)
        MT_CHECK_INT(errs, "allreduce across a migration", vsum(n, ITERS, i), R[ALLREDUCE][i]);

    for (int c = 0; c < NCOLL; c++) {
        MT_CALL(MPI_Request_free(&req[c]));
        MT_CHECK(errs, req[c] == MPI_REQUEST_NULL, "%s: Request_free left the handle", names[c]);
        free(S[c]);
        free(R[c]);
    }
    free(cnt);
    free(dsp);
    free(rcnt);
    free(rdsp);
    free(wsd);
    free(wrd);
    free(wt);
    free(rscnt);
    return mt_finish(errs);
}
