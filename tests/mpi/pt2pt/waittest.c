/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Waitany / Testany / Waitsome / Testsome / Testall / Waitall: returned indices, flags, outcounts and
 * statuses.  The receiver posts N receives (tags 0..N-1, some large) and then "releases" messages one at a
 * time by sending a go-message naming a tag to the sender, so which requests can be complete is known exactly.
 * Pairs (0,1), (2,3)...; a rank without a partner plays both roles with itself (Isend instead of go-messages).
 */
#include "mtest.h"

#define N 8
#define GO_TAG 1000
#define BIG 200000

typedef struct {
    int rank, partner, self, test;
    unsigned char *sbuf[N];
    MPI_Request sreq[N];
} ctx_t;

static int msg_size(int k) { return k % 3 == 0 ? BIG : 16 * k + 1; }

/* let message k of the current test be sent */
static void release(ctx_t *c, int k)
{
    if (c->self) {
        mt_fill(c->sbuf[k], msg_size(k), c->rank, c->test * 100 + k);
        MPI_Isend(c->sbuf[k], msg_size(k), MPI_BYTE, c->rank, k, MPI_COMM_WORLD, &c->sreq[k]);
    } else {
        MPI_Send(&k, 1, MPI_INT, c->partner, GO_TAG, MPI_COMM_WORLD);
    }
}

static void end_test(ctx_t *c)
{
    int stop = -1;
    if (c->self)
        MPI_Waitall(N, c->sreq, MPI_STATUSES_IGNORE);
    else
        MPI_Send(&stop, 1, MPI_INT, c->partner, GO_TAG, MPI_COMM_WORLD);
    c->test++;
}

/* sender side of one test: send what the receiver asks for, until -1 */
static void serve(ctx_t *c)
{
    for (;;) {
        int k;
        MPI_Recv(&k, 1, MPI_INT, c->partner, GO_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k < 0)
            break;
        mt_fill(c->sbuf[0], msg_size(k), c->rank, c->test * 100 + k);
        MPI_Send(c->sbuf[0], msg_size(k), MPI_BYTE, c->partner, k, MPI_COMM_WORLD);
    }
    c->test++;
}

static void post(ctx_t *c, unsigned char **rbuf, MPI_Request *reqs)
{
    for (int k = 0; k < N; k++) {
        memset(rbuf[k], 0, msg_size(k));
        MPI_Irecv(rbuf[k], msg_size(k), MPI_BYTE, c->partner, k, MPI_COMM_WORLD, &reqs[k]);
    }
}

static int check(ctx_t *c, unsigned char **rbuf, int k, const MPI_Status *st, const char *what)
{
    int errs = 0, cnt = -1;
    MPI_Get_count(st, MPI_BYTE, &cnt);
    MT_CHECK(errs, st->MPI_SOURCE == c->partner && st->MPI_TAG == k && cnt == msg_size(k),
             "%s (test %d): status for index %d: expected source %d tag %d count %d, got %d %d %d", what, c->test, k,
             c->partner, k, msg_size(k), st->MPI_SOURCE, st->MPI_TAG, cnt);
    long bad = mt_verify(rbuf[k], msg_size(k), c->partner, c->test * 100 + k);
    MT_CHECK(errs, bad < 0, "%s (test %d): data of message %d differs at byte %ld", what, c->test, k, bad);
    return errs;
}

static const int perm[N] = {3, 0, 7, 5, 1, 6, 2, 4};

