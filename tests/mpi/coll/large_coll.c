/* SPDX-License-Identifier: BSD-3-Clause */
/* The large-count forms of the collectives (MPI-4.0, MPI_X_c: MPI_Count counts, MPI_Aint displacements):
 *  - each of the 63 collective ones gives, on every rank, what its int twin gives: blocking, nonblocking and
 *    persistent (started twice), on MPI_COMM_WORLD, on an intercommunicator between its halves (the forms with
 *    a root or all-to-all exchanges defined there) and, for the neighbourhood ones, on a periodic ring; the v
 *    and w forms with per-rank counts and gaps between the blocks;
 *  - every reduction gives the same with a predefined operation, an MPI_Op_create one (MPI_User_function: an
 *    int length) and an MPI_Op_create_c one (MPI_User_function_c), in both forms, and MPI_Reduce_local_c too;
 *  - the v and w forms take displacements beyond INT_MAX: MPI_BOTTOM and the blocks' absolute addresses (no
 *    int holds them), against the same exchange with ordinary displacements;
 *  - counts are taken whole: -1 and -2^32 + 1 (1 if cut to an int) are MPI_ERR_COUNT, as single counts and
 *    in count arrays, in every kind of form;
 *  - with MT_LARGE_COUNT=1 (the testlist's runs with one and two ranks on one PE: 4 GiB of memory): an
 *    MPI_Bcast_c of INT_MAX + 8 MPI_BYTEs arrives whole (every 4 KiB and the last 64 KiB checked), and
 *    MPI_Reduce_local_c over INT_MAX + 8 bytes with an int user function (called in pieces), a large one and
 *    MPI_BXOR gives every byte.
 * A migration point after every collective. */
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include "mtest.h"

#define K 3       /* elements per block */
#define S (K + 2) /* block stride of the v forms: a gap after each block */
#define BIG_NEG (-(MPI_Count)4294967295LL) /* -2^32 + 1: 1 as an int */
#define UNTOUCHED (-7)

typedef struct ctx {
    MPI_Comm comm;
    int rank, n, rn;  /* rank, group size, remote group size (n on an intracommunicator) */
    int root;         /* the root argument */
    int nb[2];        /* ring: the neighbours, -1 then +1 */
    int L;            /* ints per buffer */
    int *sb, *rb;
    MPI_Op op;
    /* one side's counts and displacements, int and wide: [0] send, [1] receive */
    int ic[2][64], id[2][64], iwd[2][64];
    MPI_Count cc[2][64];
    MPI_Aint ad[2][64], awd[2][64];
    MPI_Datatype t[64];
} ctx;

/* counts of the v forms: rank r's block, and the block from a to b in all-to-all */
static int cnt_of(int r) { return K - r % 2; }
static int f2(int a, int b) { return 1 + (a + 2 * b) % K; }

static void side(ctx *x, int s, int i, int count, int displ)
{
    x->ic[s][i] = count;
    x->cc[s][i] = count;
    x->id[s][i] = displ;
    x->ad[s][i] = displ;
    x->iwd[s][i] = displ * (int)sizeof(int);
    x->awd[s][i] = displ * (MPI_Aint)sizeof(int);
    x->t[i] = MPI_INT;
}

/* The three forms of one collective: `mode` 0 blocking, 1 nonblocking, 2 persistent (*r then inactive). */
#define F3(B, I, P, ...) (mode == 0 ? B(__VA_ARGS__) : mode == 1 ? I(__VA_ARGS__, r) : P(__VA_ARGS__, MPI_INFO_NULL, r))
#define UNPACK(...) __VA_ARGS__
/* int form with arguments IA, or the large form (names with _c) with arguments CA */
#define TWINS(B, I, P, IA, CA) (large ? F3(B##_c, I##_c, P##_c, UNPACK CA) : F3(B, I, P, UNPACK IA))
#define SAME(B, I, P, ...) TWINS(B, I, P, (__VA_ARGS__), (__VA_ARGS__))

typedef int coll_fn(ctx *x, int large, int mode, MPI_Request *r);

static int c_bcast(ctx *x, int large, int mode, MPI_Request *r)
{
    int *buf = x->root == MPI_ROOT || x->rank == x->root ? x->sb : x->rb;
    return SAME(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, buf, K, MPI_INT, x->root, x->comm);
}

