/* SPDX-License-Identifier: BSD-3-Clause */
/* Put and Get under every synchronization mode (MPI-3.1 11.5), on a Win_create and a Win_allocate window.
 * Each rank's window holds one block of BLK ints per origin rank and a spare one; a round writes blocks
 * (every rank into every target, itself included, or a subset), the owner checks its whole window (blocks
 * not written stay -1), and the writers read blocks back with Get (their own and their right neighbour's) in
 * a later epoch:
 *   - fence: NOPRECEDE / NOSTORE|NOPUT / NOPUT / NOSUCCEED asserts, and plain fence(0) epochs;
 *   - post/start/complete/wait: every rank with every rank (the symmetric case must not deadlock), a ring
 *     (exposure to the left neighbour, access to the right one) ended by a Win_test loop, the same with
 *     MPI_MODE_NOCHECK after a barrier, odd ranks accessing even ranks only;
 *   - lock/unlock: exclusive, one target at a time; shared, all targets at once (several lock epochs open);
 *   - lock_all/unlock_all with Win_flush (a Get after a flushed Put reads the Put's data), Win_flush_local (the
 *     origin buffer may then be reused), Win_flush_all, Win_flush_local_all (a Get's data is then there);
 *   - Rput/Rget in a lock_all epoch, waited on with MPI_Waitall together with an Isend/Irecv, MPI_Test, MPI_Wait;
 *   - MPI_PROC_NULL as a target in every mode: no effect (a Get from it leaves the buffer as it was). */
#include "mtest.h"

enum { BLK = 40 };

static int val(int t, int o, int i, int round)
{
    return (int)((unsigned)round * 1000003u + (unsigned)t * 7919u + (unsigned)o * 104729u + (unsigned)i * 31u) &
           0x3fffffff;
}

typedef struct {
    MPI_Win win;
    int *base;
    int rank, size;
    const char *flavor;
    int *src, *dst; /* BLK ints each */
} ctx;

/* the owner sets its whole window to -1, then everyone may access it */
static void reset(ctx *c)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, c->rank, 0, c->win);
    for (int i = 0; i < (c->size + 1) * BLK; i++)
        c->base[i] = -1;
    MPI_Win_unlock(c->rank, c->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void fill(ctx *c, int t, int round)
{
    for (int i = 0; i < BLK; i++)
        c->src[i] = val(t, c->rank, i, round);
}

/* writes(o, t): does origin o write its block in target t in this mode? */
typedef int writes_fn(int o, int t, int size);
static int w_all(int o, int t, int size) { return 1; }
static int w_ring(int o, int t, int size) { return t == (o + 1) % size; }
static int w_odd_to_even(int o, int t, int size) { return o % 2 == 1 && t % 2 == 0; }

/* the owner's check of its window (local loads; passive modes call it inside a lock of its own window) */
static int check_window(ctx *c, writes_fn *w, int round, const char *mode)
{
    int errs = 0;
    for (int o = 0; o < c->size; o++) {
        int wrote = w(o, c->rank, c->size);
        for (int i = 0; i < BLK; i++) {
            int want = wrote ? val(c->rank, o, i, round) : -1, got = c->base[o * BLK + i];
            if (got != want) {
                MT_ERR(errs, "%s, %s: block of origin %d, int %d: expected %d, got %d", c->flavor, mode, o, i, want,
                       got);
                break;
            }
        }
    }
    for (int i = 0; i < BLK; i++) /* the spare block at the end is never written */
        if (c->base[c->size * BLK + i] != -1) {
            MT_ERR(errs, "%s, %s: spare block, int %d: %d", c->flavor, mode, i, c->base[c->size * BLK + i]);
            break;
        }
    return errs;
}

static int check_got(ctx *c, int t, int o, writes_fn *w, int round, const char *mode)
{
    int errs = 0, wrote = w(o, t, c->size);
    for (int i = 0; i < BLK; i++) {
        int want = wrote ? val(t, o, i, round) : -1;
        if (c->dst[i] != want) {
            MT_ERR(errs, "%s, %s: Get of origin %d's block in target %d, int %d: expected %d, got %d", c->flavor, mode,
                   o, t, i, want, c->dst[i]);
            break;
        }
    }
    return errs;
}

static void clear_dst(ctx *c)
{
    for (int i = 0; i < BLK; i++)
        c->dst[i] = -7;
}

static int procnull_ops(ctx *c, int passive)
{
    int errs = 0, x = 3, y = 4;
    MT_CHECK_RC(errs, MPI_Put(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, c->win));
    MT_CHECK_RC(errs, MPI_Get(&y, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, c->win));
    if (passive) {
        MPI_Request r = MPI_REQUEST_NULL;
        MT_CHECK_RC(errs, MPI_Rget(&y, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, c->win, &r));
        MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    }
    MT_CHECK_INT(errs, "Get from MPI_PROC_NULL: the buffer", 4, y);
    return errs;
}

/* ---- fence ---- */
static int mode_fence(ctx *c, int round, int asserts)
{
    int errs = 0, size = c->size, rank = c->rank;
    const char *mode = asserts ? "fence with asserts" : "fence(0)";
    reset(c);
    MT_CHECK_RC(errs, MPI_Win_fence(asserts ? MPI_MODE_NOPRECEDE : 0, c->win));
    for (int k = 0; k < size; k++) {
        int t = (rank + k) % size;
        fill(c, t, round);
        MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, t, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
        /* the origin buffer is not reusable before the fence: one buffer per target */
        c->src += BLK;
    }
    c->src -= size * BLK;
    errs += procnull_ops(c, 0);
    MT_CHECK_RC(errs, MPI_Win_fence(asserts ? MPI_MODE_NOSTORE | MPI_MODE_NOPUT : 0, c->win));
    errs += check_window(c, w_all, round, mode);
    int right = (rank + 1) % size;
    for (int k = 0; k < 2; k++) {
        int t = (rank + k * 3) % size;
        clear_dst(c);
        MT_CHECK_RC(errs, MPI_Get(c->dst, BLK, MPI_INT, t, (MPI_Aint)right * BLK, BLK, MPI_INT, c->win));
        MT_CHECK_RC(errs, MPI_Win_fence(asserts ? MPI_MODE_NOPUT : 0, c->win));
        errs += check_got(c, t, right, w_all, round, mode);
    }
    MT_CHECK_RC(errs, MPI_Win_fence(asserts ? MPI_MODE_NOSUCCEED : 0, c->win));
    return errs;
}

/* ---- post/start/complete/wait ---- */
static MPI_Group group_of(const int *ranks, int n)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, ranks, &g);
    MPI_Group_free(&world);
    return g;
}

