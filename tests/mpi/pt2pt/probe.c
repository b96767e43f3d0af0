/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Probe / MPI_Iprobe with MPI_ANY_SOURCE / MPI_ANY_TAG, then a receive of exactly the probed size from
 * the probed source and tag.  Messages of one sender must be probed in the order they were sent.
 * For several roots: every other rank sends M messages of various sizes (up to 100 KB) to the root. */
#include "mtest.h"

#define M 4

static int msize(int src, int j) { return j == 2 ? 100000 + src : (src * 13 + j * 5) % 50; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int *next = mt_malloc(size * sizeof(int));
    int nroots = size < 4 ? size : 4;

    for (int iter = 0; iter < nroots; iter++) {
        int root = (iter * (size / nroots + 1)) % size, useiprobe = iter % 2;
        if (rank != root) {
            MPI_Request reqs[M];
            unsigned char *bufs[M];
            for (int j = 0; j < M; j++) {
                bufs[j] = mt_malloc(msize(rank, j));
                mt_fill(bufs[j], msize(rank, j), rank, j);
                MPI_Isend(bufs[j], msize(rank, j), MPI_BYTE, root, 100 + j, MPI_COMM_WORLD, &reqs[j]);
            }
            MPI_Waitall(M, reqs, MPI_STATUSES_IGNORE);
            for (int j = 0; j < M; j++)
                free(bufs[j]);
        } else {
            for (int s = 0; s < size; s++)
                next[s] = 0;
            for (int k = 0; k < (size - 1) * M; k++) {
                MPI_Status st;
                if (useiprobe) {
                    do
                        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
                    while (!flag);
                } else {
                    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                }
                int src = st.MPI_SOURCE, tag = st.MPI_TAG, cnt = -1;
                if (src < 0 || src >= size || src == rank) {
                    MT_ERR(errs, "probe returned bad source %d", src);
                    break;
                }
                int j = next[src]++;
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                MT_CHECK(errs, tag == 100 + j && cnt == msize(src, j),
                         "probe (root %d): message %d from %d: expected tag %d size %d, got tag %d size %d", root, j,
                         src, 100 + j, msize(src, j), tag, cnt);
                if (cnt < 0)
                    break;
                unsigned char *rbuf = mt_malloc(cnt);
                MPI_Status rst;
                MPI_Recv(rbuf, cnt, MPI_BYTE, src, tag, MPI_COMM_WORLD, &rst);
                int rcnt = -1;
                MPI_Get_count(&rst, MPI_BYTE, &rcnt);
                MT_CHECK(errs, rst.MPI_SOURCE == src && rst.MPI_TAG == tag && rcnt == cnt,
                         "received status %d/%d/%d differs from probed %d/%d/%d", rst.MPI_SOURCE, rst.MPI_TAG, rcnt,
                         src, tag, cnt);
                long bad = mt_verify(rbuf, cnt, src, tag - 100);
                MT_CHECK(errs, bad < 0, "data of message %d from %d differs at byte %ld", j, src, bad);
                free(rbuf);
            }
            /* nothing else is pending */
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "Iprobe with no pending message", 0, flag);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* probe a message sent to oneself; a specific tag skips an earlier message with another tag */
    {
        int a = 11, b[3] = {21, 22, 23}, got[3] = {0}, cnt = -1;
        MPI_Request r[2];
        MPI_Status st;
        MPI_Isend(&a, 1, MPI_INT, rank, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(b, 3, MPI_INT, rank, 2, MPI_COMM_WORLD, &r[1]);
        MPI_Probe(rank, 2, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(errs, st.MPI_SOURCE == rank && st.MPI_TAG == 2 && cnt == 3, "self probe tag 2: %d %d %d",
                 st.MPI_SOURCE, st.MPI_TAG, cnt);
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(errs, st.MPI_SOURCE == rank && st.MPI_TAG == 1 && cnt == 1, "self probe any: %d %d %d",
                 st.MPI_SOURCE, st.MPI_TAG, cnt);
        MPI_Recv(got, 3, MPI_INT, rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&got[0], 1, MPI_INT, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        MT_CHECK(errs, got[0] == 11 && got[1] == 22 && got[2] == 23, "self probe data %d %d %d", got[0], got[1],
                 got[2]);
        MPI_Iprobe(rank, 1, MPI_COMM_WORLD, &flag, &st);
        MT_CHECK_INT(errs, "Iprobe after receiving everything", 0, flag);
    }
    free(next);
    return mt_finish(errs);
}