static int c_gather(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Gather, MPI_Igather, MPI_Gather_init, x->sb, K, MPI_INT, x->rb, K, MPI_INT, x->root, x->comm);
}

static int c_gatherv(ctx *x, int large, int mode, MPI_Request *r)
{
    for (int i = 0; i < x->rn; i++)
        side(x, 1, i, cnt_of(i), i * S);
    return TWINS(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init,
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->root, x->comm),
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->cc[1], x->ad[1], MPI_INT, x->root, x->comm));
}

static int c_scatter(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, x->sb, K, MPI_INT, x->rb, K, MPI_INT, x->root, x->comm);
}

static int c_scatterv(ctx *x, int large, int mode, MPI_Request *r)
{
    for (int i = 0; i < x->rn; i++)
        side(x, 0, i, cnt_of(i), i * S);
    return TWINS(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init,
                 (x->sb, x->ic[0], x->id[0], MPI_INT, x->rb, cnt_of(x->rank), MPI_INT, x->root, x->comm),
                 (x->sb, x->cc[0], x->ad[0], MPI_INT, x->rb, cnt_of(x->rank), MPI_INT, x->root, x->comm));
}

static int c_allgather(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, x->sb, K, MPI_INT, x->rb, K, MPI_INT, x->comm);
}

static int c_allgatherv(ctx *x, int large, int mode, MPI_Request *r)
{
    for (int i = 0; i < x->rn; i++)
        side(x, 1, i, cnt_of(i), i * S);
    return TWINS(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init,
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm),
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->cc[1], x->ad[1], MPI_INT, x->comm));
}

static int c_alltoall(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, x->sb, K, MPI_INT, x->rb, K, MPI_INT, x->comm);
}

static void a2a_sides(ctx *x)
{
    for (int j = 0; j < x->rn; j++) {
        side(x, 0, j, f2(x->rank, j), j * S);
        side(x, 1, j, f2(j, x->rank), j * S);
    }
}

static int c_alltoallv(ctx *x, int large, int mode, MPI_Request *r)
{
    a2a_sides(x);
    return TWINS(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init,
                 (x->sb, x->ic[0], x->id[0], MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm),
                 (x->sb, x->cc[0], x->ad[0], MPI_INT, x->rb, x->cc[1], x->ad[1], MPI_INT, x->comm));
}

static int c_alltoallw(ctx *x, int large, int mode, MPI_Request *r)
{
    a2a_sides(x);
    return TWINS(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init,
                 (x->sb, x->ic[0], x->iwd[0], x->t, x->rb, x->ic[1], x->iwd[1], x->t, x->comm),
                 (x->sb, x->cc[0], x->awd[0], x->t, x->rb, x->cc[1], x->awd[1], x->t, x->comm));
}

/* ---- reductions (x->op) ---- */

static int c_reduce(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, x->sb, x->rb, K, MPI_INT, x->op, x->root, x->comm);
}

static int c_allreduce(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, x->sb, x->rb, K, MPI_INT, x->op, x->comm);
}

static int c_reduce_scatter(ctx *x, int large, int mode, MPI_Request *r)
{
    for (int i = 0; i < x->n; i++)
        side(x, 1, i, 1 + i % 2, 0);
    return TWINS(MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init,
                 (x->sb, x->rb, x->ic[1], MPI_INT, x->op, x->comm), (x->sb, x->rb, x->cc[1], MPI_INT, x->op, x->comm));
}

static int c_reduce_scatter_block(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init, x->sb, x->rb, K,
                MPI_INT, x->op, x->comm);
}

static int c_scan(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Scan, MPI_Iscan, MPI_Scan_init, x->sb, x->rb, K, MPI_INT, x->op, x->comm);
}

static int c_exscan(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Exscan, MPI_Iexscan, MPI_Exscan_init, x->sb, x->rb, K, MPI_INT, x->op, x->comm);
}

/* ---- neighbourhood collectives on the ring ---- */

static int c_nallgather(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Neighbor_allgather, MPI_Ineighbor_allgather, MPI_Neighbor_allgather_init, x->sb, K, MPI_INT,
                x->rb, K, MPI_INT, x->comm);
}