static int receiver(ctx_t *c, unsigned char **rbuf)
{
    int errs = 0, idx, flag, outcount;
    MPI_Request reqs[N + 2];
    MPI_Status st, sts[N + 2];
    int indices[N + 2];

    /* ---- Waitany ---- */
    post(c, rbuf, reqs);
    for (int j = 0; j < N; j++) {
        release(c, perm[j]);
        MPI_Waitany(N, reqs, &idx, &st);
        MT_CHECK_INT(errs, "Waitany index", perm[j], idx);
        if (idx >= 0 && idx < N) {
            errs += check(c, rbuf, idx, &st, "Waitany");
            MT_CHECK(errs, reqs[idx] == MPI_REQUEST_NULL, "Waitany did not free request %d", idx);
        }
    }
    MPI_Waitany(N, reqs, &idx, &st);
    MT_CHECK_INT(errs, "Waitany on all-null requests: index", MPI_UNDEFINED, idx);
    MT_CHECK_EMPTY_STATUS(errs, st);
    flag = 0;
    MPI_Testany(N, reqs, &idx, &flag, &st);
    MT_CHECK(errs, flag == 1 && idx == MPI_UNDEFINED, "Testany on all-null: flag %d index %d", flag, idx);
    MT_CHECK_EMPTY_STATUS(errs, st);
    end_test(c);

    /* ---- Testany ---- */
    post(c, rbuf, reqs);
    for (int i = 0; i < 100; i++) {
        MPI_Testany(N, reqs, &idx, &flag, &st);
        MT_CHECK(errs, flag == 0 && idx == MPI_UNDEFINED, "Testany before any send: flag %d index %d", flag, idx);
        if (flag)
            break;
    }
    for (int j = 0; j < N; j++) {
        release(c, perm[j]);
        do
            MPI_Testany(N, reqs, &idx, &flag, &st);
        while (!flag);
        MT_CHECK_INT(errs, "Testany index", perm[j], idx);
        if (idx >= 0 && idx < N) {
            errs += check(c, rbuf, idx, &st, "Testany");
            MT_CHECK(errs, reqs[idx] == MPI_REQUEST_NULL, "Testany did not free request %d", idx);
        }
    }
    end_test(c);

    /* ---- Waitsome: release two at a time ---- */
    post(c, rbuf, reqs);
    int seen[N] = {0};
    for (int j = 0; j < N; j += 2) {
        release(c, perm[j]);
        release(c, perm[j + 1]);
        int got = 0;
        while (got < 2) {
            MPI_Waitsome(N, reqs, &outcount, indices, sts);
            MT_CHECK(errs, outcount >= 1 && outcount <= 2 - got, "Waitsome outcount %d (already got %d of 2)",
                     outcount, got);
            if (outcount < 1 || outcount > 2 - got)
                break;
            for (int i = 0; i < outcount; i++) {
                int k = indices[i];
                MT_CHECK(errs, k == perm[j] || k == perm[j + 1], "Waitsome index %d, expected %d or %d", k, perm[j],
                         perm[j + 1]);
                if (k < 0 || k >= N)
                    continue;
                MT_CHECK(errs, !seen[k], "Waitsome returned index %d twice", k);
                seen[k] = 1;
                errs += check(c, rbuf, k, &sts[i], "Waitsome");
                MT_CHECK(errs, reqs[k] == MPI_REQUEST_NULL, "Waitsome did not free request %d", k);
            }
            got += outcount;
        }
    }
    MPI_Waitsome(N, reqs, &outcount, indices, sts);
    MT_CHECK_INT(errs, "Waitsome on all-null: outcount", MPI_UNDEFINED, outcount);
    end_test(c);

    /* ---- Testsome ---- */
    post(c, rbuf, reqs);
    MPI_Testsome(N, reqs, &outcount, indices, sts);
    MT_CHECK_INT(errs, "Testsome before any send: outcount", 0, outcount);
    for (int j = 0; j < N; j++)
        release(c, perm[j]);
    memset(seen, 0, sizeof seen);
    int total = 0;
    while (total < N) {
        MPI_Testsome(N, reqs, &outcount, indices, sts);
        MT_CHECK(errs, outcount >= 0 && outcount <= N - total, "Testsome outcount %d with %d left", outcount,
                 N - total);
        if (outcount < 0 || outcount > N - total)
            break;
        for (int i = 0; i < outcount; i++) {
            int k = indices[i];
            MT_CHECK(errs, k >= 0 && k < N && !seen[k], "Testsome index %d invalid or repeated", k);
            if (k < 0 || k >= N)
                continue;
            seen[k] = 1;
            errs += check(c, rbuf, k, &sts[i], "Testsome");
        }
        total += outcount;
    }
    MPI_Testsome(N, reqs, &outcount, indices, sts);
    MT_CHECK_INT(errs, "Testsome on all-null: outcount", MPI_UNDEFINED, outcount);
    end_test(c);

    /* ---- Testall: false (and requests untouched) while one is missing ---- */
    post(c, rbuf, reqs);
    for (int j = 0; j < N - 1; j++)
        release(c, perm[j]);
    do /* wait until message perm[0] is surely complete, without freeing it */
        MPI_Request_get_status(reqs[perm[0]], &flag, MPI_STATUS_IGNORE);
    while (!flag);
    for (int i = 0; i < 50; i++) {
        MPI_Testall(N, reqs, &flag, sts);
        MT_CHECK_INT(errs, "Testall with one message unsent: flag", 0, flag);
        if (flag)
            break;
    }
    for (int k = 0; k < N; k++)
        MT_CHECK(errs, reqs[k] != MPI_REQUEST_NULL, "Testall returning false freed request %d", k);
    release(c, perm[N - 1]);
    do
        MPI_Testall(N, reqs, &flag, sts);
    while (!flag);
    for (int k = 0; k < N; k++) {
        errs += check(c, rbuf, k, &sts[k], "Testall");
        MT_CHECK(errs, reqs[k] == MPI_REQUEST_NULL, "Testall did not free request %d", k);
    }
    end_test(c);

    /* ---- Waitall with null requests in the array, then with MPI_STATUSES_IGNORE ---- */
    MPI_Request mixed[N + 2];
    post(c, rbuf, reqs);
    for (int k = 0, m = 0; m < N + 2; m++)
        mixed[m] = (m == 1 || m == N) ? MPI_REQUEST_NULL : reqs[k++];
    for (int j = 0; j < N; j++)
        release(c, perm[j]);
    MPI_Waitall(N + 2, mixed, sts);
    for (int k = 0, m = 0; m < N + 2; m++) {
        if (m == 1 || m == N) {
            MT_CHECK_EMPTY_STATUS(errs, sts[m]);
        } else {
            errs += check(c, rbuf, k++, &sts[m], "Waitall");
        }
        MT_CHECK(errs, mixed[m] == MPI_REQUEST_NULL, "Waitall did not free request %d", m);
    }
    end_test(c);

    post(c, rbuf, reqs);
    for (int j = 0; j < N; j++)
        release(c, perm[j]);
    MPI_Waitall(N, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < N; k++) {
        long bad = mt_verify(rbuf[k], msg_size(k), c->partner, c->test * 100 + k);
        MT_CHECK(errs, bad < 0, "Waitall(STATUSES_IGNORE): message %d differs at byte %ld", k, bad);
    }
    end_test(c);
    MT_CHECK_RC(errs, MPI_Waitall(0, NULL, NULL));
    return errs;
}

#define NTESTS 7

int main(int argc, char **argv)
{
    int errs = 0, size;
    ctx_t c;
    memset(&c, 0, sizeof c);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    c.partner = c.rank ^ 1;
    c.self = c.partner >= size;
    if (c.self)
        c.partner = c.rank;

    unsigned char *rbuf[N];
    for (int k = 0; k < N; k++) {
        rbuf[k] = mt_malloc(msg_size(k));
        c.sbuf[k] = mt_malloc(BIG);
    }
    if (c.self || c.rank % 2 == 1)
        errs += receiver(&c, rbuf);
    else
        for (int t = 0; t < NTESTS; t++)
            serve(&c);

    for (int k = 0; k < N; k++) {
        free(rbuf[k]);
        free(c.sbuf[k]);
    }
    return mt_finish(errs);
}
