/* SPDX-License-Identifier: BSD-3-Clause */
/* The four window flavors and their predefined attributes (MPI-3.1 11.2):
 *   - Win_create on malloc'ed memory and on MPI_Alloc_mem memory: MPI_WIN_BASE/SIZE/DISP_UNIT are what each
 *     rank passed (they differ between ranks), MPI_WIN_CREATE_FLAVOR is CREATE, MPI_WIN_MODEL is SEPARATE or
 *     UNIFIED (UNIFIED under vmpi); a fenced ring of puts lands where the target's base and disp_unit say;
 *   - Win_allocate: a usable base, the ALLOCATE flavor, under vmpi memory in the rank's own isomalloc slot;
 *     with no_locks=true, fence epochs and a Win_free right after the closing fence;
 *   - Win_allocate_shared, contiguous (rank i's segment starts right after rank i-1's, sizes differ and some
 *     are 0, rank 0's among them) and with alloc_shared_noncontig: Win_shared_query for every rank (size,
 *     disp_unit, pointer), for MPI_PROC_NULL (the lowest rank with size > 0; size 0 when all are 0), stores
 *     through the queried pointers by the owner and by a neighbour, loads by every rank after Win_sync and a
 *     barrier inside a lock_all epoch;
 *   - Win_create_dynamic: base MPI_BOTTOM, size 0; Win_attach of two regions, MPI_Get_address displacements
 *     exchanged, puts and gets at MPI_Aint_add offsets, Win_detach of one and attach of a third;
 *   - size-0 windows (all ranks, and every other rank) with MPI_PROC_NULL operations;
 *   - windows on a Comm_split communicator whose rank order is reversed (targets are communicator ranks),
 *     and on MPI_COMM_SELF;
 *   - MPI_Win_free sets the handle to MPI_WIN_NULL. */
#include "mtest.h"

/* MPICH 4.0.2 (ch4:ucx) misplaces the data of Win_allocate windows whose size is not a multiple of 16 bytes
 * (a put to rank 2 lands in rank 0's memory): under MPICH such windows are made larger */
#define MT_ALLOC_SIZE(n) (MT_MPICH_BUGS ? ((n) + 15) / 16 * 16 : (n))

static void *attr_ptr(int *errs, MPI_Win win, int key, const char *name)
{
    void *v = NULL;
    int flag = 0;
    MT_CHECK_RC(*errs, MPI_Win_get_attr(win, key, &v, &flag));
    MT_CHECK(*errs, flag, "%s: attribute not set", name);
    return flag ? v : NULL;
}

/* the integer-valued attributes */
static long long attr_int(int *errs, MPI_Win win, int key, const char *name, int is_aint)
{
    void *v = attr_ptr(errs, win, key, name);
    if (!v) {
        MT_ERR(*errs, "%s: NULL value pointer", name);
        return -1;
    }
    return is_aint ? (long long)*(MPI_Aint *)v : (long long)*(int *)v;
}

static void check_attrs(int *errs, MPI_Win win, const char *what, void *base, MPI_Aint size, int disp_unit,
                        int flavor, int check_base)
{
    void *b = attr_ptr(errs, win, MPI_WIN_BASE, "MPI_WIN_BASE");
    if (check_base)
        MT_CHECK(*errs, b == base, "%s: MPI_WIN_BASE %p, expected %p", what, b, base);
    long long s = attr_int(errs, win, MPI_WIN_SIZE, "MPI_WIN_SIZE", 1);
    MT_CHECK(*errs, s == size, "%s: MPI_WIN_SIZE %lld, expected %lld", what, s, (long long)size);
    long long du = attr_int(errs, win, MPI_WIN_DISP_UNIT, "MPI_WIN_DISP_UNIT", 0);
    MT_CHECK(*errs, du == disp_unit, "%s: MPI_WIN_DISP_UNIT %lld, expected %d", what, du, disp_unit);
    long long fl = attr_int(errs, win, MPI_WIN_CREATE_FLAVOR, "MPI_WIN_CREATE_FLAVOR", 0);
    MT_CHECK(*errs, fl == flavor, "%s: MPI_WIN_CREATE_FLAVOR %lld, expected %d", what, fl, flavor);
    long long model = attr_int(errs, win, MPI_WIN_MODEL, "MPI_WIN_MODEL", 0);
#ifdef VMPI
    MT_CHECK(*errs, model == MPI_WIN_UNIFIED, "%s: MPI_WIN_MODEL %lld, expected MPI_WIN_UNIFIED (%d)", what, model,
             MPI_WIN_UNIFIED);
#else
    MT_CHECK(*errs, model == MPI_WIN_UNIFIED || model == MPI_WIN_SEPARATE, "%s: MPI_WIN_MODEL %lld", what, model);
#endif
}