static int mode_pscw_all(ctx *c, int round)
{
    int errs = 0, size = c->size, rank = c->rank;
    const char *mode = "post/start with every rank";
    MPI_Group all;
    MPI_Comm_group(MPI_COMM_WORLD, &all);
    reset(c);
    /* post; start; put; complete; wait on every rank: must not deadlock (MPI-3.1 11.7.3) */
    MT_CHECK_RC(errs, MPI_Win_post(all, 0, c->win));
    MT_CHECK_RC(errs, MPI_Win_start(all, 0, c->win));
    for (int k = 0; k < size; k++) {
        int t = (rank + size - k) % size;
        fill(c, t, round);
        MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, t, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
        c->src += BLK;
    }
    c->src -= size * BLK;
    errs += procnull_ops(c, 0);
    MT_CHECK_RC(errs, MPI_Win_complete(c->win));
    MT_CHECK_RC(errs, MPI_Win_wait(c->win));
    errs += check_window(c, w_all, round, mode);
    /* and gets of every target's block of my left neighbour */
    int left = (rank + size - 1) % size;
    int *got = mt_malloc(sizeof(int) * BLK * (size_t)size);
    MT_CHECK_RC(errs, MPI_Win_post(all, MPI_MODE_NOPUT, c->win));
    MT_CHECK_RC(errs, MPI_Win_start(all, 0, c->win));
    for (int t = 0; t < size; t++)
        MT_CHECK_RC(errs, MPI_Get(got + t * BLK, BLK, MPI_INT, t, (MPI_Aint)left * BLK, BLK, MPI_INT, c->win));
    MT_CHECK_RC(errs, MPI_Win_complete(c->win));
    for (int t = 0; t < size; t++) {
        memcpy(c->dst, got + t * BLK, sizeof(int) * BLK);
        errs += check_got(c, t, left, w_all, round, mode);
    }
    MT_CHECK_RC(errs, MPI_Win_wait(c->win));
    free(got);
    MPI_Group_free(&all);
    return errs;
}

