/* SPDX-License-Identifier: BSD-3-Clause */
/* Status fields with wildcards: every rank sends two messages to each root (tags depend on the sender), the
 * root receives with MPI_ANY_SOURCE / MPI_ANY_TAG (blocking and Irecv+Wait) and checks that status.MPI_SOURCE
 * and status.MPI_TAG name the actual sender and tag (the payload says what they must be); a receive with
 * MPI_ANY_SOURCE and a specific tag only matches that tag; a specific source with MPI_ANY_TAG only that source. */
#include "mtest.h"

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int nroots = size < 3 ? size : 3;

    for (int k = 0; k < nroots; k++) {
        int root = k * (size - 1) / (nroots > 1 ? nroots - 1 : 1);
        MPI_Request sr[2];
        int msg[2][2] = {{rank, rank * 3 + 1}, {rank, 5000 + rank}};
        /* every rank (the root too) sends two messages to the root */
        MPI_Isend(msg[0], 2, MPI_INT, root, msg[0][1], MPI_COMM_WORLD, &sr[0]);
        MPI_Isend(msg[1], 2, MPI_INT, root, msg[1][1], MPI_COMM_WORLD, &sr[1]);
        if (rank == root) {
            int *seen = mt_malloc(size * sizeof(int));
            for (int i = 0; i < size; i++)
                seen[i] = 0;
            MPI_Status st;
            int v[2];
            /* first: the tag-5000+s messages, with ANY_SOURCE and a specific tag, in reverse rank order */
            for (int s = size - 1; s >= 0; s--) {
                MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, 5000 + s, MPI_COMM_WORLD, &st);
                MT_CHECK(errs, st.MPI_SOURCE == s && st.MPI_TAG == 5000 + s && v[0] == s,
                         "ANY_SOURCE, tag %d: got source %d tag %d payload %d", 5000 + s, st.MPI_SOURCE, st.MPI_TAG,
                         v[0]);
            }
            /* then the rest with ANY_SOURCE / ANY_TAG, alternately blocking and nonblocking */
            for (int i = 0; i < size; i++) {
                if (i % 2) {
                    MPI_Request r;
                    MPI_Irecv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
                    MPI_Wait(&r, &st);
                } else {
                    MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
                }
                MT_CHECK(errs, st.MPI_SOURCE == v[0] && st.MPI_TAG == v[1] && v[1] == v[0] * 3 + 1,
                         "ANY/ANY: status source %d tag %d, payload says source %d tag %d", st.MPI_SOURCE, st.MPI_TAG,
                         v[0], v[1]);
                if (v[0] >= 0 && v[0] < size) {
                    MT_CHECK(errs, !seen[v[0]], "two messages from %d", v[0]);
                    seen[v[0]] = 1;
                }
            }
            free(seen);
        }
        MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
        MPI_Barrier(MPI_COMM_WORLD);
    }

    /* specific source, ANY_TAG: from the left neighbour only, even if the right one sent first */
    if (size >= 3) {
        int left = (rank + size - 1) % size, right = (rank + 1) % size, v = -1;
        MPI_Request sr[2];
        int a = 100 + rank, b = 200 + rank;
        MPI_Isend(&a, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &sr[0]); /* to right: tag 7 */
        MPI_Isend(&b, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &sr[1]);  /* to left: tag 8 */
        MPI_Status st;
        MPI_Recv(&v, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MT_CHECK(errs, v == 100 + left && st.MPI_SOURCE == left && st.MPI_TAG == 7,
                 "source %d, ANY_TAG: got %d from %d tag %d", left, v, st.MPI_SOURCE, st.MPI_TAG);
        MPI_Recv(&v, 1, MPI_INT, right, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MT_CHECK(errs, v == 200 + right && st.MPI_SOURCE == right && st.MPI_TAG == 8,
                 "source %d, ANY_TAG: got %d from %d tag %d", right, v, st.MPI_SOURCE, st.MPI_TAG);
        MPI_Waitall(2, sr, MPI_STATUSES_IGNORE);
    }
    return mt_finish(errs);
}
