/* SPDX-License-Identifier: BSD-3-Clause */
/* Put and Get with derived datatypes on both sides (MPI-3.1 11.3.1, 11.3.2): every pair of seven layouts of 24
 * ints (contiguous, vector, indexed, a struct of ints only, a resized vector, an hvector, a subarray), each
 * used with a count that gives 24 elements, as origin and as target type.  Element i of the origin layout
 * must land on element i of the target layout and nothing else in the target window may change (every
 * other int stays -1); a Get maps the target's elements onto the origin layout the same way and leaves the
 * rest of the origin buffer alone.  The expected positions come from offset lists written out by hand next
 * to each type constructor, not from the MPI datatype engine.  The pairs alternate between fence epochs
 * (NOPRECEDE/NOSUCCEED) and exclusive lock epochs (shared for the Get), and every third pair targets the
 * calling rank itself.  Then: a target type whose typemap starts before the target address (a negative
 * hindexed displacement), under lock_all with MPI_MODE_NOCHECK; and large transfers (a vector of 64 Ki
 * doubles, 1 MiB of window) with Put, Accumulate and Get. */
#include "mtest.h"

enum { NEL = 24, WIN = 64, NT = 7 };

typedef struct {
    const char *name;
    MPI_Datatype type;
    int count;
    int off[NEL]; /* int offset of element i (with count instances), from the buffer start */
} layout;

static void make_layouts(layout *L)
{
    int n = 0;
    /* contiguous ints */
    L[n].name = "MPI_INT x24";
    L[n].type = MPI_INT;
    L[n].count = NEL;
    for (int i = 0; i < NEL; i++)
        L[n].off[i] = i;
    n++;
    /* vector(6, 2, 3): offsets 3k + j; extent 17 ints; count 2 */
    L[n].name = "vector(6,2,3) x2";
    MPI_Type_vector(6, 2, 3, MPI_INT, &L[n].type);
    L[n].count = 2;
    for (int c = 0, i = 0; c < 2; c++)
        for (int k = 0; k < 6; k++)
            for (int j = 0; j < 2; j++)
                L[n].off[i++] = c * 17 + 3 * k + j;
    n++;
    /* indexed {3,1,4,2,2} at {0,5,7,13,20}: extent 22 ints; count 2 */
    {
        int bl[5] = {3, 1, 4, 2, 2}, dp[5] = {0, 5, 7, 13, 20};
        L[n].name = "indexed x2";
        MPI_Type_indexed(5, bl, dp, MPI_INT, &L[n].type);
        L[n].count = 2;
        for (int c = 0, i = 0; c < 2; c++)
            for (int b = 0; b < 5; b++)
                for (int j = 0; j < bl[b]; j++)
                    L[n].off[i++] = c * 22 + dp[b] + j;
        n++;
    }
    /* struct of ints only: {2,3,1} at bytes {0,16,36}: extent 40 bytes; count 4 */
    {
        int bl[3] = {2, 3, 1};
        MPI_Aint dp[3] = {0, 16, 36};
        MPI_Datatype ty[3] = {MPI_INT, MPI_INT, MPI_INT};
        L[n].name = "struct of ints x4";
        MPI_Type_create_struct(3, bl, dp, ty, &L[n].type);
        L[n].count = 4;
        for (int c = 0, i = 0; c < 4; c++)
            for (int b = 0; b < 3; b++)
                for (int j = 0; j < bl[b]; j++)
                    L[n].off[i++] = c * 10 + (int)dp[b] / 4 + j;
        n++;
    }
    /* vector(2, 1, 2) resized to an extent of 5 ints: offsets 5c + {0, 2}; count 12 */
    {
        MPI_Datatype v;
        MPI_Type_vector(2, 1, 2, MPI_INT, &v);
        L[n].name = "resized vector x12";
        MPI_Type_create_resized(v, 0, 5 * sizeof(int), &L[n].type);
        MPI_Type_free(&v);
        L[n].count = 12;
        for (int c = 0, i = 0; c < 12; c++) {
            L[n].off[i++] = c * 5;
            L[n].off[i++] = c * 5 + 2;
        }
        n++;
    }
    /* hvector(4, 3, 28 bytes): offsets 7k + j; extent 24 ints; count 2 */
    L[n].name = "hvector x2";
    MPI_Type_create_hvector(4, 3, 7 * sizeof(int), MPI_INT, &L[n].type);
    L[n].count = 2;
    for (int c = 0, i = 0; c < 2; c++)
        for (int k = 0; k < 4; k++)
            for (int j = 0; j < 3; j++)
                L[n].off[i++] = c * 24 + 7 * k + j;
    n++;
    /* subarray 6x8, 4x6 from (1,1), C order: offsets 8(1+r) + 1 + c */
    {
        int sizes[2] = {6, 8}, sub[2] = {4, 6}, starts[2] = {1, 1};
        L[n].name = "subarray";
        MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_INT, &L[n].type);
        L[n].count = 1;
        for (int r = 0, i = 0; r < 4; r++)
            for (int c = 0; c < 6; c++)
                L[n].off[i++] = 8 * (1 + r) + 1 + c;
        n++;
    }
    for (int i = 0; i < n; i++)
        if (L[i].type != MPI_INT)
            MPI_Type_commit(&L[i].type);
}

