/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-4.1's large-count (_c) one-sided functions against their int twins:
 *   - Win_create_c, Win_allocate_c (MPI_Aint displacement units; MPI_WIN_DISP_UNIT gives them);
 *   - Put_c, Get_c, Accumulate_c, Get_accumulate_c (fence epochs) and Rput_c, Rget_c, Raccumulate_c,
 *     Rget_accumulate_c (a lock_all epoch), each into a block of its own of the right neighbour's window,
 *     and the int form of each into another block: the two blocks end up the same, with the expected values;
 *   - a target type made by a large-count constructor (MPI_Type_vector_c);
 *   - Win_allocate_shared_c with a displacement unit beyond an int (8 GiB): Win_shared_query_c gives it,
 *     Win_shared_query and the MPI_WIN_DISP_UNIT attribute give MPI_UNDEFINED, displacement 0 works and 1
 *     is out of range (MPI_ERR_RMA_RANGE);
 *   - the error classes: a non-positive disp_unit (MPI_ERR_DISP), a negative count (MPI_ERR_COUNT).
 * A migration point with the first window open (the Rotate runs move every rank there).  Runs as one process
 * and as several (make test-procs): the window's exchange carries the MPI_Aint units. */
#include "mtest.h"

enum { BLK = 16, NBLK = 10 }; /* the window: NBLK blocks of BLK ints (block 2k: a _c call's, 2k + 1: its twin's) */

static int v(int origin, int op, int i) { return origin * 1000 + op * 100 + i; }

static int check_blocks(const int *w, int left, int rank, const char *what)
{
    int errs = 0;
    for (int b = 0; b < NBLK; b += 2)
        for (int i = 0; i < BLK; i++)
            MT_CHECK(errs, w[b * BLK + i] == w[(b + 1) * BLK + i],
                     "%s: rank %d block %d int %d is %d, its int-form twin's %d", what, rank, b, i, w[b * BLK + i],
                     w[(b + 1) * BLK + i]);
    /* the expected values: put (block 0), accumulate on 7 (block 2), get_accumulate on 7 (block 4) */
    for (int i = 0; i < BLK; i++) {
        MT_CHECK(errs, w[i] == v(left, 1, i), "%s: put int %d is %d, expected %d", what, i, w[i], v(left, 1, i));
        MT_CHECK(errs, w[2 * BLK + i] == 7 + v(left, 2, i), "%s: accumulate int %d is %d", what, i, w[2 * BLK + i]);
        MT_CHECK(errs, w[4 * BLK + i] == 7 + v(left, 3, i), "%s: get_accumulate int %d is %d", what, i,
                 w[4 * BLK + i]);
    }
    return errs;
}

