/* SPDX-License-Identifier: BSD-3-Clause */
/* Accumulate-family operations are atomic as whole operations with respect to each other at the target, as
 * MPICH and Open MPI make them (MPI-3.1 11.7.1 promises atomicity per basic element only; lock-free codes such
 * as MPICH's linked_list_bench_* read and write 16-byte MPI_BYTE records with Get_accumulate and Accumulate).
 * Records in rank 0's window, each self-consistent at all times:
 *   - MPI_BYTE records of 16 bytes (aligned), 7 bytes (at an odd address) and 27 bytes: all bytes equal;
 *   - 3 MPI_INTs: all equal;
 *   - 2 MPI_INT64_Ts to which writers add (d, d) with MPI_SUM: always equal, and at the end the sum of every d;
 *   - 3 MPI_INTs every other int (a vector target type: pieces that are not adjacent), all equal.
 * With several processes (vmpirun --emulate-procs, the testlist's VMPI_EMULATE_PROCS runs) some origins take
 * the local way and others the remote way (an active message applied by the target's PE): a remote
 * accumulate must be one application however its target is cut into runs, or records tear.
 * Odd ranks write (Accumulate MPI_REPLACE, Get_accumulate MPI_REPLACE whose old value must be consistent too,
 * Accumulate MPI_SUM); even ranks, rank 0 too, read with Get_accumulate MPI_NO_OP.  And a counter of 2
 * MPI_INT64_Ts that odd ranks increment one element of with Fetch_and_op (one element: a hardware atomic)
 * while even ranks add (1, 1) with Accumulate (several elements: the other path), then every rank does long
 * runs of Fetch_and_op broken by an Accumulate of (1, 1): no update may be lost.
 * Everyone runs a fixed number of rounds in one lock_all epoch without waiting for the others (on 2 PEs
 * readers and writers run at the same time); with one rank, rank 0 alternates writing and reading. */
#include "mtest.h"

enum { L16 = 0, L7 = 33, L27 = 41, LINT3 = 72, LSUM = 88, LCNT = 104, LVEC = 128, WINSZ = 160 };

static const int rec_off[3] = {L16, L7, L27}, rec_len[3] = {16, 7, 27};