static int c_nallgatherv(ctx *x, int large, int mode, MPI_Request *r)
{
    for (int k = 0; k < 2; k++)
        side(x, 1, k, cnt_of(x->nb[k]), k * S);
    return TWINS(MPI_Neighbor_allgatherv, MPI_Ineighbor_allgatherv, MPI_Neighbor_allgatherv_init,
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm),
                 (x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->cc[1], x->ad[1], MPI_INT, x->comm));
}

static int c_nalltoall(ctx *x, int large, int mode, MPI_Request *r)
{
    return SAME(MPI_Neighbor_alltoall, MPI_Ineighbor_alltoall, MPI_Neighbor_alltoall_init, x->sb, K, MPI_INT, x->rb,
                K, MPI_INT, x->comm);
}

/* block k of 1 + k elements to neighbour k: the -1 neighbour sends its +1 block (2), the +1 its -1 block (1) */
static void nbr_sides(ctx *x)
{
    for (int k = 0; k < 2; k++) {
        side(x, 0, k, 1 + k, k * S);
        side(x, 1, k, 2 - k, k * S);
    }
}

static int c_nalltoallv(ctx *x, int large, int mode, MPI_Request *r)
{
    nbr_sides(x);
    return TWINS(MPI_Neighbor_alltoallv, MPI_Ineighbor_alltoallv, MPI_Neighbor_alltoallv_init,
                 (x->sb, x->ic[0], x->id[0], MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm),
                 (x->sb, x->cc[0], x->ad[0], MPI_INT, x->rb, x->cc[1], x->ad[1], MPI_INT, x->comm));
}

static int c_nalltoallw(ctx *x, int large, int mode, MPI_Request *r)
{
    nbr_sides(x);
    return TWINS(MPI_Neighbor_alltoallw, MPI_Ineighbor_alltoallw, MPI_Neighbor_alltoallw_init,
                 (x->sb, x->ic[0], x->awd[0], x->t, x->rb, x->ic[1], x->awd[1], x->t, x->comm),
                 (x->sb, x->cc[0], x->awd[0], x->t, x->rb, x->cc[1], x->awd[1], x->t, x->comm));
}

enum { INTRA = 1, INTER = 2, RING = 4, RED = 8 };
static const struct {
    const char *name;
    coll_fn *fn;
    int where;
} colls[] = {
    {"Bcast", c_bcast, INTRA | INTER},
    {"Gather", c_gather, INTRA | INTER},
    {"Gatherv", c_gatherv, INTRA | INTER},
    {"Scatter", c_scatter, INTRA | INTER},
    {"Scatterv", c_scatterv, INTRA | INTER},
    {"Allgather", c_allgather, INTRA | INTER},
    {"Allgatherv", c_allgatherv, INTRA | INTER},
    {"Alltoall", c_alltoall, INTRA | INTER},
    {"Alltoallv", c_alltoallv, INTRA | INTER},
    {"Alltoallw", c_alltoallw, INTRA | INTER},
    {"Reduce", c_reduce, INTRA | INTER | RED},
    {"Allreduce", c_allreduce, INTRA | INTER | RED},
    {"Reduce_scatter", c_reduce_scatter, INTRA | RED},
    {"Reduce_scatter_block", c_reduce_scatter_block, INTRA | RED},
    {"Scan", c_scan, INTRA | RED},
    {"Exscan", c_exscan, INTRA | RED},
    {"Neighbor_allgather", c_nallgather, RING},
    {"Neighbor_allgatherv", c_nallgatherv, RING},
    {"Neighbor_alltoall", c_nalltoall, RING},
    {"Neighbor_alltoallv", c_nalltoallv, RING},
    {"Neighbor_alltoallw", c_nalltoallw, RING},
};
#define NCOLL ((int)(sizeof colls / sizeof colls[0]))