static int val(int owner, int pair, int i) { return owner * 100000 + pair * 100 + i; }

/* A target type whose typemap starts before the target address (hindexed with a negative displacement):
 * a Put at displacement 4 (ints) writes ints 2 and 5, a Get reads them back; under a NOCHECK lock_all epoch
 * (no exclusive lock is ever taken on this window) */
static int negative_disp(int rank, int size)
{
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *base;
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    for (int i = 0; i < 8; i++)
        base[i] = -1;
    int bl[2] = {1, 1};
    MPI_Aint dp[2] = {-2 * (MPI_Aint)sizeof(int), (MPI_Aint)sizeof(int)};
    MPI_Datatype t;
    MPI_Type_create_hindexed(2, bl, dp, MPI_INT, &t);
    MPI_Type_commit(&t);
    int two[2] = {rank * 10 + 1, rank * 10 + 2}, back[2] = {-3, -3};
    MPI_Barrier(MPI_COMM_WORLD);
    MT_CHECK_RC(errs, MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
    MT_CHECK_RC(errs, MPI_Put(two, 2, MPI_INT, right, 4, 1, t, win));
    MT_CHECK_RC(errs, MPI_Win_flush(right, win));
    MT_CHECK_RC(errs, MPI_Get(back, 2, MPI_INT, right, 4, 1, t, win));
    MT_CHECK_RC(errs, MPI_Win_unlock_all(win));
    MT_CHECK(errs, back[0] == two[0] && back[1] == two[1], "Get through a type with a negative displacement: %d %d, "
             "expected %d %d", back[0], back[1], two[0], two[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < 8; i++) {
        int want = i == 2 ? left * 10 + 1 : i == 5 ? left * 10 + 2 : -1;
        MT_CHECK(errs, base[i] == want, "Put through a type with a negative displacement: int %d is %d, expected %d",
                 i, base[i], want);
    }
    MPI_Type_free(&t);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    return errs;
}

/* Large transfers (64 Ki doubles contiguous, every other double of a 1 MiB window through a vector) with Put,
 * Get and Accumulate, origin and target layouts differing, in a fence epoch */
static int large(int rank, int size)
{
    enum { NB = 1 << 16 }; /* doubles */
    int errs = 0, right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *base, *src = mt_malloc(sizeof(double) * 2 * NB), *dst = mt_malloc(sizeof(double) * NB);
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(2 * NB * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                                       &win));
    MPI_Datatype every_other;
    MPI_Type_vector(NB, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 2 * NB; i++) {
        base[i] = -1;
        src[i] = rank * 1e7 + i;
    }
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    MT_CHECK_RC(errs, MPI_Put(src, NB, MPI_DOUBLE, right, 0, 1, every_other, win)); /* even doubles */
    MT_CHECK_RC(errs, MPI_Accumulate(src, 1, every_other, right, 1, 1, every_other, MPI_SUM, win)); /* odd */
    MT_CHECK_RC(errs, MPI_Win_fence(0, win));
    for (int i = 0; i < 2 * NB; i++) {
        double want = i % 2 ? -1 + (left * 1e7 + (i - 1)) : left * 1e7 + i / 2;
        if (base[i] != want) {
            MT_ERR(errs, "large Put/Accumulate through a vector: double %d is %g, expected %g", i, base[i], want);
            break;
        }
    }
    MT_CHECK_RC(errs, MPI_Get(dst, NB, MPI_DOUBLE, right, 0, 1, every_other, win));
    MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    for (int i = 0; i < NB; i++)
        if (dst[i] != rank * 1e7 + i) {
            MT_ERR(errs, "large Get through a vector: double %d is %g, expected %g", i, dst[i], rank * 1e7 + i);
            break;
        }
    MPI_Type_free(&every_other);
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    free(src);
    free(dst);
    return errs;
}

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    layout *L = mt_malloc(sizeof(layout) * NT);
    make_layouts(L);
    int *base, *obuf = mt_malloc(sizeof(int) * WIN);
    MPI_Win win;
    MT_CHECK_RC(errs, MPI_Win_allocate(WIN * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    int pair = 0;
    for (int x = 0; x < NT; x++)
        for (int y = 0; y < NT; y++, pair++) {
            const layout *O = &L[x], *T = &L[y];
            int use_lock = pair % 2, self = pair % 3 == 0;
            int target = self ? rank : right, writer = self ? rank : left;
            const char *how = use_lock ? "lock" : "fence";

            /* Put: origin layout O -> target layout T */
            for (int i = 0; i < WIN; i++)
                base[i] = obuf[i] = -1;
            for (int i = 0; i < NEL; i++)
                obuf[O->off[i]] = val(target, pair, i);
            if (use_lock) {
                MPI_Barrier(MPI_COMM_WORLD);
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win));
            } else {
                MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
            }
            MT_CHECK_RC(errs, MPI_Put(obuf, O->count, O->type, target, 0, T->count, T->type, win));
            if (use_lock) {
                MT_CHECK_RC(errs, MPI_Win_unlock(target, win));
                MPI_Barrier(MPI_COMM_WORLD);
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win));
            } else {
                MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
            }
            {
                int *want = mt_malloc(sizeof(int) * WIN), bad = 0;
                for (int i = 0; i < WIN; i++)
                    want[i] = -1;
                for (int i = 0; i < NEL; i++)
                    want[T->off[i]] = val(rank, pair, i);
                for (int i = 0; i < WIN && bad < 3; i++)
                    if (base[i] != want[i]) {
                        bad++;
                        MT_ERR(errs, "Put (%s) from %s to %s (origin rank %d): target int %d is %d, expected %d", how,
                               O->name, T->name, writer, i, base[i], want[i]);
                    }
                free(want);
            }
            if (use_lock)
                MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));

            /* Get: target layout O -> origin layout T, the target window holding a known pattern */
            if (use_lock)
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win));
            for (int i = 0; i < WIN; i++) {
                base[i] = val(rank, pair, 500 + i);
                obuf[i] = -1;
            }
            if (use_lock) {
                MT_CHECK_RC(errs, MPI_Win_unlock(rank, win));
                MPI_Barrier(MPI_COMM_WORLD);
                MT_CHECK_RC(errs, MPI_Win_lock(MPI_LOCK_SHARED, target, 0, win));
            } else {
                MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOPRECEDE, win));
            }
            MT_CHECK_RC(errs, MPI_Get(obuf, T->count, T->type, target, 0, O->count, O->type, win));
            if (use_lock)
                MT_CHECK_RC(errs, MPI_Win_unlock(target, win));
            else
                MT_CHECK_RC(errs, MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
            {
                int *want = mt_malloc(sizeof(int) * WIN), bad = 0;
                for (int i = 0; i < WIN; i++)
                    want[i] = -1;
                for (int i = 0; i < NEL; i++)
                    want[T->off[i]] = val(target, pair, 500 + O->off[i]);
                for (int i = 0; i < WIN && bad < 3; i++)
                    if (obuf[i] != want[i]) {
                        bad++;
                        MT_ERR(errs, "Get (%s) from %s in rank %d into %s: origin int %d is %d, expected %d", how,
                               O->name, target, T->name, i, obuf[i], want[i]);
                    }
                free(want);
            }
            MPI_Barrier(MPI_COMM_WORLD); /* before the next pair resets the windows */
        }
    MT_CHECK_RC(errs, MPI_Win_free(&win));
    errs += negative_disp(rank, size);
    errs += large(rank, size);
    /* datatypes may be freed as soon as the calls that use them return: done here, after them all */
    for (int i = 0; i < NT; i++)
        if (L[i].type != MPI_INT)
            MPI_Type_free(&L[i].type);
    free(L);
    free(obuf);
    return mt_finish(errs);
}
