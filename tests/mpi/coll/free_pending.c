/* SPDX-License-Identifier: BSD-3-Clause */
/* Handles freed while a nonblocking operation that uses them is pending (MPI-3.1 4.1.9, 5.9.5, 6.4.3: the
 * free only marks them; pending operations complete normally).  The protocol makes the operations pending
 * for sure: the ranks that receive a broadcast start it, free its derived type and only then tell the root,
 * which starts it last; the root of a reduction starts it, frees its derived type, its user operation and
 * the duplicated communicator it runs on, and only then lets the others start theirs.  After each free, new
 * types of other shapes are made (they take the freed memory when nothing holds it), and every result is
 * checked.  (The root frees the communicator after letting the others start: MPI_Comm_free is collective.)
 * The same for a nonblocking receive and an Igatherv receive type, and an Iallreduce whose user operation
 * queries its datatype (local calls where vmpi runs the operation). */
#include "mtest.h"

#define NV 64 /* vector elements */

/* A sum of ints that asks MPI the size and extent of its datatype, as MPICH's coll/nonblocking2 does: local
 * calls must work wherever vmpi runs a pending reduction's user operation (with 2 PEs, often on a PE that
 * has no rank current when a message arrives).  A failed query leaves the data alone. */
static void sum_asking(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int size = 0;
    MPI_Aint lb = -1, ext = 0;
    if (MPI_Type_size(*dt, &size) != MPI_SUCCESS || MPI_Type_get_extent(*dt, &lb, &ext) != MPI_SUCCESS ||
        size != (int)sizeof(int) || lb != 0 || ext != (MPI_Aint)sizeof(int))
        return;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

/* Sum of the first int of each 3-int element (a user operation on a derived type). */
static void sum_first(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        b[3 * i] += a[3 * i];
}

/* Types of other shapes, made while the freed one may be reclaimed. */
static void churn(MPI_Datatype *t, int n)
{
    for (int i = 0; i < n; i++) {
        int bl[3] = {1 + i, 2, 7}, dp[3] = {0, 40 + 3 * i, 97};
        MPI_Type_indexed(3, bl, dp, MPI_DOUBLE, &t[i]);
        MPI_Type_commit(&t[i]);
    }
}

static void unchurn(MPI_Datatype *t, int n)
{
    for (int i = 0; i < n; i++)
        MPI_Type_free(&t[i]);
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int *v = mt_malloc(sizeof(int) * 3 * NV);
    MPI_Datatype other[8];
    for (int round = 0; round < 3; round++) {
        int root = round % n;

        /* 1. Ibcast of a strided vector: the receivers free the type before the root has sent */
        MPI_Datatype vec;
        MPI_Type_vector(NV, 1, 3, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 3 * NV; i++)
            v[i] = rank == root ? (i % 3 == 0 ? 1000 * round + i : -2) : -1;
        MPI_Request rq;
        if (rank != root) {
            MT_CHECK_RC(errs, MPI_Ibcast(v, 1, vec, root, MPI_COMM_WORLD, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&vec));
            churn(other, 8);
            MPI_Send(NULL, 0, MPI_INT, root, 1, MPI_COMM_WORLD);
        } else {
            for (int r = 0; r < n - 1; r++)
                MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_RC(errs, MPI_Ibcast(v, 1, vec, root, MPI_COMM_WORLD, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&vec));
            churn(other, 8);
        }
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        unchurn(other, 8);
        for (int i = 0; i < 3 * NV; i++) {
            int want = i % 3 == 0 ? 1000 * round + i : rank == root ? -2 : -1;
            if (v[i] != want)
                MT_ERR(errs, "round %d Ibcast int %d: expected %d, got %d", round, i, want, v[i]);
        }

        /* 2. Ireduce with a user op on a derived type over a duplicate communicator: the root frees all
         * three before any other rank has contributed */
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Datatype tri;
        MPI_Type_contiguous(3, MPI_INT, &tri);
        MPI_Type_commit(&tri);
        MPI_Op op;
        MPI_Op_create(sum_first, 1, &op);
        int *in = mt_malloc(sizeof(int) * 3 * NV), *out = mt_malloc(sizeof(int) * 3 * NV);
        for (int i = 0; i < 3 * NV; i++) {
            in[i] = i % 3 == 0 ? rank + i : -5;
            out[i] = -1;
        }
        if (rank == root) {
            MT_CHECK_RC(errs, MPI_Ireduce(in, out, NV, tri, op, root, dup, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&tri));
            MT_CHECK_RC(errs, MPI_Op_free(&op));
            churn(other, 8);
            for (int r = 0; r < n; r++)
                if (r != root)
                    MPI_Send(NULL, 0, MPI_INT, r, 2, MPI_COMM_WORLD);
            MT_CHECK_RC(errs, MPI_Comm_free(&dup)); /* collective: after the others may start */
        } else {
            MPI_Recv(NULL, 0, MPI_INT, root, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_RC(errs, MPI_Ireduce(in, out, NV, tri, op, root, dup, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&tri));
            MT_CHECK_RC(errs, MPI_Op_free(&op));
            MT_CHECK_RC(errs, MPI_Comm_free(&dup));
            churn(other, 8);
        }
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        unchurn(other, 8);
        if (rank == root)
            for (int i = 0; i < NV; i++)
                MT_CHECK_INT(errs, "Ireduce element", n * (n - 1) / 2 + n * 3 * i, out[3 * i]);
        free(in);
        free(out);

        /* 3. Igatherv whose receive type the root frees before the others send */
        MPI_Datatype pair, strided;
        MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
        MPI_Type_create_resized(strided, 0, 4 * (MPI_Aint)sizeof(int), &pair);
        MPI_Type_free(&strided);
        MPI_Type_commit(&pair);
        int *all = mt_malloc(sizeof(int) * 4 * (size_t)n), *cnt = mt_malloc(sizeof(int) * 2 * (size_t)n);
        int mine[2] = {10 * rank + round, 10 * rank + round + 5};
        for (int i = 0; i < 4 * n; i++)
            all[i] = -1;
        for (int r = 0; r < n; r++) {
            cnt[r] = 1;
            cnt[n + r] = r;
        }
        if (rank == root) {
            MT_CHECK_RC(errs, MPI_Igatherv(mine, 2, MPI_INT, all, cnt, cnt + n, pair, root, MPI_COMM_WORLD, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&pair));
            churn(other, 8);
            for (int r = 0; r < n; r++)
                if (r != root)
                    MPI_Send(NULL, 0, MPI_INT, r, 3, MPI_COMM_WORLD);
        } else {
            MPI_Recv(NULL, 0, MPI_INT, root, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MT_CHECK_RC(errs, MPI_Igatherv(mine, 2, MPI_INT, all, cnt, cnt + n, pair, root, MPI_COMM_WORLD, &rq));
            MT_CHECK_RC(errs, MPI_Type_free(&pair));
            churn(other, 8);
        }
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        unchurn(other, 8);
        if (rank == root)
            for (int r = 0; r < n; r++)
                for (int k = 0; k < 4; k++) {
                    int want = k == 0 ? 10 * r + round : k == 2 ? 10 * r + round + 5 : -1;
                    if (all[4 * r + k] != want)
                        MT_ERR(errs, "round %d Igatherv rank %d int %d: expected %d, got %d", round, r, k, want,
                               all[4 * r + k]);
                }
        free(all);
        free(cnt);

        /* 4. Iallreduce with a user operation that queries its datatype, the operation freed before the wait */
        MPI_Op_create(sum_asking, 1, &op);
        int *ain = mt_malloc(sizeof(int) * NV), *aout = mt_malloc(sizeof(int) * NV);
        for (int i = 0; i < NV; i++)
            ain[i] = rank + i;
        MT_CHECK_RC(errs, MPI_Iallreduce(ain, aout, NV, MPI_INT, op, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(errs, MPI_Op_free(&op));
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        for (int i = 0; i < NV; i++)
            MT_CHECK_INT(errs, "Iallreduce with a querying user op", n * (n - 1) / 2 + n * i, aout[i]);
        free(ain);
        free(aout);

        /* 5. Irecv of a strided vector from the next rank, type freed before the message is sent */
        int next = (rank + 1) % n, prev = (rank + n - 1) % n;
        MPI_Type_vector(NV, 1, 3, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 3 * NV; i++)
            v[i] = -1;
        MT_CHECK_RC(errs, MPI_Irecv(v, 1, vec, next, 4, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(errs, MPI_Type_free(&vec));
        churn(other, 8);
        MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted and its type freed */
        int *src = mt_malloc(sizeof(int) * NV);
        for (int i = 0; i < NV; i++)
            src[i] = 100 * rank + i + round;
        MPI_Send(src, NV, MPI_INT, prev, 4, MPI_COMM_WORLD);
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        unchurn(other, 8);
        for (int i = 0; i < 3 * NV; i++) {
            int want = i % 3 == 0 ? 100 * next + i / 3 + round : -1;
            if (v[i] != want)
                MT_ERR(errs, "round %d Irecv int %d: expected %d, got %d", round, i, want, v[i]);
        }
        free(src);
    }
    free(v);
    return mt_finish(errs);
}
