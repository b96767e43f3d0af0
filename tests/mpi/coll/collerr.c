/* SPDX-License-Identifier: BSD-3-Clause */
/* Error classes of the collectives with MPI_ERRORS_RETURN (every rank makes the same erroneous call, so no
 * collective is left half-entered): MPI_ERR_ROOT, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP (null op, an op
 * not defined on the type, a freed user op, Op_free of a predefined op), MPI_ERR_BUFFER (aliased send and
 * receive buffers, MPI_IN_PLACE where it is not allowed), MPI_ERR_COMM, MPI_ERR_ARG (NULL request).
 * (MPICH 4.0 as built in Debian checks few of these and crashes on some: vmpi-only.) */
#include "mtest.h"

static void noop(void *in, void *io, int *len, MPI_Datatype *dt) { (void)in, (void)io, (void)len, (void)dt; }

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int *a = mt_malloc(sizeof(int) * (size_t)n * 4), *b = mt_malloc(sizeof(int) * (size_t)n * 4);
    int *cnt = mt_malloc(sizeof(int) * (size_t)n * 2);
    for (int i = 0; i < 2 * n; i++)
        cnt[i] = i < n ? 1 : i - n;
    MPI_Request r;
    MT_CHECK_CLASS(errs, MPI_Bcast(a, 1, MPI_INT, n, MPI_COMM_WORLD), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Bcast(a, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Ibcast(a, 1, MPI_INT, n + 3, MPI_COMM_WORLD, &r), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Reduce(a, b, 1, MPI_INT, MPI_SUM, n, MPI_COMM_WORLD), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, -2, MPI_COMM_WORLD), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Scatterv(a, cnt, cnt + n, MPI_INT, b, 1, MPI_INT, n, MPI_COMM_WORLD), MPI_ERR_ROOT);
    MT_CHECK_CLASS(errs, MPI_Bcast(a, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, b, -3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Allgather(a, -1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_COUNT);
    cnt[0] = -1;
    MT_CHECK_CLASS(errs, MPI_Alltoallv(a, cnt, cnt + n, MPI_INT, b, cnt, cnt + n, MPI_INT, MPI_COMM_WORLD),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Reduce_scatter(a, b, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    cnt[0] = 1;
    MT_CHECK_CLASS(errs, MPI_Bcast(a, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, b, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, b, 1, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Reduce(a, b, 1, MPI_DOUBLE, MPI_LXOR, 0, MPI_COMM_WORLD), MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Scan(a, b, 1, MPI_INT, MPI_MAXLOC, MPI_COMM_WORLD), MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Iallreduce(a, b, 1, MPI_2INT, MPI_SUM, MPI_COMM_WORLD, &r), MPI_ERR_OP);
    MT_CHECK_CLASS(errs, MPI_Reduce_local(a, b, 1, MPI_FLOAT, MPI_BOR), MPI_ERR_OP);
    MPI_Op op, saved;
    MT_CHECK_RC(errs, MPI_Op_create(noop, 1, &op));
    saved = op;
    MT_CHECK_RC(errs, MPI_Op_free(&op));
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, b, 1, MPI_INT, saved, MPI_COMM_WORLD), MPI_ERR_OP);
    MPI_Op sum = MPI_SUM;
    MT_CHECK_CLASS(errs, MPI_Op_free(&sum), MPI_ERR_OP);
    int cm;
    MT_CHECK_CLASS(errs, MPI_Op_commutative(MPI_OP_NULL, &cm), MPI_ERR_OP);
    /* aliased buffers */
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, a, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Reduce(a, a, 1, MPI_INT, MPI_SUM, rank, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Allgather(a, 1, MPI_INT, a, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Alltoall(a, 1, MPI_INT, a, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Scan(a, a, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Reduce_local(a, a, 2, MPI_INT, MPI_SUM), MPI_ERR_BUFFER);
    /* MPI_IN_PLACE where not allowed */
    MT_CHECK_CLASS(errs, MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Allreduce(a, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    MT_CHECK_CLASS(errs, MPI_Allgather(a, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    if (n > 1) { /* in place only at the root: every rank but root 0 errs, root 0 is left out */
        int rc = MPI_Reduce(MPI_IN_PLACE, b, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_SELF);
        MT_CHECK_RC(errs, rc);
    }
    /* invalid communicator and request pointer */
    MT_CHECK_CLASS(errs, MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    MT_CHECK_CLASS(errs, MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    /* after all that, collectives still work */
    int v = 1, s = 0;
    MT_CHECK_RC(errs, MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    MT_CHECK_INT(errs, "sum after errors", n, s);
    free(a);
    free(b);
    free(cnt);
    return mt_finish(errs);
}
