/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_Comm_idup: three duplicates started back to back and completed in reverse order are distinct, work
 * (a ring and an allreduce on each) and isolate traffic; a rank may start its idup late, after waiting
 * for a message that the others send only after their own idup (a blocking dup would deadlock here);
 * attributes are copied; an intercommunicator can be idup'ed too. */
#include "mtest.h"

static int check(MPI_Comm c, int size, const char *what)
{
    int errs = 0, r, n, tok = -1, sum = 0, one = 1;
    MPI_Comm_rank(c, &r);
    MPI_Comm_size(c, &n);
    MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % n, 1, &tok, 1, MPI_INT, (r + n - 1) % n, 1, c, MPI_STATUS_IGNORE);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
    if (n != size || tok != (r + n - 1) % n || sum != n)
        MT_ERR(errs, "%s: size %d token %d sum %d", what, n, tok, sum);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, res, key, flag;
    void *v;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm base;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm_set_attr(base, key, &errs);

    MPI_Comm d[3];
    MPI_Request rq[3];
    for (int i = 0; i < 3; i++)
        MPI_Comm_idup(base, &d[i], &rq[i]);
    for (int i = 2; i >= 0; i--)
        MPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    for (int i = 0; i < 3; i++) {
        errs += check(d[i], size, "idup");
        MPI_Comm_compare(d[i], base, &res);
        if (res != MPI_CONGRUENT)
            MT_ERR(errs, "idup %d compares %d with its parent", i, res);
        MPI_Comm_get_attr(d[i], key, &v, &flag);
        if (!flag || v != &errs)
            MT_ERR(errs, "idup %d lost the attribute", i);
    }
    MPI_Comm_compare(d[0], d[1], &res);
    if (res != MPI_CONGRUENT)
        MT_ERR(errs, "two duplicates compare %d", res);

    /* rank 0 starts its idup only after hearing from rank 1, which sends after its own idup */
    MPI_Comm late;
    MPI_Request lr;
    if (size > 1 && rank == 0) {
        int x;
        MPI_Recv(&x, 1, MPI_INT, 1, 44, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Comm_idup(base, &late, &lr);
    } else {
        MPI_Comm_idup(base, &late, &lr);
        if (size > 1 && rank == 1)
            MPI_Send(&rank, 1, MPI_INT, 0, 44, MPI_COMM_WORLD);
    }
    MPI_Wait(&lr, MPI_STATUS_IGNORE);
    errs += check(late, size, "late idup");

    if (size >= 2) {
        MPI_Comm half, inter, inter2;
        MPI_Request ir;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
        MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 3, &inter);
        MPI_Comm_idup(inter, &inter2, &ir);
        MPI_Wait(&ir, MPI_STATUS_IGNORE);
        int ls, rs, sum = 0;
        MPI_Comm_size(inter2, &ls);
        MPI_Comm_remote_size(inter2, &rs);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter2);
        int want = 0;
        for (int r = 0; r < size; r++)
            want += (r % 2 != rank % 2) ? r : 0;
        if (sum != want || ls + rs != size)
            MT_ERR(errs, "idup of an intercommunicator: sum %d (want %d), sizes %d+%d", sum, want, ls, rs);
        MPI_Comm_free(&inter2);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
    for (int i = 0; i < 3; i++)
        MPI_Comm_free(&d[i]);
    MPI_Comm_free(&late);
    MPI_Comm_free(&base);
    MPI_Comm_free_keyval(&key);
    return mt_finish(errs);
}