static int val(int owner, int writer, int i) { return owner * 100000 + writer * 1000 + i; }

/* Win_create with per-rank sizes and disp_units, on malloc'ed or Alloc_mem memory: every rank puts one int
 * into its right neighbour at displacement (rank % 4 + 1) (in the target's disp_units) */
static int test_create(int alloc_mem)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int du = (rank % 2) ? 8 : 4; /* in bytes; ints sit at disp * du */
    MPI_Aint wsize = (MPI_Aint)du * 8;
    int *buf = NULL;
    if (alloc_mem)
        MT_CHECK_RC(errs, MPI_Alloc_mem(wsize, MPI_INFO_NULL, &buf));
    else
        buf = mt_malloc((size_t)wsize);
    for (int i = 0; i < (int)(wsize / 4); i++)
        buf[i] = -1;
    MPI_Win win = MPI_WIN_NULL;
    MT_CHECK_RC(errs, MPI_Win_create(buf, wsize, du, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(&errs, win, alloc_mem ? "Win_create(Alloc_mem)" : "Win_create", buf, wsize, du,
                MPI_WIN_FLAVOR_CREATE, 1);
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
    int v = val(right, rank, 0);
    MT_CHECK_RC(errs, MPI_Put(&v, 1, MPI_INT, right, rank % 4 + 1, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    int at = (left % 4 + 1) * du / 4; /* index of the int the left neighbour wrote */
    for (int i = 0; i < (int)(wsize / 4); i++) {
        int want = i == at ? val(rank, left, 0) : -1;
        MT_CHECK(errs, buf[i] == want, "Win_create%s: int %d of the window is %d, expected %d",
                 alloc_mem ? "(Alloc_mem)" : "", i, buf[i], want);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK(errs, win == MPI_WIN_NULL, "Win_free did not set the handle to MPI_WIN_NULL");
    if (alloc_mem)
        MT_CHECK_RC(errs, MPI_Free_mem(buf));
    else
        free(buf);
    return errs;
}

static int test_allocate(void)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    enum { N = 1000 };
    int *base = NULL;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    MT_CHECK(errs, base != NULL, "Win_allocate returned a NULL base");
    if (!base)
        return errs;
    check_attrs(&errs, win, "Win_allocate", base, N * sizeof(int), sizeof(int), MPI_WIN_FLAVOR_ALLOCATE, 1);
#if defined(VMPI) && !MT_SANITIZE
    MT_CHECK_INT(errs, "slot of Win_allocate memory (MPIX_Iso_rank)", rank, MPIX_Iso_rank(base));
    MT_CHECK_INT(errs, "slot of Win_allocate memory's end (MPIX_Iso_rank)", rank, MPIX_Iso_rank(base + N - 1));
#endif
    for (int i = 0; i < N; i++)
        base[i] = -1;
    int *src = mt_malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        src[i] = val(right, rank, i);
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Put(src, N, MPI_INT, right, 0, N, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    for (int i = 0; i < N; i++)
        if (base[i] != val(rank, left, i)) {
            MT_ERR(errs, "Win_allocate: element %d is %d, expected %d", i, base[i], val(rank, left, i));
            break;
        }
    free(src);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK(errs, win == MPI_WIN_NULL, "Win_free did not set the handle to MPI_WIN_NULL");
    return errs;
}

/* a window made with no_locks=true (Win_free may skip its barrier): fence epochs only, freed right after the
 * closing fence, several times in a row */
static int test_no_locks(void)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    for (int k = 0; k < 3; k++) {
        int *base = NULL, v = val(rank, (rank + size - 1) % size, k);
        MPI_Win win;
        MT_CHECK_RC(errs, MPI_Win_allocate(MT_ALLOC_SIZE(sizeof(int)), sizeof(int), info, MPI_COMM_WORLD, &base, &win));
        *base = -1;
        MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
        int w = val((rank + 1) % size, rank, k);
        MT_CHECK_RC(errs, MPI_Put(&w, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win));
        MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
        MT_CHECK_INT(errs, "no_locks window: the int put by the left neighbour", v, *base);
        MT_CHECK_RC(errs, MPI_Win_free(&win));
    }
    MPI_Info_free(&info);
    return errs;
}

/* the shared window's per-rank sizes (bytes, multiples of 8) and disp_units: rank 0 has size 0 */
static MPI_Aint shsize(int r) { return r % 3 == 0 ? 0 : 8 * (MPI_Aint)(r % 5 + 1); }
static int shdu(int r) { return r % 2 ? 1 : 4; }

/* Shared-memory windows are made over the ranks that share memory (MPI_COMM_TYPE_SHARED): MPI_COMM_WORLD
 * in a job of one process, a part of it in a job of several processes (MPI-3.1 11.2.3). */
static MPI_Comm shared_comm(void)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    return node;
}

static int test_shared(int noncontig)
{
    int errs = 0, rank, size;
    MPI_Comm node = shared_comm();
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    const char *what = noncontig ? "Win_allocate_shared(noncontig)" : "Win_allocate_shared";
    MPI_Info info = MPI_INFO_NULL;
    if (noncontig) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
    }
    int *mine = NULL;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate_shared(shsize(rank), shdu(rank), info, node, &mine, &win));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    check_attrs(&errs, win, what, mine, shsize(rank), shdu(rank), MPI_WIN_FLAVOR_SHARED, shsize(rank) > 0);
    int **seg = mt_malloc(sizeof(int *) * (size_t)size);
    for (int r = 0; r < size; r++) {
        MPI_Aint qs = -1;
        int qdu = -1;
        seg[r] = NULL;
        MT_CHECK_RC(errs, MPI_Win_shared_query(win, r, &qs, &qdu, &seg[r]));
        /* Open MPI 4.1 reports noncontiguous segments' sizes rounded up to a page */
        MT_CHECK(errs, qs == shsize(r) || (MT_OMPI_BUGS && noncontig && qs >= shsize(r)),
                 "%s: query(%d) size %lld, expected %lld", what, r, (long long)qs, (long long)shsize(r));
        MT_CHECK(errs, qdu == shdu(r), "%s: query(%d) disp_unit %d, expected %d", what, r, qdu, shdu(r));
        if (r == rank && shsize(r) > 0)
            MT_CHECK(errs, seg[r] == mine, "%s: query(own rank) gives %p, Win_allocate_shared gave %p", what,
                     (void *)seg[r], (void *)mine);
    }
    /* contiguous: each nonempty segment starts where the previous nonempty one ends */
    if (!noncontig) {
        char *end = NULL;
        for (int r = 0; r < size; r++) {
            if (shsize(r) == 0)
                continue;
            if (end)
                MT_CHECK(errs, (char *)seg[r] == end, "%s: rank %d's segment at %p, the previous one ends at %p",
                         what, r, (void *)seg[r], (void *)end);
            end = (char *)seg[r] + shsize(r);
        }
    }
    /* MPI_PROC_NULL: the lowest rank with size > 0 (rank 1), or size 0 when there is none */
    {
        MPI_Aint qs = -1;
        int qdu = -1, *qp = NULL;
        MT_CHECK_RC(errs, MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &qdu, &qp));
        if (size > 1) {
            MT_CHECK(errs, (qs == shsize(1) || (MT_OMPI_BUGS && noncontig && qs >= shsize(1))) && qdu == shdu(1) &&
                               qp == seg[1],
                     "%s: query(MPI_PROC_NULL): size %lld disp_unit %d base %p, expected rank 1's %lld %d %p", what,
                     (long long)qs, qdu, (void *)qp, (long long)shsize(1), shdu(1), (void *)seg[1]);
        } else {
            MT_CHECK(errs, qs == 0, "%s: query(MPI_PROC_NULL) with all sizes 0: size %lld", what, (long long)qs);
        }
    }
    /* stores by the owner and by the left neighbour (into the owner's second half), loads by everyone */
    MT_CHECK_RC(errs, MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    int n = (int)(shsize(rank) / sizeof(int));
    for (int i = 0; i < n / 2; i++)
        mine[i] = val(rank, rank, i);
    int right = (rank + 1) % size, nr = (int)(shsize(right) / sizeof(int));
    for (int i = nr / 2; i < nr; i++)
        seg[right][i] = val(right, rank, i);
    MT_CHECK_RC(errs, MPI_Win_sync(win));
    MPI_Barrier(node);
    MT_CHECK_RC(errs, MPI_Win_sync(win));
    for (int r = 0; r < size; r++) {
        int nn = (int)(shsize(r) / sizeof(int)), left = (r + size - 1) % size;
        for (int i = 0; i < nn; i++) {
            int want = i < nn / 2 ? val(r, r, i) : val(r, left, i);
            MT_CHECK(errs, seg[r][i] == want, "%s: rank %d's int %d read through the queried pointer is %d, "
                     "expected %d", what, r, i, seg[r][i], want);
        }
    }
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    /* and RMA on the same window */
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    if (nr > 0) {
        int v = val(right, rank, 77);
        MT_CHECK_RC(errs, MPI_Put(&v, 1, MPI_INT, right, 0, 1, MPI_INT, win));
    }
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    if (n > 0)
        MT_CHECK_INT(errs, "shared window: int put at displacement 0", val(rank, (rank + size - 1) % size, 77),
                     mine[0]);
    free(seg);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK(errs, win == MPI_WIN_NULL, "Win_free did not set the handle to MPI_WIN_NULL");
    MPI_Comm_free(&node);
    return errs;
}

