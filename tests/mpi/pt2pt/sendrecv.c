/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Sendrecv and MPI_Sendrecv_replace around a ring (both directions), with sizes up to 1 MiB, with
 * different send and receive tags and with MPI_ANY_TAG / MPI_ANY_SOURCE; plus a non-periodic shift whose
 * ends use MPI_PROC_NULL. */
#include "mtest.h"

static int val(int src, int k, int i) { return src * 1000 + k * 7 + i; }

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    const int counts[5] = {0, 1, 1000, 16387, 262147};
    int *sbuf = mt_malloc(262147 * sizeof(int)), *rbuf = mt_malloc(262147 * sizeof(int));

    for (int k = 0; k < 5; k++) {
        int n = counts[k], cnt;
        MPI_Status st;
        for (int dir = 0; dir < 2; dir++) {
            int to = dir ? left : right, from = dir ? right : left;
            /* Sendrecv: tag of the message is the sender's rank + 10 */
            for (int i = 0; i < n; i++)
                sbuf[i] = val(rank, k, i);
            memset(rbuf, 0, n * sizeof(int));
            int rtag = (k % 2) ? MPI_ANY_TAG : from + 10, rsrc = (k == 2) ? MPI_ANY_SOURCE : from;
            if (size > 2 && rsrc == MPI_ANY_SOURCE)
                rsrc = from; /* with more than 2 ranks ANY_SOURCE could match the other direction */
            MPI_Sendrecv(sbuf, n, MPI_INT, to, rank + 10, rbuf, n, MPI_INT, rsrc, rtag, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            MT_CHECK(errs, st.MPI_SOURCE == from && st.MPI_TAG == from + 10 && cnt == n,
                     "Sendrecv k=%d dir=%d: expected source %d tag %d count %d, got %d %d %d", k, dir, from, from + 10,
                     n, st.MPI_SOURCE, st.MPI_TAG, cnt);
            for (int i = 0; i < n; i++)
                if (rbuf[i] != val(from, k, i)) {
                    MT_ERR(errs, "Sendrecv k=%d: element %d: expected %d got %d", k, i, val(from, k, i), rbuf[i]);
                    break;
                }

            /* Sendrecv_replace */
            for (int i = 0; i < n; i++)
                sbuf[i] = val(rank, k + 10, i);
            MPI_Sendrecv_replace(sbuf, n, MPI_INT, to, 3, from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            MPI_Get_count(&st, MPI_INT, &cnt);
            MT_CHECK(errs, st.MPI_SOURCE == from && st.MPI_TAG == 3 && cnt == n,
                     "Sendrecv_replace k=%d: expected source %d tag 3 count %d, got %d %d %d", k, from, n,
                     st.MPI_SOURCE, st.MPI_TAG, cnt);
            for (int i = 0; i < n; i++)
                if (sbuf[i] != val(from, k + 10, i)) {
                    MT_ERR(errs, "Sendrecv_replace k=%d: element %d: expected %d got %d", k, i, val(from, k + 10, i),
                           sbuf[i]);
                    break;
                }
        }

        /* non-periodic shift to the right: rank 0 receives from PROC_NULL, the last rank sends to PROC_NULL */
        int to = rank + 1 < size ? rank + 1 : MPI_PROC_NULL, from = rank > 0 ? rank - 1 : MPI_PROC_NULL;
        for (int i = 0; i < n; i++)
            sbuf[i] = val(rank, k + 20, i);
        for (int i = 0; i < n; i++)
            rbuf[i] = -7;
        MPI_Sendrecv(sbuf, n, MPI_INT, to, 4, rbuf, n, MPI_INT, from, 4, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        if (from == MPI_PROC_NULL) {
            MT_CHECK(errs, st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && cnt == 0,
                     "shift from PROC_NULL: status %d %d %d", st.MPI_SOURCE, st.MPI_TAG, cnt);
            for (int i = 0; i < n; i++)
                if (rbuf[i] != -7) {
                    MT_ERR(errs, "receive from PROC_NULL modified the buffer at %d", i);
                    break;
                }
        } else {
            MT_CHECK(errs, st.MPI_SOURCE == from && st.MPI_TAG == 4 && cnt == n, "shift: status %d %d %d",
                     st.MPI_SOURCE, st.MPI_TAG, cnt);
            for (int i = 0; i < n; i++)
                if (rbuf[i] != val(from, k + 20, i)) {
                    MT_ERR(errs, "shift k=%d: element %d: expected %d got %d", k, i, val(from, k + 20, i), rbuf[i]);
                    break;
                }
        }
    }
    free(sbuf);
    free(rbuf);
    return mt_finish(errs);
}
