/* SPDX-License-Identifier: BSD-3-Clause */
/* Ordering of accumulate operations (MPI-3.1 11.7.2): by default (accumulate_ordering rar,raw,war,waw),
 * accumulate-family operations from one origin to one target on overlapping locations take effect in program
 * order, with no flush in between.  Each rank owns a region of N int64 in every window and runs, on every
 * target, rounds of
 *   Accumulate REPLACE [0, N)  -> Accumulate SUM [N/4, 3N/4)  -> Get_accumulate NO_OP [0, N)         (raw)
 *   -> Get_accumulate SUM [N/2, N)                                                                    (raw, war)
 *   -> Accumulate REPLACE [0, N/4) -> Fetch_and_op NO_OP at N/2 -> Compare_and_swap at 1 (expecting the
 *   REPLACE's value) -> Rget_accumulate MAX [N-4, N) -> Raccumulate BXOR [N-2, N) -> Fetch_and_op SUM at N-1
 * and only then Win_flush; every fetched value must be the one a serial execution gives, and so must the
 * final contents.  Then the same on a window created with accumulate_ordering=none, with a Win_flush after
 * each operation (which orders them whatever the hint). */
#include "mtest.h"

enum { N = 16, NFETCH = 8 };

static int64_t v(int r, int t, int k, int what, int i)
{
    return ((int64_t)r * 1000 + t) * 100000 + k * 1000 + what * 50 + i;
}