/* all ranks with size 0 in a shared window */
static int test_shared_empty(void)
{
    int errs = 0;
    void *p = NULL, *q = NULL;
    MPI_Aint qs = -1;
    int qdu = -1;
    MPI_Win win;
    MPI_Comm node = shared_comm();
    MT_CHECK_RC(errs, MPI_Win_allocate_shared(0, 8, MPI_INFO_NULL, node, &p, &win));
    MT_CHECK_RC(errs, MPI_Win_shared_query(win, MPI_PROC_NULL, &qs, &qdu, &q));
    MT_CHECK(errs, qs == 0, "empty shared window: query(MPI_PROC_NULL) size %lld, expected 0", (long long)qs);
    MT_CHECK_RC(errs, MPI_Win_shared_query(win, 0, &qs, &qdu, &q));
    MT_CHECK(errs, qs == 0 && qdu == 8, "empty shared window: query(0) size %lld disp_unit %d, expected 0 and 8",
             (long long)qs, qdu);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    /* a communicator spanning processes shares no memory: the window fails at every rank */
    int nsize, wsize;
    MPI_Comm_size(node, &nsize);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (nsize < wsize) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Win_allocate_shared(8, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win), cls = MPI_SUCCESS;
        MPI_Error_class(rc, &cls);
        MT_CHECK_INT(errs, "Win_allocate_shared over processes that share no memory", MPI_ERR_RMA_SHARED, cls);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    MPI_Comm_free(&node);
    return errs;
}