/* the user operations: integer sums, with an int and an MPI_Count length */
static void isum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void csum(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void reset(ctx *x, int mode)
{
    for (int i = 0; i < x->L; i++) {
        x->sb[i] = x->rank * 1000 + mode * 100 + i;
        x->rb[i] = UNTOUCHED;
    }
}

/* One run of a form to completion: 0 or an error count. */
static int run(ctx *x, coll_fn *fn, int large, int mode, const char *what)
{
    int errs = 0;
    MPI_Request r = MPI_REQUEST_NULL;
    reset(x, mode);
    int rc = fn(x, large, mode, &r);
    if (rc != MPI_SUCCESS) {
        MT_ERR(errs, "%s: returned %d", what, rc);
        return errs;
    }
    if (mode == 1)
        MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    for (int start = 0; mode == 2 && start < 2; start++) { /* the second start must give the same again */
        reset(x, mode);
        MT_CHECK_RC(errs, MPI_Start(&r));
        MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    if (mode == 2)
        MT_CHECK_RC(errs, MPI_Request_free(&r));
    return errs;
}

/* Every form of every collective allowed on x->comm (`where`) gives the receive buffer its int form gives in
 * the same mode with the predefined operation (every mode sends its own data). */
static int twins(ctx *x, int where, MPI_Op *ops)
{
    int errs = 0;
    static const char *modes[] = {"blocking", "nonblocking", "persistent"};
    int *ref = mt_malloc(sizeof(int) * (size_t)x->L);
    for (int c = 0; c < NCOLL; c++) {
        if (!(colls[c].where & where))
            continue;
        int nops = colls[c].where & RED ? 3 : 1;
        for (int mode = 0; mode < 3; mode++) {
            /* the reference: the int form, this mode, the predefined operation */
            x->op = ops[0];
            errs += run(x, colls[c].fn, 0, mode, colls[c].name);
            memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
            for (int o = 0; o < nops; o++)
                for (int large = 0; large < 2; large++) {
                    if (o == 0 && large == 0)
                        continue;
                    char what[160];
                    snprintf(what, sizeof what, "MPI_%s%s (%s, %s%s)", colls[c].name, large ? "_c" : "",
                             modes[mode], where == INTER ? "intercommunicator" : where == RING ? "ring" : "world",
                             o == 0 ? "" : o == 1 ? ", an MPI_Op_create op" : ", an MPI_Op_create_c op");
                    x->op = ops[o];
                    errs += run(x, colls[c].fn, large, mode, what);
                    for (int i = 0; i < x->L; i++)
                        if (x->rb[i] != ref[i]) {
                            MT_ERR(errs, "%s: element %d is %d, the int form gives %d", what, i, x->rb[i], ref[i]);
                            break;
                        }
                }
        }
        mt_migrate();
    }
    free(ref);
    return errs;
}

/* MPI_Reduce_local_c against MPI_Reduce_local, with each operation. */
static int reduce_local(ctx *x, MPI_Op *ops)
{
    int errs = 0;
    int *ref = mt_malloc(sizeof(int) * (size_t)x->L);
    for (int o = 0; o < 3; o++) {
        reset(x, 0);
        MT_CHECK_RC(errs, MPI_Reduce_local(x->sb, x->rb, x->L, MPI_INT, MPI_SUM));
        memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
        reset(x, 0);
        MT_CHECK_RC(errs, MPI_Reduce_local_c(x->sb, x->rb, x->L, MPI_INT, ops[o]));
        MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
                 "MPI_Reduce_local_c with operation %d differs from MPI_Reduce_local with MPI_SUM", o);
    }
    free(ref);
    return errs;
}

/* Displacements beyond INT_MAX: MPI_BOTTOM and absolute addresses, in bytes (a one-byte derived type: the
 * MPI_BOTTOM buffer of a predefined type is NULL), against the buffer-relative exchange. */
static int bottom(ctx *x)
{
    int errs = 0, n = x->n;
    MPI_Datatype byte;
    MT_CALL(MPI_Type_contiguous(1, MPI_BYTE, &byte));
    MT_CALL(MPI_Type_commit(&byte));
    int *ref = mt_malloc(sizeof(int) * (size_t)x->L);
    MPI_Count *cnt = mt_malloc(sizeof(MPI_Count) * (size_t)n), *scnt = mt_malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Aint *dsp = mt_malloc(sizeof(MPI_Aint) * (size_t)n), *sdsp = mt_malloc(sizeof(MPI_Aint) * (size_t)n);
    MPI_Aint base;
    MPI_Get_address(x->rb, &base);
    MT_CHECK(errs, base > INT_MAX || base < INT_MIN, "the receive buffer's address %lld fits an int: no test",
             (long long)base);
    /* allgatherv: block i, cnt_of(i) ints, at rb + i * S ints */
    for (int i = 0; i < n; i++) {
        cnt[i] = cnt_of(i) * (MPI_Count)sizeof(int);
        MPI_Get_address(x->rb + i * S, &dsp[i]);
    }
    for (int i = 0; i < n; i++) {
        x->ic[1][i] = cnt_of(i);
        x->id[1][i] = i * S;
    }
    reset(x, 0);
    MT_CHECK_RC(errs, MPI_Allgatherv(x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm));
    memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
    reset(x, 0);
    MT_CHECK_RC(errs, MPI_Allgatherv_c(x->sb, cnt_of(x->rank) * (MPI_Count)sizeof(int), byte, MPI_BOTTOM, cnt, dsp,
                                       byte, x->comm));
    MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
             "MPI_Allgatherv_c at absolute addresses differs from MPI_Allgatherv");
    mt_migrate();
    /* alltoallv and alltoallw: both sides at absolute addresses */
    for (int j = 0; j < n; j++) {
        x->ic[0][j] = f2(x->rank, j);
        x->id[0][j] = j * S;
        x->ic[1][j] = f2(j, x->rank);
        x->id[1][j] = j * S;
        scnt[j] = f2(x->rank, j) * (MPI_Count)sizeof(int);
        cnt[j] = f2(j, x->rank) * (MPI_Count)sizeof(int);
        MPI_Get_address(x->sb + j * S, &sdsp[j]);
        MPI_Get_address(x->rb + j * S, &dsp[j]);
        x->t[j] = byte;
    }
    reset(x, 1);
    MT_CHECK_RC(errs, MPI_Alltoallv(x->sb, x->ic[0], x->id[0], MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, x->comm));
    memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
    reset(x, 1);
    MT_CHECK_RC(errs, MPI_Alltoallv_c(MPI_BOTTOM, scnt, sdsp, byte, MPI_BOTTOM, cnt, dsp, byte, x->comm));
    MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
             "MPI_Alltoallv_c at absolute addresses differs from MPI_Alltoallv");
    reset(x, 1);
    MPI_Request r;
    MT_CHECK_RC(errs, MPI_Ialltoallw_c(MPI_BOTTOM, scnt, sdsp, x->t, MPI_BOTTOM, cnt, dsp, x->t, x->comm, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
             "MPI_Ialltoallw_c at absolute addresses differs from MPI_Alltoallv");
    mt_migrate();
    /* gatherv and scatterv at the root (rank 0) */
    for (int i = 0; i < n; i++) {
        cnt[i] = cnt_of(i) * (MPI_Count)sizeof(int);
        MPI_Get_address(x->rb + i * S, &dsp[i]);
        MPI_Get_address(x->sb + i * S, &sdsp[i]);
        x->ic[1][i] = cnt_of(i);
        x->id[1][i] = i * S;
    }
    reset(x, 2);
    MT_CHECK_RC(errs, MPI_Gatherv(x->sb, cnt_of(x->rank), MPI_INT, x->rb, x->ic[1], x->id[1], MPI_INT, 0, x->comm));
    memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
    reset(x, 2);
    MT_CHECK_RC(errs, MPI_Gatherv_c(x->sb, cnt_of(x->rank) * (MPI_Count)sizeof(int), byte, MPI_BOTTOM, cnt, dsp, byte,
                                    0, x->comm));
    MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
             "MPI_Gatherv_c at absolute addresses differs from MPI_Gatherv");
    reset(x, 3);
    MT_CHECK_RC(errs, MPI_Scatterv(x->sb, x->ic[1], x->id[1], MPI_INT, x->rb, cnt_of(x->rank), MPI_INT, 0, x->comm));
    memcpy(ref, x->rb, sizeof(int) * (size_t)x->L);
    reset(x, 3);
    MT_CHECK_RC(errs, MPI_Scatterv_c(MPI_BOTTOM, cnt, sdsp, byte, x->rb, cnt_of(x->rank) * (MPI_Count)sizeof(int),
                                     byte, 0, x->comm));
    MT_CHECK(errs, memcmp(ref, x->rb, sizeof(int) * (size_t)x->L) == 0,
             "MPI_Scatterv_c at absolute addresses differs from MPI_Scatterv");
    for (int j = 0; j < n; j++)
        x->t[j] = MPI_INT;
    free(ref);
    free(cnt);
    free(scnt);
    free(dsp);
    free(sdsp);
    MPI_Type_free(&byte);
    mt_migrate();
    return errs;
}

