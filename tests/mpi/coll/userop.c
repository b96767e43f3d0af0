/* SPDX-License-Identifier: BSD-3-Clause */
/* User-defined operations.  A non-commutative one (composition of affine maps x -> a*x + b mod 2^32, one
 * map per MPI_2INT element, each rank's maps different) must combine in rank order: Reduce at every root, Allreduce,
 * Scan, Exscan, Reduce_scatter_block, Ireduce, all with counts 1, 5, 700 (above the eager limit) and 4500, and
 * MPI_IN_PLACE; results compared with the product computed serially.  A commutative user op (sum); MPI_Op_commutative; MPI_Reduce_local; MPI_Op_free, also while a
 * nonblocking reduction still uses the op. */
#include <stdbool.h>
#include "mtest.h"

typedef struct { int a, b; } mat; /* the layout of MPI_2INT */

/* "in then inout": x -> y.a * (x.a * x + x.b) + y.b */
static mat compose(mat x, mat y)
{
    return (mat){(int)((unsigned)x.a * (unsigned)y.a), (int)((unsigned)y.a * (unsigned)x.b + (unsigned)y.b)};
}

/* inout = in o inout (in comes from the lower ranks) */
static void matmul(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    mat *in = vin, *io = vio;
    if (*dt != MPI_2INT)
        return;
    for (int i = 0; i < *len; i++)
        io[i] = compose(in[i], io[i]);
}

static void usum(void *vin, void *vio, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((long long *)vio)[i] += ((long long *)vin)[i];
}

static mat mine(int r, int i) { return (mat){r * 2 + 3 + i % 5, r * 7 + i + 1}; }

static mat prod(int from, int to, int i) /* mine(from) x ... x mine(to - 1) */
{
    mat m = {1, 0};
    for (int r = from; r < to; r++)
        m = compose(m, mine(r, i));
    return m;
}