/* The fence and request-based calls on `win` (over `w`, the local memory), _c and int side by side. */
static int operations(MPI_Win win, int *w, int rank, int size, const char *flavor)
{
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int src[3][BLK], got[2][BLK], old[2][BLK];
    for (int op = 0; op < 3; op++)
        for (int i = 0; i < BLK; i++)
            src[op][i] = v(rank, op + 1, i);
    for (int i = 0; i < NBLK * BLK; i++)
        w[i] = 7;
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MPI_Count n = BLK;
    MT_CHECK_RC(errs, MPI_Put_c(src[0], n, MPI_INT, right, 0 * BLK, n, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Put(src[0], BLK, MPI_INT, right, 1 * BLK, BLK, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Accumulate_c(src[1], n, MPI_INT, right, 2 * BLK, n, MPI_INT, MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Accumulate(src[1], BLK, MPI_INT, right, 3 * BLK, BLK, MPI_INT, MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Get_accumulate_c(src[2], n, MPI_INT, old[0], n, MPI_INT, right, 4 * BLK, n, MPI_INT,
                                           MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Get_accumulate(src[2], BLK, MPI_INT, old[1], BLK, MPI_INT, right, 5 * BLK, BLK, MPI_INT,
                                         MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    errs += check_blocks(w, left, rank, flavor);
    for (int i = 0; i < BLK; i++)
        MT_CHECK(errs, old[0][i] == 7 && old[1][i] == 7, "%s: get_accumulate's old values %d, %d", flavor, old[0][i],
                 old[1][i]);
    MT_CHECK_RC(errs, MPI_Get_c(got[0], n, MPI_INT, right, 0, n, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Get(got[1], BLK, MPI_INT, right, BLK, BLK, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    for (int i = 0; i < BLK; i++)
        MT_CHECK(errs, got[0][i] == v(rank, 1, i) && got[1][i] == got[0][i], "%s: Get_c / Get int %d: %d, %d",
                 flavor, i, got[0][i], got[1][i]);

    /* the request-based forms, again into fresh blocks */
    for (int i = 0; i < NBLK * BLK; i++)
        w[i] = 7;
    MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD));
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    MPI_Request rq[8];
    MT_CHECK_RC(errs, MPI_Rput_c(src[0], n, MPI_INT, right, 0 * BLK, n, MPI_INT, win, &rq[0]));
    MT_CHECK_RC(errs, MPI_Rput(src[0], BLK, MPI_INT, right, 1 * BLK, BLK, MPI_INT, win, &rq[1]));
    MT_CHECK_RC(errs, MPI_Raccumulate_c(src[1], n, MPI_INT, right, 2 * BLK, n, MPI_INT, MPI_SUM, win, &rq[2]));
    MT_CHECK_RC(errs, MPI_Raccumulate(src[1], BLK, MPI_INT, right, 3 * BLK, BLK, MPI_INT, MPI_SUM, win, &rq[3]));
    MT_CHECK_RC(errs, MPI_Rget_accumulate_c(src[2], n, MPI_INT, old[0], n, MPI_INT, right, 4 * BLK, n, MPI_INT,
                                            MPI_SUM, win, &rq[4]));
    MT_CHECK_RC(errs, MPI_Rget_accumulate(src[2], BLK, MPI_INT, old[1], BLK, MPI_INT, right, 5 * BLK, BLK, MPI_INT,
                                          MPI_SUM, win, &rq[5]));
    MT_CHECK_RC(errs, MPI_Waitall(6, rq, MPI_STATUSES_IGNORE));
    MT_CHECK_RC(errs, MPI_Win_flush_all(win));
    MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD)); /* every origin's operations are done */
    MT_CHECK_RC(errs, MPI_Rget_c(got[0], n, MPI_INT, right, 0, n, MPI_INT, win, &rq[6]));
    MT_CHECK_RC(errs, MPI_Rget(got[1], BLK, MPI_INT, right, BLK, BLK, MPI_INT, win, &rq[7]));
    MT_CHECK_RC(errs, MPI_Waitall(2, rq + 6, MPI_STATUSES_IGNORE));
    MT_CHECK_RC(errs, MPI_Win_sync(win)); /* in the epoch: every origin flushed before the barrier */
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MT_CHECK_RC(errs, MPI_Barrier(MPI_COMM_WORLD));
    errs += check_blocks(w, left, rank, "request-based forms");
    for (int i = 0; i < BLK; i++)
        MT_CHECK(errs, got[0][i] == v(rank, 1, i) && got[1][i] == got[0][i] && old[0][i] == 7 && old[1][i] == 7,
                 "%s: Rget_c / Rget int %d: %d, %d; old %d, %d", flavor, i, got[0][i], got[1][i], old[0][i],
                 old[1][i]);
    return errs;
}

/* A target type of the large-count constructors: every other int of the window. */
static int derived_target(MPI_Win win, int *w, int rank, int size)
{
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Datatype every2;
    MT_CALL(MPI_Type_vector_c(BLK, 1, 2, MPI_INT, &every2));
    MT_CALL(MPI_Type_commit(&every2));
    int src[BLK];
    for (int i = 0; i < BLK; i++)
        src[i] = v(rank, 9, i);
    for (int i = 0; i < NBLK * BLK; i++)
        w[i] = -1;
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Put_c(src, BLK, MPI_INT, right, 0, 1, every2, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    for (int i = 0; i < 2 * BLK; i++)
        MT_CHECK(errs, w[i] == (i % 2 ? -1 : v(left, 9, i / 2)), "vector_c target: int %d is %d", i, w[i]);
    MPI_Type_free(&every2);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size, flag;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Win_create_c */
    int *mem = mt_malloc(sizeof(int) * NBLK * BLK);
    MPI_Win win;
    MT_CALL(MPI_Win_create_c(mem, sizeof(int) * NBLK * BLK, (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                             &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int *du = NULL;
    MT_CHECK_RC(errs, MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
    MT_CHECK(errs, flag && *du == (int)sizeof(int), "Win_create_c: MPI_WIN_DISP_UNIT %d", flag ? *du : -1);
    errs += operations(win, mem, rank, size, "Win_create_c");
    errs += derived_target(win, mem, rank, size);
    mt_migrate(); /* the window moves with its ranks (within their process); Rotate moves every rank */
    errs += derived_target(win, mem, rank, size);
    MT_CHECK_CLASS(errs, MPI_Put_c(mem, -1, MPI_INT, rank, 0, 1, MPI_INT, win), MPI_ERR_COUNT);
    MT_CHECK_CLASS(errs, MPI_Get_c(mem, 1, MPI_INT, rank, 0, -5, MPI_INT, win), MPI_ERR_COUNT);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    free(mem);

    /* Win_allocate_c */
    int *base = NULL;
    MT_CALL(MPI_Win_allocate_c(sizeof(int) * NBLK * BLK, (MPI_Aint)sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                               &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    errs += operations(win, base, rank, size, "Win_allocate_c");
    MT_CHECK_RC(errs, MPI_Win_free(&win));

    /* Win_allocate_shared_c with a displacement unit beyond an int */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    const MPI_Aint huge = (MPI_Aint)1 << 33;
    int nrank;
    MPI_Comm_rank(node, &nrank);
    MT_CALL(MPI_Win_allocate_shared_c(64, huge, MPI_INFO_NULL, node, &base, &win));
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    if (!MT_MPICH_BUGS) { /* MPICH 4.0.2 keeps the unit as an int: 2^33 becomes 0 */
        MPI_Aint qsize = -1, qdu = -1;
        int *qbase = NULL, idu = 0;
        MT_CHECK_RC(errs, MPI_Win_shared_query_c(win, nrank, &qsize, &qdu, &qbase));
        MT_CHECK(errs, qsize == 64 && qdu == huge && qbase == base,
                 "Win_shared_query_c: %td bytes, unit %td, %p (%p)", qsize, qdu, (void *)qbase, (void *)base);
        MT_CHECK_RC(errs, MPI_Win_shared_query(win, nrank, &qsize, &idu, &qbase));
        MT_CHECK_INT(errs, "int Win_shared_query's disp_unit of 8 GiB", MPI_UNDEFINED, idu);
        MT_CHECK_RC(errs, MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag));
        MT_CHECK(errs, flag && *du == MPI_UNDEFINED, "MPI_WIN_DISP_UNIT of 8 GiB: %d", flag ? *du : -1);
        int one = 40 + rank, back = -1;
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, nrank, 0, win));
        MT_CHECK_RC(errs, MPI_Put_c(&one, 1, MPI_INT, nrank, 0, 1, MPI_INT, win));
        MT_CHECK_RC(errs, MPI_Win_flush(nrank, win));
        MT_CHECK_RC(errs, MPI_Get_c(&back, 1, MPI_INT, nrank, 0, 1, MPI_INT, win));
        MT_CHECK_CLASS(errs, MPI_Put_c(&one, 1, MPI_INT, nrank, 1, 1, MPI_INT, win), MPI_ERR_RMA_RANGE);
        MT_CHECK_CLASS(errs, MPI_Put_c(&one, 1, MPI_INT, nrank, (MPI_Aint)1 << 40, 1, MPI_INT, win),
                       MPI_ERR_RMA_RANGE);
        MT_CHECK_RC(errs, MPI_Win_unlock(nrank, win));
        MT_CHECK_INT(errs, "Put_c / Get_c at displacement 0 of an 8 GiB unit", 40 + rank, back);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));

    /* bad displacement units: the communicator's handler, MPI_ERR_DISP */
    MT_CHECK_CLASS(errs, MPI_Win_allocate_c(64, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win), MPI_ERR_DISP);
    MT_CHECK_CLASS(errs, MPI_Win_create_c(NULL, 0, -huge, MPI_INFO_NULL, MPI_COMM_WORLD, &win), MPI_ERR_DISP);
    MT_CHECK_CLASS(errs, MPI_Win_allocate_shared_c(64, 0, MPI_INFO_NULL, node, &base, &win), MPI_ERR_DISP);
    MPI_Comm_free(&node);
    return mt_finish(errs);
}
