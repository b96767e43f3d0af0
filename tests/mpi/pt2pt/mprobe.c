/* SPDX-License-Identifier: BSD-3-Clause */
/* Matched probes: MPI_Mprobe / MPI_Improbe / MPI_Mrecv / MPI_Imrecv.
 * All other ranks send M messages with the SAME tag to a root at once (ANY_SOURCE races).  The root
 * repeatedly mprobes two messages, then does an ordinary MPI_Recv(ANY_SOURCE), then receives the two probed
 * messages in reverse order.  Every message must be received exactly once, a probed message can no longer be
 * matched by anything else, the messages of one sender are matched in send order, and each Mrecv gets exactly
 * the message its probe described.  Also: MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, Improbe with nothing
 * pending gives flag 0, message handles become MPI_MESSAGE_NULL. */
#include "mtest.h"

#define M 6
#define TAG 7

static int msize(int src, int j) { return (j == 3 ? 70000 : j * 100) + src + 1; }

/* which message number j of src has this size (-1 if none) */
static int seq_of(int src, int cnt)
{
    for (int j = 0; j < M; j++)
        if (msize(src, j) == cnt)
            return j;
    return -1;
}

/* account for one matched message; returns errors */
static int matched(int *next, int size, int rank, const MPI_Status *st, const char *how)
{
    int errs = 0, cnt = -1, src = st->MPI_SOURCE;
    MPI_Get_count(st, MPI_BYTE, &cnt);
    if (src < 0 || src >= size || src == rank || st->MPI_TAG != TAG) {
        MT_ERR(errs, "%s: bad status source %d tag %d", how, src, st->MPI_TAG);
        return errs;
    }
    int j = seq_of(src, cnt);
    MT_CHECK(errs, j == next[src], "%s: from %d expected message %d (size %d), matched size %d (message %d)", how,
             src, next[src], next[src] < M ? msize(src, next[src]) : -1, cnt, j);
    next[src]++;
    return errs;
}

static int check_data(const unsigned char *buf, const MPI_Status *probed, const MPI_Status *got, const char *how)
{
    int errs = 0, c1 = -1, c2 = -2;
    MPI_Get_count(probed, MPI_BYTE, &c1);
    MPI_Get_count(got, MPI_BYTE, &c2);
    MT_CHECK(errs, probed->MPI_SOURCE == got->MPI_SOURCE && probed->MPI_TAG == got->MPI_TAG && c1 == c2,
             "%s: received status %d/%d/%d differs from probed %d/%d/%d", how, got->MPI_SOURCE, got->MPI_TAG, c2,
             probed->MPI_SOURCE, probed->MPI_TAG, c1);
    int j = seq_of(probed->MPI_SOURCE, c1);
    long bad = mt_verify(buf, c1 > 0 ? c1 : 0, probed->MPI_SOURCE, j);
    MT_CHECK(errs, bad < 0, "%s: data of message %d from %d differs at byte %ld", how, j, probed->MPI_SOURCE, bad);
    return errs;
}

static void do_probe(int nb, MPI_Message *m, MPI_Status *st)
{
    if (nb) {
        int flag = 0;
        do
            MPI_Improbe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, m, st);
        while (!flag);
    } else {
        MPI_Mprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, m, st);
    }
}

