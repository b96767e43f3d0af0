/* SPDX-License-Identifier: BSD-3-Clause */
/* Non-overtaking order.
 * A. Pairs: the sender issues K messages with the SAME tag, small ones mixed with large ones (> 64 KiB); the
 *    receiver gets them in send order, (1) when they are all unexpected, (2) when all receives were posted
 *    first, (3) with half posted before.  Receives with MPI_ANY_SOURCE/ANY_TAG, and exact ones.
 * B. Pairs: tag-selective receives in reverse order of sending still get the right messages.
 * C. All ranks send M small blocking messages to rank 0, which receives with MPI_ANY_SOURCE: the sequence
 *    numbers from each source arrive in order.
 * A rank without a partner does A and B with itself. */
#include "mtest.h"

#define K 40
#define MAXSZ (70000 + K)

static int msz(int i) { return i % 4 == 3 ? 70000 + i : i * 3; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int partner = rank ^ 1, self = partner >= size;
    if (self)
        partner = rank;
    int is_sender = self || rank % 2 == 0, is_receiver = self || rank % 2 == 1;

    unsigned char **sb = mt_malloc(K * sizeof *sb), **rb = mt_malloc(K * sizeof *rb);
    for (int i = 0; i < K; i++) {
        sb[i] = mt_malloc(msz(i));
        rb[i] = mt_malloc(MAXSZ);
    }
    MPI_Request sreq[K], rreq[K];
    MPI_Status st;

    /* ---- A ---- */
    for (int mode = 0; mode < 3; mode++) {
        int tag = 10 + mode, npre = mode == 0 ? 0 : mode == 1 ? K : K / 2;
        /* ANY_TAG only in mode 0, where no receive is pre-posted that could catch the handshake messages
         * (and the last message is a large one, so the sender cannot send anything else before all K are
         * matched) */
        int src = (mode == 1) ? MPI_ANY_SOURCE : partner, rtag = (mode == 0) ? MPI_ANY_TAG : tag;
        if (size > 2 && src == MPI_ANY_SOURCE)
            src = partner; /* other pairs never send to us, but keep the test strict to the pair */
        if (is_receiver)
            for (int i = 0; i < npre; i++)
                MPI_Irecv(rb[i], MAXSZ, MPI_BYTE, src, rtag, MPI_COMM_WORLD, &rreq[i]);
        if (!self)
            MPI_Sendrecv(NULL, 0, MPI_BYTE, partner, 1, NULL, 0, MPI_BYTE, partner, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        if (is_sender) {
            for (int i = 0; i < K; i++) {
                mt_fill(sb[i], msz(i), rank, mode * 100 + i);
                MPI_Isend(sb[i], msz(i), MPI_BYTE, partner, tag, MPI_COMM_WORLD, &sreq[i]);
            }
        }
        if (is_receiver) {
            if (mode == 0 && !self) /* make all K messages unexpected: wait for a marker sent after them */
                MPI_Recv(NULL, 0, MPI_BYTE, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = npre; i < K; i++)
                MPI_Irecv(rb[i], MAXSZ, MPI_BYTE, src, rtag, MPI_COMM_WORLD, &rreq[i]);
            for (int i = 0; i < K; i++) {
                int cnt = -1;
                MPI_Wait(&rreq[i], &st);
                MPI_Get_count(&st, MPI_BYTE, &cnt);
                MT_CHECK(errs, cnt == msz(i) && st.MPI_SOURCE == partner && st.MPI_TAG == tag,
                         "A mode %d: receive %d got %d bytes from %d tag %d, expected message %d (%d bytes)", mode, i,
                         cnt, st.MPI_SOURCE, st.MPI_TAG, i, msz(i));
                long bad = mt_verify(rb[i], msz(i), partner, mode * 100 + i);
                MT_CHECK(errs, bad < 0, "A mode %d: message %d differs at byte %ld (out of order?)", mode, i, bad);
            }
        }
        if (is_sender) {
            if (mode == 0 && !self)
                MPI_Send(NULL, 0, MPI_BYTE, partner, 2, MPI_COMM_WORLD);
            MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE);
        }
    }

    /* ---- B: tag-selective, reverse order ---- */
    if (is_sender)
        for (int i = 0; i < K; i++) {
            mt_fill(sb[i], msz(i), rank, 500 + i);
            MPI_Isend(sb[i], msz(i), MPI_BYTE, partner, 1000 + i, MPI_COMM_WORLD, &sreq[i]);
        }
    if (is_receiver)
        for (int i = K - 1; i >= 0; i--) {
            int cnt = -1;
            MPI_Recv(rb[i], MAXSZ, MPI_BYTE, partner, 1000 + i, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_BYTE, &cnt);
            MT_CHECK(errs, cnt == msz(i) && st.MPI_TAG == 1000 + i, "B: tag %d: got %d bytes tag %d", 1000 + i, cnt,
                     st.MPI_TAG);
            long bad = mt_verify(rb[i], msz(i), partner, 500 + i);
            MT_CHECK(errs, bad < 0, "B: message with tag %d differs at byte %ld", 1000 + i, bad);
        }
    if (is_sender)
        MPI_Waitall(K, sreq, MPI_STATUSES_IGNORE);

    /* ---- C: many senders, ANY_SOURCE ---- */
    const int M = 50;
    if (rank == 0) {
        int *next = mt_malloc(size * sizeof(int));
        for (int i = 0; i < size; i++)
            next[i] = 0;
        for (int i = 0; i < M * (size - 1); i++) {
            int v[2];
            MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &st);
            int s = st.MPI_SOURCE;
            if (s <= 0 || s >= size || v[0] != s) {
                MT_ERR(errs, "C: bad message: source %d payload source %d", s, v[0]);
                continue;
            }
            MT_CHECK(errs, v[1] == next[s], "C: from %d expected sequence %d got %d", s, next[s], v[1]);
            next[s] = v[1] + 1;
        }
        free(next);
    } else {
        for (int i = 0; i < M; i++) {
            int v[2] = {rank, i};
            MPI_Send(v, 2, MPI_INT, 0, 7, MPI_COMM_WORLD);
        }
    }

    for (int i = 0; i < K; i++) {
        free(sb[i]);
        free(rb[i]);
    }
    free(sb);
    free(rb);
    return mt_finish(errs);
}