static int test_dynamic(void)
{
    int errs = 0, rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    enum { NA = 100, NB = 37, NC = 513 };
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    check_attrs(&errs, win, "Win_create_dynamic", MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC, 1);
    int *a = mt_malloc(NA * sizeof(int)), *b = mt_malloc(NB * sizeof(int)), *c = mt_malloc(NC * sizeof(int));
    for (int i = 0; i < NA; i++)
        a[i] = -1;
    for (int i = 0; i < NB; i++)
        b[i] = val(rank, rank, i);
    for (int i = 0; i < NC; i++)
        c[i] = -1;
    MT_CHECK_RC(errs, MPI_Win_attach(win, a, NA * sizeof(int)));
    MT_CHECK_RC(errs, MPI_Win_attach(win, b, NB * sizeof(int)));
    MPI_Aint mine[2], *addr = mt_malloc(sizeof(MPI_Aint) * 2 * (size_t)size);
    MPI_Get_address(a, &mine[0]);
    MPI_Get_address(b, &mine[1]);
    MPI_Allgather(mine, 2, MPI_AINT, addr, 2, MPI_AINT, MPI_COMM_WORLD); /* after the attaches */
    /* puts into the right neighbour's a[10..59], a get of the left neighbour's b[5..] */
    int *src = mt_malloc(NC * sizeof(int)), *got = mt_malloc(NB * sizeof(int));
    for (int i = 0; i < 50; i++)
        src[i] = val(right, rank, 10 + i);
    for (int i = 0; i < NB; i++)
        got[i] = -2;
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Put(src, 50, MPI_INT, right, MPI_Aint_add(addr[2 * right], 10 * sizeof(int)), 50, MPI_INT,
                              win));
    MT_CHECK_RC(errs, MPI_Get(got, NB - 5, MPI_INT, left, MPI_Aint_add(addr[2 * left + 1], 5 * sizeof(int)), NB - 5,
                              MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    for (int i = 0; i < NA; i++) {
        int want = i >= 10 && i < 60 ? val(rank, left, i) : -1;
        MT_CHECK(errs, a[i] == want, "dynamic window: a[%d] = %d, expected %d", i, a[i], want);
    }
    for (int i = 0; i < NB - 5; i++)
        MT_CHECK(errs, got[i] == val(left, left, i + 5), "dynamic window: got[%d] = %d, expected %d", i, got[i],
                 val(left, left, i + 5));
    MT_CHECK(errs, got[NB - 5] == -2, "dynamic window: Get wrote past its count (%d)", got[NB - 5]);
    /* detach a, attach c; passive target into c with addresses computed by MPI_Aint_diff from c's end */
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    MPI_Barrier(MPI_COMM_WORLD); /* nobody targets a any more */
    MT_CHECK_RC(errs, MPI_Win_detach(win, a));
    MT_CHECK_RC(errs, MPI_Win_attach(win, c, NC * sizeof(int)));
    MPI_Aint cend;
    MPI_Get_address(c + NC, &cend);
    MPI_Allgather(&cend, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
    for (int i = 0; i < NC; i++)
        src[i] = val(right, rank, 1000 + i);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    MT_CHECK_RC(errs, MPI_Put(src, NC - 1, MPI_INT, right, MPI_Aint_diff(addr[right], (NC - 1) * sizeof(int)),
                              NC - 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_unlock(right, win));
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win)); /* the puts are visible to local loads */
    for (int i = 0; i < NC; i++) {
        int want = i >= 1 ? val(rank, left, 1000 + i - 1) : -1;
        if (c[i] != want) {
            MT_ERR(errs, "dynamic window after re-attach: c[%d] = %d, expected %d", i, c[i], want);
            break;
        }
    }
    MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
    MT_CHECK_RC(errs, MPI_Win_detach(win, b));
    MT_CHECK_RC(errs, MPI_Win_detach(win, c));
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    MT_CHECK(errs, win == MPI_WIN_NULL, "Win_free did not set the handle to MPI_WIN_NULL");
    free(a);
    free(b);
    free(c);
    free(src);
    free(got);
    free(addr);
    return errs;
}

/* size-0 windows: on every rank (Win_create with NULL, Win_allocate), and on every other rank */
static int test_size0(void)
{
    int errs = 0, rank, size, x = 5, y = 6;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
    MT_CHECK_INT(errs, "size-0 Win_create: MPI_WIN_SIZE", 0, attr_int(&errs, win, MPI_WIN_SIZE, "MPI_WIN_SIZE", 1));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Put(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Get(&y, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Accumulate(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, MPI_SUM, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_INT(errs, "Get from MPI_PROC_NULL left the buffer", 6, y);
    MT_CHECK_RC(errs, MPI_Win_free(&win));

    void *p = NULL;
    MT_CHECK_RC(errs, MPI_Win_allocate(0, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &p, &win));
    MT_CHECK_INT(errs, "size-0 Win_allocate: MPI_WIN_SIZE", 0,
                 attr_int(&errs, win, MPI_WIN_SIZE, "MPI_WIN_SIZE", 1));
    MT_CHECK_RC(errs, MPI_Win_lock_all(0, win));
    MT_CHECK_RC(errs, MPI_Put(&x, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MT_CHECK_RC(errs, MPI_Win_free(&win));

    /* even ranks expose 2 ints (4 under MPICH: see MT_ALLOC_SIZE), odd ranks nothing: each rank puts into the
     * nearest even rank below it */
    int *base = NULL;
    MPI_Aint sz = rank % 2 ? 0 : MT_ALLOC_SIZE(2 * sizeof(int));
    MT_CHECK_RC(errs, MPI_Win_allocate(sz, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    if (sz)
        base[0] = base[1] = -1;
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    int v = val(rank & ~1, rank, 0);
    MT_CHECK_RC(errs, MPI_Put(&v, 1, MPI_INT, rank & ~1, rank % 2, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    if (sz) {
        MT_CHECK_INT(errs, "mixed-size window: int 0", val(rank, rank, 0), base[0]);
        MT_CHECK_INT(errs, "mixed-size window: int 1", rank + 1 < size ? val(rank, rank + 1, 0) : -1, base[1]);
    }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return errs;
}

/* a window on a split communicator whose order is the reverse of MPI_COMM_WORLD's, and one on MPI_COMM_SELF */
static int test_subcomm(void)
{
    int errs = 0, rank, size, srank, ssize;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &sub);
    MPI_Comm_rank(sub, &srank);
    MPI_Comm_size(sub, &ssize);
    int *world_of = mt_malloc(sizeof(int) * (size_t)ssize);
    MPI_Allgather(&rank, 1, MPI_INT, world_of, 1, MPI_INT, sub);
    int *base = NULL;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(MT_ALLOC_SIZE(sizeof(int)), sizeof(int), MPI_INFO_NULL, sub, &base, &win));
    *base = -1;
    MPI_Group wg, cg;
    int cmp = -1;
    MT_CHECK_RC(errs, MPI_Win_get_group(win, &wg));
    MPI_Comm_group(sub, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    MT_CHECK_INT(errs, "Group_compare(window group, split communicator's group)", MPI_IDENT, cmp);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    int sright = (srank + 1) % ssize, sleft = (srank + ssize - 1) % ssize;
    MT_CHECK_RC(errs, MPI_Put(&rank, 1, MPI_INT, sright, 0, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_INT(errs, "window on a split communicator: world rank put by the left neighbour", world_of[sleft],
                 *base);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    free(world_of);
    MPI_Comm_free(&sub);

    MT_CHECK_RC(errs, MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &base, &win));
    base[0] = base[1] = -1;
    MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    MT_CHECK_RC(errs, MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win));
    MT_CHECK_RC(errs, MPI_Win_unlock(0, win));
    MT_CHECK(errs, base[0] == -1 && base[1] == rank, "window on MPI_COMM_SELF: %d %d, expected -1 %d", base[0],
             base[1], rank);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0;
    MPI_Init(&argc, &argv);
    errs += test_create(0);
    errs += test_create(1);
    errs += test_allocate();
    errs += test_no_locks();
    errs += test_shared(0);
    errs += test_shared(1);
    errs += test_shared_empty();
    errs += test_dynamic();
    errs += test_size0();
    errs += test_subcomm();
    return mt_finish(errs);
}