/* Negative counts, whole: every rank makes the same erroneous call, so none waits for the others. */
static int bad_counts(ctx *x, MPI_Comm ring)
{
    int errs = 0, n = x->n;
    MPI_Request r;
    MPI_Count *bad = mt_malloc(sizeof(MPI_Count) * (size_t)n);
    MPI_Aint *dsp = mt_malloc(sizeof(MPI_Aint) * (size_t)n);
    for (int i = 0; i < n; i++) {
        bad[i] = i == n - 1 ? BIG_NEG : 1;
        dsp[i] = i;
    }
    MPI_Count negs[2] = {-1, BIG_NEG};
    for (int k = 0; k < 2; k++) {
        MPI_Count c = negs[k];
        MT_CHECK_CLASS(errs, MPI_Bcast_c(x->sb, c, MPI_INT, 0, x->comm), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Ibcast_c(x->sb, c, MPI_INT, 0, x->comm, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Bcast_init_c(x->sb, c, MPI_INT, 0, x->comm, MPI_INFO_NULL, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Allreduce_c(x->sb, x->rb, c, MPI_INT, MPI_SUM, x->comm), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Allgather_c(x->sb, c, MPI_INT, x->rb, 1, MPI_INT, x->comm), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Alltoall_c(x->sb, 1, MPI_INT, x->rb, c, MPI_INT, x->comm), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Reduce_scatter_block_c(x->sb, x->rb, c, MPI_INT, MPI_SUM, x->comm), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Iscan_c(x->sb, x->rb, c, MPI_INT, MPI_SUM, x->comm, &r), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Neighbor_alltoall_c(x->sb, c, MPI_INT, x->rb, 1, MPI_INT, ring), MPI_ERR_COUNT);
        MT_CHECK_CLASS(errs, MPI_Reduce_local_c(x->sb, x->rb, c, MPI_INT, MPI_SUM), MPI_ERR_COUNT);
    }
    /* one negative count (-2^32 + 1) in the arrays */
    MT_CHECK_CLASS(errs, MPI_Allgatherv_c(x->sb, 1, MPI_INT, x->rb, bad, dsp, MPI_INT, x->comm), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Iallgatherv_c(x->sb, 1, MPI_INT, x->rb, bad, dsp, MPI_INT, x->comm, &r), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Allgatherv_init_c(x->sb, 1, MPI_INT, x->rb, bad, dsp, MPI_INT, x->comm, MPI_INFO_NULL, &r),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Alltoallv_c(x->sb, bad, dsp, MPI_INT, x->rb, bad, dsp, MPI_INT, x->comm), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Reduce_scatter_c(x->sb, x->rb, bad, MPI_INT, MPI_SUM, x->comm), MPI_ERR_COUNT);
    MPI_Count nb2[2] = {1, BIG_NEG};
    MPI_Aint nd2[2] = {0, 1};
    MT_CHECK_CLASS(errs, MPI_Neighbor_alltoallv_c(x->sb, nb2, nd2, MPI_INT, x->rb, nb2, nd2, MPI_INT, ring),
                   MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Neighbor_allgatherv_c(x->sb, 1, MPI_INT, x->rb, nb2, nd2, MPI_INT, ring), MPI_ERR_COUNT);
    free(bad);
    free(dsp);
    return errs;
}

/* MT_LARGE_COUNT=1: more than INT_MAX elements, for real. */
#define BIGN ((MPI_Count)INT_MAX + 8)

static void bxor_int(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((unsigned char *)inout)[i] ^= ((const unsigned char *)in)[i];
}

static void bxor_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *dt)
{
    (void)dt;
    for (MPI_Count i = 0; i < *len; i++)
        ((unsigned char *)inout)[i] ^= ((const unsigned char *)in)[i];
}

static unsigned char at(MPI_Count i, int id) { return (unsigned char)(i * 7 + (i >> 12) * 3 + id); }

static int check_big(const unsigned char *b, int id, const char *what)
{
    int errs = 0;
    for (MPI_Count i = 0; i < BIGN; i += i < BIGN - 65536 ? 4096 : 1)
        if (b[i] != at(i, id)) {
            MT_ERR(errs, "%s: byte %lld is %d, expected %d", what, (long long)i, b[i], at(i, id));
            break;
        }
    return errs;
}

static int huge(int rank)
{
    int errs = 0;
    unsigned char *b = mt_malloc((size_t)BIGN);
    if (rank == 0)
        for (MPI_Count i = 0; i < BIGN; i++)
            b[i] = at(i, 1);
    else
        memset(b, 0, (size_t)BIGN);
    MT_CHECK_RC(errs, MPI_Bcast_c(b, BIGN, MPI_BYTE, 0, MPI_COMM_WORLD));
    errs += check_big(b, 1, "MPI_Bcast_c of INT_MAX + 8 bytes");
    if (rank != 0)
        free(b);
    MPI_Barrier(MPI_COMM_WORLD); /* rank 0 only from here: 4 GiB in all */
    if (rank == 0) {
        unsigned char *io = mt_malloc((size_t)BIGN);
        MPI_Op ops[3];
        MT_CALL(MPI_Op_create(bxor_int, 1, &ops[0]));
        MT_CALL(MPI_Op_create_c(bxor_c, 1, &ops[1]));
        ops[2] = MPI_BXOR;
        static const char *names[] = {"an MPI_Op_create op", "an MPI_Op_create_c op", "MPI_BXOR"};
        for (int o = 0; o < 3; o++) {
            /* io = at(.,1) ^ at(.,2) ^ ... : b holds at(i, 1), io the XOR of at(i, 2) and at(i, 1) -> at(i, 2) */
            for (MPI_Count i = 0; i < BIGN; i++)
                io[i] = (unsigned char)(at(i, 2) ^ at(i, 1));
            MT_CHECK_RC(errs, MPI_Reduce_local_c(b, io, BIGN, MPI_BYTE, ops[o]));
            char what[96];
            snprintf(what, sizeof what, "MPI_Reduce_local_c of INT_MAX + 8 bytes with %s", names[o]);
            errs += check_big(io, 2, what);
        }
        MPI_Op_free(&ops[0]);
        MPI_Op_free(&ops[1]);
        free(io);
        free(b);
    }
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, wrank, wn;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wn);
    if (wn > 64) {
        if (wrank == 0)
            fprintf(stderr, "large_coll: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    ctx x = {.L = 2 * wn * S + 8};
    x.sb = mt_malloc(sizeof(int) * (size_t)x.L);
    x.rb = mt_malloc(sizeof(int) * (size_t)x.L);
    MPI_Op ops[3] = {MPI_SUM};
    MT_CALL(MPI_Op_create(isum, 1, &ops[1]));
    MT_CALL(MPI_Op_create_c(csum, 1, &ops[2]));

    /* the world */
    x.comm = MPI_COMM_WORLD;
    x.rank = wrank;
    x.n = x.rn = wn;
    x.root = wn - 1;
    errs += twins(&x, INTRA, ops);
    x.root = 0;
    errs += bottom(&x);
    errs += reduce_local(&x, ops);

    /* an intercommunicator between the halves; the root is rank 0 of the lower half */
    if (wn >= 2) {
        int h = wn / 2, low = wrank < h;
        MPI_Comm half, inter;
        MT_CALL(MPI_Comm_split(MPI_COMM_WORLD, low, wrank, &half));
        MT_CALL(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? h : 0, 7, &inter));
        x.comm = inter;
        MPI_Comm_rank(inter, &x.rank);
        MPI_Comm_size(inter, &x.n);
        MPI_Comm_remote_size(inter, &x.rn);
        x.root = low ? (x.rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0;
        errs += twins(&x, INTER, ops);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }

    /* a periodic ring */
    int dims[1] = {wn}, periods[1] = {1};
    MPI_Comm ring;
    MT_CALL(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    x.comm = ring;
    MPI_Comm_rank(ring, &x.rank);
    x.n = x.rn = wn;
    MPI_Cart_shift(ring, 0, 1, &x.nb[0], &x.nb[1]);
    errs += twins(&x, RING, ops);

    /* errors */
    x.comm = MPI_COMM_WORLD;
    x.rank = wrank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN);
    errs += bad_counts(&x, ring);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_free(&ring);

    const char *big = getenv("MT_LARGE_COUNT");
    if (big && big[0] == '1' && wn <= 2)
        errs += huge(wrank);

    MPI_Op_free(&ops[1]);
    MPI_Op_free(&ops[2]);
    free(x.sb);
    free(x.rb);
    return mt_finish(errs);
}