static int check(const mat *got, int count, int from, int to, const char *what, int root)
{
    int errs = 0;
    for (int i = 0; i < count; i++) {
        mat e = prod(from, to, i);
        if (got[i].a != e.a || got[i].b != e.b) {
            MT_ERR(errs, "%s (root %d) element %d: expected composition of ranks %d..%d {%d %d}, got {%d %d}", what,
                   root, i, from, to - 1, e.a, e.b, got[i].a, got[i].b);
            break;
        }
    }
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, n;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Datatype mt = MPI_2INT;
    MPI_Op op, sumop;
    MT_CHECK_RC(errs, MPI_Op_create(matmul, 0, &op));
    MT_CHECK_RC(errs, MPI_Op_create(usum, 1, &sumop));
    int commute = -1;
    MT_CHECK_RC(errs, MPI_Op_commutative(op, &commute));
    MT_CHECK_INT(errs, "Op_commutative(matmul)", 0, commute);
    MT_CHECK_RC(errs, MPI_Op_commutative(sumop, &commute));
    MT_CHECK_INT(errs, "Op_commutative(usum)", 1, commute);
    MT_CHECK_RC(errs, MPI_Op_commutative(MPI_SUM, &commute));
    MT_CHECK_INT(errs, "Op_commutative(MPI_SUM)", 1, commute);

    static const int counts[] = {1, 5, 700, 4500}; /* 4500 pairs: 36 KB, the sliced algorithm */
    for (int ci = 0; ci < 4; ci++) {
        int k = counts[ci];
        mat *in = mt_malloc(sizeof(mat) * (size_t)k * n), *out = mt_malloc(sizeof(mat) * (size_t)k * n);
        for (int i = 0; i < k; i++)
            in[i] = mine(rank, i);
        for (int root = 0; root < n; root++) {
            if (n > 16 && root % 7 != 0 && root != n - 1)
                continue;
            bool ip = root % 2 == 1 && rank == root;
            for (int i = 0; i < k; i++)
                out[i] = ip ? in[i] : (mat){0, 0};
            MT_CHECK_RC(errs, MPI_Reduce(ip ? MPI_IN_PLACE : in, out, k, mt, op, root, MPI_COMM_WORLD));
            if (rank == root)
                errs += check(out, k, 0, n, "Reduce", root);
        }
        for (int ip = 0; ip < 2; ip++) {
            for (int i = 0; i < k; i++)
                out[i] = ip ? in[i] : (mat){0, 0};
            MT_CHECK_RC(errs, MPI_Allreduce(ip ? MPI_IN_PLACE : in, out, k, mt, op, MPI_COMM_WORLD));
            errs += check(out, k, 0, n, "Allreduce", -1);
            for (int i = 0; i < k; i++)
                out[i] = ip ? in[i] : (mat){0, 0};
            MT_CHECK_RC(errs, MPI_Scan(ip ? MPI_IN_PLACE : in, out, k, mt, op, MPI_COMM_WORLD));
            errs += check(out, k, 0, rank + 1, "Scan", -1);
            for (int i = 0; i < k; i++)
                out[i] = ip ? in[i] : (mat){0, 0};
            MT_CHECK_RC(errs, MPI_Exscan(ip ? MPI_IN_PLACE : in, out, k, mt, op, MPI_COMM_WORLD));
            if (rank > 0)
                errs += check(out, k, 0, rank, "Exscan", -1);
        }
        /* Reduce_scatter_block: element j of block b is mine(r, b*k + j) */
        mat *full = mt_malloc(sizeof(mat) * (size_t)k * n);
        for (int i = 0; i < k * n; i++)
            full[i] = mine(rank, i);
        MT_CHECK_RC(errs, MPI_Reduce_scatter_block(full, out, k, mt, op, MPI_COMM_WORLD));
        for (int i = 0; i < k; i++) {
            mat e = prod(0, n, rank * k + i);
            if (out[i].a != e.a || out[i].b != e.b) {
                MT_ERR(errs, "Reduce_scatter_block element %d differs from the rank-order product", i);
                break;
            }
        }
        free(full);
        /* nonblocking, root n - 1 */
        MPI_Request rq;
        MT_CHECK_RC(errs, MPI_Ireduce(in, out, k, mt, op, n - 1, MPI_COMM_WORLD, &rq));
        MT_CHECK_RC(errs, MPI_Wait(&rq, MPI_STATUS_IGNORE));
        if (rank == n - 1)
            errs += check(out, k, 0, n, "Ireduce", n - 1);
        free(in);
        free(out);
    }
    /* commutative user op */
    long long v[3] = {rank, 2LL * rank, 1}, s[3];
    MT_CHECK_RC(errs, MPI_Allreduce(v, s, 3, MPI_LONG_LONG, sumop, MPI_COMM_WORLD));
    MT_CHECK_INT(errs, "user sum [0]", (long long)n * (n - 1) / 2, s[0]);
    MT_CHECK_INT(errs, "user sum [1]", (long long)n * (n - 1), s[1]);
    MT_CHECK_INT(errs, "user sum [2]", n, s[2]);
    /* Reduce_local: inout = in op inout */
    mat a[2] = {mine(1, 0), mine(1, 1)}, b[2] = {mine(2, 0), mine(2, 1)};
    MT_CHECK_RC(errs, MPI_Reduce_local(a, b, 2, mt, op));
    for (int i = 0; i < 2; i++) {
        mat e = prod(1, 3, i);
        MT_CHECK(errs, b[i].a == e.a && b[i].b == e.b,
                 "Reduce_local element %d is not in x inout", i);
    }
    int x[4] = {1, 5, 3, 7}, y[4] = {4, 2, 6, 0};
    MT_CHECK_RC(errs, MPI_Reduce_local(x, y, 4, MPI_INT, MPI_MAX));
    MT_CHECK(errs, y[0] == 4 && y[1] == 5 && y[2] == 6 && y[3] == 7, "Reduce_local MPI_MAX");
    /* freeing an op while a nonblocking reduction uses it: the reduction still completes with it */
    mat pin = mine(rank, 0), pout = {0, 0};
    MPI_Request prq;
    MT_CHECK_RC(errs, MPI_Iallreduce(&pin, &pout, 1, mt, op, MPI_COMM_WORLD, &prq));
    MT_CHECK_RC(errs, MPI_Op_free(&op));
    MT_CHECK(errs, op == MPI_OP_NULL, "Op_free must set the handle to MPI_OP_NULL");
    MT_CHECK_RC(errs, MPI_Wait(&prq, MPI_STATUS_IGNORE));
    errs += check(&pout, 1, 0, n, "Iallreduce with an op freed meanwhile", -1);
    MT_CHECK_RC(errs, MPI_Op_free(&sumop));
    return mt_finish(errs);
}