static int mode_pscw_ring(ctx *c, int round, int nocheck, int use_test)
{
    int errs = 0, size = c->size, rank = c->rank;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const char *mode = nocheck ? "post/start ring with MPI_MODE_NOCHECK" : use_test ? "post/start ring, Win_test" :
                                                                                   "post/start ring";
    MPI_Group lg = group_of(&left, 1), rg = group_of(&right, 1);
    reset(c);
    int a = nocheck ? MPI_MODE_NOCHECK : 0;
    MT_CHECK_RC(errs, MPI_Win_post(lg, a, c->win));
    if (nocheck)
        MPI_Barrier(MPI_COMM_WORLD); /* every post is done before any start */
    MT_CHECK_RC(errs, MPI_Win_start(rg, a, c->win));
    fill(c, right, round);
    MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, right, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
    errs += procnull_ops(c, 0);
    MT_CHECK_RC(errs, MPI_Win_complete(c->win));
    if (use_test) {
        int flag = 0;
        long polls = 0;
        while (!flag) {
            MT_CHECK_RC(errs, MPI_Win_test(c->win, &flag));
            polls++;
        }
        MT_CHECK(errs, polls >= 1, "Win_test loop ran %ld times", polls);
    } else {
        MT_CHECK_RC(errs, MPI_Win_wait(c->win));
    }
    errs += check_window(c, w_ring, round, mode);
    /* read back: exposure to the right (who reads my block of its left), access to the left */
    MT_CHECK_RC(errs, MPI_Win_post(rg, 0, c->win));
    MT_CHECK_RC(errs, MPI_Win_start(lg, 0, c->win));
    clear_dst(c);
    MT_CHECK_RC(errs, MPI_Get(c->dst, BLK, MPI_INT, left, (MPI_Aint)((left + size - 1) % size) * BLK, BLK, MPI_INT,
                              c->win));
    MT_CHECK_RC(errs, MPI_Win_complete(c->win));
    errs += check_got(c, left, (left + size - 1) % size, w_ring, round, mode);
    MT_CHECK_RC(errs, MPI_Win_wait(c->win));
    MPI_Group_free(&lg);
    MPI_Group_free(&rg);
    return errs;
}

static int mode_pscw_odd_even(ctx *c, int round)
{
    int errs = 0, size = c->size, rank = c->rank;
    const char *mode = "post/start, odd ranks into even ranks";
    if (size < 2)
        return 0;
    int *evens = mt_malloc(sizeof(int) * (size_t)size), *odds = mt_malloc(sizeof(int) * (size_t)size), ne = 0, no = 0;
    for (int r = 0; r < size; r++) {
        if (r % 2)
            odds[no++] = r;
        else
            evens[ne++] = r;
    }
    MPI_Group eg = group_of(evens, ne), og = group_of(odds, no);
    reset(c);
    if (rank % 2 == 0) {
        MT_CHECK_RC(errs, MPI_Win_post(og, 0, c->win));
        MT_CHECK_RC(errs, MPI_Win_wait(c->win));
    } else {
        MT_CHECK_RC(errs, MPI_Win_start(eg, 0, c->win));
        for (int k = 0; k < ne; k++) {
            int t = evens[(k + rank) % ne];
            fill(c, t, round);
            MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, t, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
            c->src += BLK;
        }
        c->src -= ne * BLK;
        MT_CHECK_RC(errs, MPI_Win_complete(c->win));
    }
    errs += check_window(c, w_odd_to_even, round, mode);
    MPI_Group_free(&eg);
    MPI_Group_free(&og);
    free(evens);
    free(odds);
    return errs;
}

