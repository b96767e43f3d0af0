/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Alltoall, Alltoallv and Alltoallw, plain and MPI_IN_PLACE, with blocks of 0, 1, 7, 1025 ints and a
 * per-rank total of about 1 MiB; the v/w forms use counts depending on (sender, receiver), reversed
 * displacements, and (w-form) ints sent and received as pairs of shorts or as bytes. */
#include "mtest.h"

static int val(int src, int dst, int id, long i) { return src * 1000003 + dst * 7919 + id * 31 + (int)i; }
/* in place, what a rank sends to p is what it receives from p: counts must then be symmetric */
static int cnt(int src, int dst, int k, int inplace)
{
    return (inplace ? src + dst : src + 2 * dst) % 3 * k + (src == dst ? 0 : 1);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int sizes[5] = {0, 1, 7, 1025, 262144 / n + 1};
    int *sc = mt_malloc(sizeof(int) * 4 * (size_t)n), *sd = sc + n, *rc = sc + 2 * n, *rd = sc + 3 * n;
    MPI_Datatype *st = mt_malloc(sizeof(MPI_Datatype) * 2 * (size_t)n), *rt = st + n;
    for (int si = 0; si < 5; si++) {
        int k = sizes[si];
        size_t all = (size_t)k * n, cap = all + (size_t)(3 * k + 2) * n;
        int *sb = mt_malloc(sizeof(int) * cap), *rb = mt_malloc(sizeof(int) * cap);
        for (int inplace = 0; inplace < 2; inplace++) {
            size_t vs = 0, vr = 0;
            for (int i = n - 1; i >= 0; i--) {
                sc[i] = cnt(rank, i, k, inplace);
                sd[i] = (int)vs;
                vs += (size_t)sc[i] + 1;
                rc[i] = cnt(i, rank, k, inplace);
                rd[i] = (int)vr;
                vr += (size_t)rc[i] + 1;
            }
            int id = si * 2 + inplace;
            int *src = inplace ? rb : sb;
            for (size_t i = 0; i < all; i++)
                src[i] = val(rank, (int)(i / (size_t)k), id, (long)(i % (size_t)k));
            if (!inplace)
                for (size_t i = 0; i < all; i++)
                    rb[i] = -1;
            MT_CHECK_RC(errs, MPI_Alltoall(inplace ? MPI_IN_PLACE : sb, k, MPI_INT, rb, k, MPI_INT, MPI_COMM_WORLD));
            for (size_t i = 0; i < all; i++)
                if (rb[i] != val((int)(i / (size_t)k), rank, id, (long)(i % (size_t)k))) {
                    MT_ERR(errs, "Alltoall k=%d inplace=%d element %zu: expected %d, got %d", k, inplace, i,
                           val((int)(i / (size_t)k), rank, id, (long)(i % (size_t)k)), rb[i]);
                    break;
                }
            /* v-form (in place: the receive layout is also the send layout) */
            for (int w = 0; w < 2; w++) {
                int idv = id * 4 + w + 1;
                for (size_t i = 0; i < cap; i++)
                    rb[i] = -1;
                for (int p = 0; p < n; p++)
                    for (int i = 0; i < (inplace ? rc[p] : sc[p]); i++)
                        (inplace ? rb + rd[p] : sb + sd[p])[i] = val(rank, p, idv, i);
                if (!w) {
                    MT_CHECK_RC(errs, MPI_Alltoallv(inplace ? MPI_IN_PLACE : sb, sc, sd, MPI_INT, rb, rc, rd,
                                                    MPI_INT, MPI_COMM_WORLD));
                } else {
                    int *bsd = mt_malloc(sizeof(int) * 4 * (size_t)n), *bsc = bsd + n, *brd = bsd + 2 * n,
                        *brc = bsd + 3 * n;
                    for (int p = 0; p < n; p++) { /* send as 2 shorts per int, receive as 4 bytes per int */
                        st[p] = MPI_SHORT;
                        bsc[p] = 2 * sc[p];
                        bsd[p] = sd[p] * 4;
                        rt[p] = MPI_BYTE;
                        brc[p] = 4 * rc[p];
                        brd[p] = rd[p] * 4;
                    }
                    MT_CHECK_RC(errs, MPI_Alltoallw(inplace ? MPI_IN_PLACE : sb, bsc, bsd, st, rb,
                                                    inplace ? bsc : brc, brd, inplace ? st : rt, MPI_COMM_WORLD));
                    free(bsd);
                }
                for (int p = 0; p < n; p++) {
                    for (int i = 0; i < rc[p]; i++)
                        if (rb[rd[p] + i] != val(p, rank, idv, i)) {
                            MT_ERR(errs, "Alltoall%c k=%d inplace=%d from %d element %d: expected %d, got %d",
                                   w ? 'w' : 'v', k, inplace, p, i, val(p, rank, idv, i), rb[rd[p] + i]);
                            break;
                        }
                    MT_CHECK(errs, rb[rd[p] + rc[p]] == -1, "Alltoall%c k=%d inplace=%d wrote %d into the gap after %d",
                             w ? 'w' : 'v', k, inplace, rb[rd[p] + rc[p]], p);
                }
            }
        }
        free(sb);
        free(rb);
    }
    free(sc);
    free(st);
    return mt_finish(errs);
}