static int run(MPI_Win win, int64_t *base, int ordered, int rank, int size, int rounds)
{
    int errs = 0;
    const char *what = ordered ? "default ordering" : "accumulate_ordering=none with flushes";
    int64_t *model = mt_malloc(sizeof(int64_t) * N * (size_t)size);
    int64_t(*res)[N] = mt_malloc(sizeof(int64_t) * N * NFETCH * (size_t)size);
    int64_t(*want)[N] = mt_malloc(sizeof(int64_t) * N * NFETCH * (size_t)size);
    int64_t *src = mt_malloc(sizeof(int64_t) * 8 * N * (size_t)size);
    memset(base, 0, sizeof(int64_t) * N * (size_t)size);
    memset(model, 0, sizeof(int64_t) * N * (size_t)size);
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
#define SYNC(t)                                                                                               \
    do {                                                                                                      \
        if (!ordered)                                                                                         \
            MT_CHECK_RC(errs, MPI_Win_flush(t, win));                                                         \
    } while (0)
    for (int k = 0; k < rounds; k++) {
        for (int n = 0; n < size; n++) {
            int t = (rank + n) % size;
            MPI_Aint d0 = (MPI_Aint)rank * N;
            int64_t *m = model + (size_t)t * N, (*R)[N] = res + (size_t)n * NFETCH, (*W)[N] = want + (size_t)n * NFETCH;
            int64_t *s = src + (size_t)n * 8 * N; /* origin buffers stay untouched until the flush */
            MPI_Request rq[2];
            for (int f = 0; f < NFETCH; f++)
                for (int i = 0; i < N; i++)
                    R[f][i] = W[f][i] = -1;
            /* 1: REPLACE all */
            for (int i = 0; i < N; i++)
                m[i] = s[i] = v(rank, t, k, 1, i);
            MT_CHECK_RC(errs, MPI_Accumulate(s, N, MPI_INT64_T, t, d0, N, MPI_INT64_T, MPI_REPLACE, win));
            SYNC(t);
            /* 2: SUM the middle half */
            for (int i = 0; i < N / 2; i++) {
                s[N + i] = v(rank, t, k, 2, i);
                m[N / 4 + i] += s[N + i];
            }
            MT_CHECK_RC(errs,
                        MPI_Accumulate(s + N, N / 2, MPI_INT64_T, t, d0 + N / 4, N / 2, MPI_INT64_T, MPI_SUM, win));
            SYNC(t);
            /* 3: NO_OP read of all */
            memcpy(W[0], m, sizeof(int64_t) * N);
            MT_CHECK_RC(errs, MPI_Get_accumulate(NULL, 0, MPI_INT64_T, R[0], N, MPI_INT64_T, t, d0, N, MPI_INT64_T,
                                                 MPI_NO_OP, win));
            SYNC(t);
            /* 4: fetch and SUM the upper half */
            for (int i = 0; i < N / 2; i++) {
                s[2 * N + i] = v(rank, t, k, 4, i);
                W[1][i] = m[N / 2 + i];
                m[N / 2 + i] += s[2 * N + i];
            }
            MT_CHECK_RC(errs, MPI_Get_accumulate(s + 2 * N, N / 2, MPI_INT64_T, R[1], N / 2, MPI_INT64_T, t,
                                                 d0 + N / 2, N / 2, MPI_INT64_T, MPI_SUM, win));
            SYNC(t);
            /* 5: REPLACE the first quarter */
            for (int i = 0; i < N / 4; i++)
                m[i] = s[3 * N + i] = v(rank, t, k, 5, i);
            MT_CHECK_RC(errs,
                        MPI_Accumulate(s + 3 * N, N / 4, MPI_INT64_T, t, d0, N / 4, MPI_INT64_T, MPI_REPLACE, win));
            SYNC(t);
            /* 6: NO_OP fetch of one element */
            W[2][0] = m[N / 2];
            MT_CHECK_RC(errs, MPI_Fetch_and_op(NULL, R[2], MPI_INT64_T, t, d0 + N / 2, MPI_NO_OP, win));
            SYNC(t);
            /* 7: compare and swap element 1, expecting step 5's value */
            s[4 * N] = m[1];
            s[4 * N + 1] = v(rank, t, k, 7, 0);
            W[3][0] = m[1];
            m[1] = s[4 * N + 1];
            MT_CHECK_RC(errs, MPI_Compare_and_swap(s + 4 * N + 1, s + 4 * N, R[3], MPI_INT64_T, t, d0 + 1, win));
            SYNC(t);
            /* 8: fetch and MAX the last four, as a request */
            for (int i = 0; i < 4; i++) {
                s[5 * N + i] = (i % 2) ? m[N - 4 + i] + 1 : 0;
                W[4][i] = m[N - 4 + i];
                if (s[5 * N + i] > m[N - 4 + i])
                    m[N - 4 + i] = s[5 * N + i];
            }
            MT_CHECK_RC(errs, MPI_Rget_accumulate(s + 5 * N, 4, MPI_INT64_T, R[4], 4, MPI_INT64_T, t, d0 + N - 4, 4,
                                                  MPI_INT64_T, MPI_MAX, win, &rq[0]));
            SYNC(t);
            /* 9: BXOR the last two, as a request */
            for (int i = 0; i < 2; i++) {
                s[6 * N + i] = v(rank, t, k, 9, i) * 7919;
                m[N - 2 + i] ^= s[6 * N + i];
            }
            MT_CHECK_RC(errs, MPI_Raccumulate(s + 6 * N, 2, MPI_INT64_T, t, d0 + N - 2, 2, MPI_INT64_T, MPI_BXOR, win,
                                              &rq[1]));
            SYNC(t);
            /* 10: fetch and add at the last */
            s[7 * N] = 3;
            W[5][0] = m[N - 1];
            m[N - 1] += 3;
            MT_CHECK_RC(errs, MPI_Fetch_and_op(s + 7 * N, R[5], MPI_INT64_T, t, d0 + N - 1, MPI_SUM, win));
            SYNC(t);
            MT_CHECK_RC(errs, MPI_Waitall(2, rq, MPI_STATUSES_IGNORE));
        }
        MT_CHECK_RC(errs, MPI_Win_flush_all(win));
        for (int n = 0; n < size; n++) {
            static const int len[NFETCH] = {N, N / 2, 1, 1, 4, 1, 0, 0};
            static const char *const name[NFETCH] = {"Get_accumulate NO_OP", "Get_accumulate SUM", "Fetch_and_op NO_OP",
                                                     "Compare_and_swap", "Rget_accumulate MAX", "Fetch_and_op SUM",
                                                     "", ""};
            int t = (rank + n) % size;
            for (int f = 0; f < NFETCH; f++)
                for (int i = 0; i < len[f]; i++)
                    if (res[(size_t)n * NFETCH + f][i] != want[(size_t)n * NFETCH + f][i]) {
                        MT_ERR(errs, "%s, round %d, target %d: %s fetched [%d] = %lld, program order gives %lld", what,
                               k, t, name[f], i, (long long)res[(size_t)n * NFETCH + f][i],
                               (long long)want[(size_t)n * NFETCH + f][i]);
                        break;
                    }
        }
    }
#undef SYNC
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MPI_Barrier(MPI_COMM_WORLD);
    /* the final contents of my region at each target, read back */
    int64_t *got = mt_malloc(sizeof(int64_t) * N);
    for (int t = 0; t < size; t++) {
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win));
        MT_CHECK_RC(errs, MPI_Get(got, N, MPI_INT64_T, t, (MPI_Aint)rank * N, N, MPI_INT64_T, win));
        MT_CHECK_RC(errs, MPI_Win_unlock(t, win));
        for (int i = 0; i < N; i++)
            if (got[i] != model[(size_t)t * N + i]) {
                MT_ERR(errs, "%s: final [%d] of my region at rank %d: %lld, program order gives %lld", what, i, t,
                       (long long)got[i], (long long)model[(size_t)t * N + i]);
                break;
            }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    free(got);
    free(model);
    free(res);
    free(want);
    free(src);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = size <= 8 ? 30 : 240 / size > 3 ? 240 / size : 3;
    MPI_Aint bytes = (MPI_Aint)sizeof(int64_t) * N * size;
    int64_t *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(bytes, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    errs += run(win, base, 1, rank, size, rounds);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "none");
    MT_CHECK_RC(errs, MPI_Win_allocate(bytes, sizeof(int64_t), info, MPI_COMM_WORLD, &base, &win));
    MPI_Info_free(&info);
    errs += run(win, base, 0, rank, size, rounds / 3 + 1);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return mt_finish(errs);
}