/* ---- lock/unlock ---- */
static int mode_lock(ctx *c, int round, int exclusive)
{
    int errs = 0, size = c->size, rank = c->rank, right = (rank + 1) % size;
    const char *mode = exclusive ? "lock exclusive" : "lock shared, all targets at once";
    reset(c);
    if (exclusive) {
        for (int k = 0; k < size; k++) {
            int t = (rank + k) % size;
            fill(c, t, round);
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, c->win));
            MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, t, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
            errs += procnull_ops(c, 1);
            MT_CHECK_RC(errs, MPI_Win_unlock(t, c->win));
        }
    } else {
        for (int k = 0; k < size; k++)
            MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, (rank + k) % size, 0, c->win));
        for (int k = 0; k < size; k++) {
            int t = (rank + k) % size;
            fill(c, t, round);
            MT_CHECK_RC(errs, MPI_Put(c->src, BLK, MPI_INT, t, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win));
            c->src += BLK;
        }
        c->src -= size * BLK;
        errs += procnull_ops(c, 1);
        for (int k = size - 1; k >= 0; k--)
            MT_CHECK_RC(errs, MPI_Win_unlock((rank + k) % size, c->win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, c->win));
    errs += check_window(c, w_all, round, mode);
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, c->win));
    for (int k = 0; k < size; k++) {
        int t = (rank + k * 5) % size;
        clear_dst(c);
        MT_CHECK_RC(errs, MPI_Win_lock(exclusive ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, t, 0, c->win));
        MT_CHECK_RC(errs, MPI_Get(c->dst, BLK, MPI_INT, t, (MPI_Aint)right * BLK, BLK, MPI_INT, c->win));
        MT_CHECK_RC(errs, MPI_Win_unlock(t, c->win));
        errs += check_got(c, t, right, w_all, round, mode);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return errs;
}

/* ---- lock_all with the flushes ---- */
static int mode_lock_all(ctx *c, int round)
{
    int errs = 0, size = c->size, rank = c->rank;
    const char *mode = "lock_all with flushes";
    reset(c);
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, c->win));
    for (int k = 0; k < size; k++) {
        int t = (rank + k) % size;
        /* first half: put, flush(t), a Get of it sees the data */
        fill(c, t, round);
        MT_CHECK_RC(errs, MPI_Put(c->src, BLK / 2, MPI_INT, t, (MPI_Aint)rank * BLK, BLK / 2, MPI_INT, c->win));
        MT_CHECK_RC(errs, MPI_Win_flush(t, c->win));
        clear_dst(c);
        MT_CHECK_RC(errs, MPI_Get(c->dst, BLK / 2, MPI_INT, t, (MPI_Aint)rank * BLK, BLK / 2, MPI_INT, c->win));
        MT_CHECK_RC(errs, MPI_Win_flush_local(t, c->win)); /* the Get's data is in dst */
        for (int i = 0; i < BLK / 2; i++)
            if (c->dst[i] != val(t, rank, i, round)) {
                MT_ERR(errs, "%s, %s: Get after a flushed Put to %d, int %d: expected %d, got %d", c->flavor, mode, t,
                       i, val(t, rank, i, round), c->dst[i]);
                break;
            }
        /* second half one int at a time from one buffer reused after each flush_local */
        int one;
        for (int i = BLK / 2; i < BLK; i++) {
            one = val(t, rank, i, round);
            MT_CHECK_RC(errs, MPI_Put(&one, 1, MPI_INT, t, (MPI_Aint)rank * BLK + i, 1, MPI_INT, c->win));
            MT_CHECK_RC(errs, (i % 2 ? MPI_Win_flush_local(t, c->win) : MPI_Win_flush_local_all(c->win)));
        }
        errs += procnull_ops(c, 1);
    }
    MT_CHECK_RC(errs, MPI_Win_flush_all(c->win));
    MPI_Barrier(MPI_COMM_WORLD); /* every put is complete at its target */
    MT_CHECK_RC(errs, MPI_Win_sync(c->win));
    errs += check_window(c, w_all, round, mode);
    int right = (rank + 1) % size;
    for (int k = 0; k < size; k++) {
        int t = (rank + size - k) % size;
        clear_dst(c);
        MT_CHECK_RC(errs, MPI_Get(c->dst, BLK, MPI_INT, t, (MPI_Aint)right * BLK, BLK, MPI_INT, c->win));
        MT_CHECK_RC(errs, (k % 2 ? MPI_Win_flush_local_all(c->win) : MPI_Win_flush_all(c->win)));
        errs += check_got(c, t, right, w_all, round, mode);
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(c->win));
    MPI_Barrier(MPI_COMM_WORLD);
    return errs;
}

