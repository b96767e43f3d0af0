/* SPDX-License-Identifier: BSD-3-Clause */
/* Erroneous one-sided calls return the right error class (MPI-3.1 11.6, 8.3) with MPI_ERRORS_RETURN on the
 * windows (Win_set_errhandler) and on MPI_COMM_WORLD (creation errors go to the communicator's handler, errors
 * on no valid window to MPI_COMM_WORLD's), and leave the window usable:
 *   RMA_SYNC: Put and Win_flush outside any epoch, Win_flush and Rput in a fence epoch, Win_unlock without a
 *     lock, a second lock on the same target, Win_complete without Win_start, Win_wait without Win_post, a
 *     Put to a rank outside the Win_start group, Win_lock inside a lock_all epoch;
 *   RMA_RANGE: a displacement past the window's size, a count that runs past it, a negative displacement, a
 *     dynamic window's unattached memory (and memory after its detach);
 *   RMA_FLAVOR: Win_shared_query on a Win_allocate window, Win_attach and Win_detach on a Win_create window;
 *   RMA_ATTACH: attaching memory that overlaps attached memory; BASE: detaching memory never attached;
 *   OP: Accumulate with a user-defined operation, with MPI_NO_OP, Get_accumulate with a user operation, an
 *     operation not defined on the type (MPI_BAND on double);
 *   TYPE: Compare_and_swap on MPI_DOUBLE, Accumulate with origin and target of different basic types;
 *   LOCKTYPE: lock type 7; ASSERT: assert bits that are no MPI_MODE_ constant;
 *   DISP: disp_unit 0 (Win_create, Win_allocate); SIZE: negative sizes (Win_create, Win_allocate,
 *     Win_allocate_shared); RANK: a target rank = group size;
 *   WIN: a freed window's handle and MPI_WIN_NULL;
 * and Win_create's errors call the communicator's user handler (with the communicator and the code).
 * vmpi only checks all of these; built against another MPI the test runs the calls that cannot harm it and
 * prints what it got as notes, without counting them. */
#include "mtest.h"

#define MAXR 16384
static int comm_calls[MAXR], comm_code[MAXR]; /* the communicator handler's calls, per world rank */

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank < MAXR) {
        comm_calls[rank]++;
        comm_code[rank] = *code;
    }
    (void)comm;
}

#ifdef VMPI
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
    (void)dt;
}
#endif

#ifdef VMPI
#define EXPECT(errs, rc, cls, what) MT_CHECK_CLASS(errs, rc, cls)
#else
#define EXPECT(errs, rc, cls, what) note(rc, cls, #cls, what)
static void note(int rc, int cls, const char *name, const char *what)
{
    int got = -1;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &got);
    if (got != cls)
        fprintf(stderr, "note (not counted): %s: expected %s, got %s class %d\n", what, name,
                rc == MPI_SUCCESS ? "MPI_SUCCESS," : "", got);
}
#endif