static void do_mrecv(int nb, void *buf, int cnt, MPI_Message *m, MPI_Status *st)
{
    if (nb) {
        MPI_Request r;
        MPI_Imrecv(buf, cnt, MPI_BYTE, m, &r);
        MPI_Wait(&r, st);
    } else {
        MPI_Mrecv(buf, cnt, MPI_BYTE, m, st);
    }
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int *next = mt_malloc(size * sizeof(int));
    unsigned char *b1 = mt_malloc(70000 + size + 1), *b2 = mt_malloc(70000 + size + 1),
                  *b3 = mt_malloc(70000 + size + 1);
    int nroots = size < 3 ? size : 3;

    for (int iter = 0; iter < 2 * nroots; iter++) {
        int root = (iter % nroots) * (size - 1) / (nroots > 1 ? nroots - 1 : 1), nb = iter / nroots;
        if (rank != root) {
            MPI_Request reqs[M];
            unsigned char *bufs[M];
            for (int j = 0; j < M; j++) {
                bufs[j] = mt_malloc(msize(rank, j));
                mt_fill(bufs[j], msize(rank, j), rank, j);
                MPI_Isend(bufs[j], msize(rank, j), MPI_BYTE, root, TAG, MPI_COMM_WORLD, &reqs[j]);
            }
            MPI_Waitall(M, reqs, MPI_STATUSES_IGNORE);
            for (int j = 0; j < M; j++)
                free(bufs[j]);
        } else {
            int left = (size - 1) * M;
            for (int s = 0; s < size; s++)
                next[s] = 0;
            while (left > 0) {
                MPI_Message m1 = MPI_MESSAGE_NULL, m2 = MPI_MESSAGE_NULL;
                MPI_Status p1, p2, r1, r2, r3;
                do_probe(nb, &m1, &p1);
                errs += matched(next, size, rank, &p1, "probe 1");
                left--;
                MT_CHECK(errs, m1 != MPI_MESSAGE_NULL && m1 != MPI_MESSAGE_NO_PROC, "probe 1 returned message %d",
                         (int)m1);
                if (left > 0) {
                    do_probe(!nb, &m2, &p2);
                    errs += matched(next, size, rank, &p2, "probe 2");
                    left--;
                    MT_CHECK(errs, m2 != m1 && m2 != MPI_MESSAGE_NULL, "probe 2 returned message %d (probe 1: %d)",
                             (int)m2, (int)m1);
                }
                if (left > 0) { /* an ordinary receive must skip the probed messages */
                    MPI_Recv(b3, 70000 + size + 1, MPI_BYTE, MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &r3);
                    errs += matched(next, size, rank, &r3, "recv");
                    left--;
                    errs += check_data(b3, &r3, &r3, "recv");
                }
                if (m2 != MPI_MESSAGE_NULL) {
                    int c;
                    MPI_Get_count(&p2, MPI_BYTE, &c);
                    do_mrecv(nb, b2, c, &m2, &r2);
                    MT_CHECK(errs, m2 == MPI_MESSAGE_NULL, "Mrecv did not set the message to MPI_MESSAGE_NULL");
                    errs += check_data(b2, &p2, &r2, "mrecv 2");
                }
                int c;
                MPI_Get_count(&p1, MPI_BYTE, &c);
                do_mrecv(!nb, b1, c, &m1, &r1);
                MT_CHECK(errs, m1 == MPI_MESSAGE_NULL, "Mrecv did not set the message to MPI_MESSAGE_NULL");
                errs += check_data(b1, &p1, &r1, "mrecv 1");
            }
            for (int s = 0; s < size; s++)
                if (s != rank)
                    MT_CHECK(errs, next[s] == M, "got %d messages from %d, expected %d", next[s], s, M);
            MPI_Message m = MPI_MESSAGE_NULL;
            MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
            MT_CHECK_INT(errs, "Improbe with nothing pending: flag", 0, flag);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* MPI_PROC_NULL */
    {
        MPI_Message m = MPI_MESSAGE_NULL;
        MPI_Status st;
        int cnt = -1, x = 5;
        MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &m, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(errs, m == MPI_MESSAGE_NO_PROC, "Mprobe(PROC_NULL) message %d, expected MPI_MESSAGE_NO_PROC", (int)m);
        MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
                 "Mprobe(PROC_NULL) status %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, cnt);
        MPI_Mrecv(&x, 1, MPI_INT, &m, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0 && x == 5,
                 "Mrecv(NO_PROC) status %d/%d/%d value %d", st.MPI_SOURCE, st.MPI_TAG, cnt, x);
        MT_CHECK(errs, m == MPI_MESSAGE_NULL, "Mrecv(NO_PROC) left message %d", (int)m);
        flag = 0;
        MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &m, &st);
        MT_CHECK(errs, flag && m == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL,
                 "Improbe(PROC_NULL): flag %d message %d source %d", flag, (int)m, st.MPI_SOURCE);
        MPI_Request r;
        MPI_Imrecv(&x, 1, MPI_INT, &m, &r);
        MPI_Wait(&r, &st);
        MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL && x == 5, "Imrecv(NO_PROC): source %d", st.MPI_SOURCE);
    }

    /* to oneself, with a specific source and tag */
    {
        int v[2] = {3, 4}, w[2] = {0, 0};
        MPI_Request r, r2;
        MPI_Message m;
        MPI_Status st;
        MPI_Isend(v, 2, MPI_INT, rank, 9, MPI_COMM_WORLD, &r);
        MPI_Mprobe(rank, 9, MPI_COMM_WORLD, &m, &st);
        MPI_Imrecv(w, 2, MPI_INT, &m, &r2);
        MT_CHECK(errs, m == MPI_MESSAGE_NULL, "Imrecv did not set the message to MPI_MESSAGE_NULL");
        MPI_Wait(&r2, &st);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MT_CHECK(errs, w[0] == 3 && w[1] == 4 && st.MPI_SOURCE == rank && st.MPI_TAG == 9, "self Mprobe/Imrecv");
    }
    free(next);
    free(b1);
    free(b2);
    free(b3);
    return mt_finish(errs);
}