/* ---- request-based operations mixed with point-to-point requests ---- */
static int mode_requests(ctx *c, int round)
{
    int errs = 0, size = c->size, rank = c->rank;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const char *mode = "Rput/Rget";
    reset(c);
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, c->win));
    fill(c, right, round);
    int token_out = rank * 3 + round, token_in = -1;
    MPI_Request rq[4];
    MT_CHECK_RC(errs, MPI_Irecv(&token_in, 1, MPI_INT, left, round, MPI_COMM_WORLD, &rq[0]));
    MT_CHECK_RC(errs, MPI_Rput(c->src, BLK, MPI_INT, right, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win, &rq[1]));
    MT_CHECK_RC(errs, MPI_Isend(&token_out, 1, MPI_INT, right, round, MPI_COMM_WORLD, &rq[2]));
    clear_dst(c);
    /* the spare block of my own window: -1 (nobody writes it) */
    MT_CHECK_RC(errs, MPI_Rget(c->dst, BLK, MPI_INT, rank, (MPI_Aint)size * BLK, BLK, MPI_INT, c->win, &rq[3]));
    MT_CHECK_RC(errs, MPI_Waitall(4, rq, MPI_STATUSES_IGNORE));
    MT_CHECK_INT(errs, "token received next to the Rput/Rget", left * 3 + round, token_in);
    for (int i = 0; i < BLK; i++)
        if (c->dst[i] != -1) {
            MT_ERR(errs, "%s, %s: Rget of the spare block, int %d: %d", c->flavor, mode, i, c->dst[i]);
            break;
        }
    for (int i = 0; i < BLK; i++) /* the Rput is complete at the origin: src may change */
        c->src[i] = -5;
    MT_CHECK_RC(errs, MPI_Win_flush(right, c->win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_sync(c->win));
    errs += check_window(c, w_ring, round, mode);
    /* Rget of the right neighbour's block in the right neighbour, completed with MPI_Test, then MPI_Wait */
    MPI_Request r;
    clear_dst(c);
    MT_CHECK_RC(errs, MPI_Rget(c->dst, BLK, MPI_INT, right, (MPI_Aint)rank * BLK, BLK, MPI_INT, c->win, &r));
    int flag = 0;
    while (!flag)
        MT_CHECK_RC(errs, MPI_Test(&r, &flag, MPI_STATUS_IGNORE));
    MT_CHECK(errs, r == MPI_REQUEST_NULL, "MPI_Test of a completed Rget did not free the request");
    errs += check_got(c, right, rank, w_ring, round, mode);
    clear_dst(c);
    MT_CHECK_RC(errs, MPI_Rget(c->dst, BLK, MPI_INT, left, (MPI_Aint)left * BLK, BLK, MPI_INT, c->win, &r));
    MT_CHECK_RC(errs, MPI_Wait(&r, MPI_STATUS_IGNORE));
    errs += check_got(c, left, left, w_ring, round, mode);
    errs += procnull_ops(c, 1);
    MT_CHECK_RC(errs, MPI_Win_unlock_all(c->win));
    MPI_Barrier(MPI_COMM_WORLD);
    return errs;
}

static int run_all(ctx *c)
{
    int errs = 0, round = 0;
    errs += mode_fence(c, round++, 1);
    errs += mode_fence(c, round++, 0);
    errs += mode_pscw_all(c, round++);
    errs += mode_pscw_ring(c, round++, 0, 0);
    errs += mode_pscw_ring(c, round++, 0, 1);
    /* Open MPI 4.1 osc/sm: a post with MPI_MODE_NOCHECK does not reset the count of completes, so the wait
     * returns early or never (ompi_osc_sm_post) */
    if (!MT_OMPI_BUGS)
        errs += mode_pscw_ring(c, round, 1, 0);
    round++;
    errs += mode_pscw_odd_even(c, round++);
    errs += mode_lock(c, round++, 1);
    errs += mode_lock(c, round++, 0);
    errs += mode_lock_all(c, round++);
    errs += mode_requests(c, round++);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0;
    ctx c;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.size);
    c.src = mt_malloc(sizeof(int) * BLK * (size_t)c.size);
    c.dst = mt_malloc(sizeof(int) * BLK);
    MPI_Aint bytes = (MPI_Aint)sizeof(int) * BLK * (c.size + 1); /* a block per origin and a spare one */

    c.flavor = "Win_create";
    c.base = mt_malloc((size_t)bytes);
    MT_CHECK_RC(errs, MPI_Win_create(c.base, bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c.win));
    errs += run_all(&c);
    MT_CHECK_RC(errs, MPI_Win_free(&c.win));
    free(c.base);

    c.flavor = "Win_allocate";
    MT_CHECK_RC(errs, MPI_Win_allocate(bytes, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c.base, &c.win));
    errs += run_all(&c);
    MT_CHECK_RC(errs, MPI_Win_free(&c.win));

    free(c.src);
    free(c.dst);
    return mt_finish(errs);
}