/* A record is consistent when all its bytes are equal. */
static int bytes_ok(const unsigned char *p, int n)
{
    for (int i = 1; i < n; i++)
        if (p[i] != p[0])
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char *base;
    MPI_Win win;
    MPI_Win_allocate(rank == 0 ? WINSZ : 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Datatype vec; /* 3 MPI_INTs, every other one */
    MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (rank == 0)
        memset(base, 0, WINSZ);
    MPI_Barrier(MPI_COMM_WORLD);
    int rounds = 40000 / size < 2000 ? 2000 : 40000 / size;
    long long my_d = 0, my_fop = 0, my_acc = 0; /* what this rank added */
    MPI_Win_lock_all(0, win);
    for (int k = 0; k < rounds; k++) {
        int write = size == 1 ? k % 2 == 0 : rank % 2 == 1;
        int r = k % 3;
        unsigned char rec[32], old[32];
        if (write) {
            unsigned char v = (unsigned char)(1 + (rank * 7 + k) % 250);
            memset(rec, v, sizeof rec);
            if (k % 2 == 0)
                MPI_Accumulate(rec, rec_len[r], MPI_BYTE, 0, rec_off[r], rec_len[r], MPI_BYTE, MPI_REPLACE, win);
            else {
                MPI_Get_accumulate(rec, rec_len[r], MPI_BYTE, old, rec_len[r], MPI_BYTE, 0, rec_off[r], rec_len[r],
                                   MPI_BYTE, MPI_REPLACE, win);
                MPI_Win_flush(0, win);
                if (!bytes_ok(old, rec_len[r]))
                    MT_ERR(errs, "round %d: Get_accumulate(MPI_REPLACE) of %d bytes fetched a torn record (%u ... %u)",
                           k, rec_len[r], old[0], old[rec_len[r] - 1]);
            }
            int i3[3] = {rank * 100000 + k, rank * 100000 + k, rank * 100000 + k};
            MPI_Accumulate(i3, 3, MPI_INT, 0, LINT3, 3, MPI_INT, MPI_REPLACE, win);
            MPI_Accumulate(i3, 3, MPI_INT, 0, LVEC, 1, vec, MPI_REPLACE, win);
            long long d = 1 + k % 5, d2[2] = {d, d}, one = 1, got;
            MPI_Accumulate(d2, 2, MPI_INT64_T, 0, LSUM, 2, MPI_INT64_T, MPI_SUM, win);
            my_d += d;
            MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 0, LCNT, MPI_SUM, win);
            my_fop++;
            MPI_Win_flush(0, win); /* got, i3 and d2 end with this round (between processes they are in use until then) */
        } else {
            MPI_Get_accumulate(NULL, 0, MPI_BYTE, old, rec_len[r], MPI_BYTE, 0, rec_off[r], rec_len[r], MPI_BYTE,
                               MPI_NO_OP, win);
            int i3[3], v3[3];
            long long s2[2], one2[2] = {1, 1};
            MPI_Get_accumulate(NULL, 0, MPI_INT, i3, 3, MPI_INT, 0, LINT3, 3, MPI_INT, MPI_NO_OP, win);
            MPI_Get_accumulate(NULL, 0, MPI_INT, v3, 3, MPI_INT, 0, LVEC, 1, vec, MPI_NO_OP, win);
            MPI_Get_accumulate(NULL, 0, MPI_INT64_T, s2, 2, MPI_INT64_T, 0, LSUM, 2, MPI_INT64_T, MPI_NO_OP, win);
            MPI_Accumulate(one2, 2, MPI_INT64_T, 0, LCNT, 2, MPI_INT64_T, MPI_SUM, win);
            my_acc++;
            MPI_Win_flush(0, win);
            if (!bytes_ok(old, rec_len[r]))
                MT_ERR(errs, "round %d: Get_accumulate(MPI_NO_OP) of %d bytes read a torn record (%u ... %u)", k,
                       rec_len[r], old[0], old[rec_len[r] - 1]);
            if (i3[0] != i3[1] || i3[1] != i3[2])
                MT_ERR(errs, "round %d: 3 MPI_INTs read torn: %d %d %d", k, i3[0], i3[1], i3[2]);
            if (v3[0] != v3[1] || v3[1] != v3[2])
                MT_ERR(errs, "round %d: 3 MPI_INTs of a vector type read torn: %d %d %d", k, v3[0], v3[1], v3[2]);
            if (s2[0] != s2[1])
                MT_ERR(errs, "round %d: 2 MPI_INT64_Ts summed as pairs read torn: %lld %lld", k, s2[0], s2[1]);
        }
    }
    /* the counter again, every rank mostly incrementing one element and now and then adding (1, 1): runs
     * of one-element updates long enough for vmpi to go back to lock-free updates, each broken by an array
     * update that must wait for them */
    for (int k = 0; k < 4 * rounds; k++) {
        long long one = 1, one2[2] = {1, 1}, got;
        if ((k + 37 * rank) % 400 < 390) {
            MPI_Fetch_and_op(&one, &got, MPI_INT64_T, 0, LCNT, MPI_SUM, win);
            my_fop++;
            MPI_Win_flush(0, win); /* got, i3 and d2 end with this round (between processes they are in use until then) */
        } else {
            MPI_Accumulate(one2, 2, MPI_INT64_T, 0, LCNT, 2, MPI_INT64_T, MPI_SUM, win);
            my_acc++;
        }
    }
    MPI_Win_unlock_all(win);
    long long mine[3] = {my_d, my_fop, my_acc}, tot[3];
    MPI_Reduce(mine, tot, 3, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        long long sum[2], cnt[2];
        memcpy(sum, base + LSUM, sizeof sum);
        memcpy(cnt, base + LCNT, sizeof cnt);
        MT_CHECK_INT(errs, "pair sum, first element", tot[0], sum[0]);
        MT_CHECK_INT(errs, "pair sum, second element", tot[0], sum[1]);
        MT_CHECK_INT(errs, "counter: Fetch_and_op increments + (1, 1) accumulates", tot[1] + tot[2], cnt[0]);
        MT_CHECK_INT(errs, "counter: (1, 1) accumulates", tot[2], cnt[1]);
        for (int r = 0; r < 3; r++)
            MT_CHECK(errs, bytes_ok(base + rec_off[r], rec_len[r]), "final %d-byte record torn", rec_len[r]);
    }
    MPI_Win_free(&win);
    MPI_Type_free(&vec);
    return mt_finish(errs);
}
