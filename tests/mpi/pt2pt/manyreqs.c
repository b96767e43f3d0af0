/* SPDX-License-Identifier: BSD-3-Clause */
/* About 1000 outstanding MPI_Isend and 1000 MPI_Irecv per rank, spread over every other rank (or all to
 * oneself with one rank), completed by one MPI_Waitall.
 * Phase 1: receives posted first, exact source and tag.  Phase 2: receives with MPI_ANY_SOURCE on one tag:
 * the messages of each source must fill the receives in send order.  Phase 3: sends posted first (all
 * unexpected), messages of mixed sizes up to 1 KiB, received with exact source, MPI_ANY_TAG. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int npeers = size > 1 ? size - 1 : 1;
    int K = 1000 / npeers > 0 ? 1000 / npeers : 1; /* messages per peer */
    int total = K * npeers;
    const int maxlen = 256; /* ints */
    int *sbuf = mt_malloc((size_t)total * maxlen * sizeof(int)), *rbuf = mt_malloc((size_t)total * maxlen * sizeof(int));
    MPI_Request *reqs = mt_malloc(2 * total * sizeof(MPI_Request));
    MPI_Status *sts = mt_malloc(2 * total * sizeof(MPI_Status));
#define PEER(p) (size > 1 ? (rank + 1 + (p)) % size : rank) /* p-th peer */
#define LEN(seq) ((seq) % 5 == 4 ? maxlen : 3)

    for (int phase = 1; phase <= 3; phase++) {
        int nr = 0;
        /* receives (phases 1, 2) */
        if (phase != 3)
            for (int p = 0; p < npeers; p++)
                for (int j = 0; j < K; j++) {
                    int i = p * K + j;
                    int src = phase == 1 ? PEER(p) : MPI_ANY_SOURCE, tag = phase == 1 ? j : 0;
                    MPI_Irecv(rbuf + (size_t)i * maxlen, maxlen, MPI_INT, src, tag, MPI_COMM_WORLD, &reqs[nr++]);
                }
        /* sends: to the p-th peer of ours; the values say (source, seq, phase) */
        for (int p = 0; p < npeers; p++) {
            int dst = size > 1 ? (rank + size - 1 - p) % size : rank; /* we are the p-th peer of dst */
            for (int j = 0; j < K; j++) {
                int i = p * K + j, len = phase == 3 ? LEN(j) : 3;
                int *m = sbuf + (size_t)i * maxlen;
                for (int e = 0; e < len; e++)
                    m[e] = e == 0 ? rank : e == 1 ? j : phase * 1000 + e;
                MPI_Isend(m, len, MPI_INT, dst, phase == 1 ? j : phase == 2 ? 0 : j, MPI_COMM_WORLD, &reqs[nr++]);
            }
        }
        if (phase == 3)
            for (int p = 0; p < npeers; p++)
                for (int j = 0; j < K; j++) {
                    int i = p * K + j;
                    MPI_Irecv(rbuf + (size_t)i * maxlen, maxlen, MPI_INT, PEER(p), MPI_ANY_TAG, MPI_COMM_WORLD,
                              &reqs[nr++]);
                }
        MPI_Waitall(nr, reqs, sts);

        MPI_Status *rst = phase == 3 ? sts + total : sts;
        if (phase == 2) {
            int *next = mt_malloc(size * sizeof(int));
            for (int s = 0; s < size; s++)
                next[s] = 0;
            for (int i = 0; i < total; i++) {
                int *m = rbuf + (size_t)i * maxlen, s = rst[i].MPI_SOURCE;
                if (s < 0 || s >= size || m[0] != s) {
                    MT_ERR(errs, "phase 2: receive %d: status source %d, payload source %d", i, s, m[0]);
                    continue;
                }
                MT_CHECK(errs, m[1] == next[s] && m[2] == 2002, "phase 2: from %d expected seq %d got %d (%d)", s,
                         next[s], m[1], m[2]);
                next[s] = m[1] + 1;
            }
            for (int p = 0; p < npeers; p++)
                MT_CHECK(errs, next[PEER(p)] == K, "phase 2: got %d messages from %d, expected %d", next[PEER(p)],
                         PEER(p), K);
            free(next);
        } else {
            for (int p = 0; p < npeers; p++)
                for (int j = 0; j < K; j++) {
                    int i = p * K + j, len = phase == 3 ? LEN(j) : 3, cnt = -1;
                    int *m = rbuf + (size_t)i * maxlen;
                    MPI_Get_count(&rst[i], MPI_INT, &cnt);
                    int ok = cnt == len && rst[i].MPI_SOURCE == PEER(p) && rst[i].MPI_TAG == j && m[0] == PEER(p) &&
                             m[1] == j;
                    for (int e = 2; ok && e < len; e++)
                        ok = m[e] == phase * 1000 + e;
                    MT_CHECK(errs, ok, "phase %d: message %d from %d: count %d source %d tag %d payload %d/%d", phase,
                             j, PEER(p), cnt, rst[i].MPI_SOURCE, rst[i].MPI_TAG, m[0], m[1]);
                }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(sbuf);
    free(rbuf);
    free(reqs);
    free(sts);
    return mt_finish(errs);
}