int main(int argc, char **argv)
{
    int errs = 0, rank, size, rc, x = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank >= MAXR)
        return mt_finish(errs);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % size;
    int *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MT_CHECK_RC(errs, MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    base[0] = base[1] = base[2] = base[3] = 0;
    MPI_Barrier(MPI_COMM_WORLD);

    /* ---- synchronization ---- */
    rc = MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Put outside any epoch");
    rc = MPI_Win_flush(right, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_flush outside any epoch");
    rc = MPI_Win_unlock(right, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_unlock without Win_lock");
    rc = MPI_Win_complete(win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_complete without Win_start");
    rc = MPI_Win_wait(win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_wait without Win_post");
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    rc = MPI_Win_flush(right, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_flush in a fence epoch");
    {
        MPI_Request r = MPI_REQUEST_NULL;
        rc = MPI_Rput(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win, &r);
        EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Rput in a fence epoch");
        if (rc == MPI_SUCCESS && r != MPI_REQUEST_NULL)
            MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MT_CHECK_RC(errs, MPI_Put(&x, 1, MPI_INT, right, 0, 1, MPI_INT, win)); /* the epoch still works */
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MT_CHECK_INT(errs, "int put after the errors of the fence epoch", 1, base[0]);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "a second Win_lock on the same target");
    MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
    EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Win_lock inside a lock_all epoch");
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
#ifdef VMPI /* locking a window that is exposed (post .. wait) is erroneous; vmpi detects it */
    {
        MPI_Group wg, me_g;
        int me = 0;
        MPI_Win_get_group(win, &wg);
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        MPI_Group_incl(wg, 1, &me, &me_g);
        MPI_Barrier(MPI_COMM_WORLD); /* the neighbours' locks above are over */
        MT_CHECK_RC(errs, MPI_Win_post(me_g, 0, win));
        rc = MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win);
        EXPECT(errs, rc, MPI_ERR_RMA_CONFLICT, "Win_lock of a window in an exposure epoch");
        if (rc == MPI_SUCCESS)
            MPI_Win_unlock(me, win);
        MT_CHECK_RC(errs, MPI_Win_start(me_g, 0, win));
        MT_CHECK_RC(errs, MPI_Win_complete(win));
        MT_CHECK_RC(errs, MPI_Win_wait(win));
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, me, 0, win)); /* exposure over: a lock is fine again */
        MT_CHECK_RC(errs, MPI_Win_unlock(me, win));
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Group_free(&me_g);
        MPI_Group_free(&wg);
    }
#endif
    if (size >= 3) { /* a Put to a rank outside the start group */
        MPI_Group world, g;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int left = (rank + size - 1) % size, far = (rank + 2) % size;
        MPI_Group_incl(world, 1, &right, &g);
        MPI_Group lg;
        MPI_Group_incl(world, 1, &left, &lg);
        MT_CHECK_RC(errs, MPI_Win_post(lg, 0, win));
        MT_CHECK_RC(errs, MPI_Win_start(g, 0, win));
        rc = MPI_Put(&x, 1, MPI_INT, far, 1, 1, MPI_INT, win);
        EXPECT(errs, rc, MPI_ERR_RMA_SYNC, "Put to a rank outside the Win_start group");
        MT_CHECK_RC(errs, MPI_Win_complete(win));
        MT_CHECK_RC(errs, MPI_Win_wait(win));
        MPI_Group_free(&g);
        MPI_Group_free(&lg);
        MPI_Group_free(&world);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* ---- ranges, ranks, types, operations (in a lock_all epoch): other MPIs execute some of them, which
     * corrupts memory or hangs (MPICH 4.0), so only under vmpi ---- */
#ifdef VMPI
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    rc = MPI_Put(&x, 1, MPI_INT, right, 4, 1, MPI_INT, win);
    EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Put at displacement = window size");
    {
        int four[4] = {1, 2, 3, 4};
        rc = MPI_Put(four, 4, MPI_INT, right, 2, 4, MPI_INT, win);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Put of 4 ints at displacement 2 of a 4-int window");
        rc = MPI_Get(four, 1, MPI_INT, right, -1, 1, MPI_INT, win);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Get at displacement -1");
        rc = MPI_Accumulate(four, 2, MPI_INT, right, 3, 2, MPI_INT, MPI_SUM, win);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Accumulate of 2 ints at displacement 3");
    }
    rc = MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    EXPECT(errs, rc, MPI_ERR_RANK, "Put to rank = group size");
    {
        double dv = 1, dc = 0, dr;
        rc = MPI_Compare_and_swap(&dv, &dc, &dr, MPI_DOUBLE, right, 0, win);
        EXPECT(errs, rc, MPI_ERR_TYPE, "Compare_and_swap on MPI_DOUBLE");
        rc = MPI_Accumulate(&x, 1, MPI_INT, right, 0, 1, MPI_FLOAT, MPI_SUM, win);
        EXPECT(errs, rc, MPI_ERR_TYPE, "Accumulate from MPI_INT into MPI_FLOAT");
        rc = MPI_Accumulate(&dv, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, MPI_BAND, win);
        EXPECT(errs, rc, MPI_ERR_OP, "Accumulate MPI_BAND on MPI_DOUBLE");
    }
    {
        MPI_Op uop;
        int res = 0;
        MPI_Op_create(user_sum, 1, &uop);
        rc = MPI_Accumulate(&x, 1, MPI_INT, right, 0, 1, MPI_INT, uop, win);
        EXPECT(errs, rc, MPI_ERR_OP, "Accumulate with a user-defined operation");
        rc = MPI_Get_accumulate(&x, 1, MPI_INT, &res, 1, MPI_INT, right, 0, 1, MPI_INT, uop, win);
        EXPECT(errs, rc, MPI_ERR_OP, "Get_accumulate with a user-defined operation");
        rc = MPI_Accumulate(&x, 1, MPI_INT, right, 0, 1, MPI_INT, MPI_NO_OP, win);
        EXPECT(errs, rc, MPI_ERR_OP, "Accumulate with MPI_NO_OP");
        MPI_Op_free(&uop);
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
#endif
    /* ---- lock types and asserts ---- */
    rc = MPI_Win_lock(7, right, 0, win);
    EXPECT(errs, rc, MPI_ERR_LOCKTYPE, "Win_lock with lock type 7");
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    rc = MPI_Win_lock(MPI_LOCK_SHARED, right, 3, win);
    EXPECT(errs, rc, MPI_ERR_ASSERT, "Win_lock with assert 3");
    if (rc == MPI_SUCCESS)
        MPI_Win_unlock(right, win);
    rc = MPI_Win_fence(1, win); /* every rank passes the same bad assert */
    EXPECT(errs, rc, MPI_ERR_ASSERT, "Win_fence with assert 1");
    MPI_Barrier(MPI_COMM_WORLD);
    /* the window works after all that */
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_RC(errs, MPI_Accumulate(&x, 1, MPI_INT, right, 3, 1, MPI_INT, MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
    if (!MT_OMPI_BUGS && !MT_MPICH_BUGS) { /* they do what some of the erroneous calls ask */
        MT_CHECK_INT(errs, "int accumulated after the errors (no failed call wrote)", 1, base[3]);
        MT_CHECK_INT(errs, "int 2 (no failed call wrote)", 0, base[2]);
    }
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));

    /* ---- flavors ---- */
    {
        MPI_Aint qs;
        int qdu;
        void *qp;
        rc = MPI_Win_shared_query(win, 0, &qs, &qdu, &qp);
        EXPECT(errs, rc, MPI_ERR_RMA_FLAVOR, "Win_shared_query on a Win_allocate window");
        int *mem = mt_malloc(16);
        MPI_Win wc;
        MT_CHECK_RC(errs, MPI_Win_create(mem, 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wc));
        MT_CHECK_RC(errs, MPI_Win_set_errhandler(wc, MPI_ERRORS_RETURN));
        rc = MPI_Win_attach(wc, mem, 16);
        EXPECT(errs, rc, MPI_ERR_RMA_FLAVOR, "Win_attach on a Win_create window");
        rc = MPI_Win_detach(wc, mem);
        EXPECT(errs, rc, MPI_ERR_RMA_FLAVOR, "Win_detach on a Win_create window");
        MT_CHECK_RC(errs, MPI_Win_free(&wc));
        free(mem);
    }
    /* ---- dynamic windows ---- */
    {
        MPI_Win wd;
        int *att = mt_malloc(64), *other = mt_malloc(64);
        MT_CHECK_RC(errs, MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &wd));
        MT_CHECK_RC(errs, MPI_Win_set_errhandler(wd, MPI_ERRORS_RETURN));
        MT_CHECK_RC(errs, MPI_Win_attach(wd, att, 64));
        rc = MPI_Win_attach(wd, att + 4, 16);
        EXPECT(errs, rc, MPI_ERR_RMA_ATTACH, "Win_attach of memory overlapping attached memory");
        rc = MPI_Win_detach(wd, other);
        EXPECT(errs, rc, MPI_ERR_BASE, "Win_detach of memory never attached");
        MPI_Aint addr[2], raddr[2];
        MPI_Get_address(att, &addr[0]);
        MPI_Get_address(other, &addr[1]);
        MPI_Sendrecv(addr, 2, MPI_AINT, (rank + size - 1) % size, 0, raddr, 2, MPI_AINT, right, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wd));
#ifdef VMPI /* other MPIs write there */
        rc = MPI_Put(&x, 1, MPI_INT, right, raddr[1], 1, MPI_INT, wd);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Put into a dynamic window's unattached memory");
        rc = MPI_Put(&x, 1, MPI_INT, right, MPI_Aint_add(raddr[0], 62), 1, MPI_INT, wd);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Put running past the end of attached memory");
#endif
        MT_CHECK_RC(errs, MPI_Put(&x, 1, MPI_INT, right, raddr[0], 1, MPI_INT, wd));
        MT_CHECK_RC(errs, MPI_Win_unlock(right, wd));
        MPI_Barrier(MPI_COMM_WORLD);
        MT_CHECK_RC(errs, MPI_Win_detach(wd, att));
        MPI_Barrier(MPI_COMM_WORLD);
#ifdef VMPI
        MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wd));
        rc = MPI_Get(&x, 1, MPI_INT, right, raddr[0], 1, MPI_INT, wd);
        EXPECT(errs, rc, MPI_ERR_RMA_RANGE, "Get from a dynamic window's detached memory");
        MT_CHECK_RC(errs, MPI_Win_unlock(right, wd));
#endif
        MT_CHECK_RC(errs, MPI_Win_free(&wd));
        MT_CHECK_INT(errs, "int put into attached memory", 1, att[0]);
        free(att);
        free(other);
    }
    /* ---- creation: errors go to the communicator's handler ---- */
    {
        MPI_Win w2 = MPI_WIN_NULL;
        void *p;
        int mem[4];
        rc = MPI_Win_create(mem, 16, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
        EXPECT(errs, rc, MPI_ERR_DISP, "Win_create with disp_unit 0");
        rc = MPI_Win_allocate(16, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w2);
        EXPECT(errs, rc, MPI_ERR_DISP, "Win_allocate with disp_unit 0");
        rc = MPI_Win_create(mem, -16, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &w2);
        EXPECT(errs, rc, MPI_ERR_SIZE, "Win_create with size -16");
        rc = MPI_Win_allocate(-1, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w2);
        EXPECT(errs, rc, MPI_ERR_SIZE, "Win_allocate with size -1");
        rc = MPI_Win_allocate_shared(-8, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &w2);
        EXPECT(errs, rc, MPI_ERR_SIZE, "Win_allocate_shared with size -8");
        MPI_Comm dup;
        MPI_Errhandler eh;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_create_errhandler(comm_handler, &eh);
        MPI_Comm_set_errhandler(dup, eh);
        comm_calls[rank] = 0;
        rc = MPI_Win_create(mem, 16, 0, MPI_INFO_NULL, dup, &w2);
        EXPECT(errs, rc, MPI_ERR_DISP, "Win_create with disp_unit 0 on a communicator with a user handler");
        MT_CHECK_INT(errs, "calls of the communicator's handler by a failed Win_create", 1, comm_calls[rank]);
        MT_CHECK(errs, comm_code[rank] == rc, "the communicator's handler got code %d, Win_create returned %d",
                 comm_code[rank], rc);
        MPI_Errhandler_free(&eh);
        MPI_Comm_free(&dup);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    /* ---- invalid windows (errors on MPI_COMM_WORLD's handler) ---- */
#ifdef VMPI /* other MPIs may crash on these */
    {
        MPI_Win stale = win;
        MT_CHECK_RC(errs, MPI_Win_free(&win));
        rc = MPI_Win_lock_all(0, stale);
        MT_CHECK_CLASS(errs, rc, MPI_ERR_WIN);
        rc = MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL);
        MT_CHECK_CLASS(errs, rc, MPI_ERR_WIN);
        rc = MPI_Win_fence(0, MPI_WIN_NULL);
        MT_CHECK_CLASS(errs, rc, MPI_ERR_WIN);
        rc = MPI_Win_free(&stale);
        MT_CHECK_CLASS(errs, rc, MPI_ERR_WIN);
    }
#else
    MT_CHECK_RC(errs, MPI_Win_free(&win));
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    return mt_finish(errs);
}
