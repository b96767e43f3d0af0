/* SPDX-License-Identifier: BSD-3-Clause */
/* Issue 8 research: what an installed ARMCI (Debian's armci-mpi) does for the calls vmpi's ARMCI must match.
 * Each check prints "ok" or what it saw; run with 2..8 processes.  Not built by CMake. */
#include <armci.h>
#include <message.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, bad;

#define CHECK(cond, ...)                                                                                      \
    do {                                                                                                      \
        if (!(cond)) {                                                                                        \
            bad++;                                                                                            \
            printf("[%d] %s:%d: ", me, __FILE__, __LINE__);                                                  \
            printf(__VA_ARGS__);                                                                              \
            printf("\n");                                                                                     \
        }                                                                                                     \
    } while (0)

/* Offset of element (i0 bytes, i1, ..., iL) of a strided section. */
static long strided_off(const int *idx, const int *stride, int levels)
{
    long off = idx[0];
    for (int l = 1; l <= levels; l++)
        off += (long)idx[l] * stride[l - 1];
    return off;
}

/* A `levels`-level section of 2 x 2 x ... blocks (count[0] = 8 bytes), source strides tight+pad, target strides
 * different: put it to the right neighbour, get it back, compare byte by byte. */
static void check_strided(int levels)
{
    int count[9], sstride[9], dstride[9];
    count[0] = 8;
    long sspan = 8 + 3, dspan = 8 + 5; /* padded rows so strides differ from counts */
    for (int l = 1; l <= levels; l++) {
        count[l] = (l == 1) ? 3 : 2;
        sstride[l - 1] = (int)sspan;
        dstride[l - 1] = (int)dspan;
        sspan *= count[l] + 1;
        dspan *= count[l] + 2;
    }
    void **ptr = malloc(sizeof(void *) * np);
    ARMCI_Malloc(ptr, dspan);
    char *src = ARMCI_Malloc_local(sspan), *back = ARMCI_Malloc_local(sspan);
    memset(ptr[me], 0, dspan);
    for (long i = 0; i < sspan; i++)
        src[i] = (char)(i * 7 + me);
    memset(back, 0, sspan);
    ARMCI_Barrier();
    int peer = (me + 1) % np;
    ARMCI_PutS(src, sstride, ptr[peer], dstride, count, levels, peer);
    ARMCI_Fence(peer);
    ARMCI_GetS(ptr[peer], dstride, back, sstride, count, levels, peer);
    int idx[10] = {0}, n = 0, errs = 0;
    for (;;) { /* every byte of the section */
        long so = strided_off(idx, sstride, levels);
        if (back[so] != src[so])
            errs++;
        n++;
        int l = 0;
        while (l <= levels && ++idx[l] == count[l])
            idx[l++] = 0;
        if (l > levels)
            break;
    }
    CHECK(errs == 0, "strided %d levels: %d of %d bytes differ", levels, errs, n);
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    ARMCI_Free_local(src);
    ARMCI_Free_local(back);
    free(ptr);
}

static void check_acc(void)
{
    void **ptr = malloc(sizeof(void *) * np);
    ARMCI_Malloc(ptr, 6 * 64);
    memset(ptr[me], 0, 6 * 64);
    ARMCI_Barrier();
    /* every process adds scale * (me + 1) to every element at rank 0, for each type */
    int ival[4], is = 2;
    long lval[4], ls = 3;
    float fval[4], fs = 0.5f;
    double dval[4], ds = 0.25;
    float cval[8], cs[2] = {0.f, 1.f}; /* multiply by i */
    double zval[8], zs[2] = {2.0, -1.0};
    for (int i = 0; i < 4; i++) {
        ival[i] = me + 1;
        lval[i] = me + 1;
        fval[i] = (float)(me + 1);
        dval[i] = me + 1;
        cval[2 * i] = (float)(me + 1);
        cval[2 * i + 1] = 1.f;
        zval[2 * i] = me + 1;
        zval[2 * i + 1] = 1.0;
    }
    char *b = ptr[0];
    ARMCI_Acc(ARMCI_ACC_INT, &is, ival, b + 0, sizeof ival, 0);
    ARMCI_Acc(ARMCI_ACC_LNG, &ls, lval, b + 64, sizeof lval, 0);
    ARMCI_Acc(ARMCI_ACC_FLT, &fs, fval, b + 128, sizeof fval, 0);
    ARMCI_Acc(ARMCI_ACC_DBL, &ds, dval, b + 192, sizeof dval, 0);
    ARMCI_Acc(ARMCI_ACC_CPL, cs, cval, b + 256, sizeof cval, 0);
    ARMCI_Acc(ARMCI_ACC_DCP, zs, zval, b + 320, 4 * 2 * sizeof(double), 0); /* 64 bytes: 4 elements */
    ARMCI_AllFence();
    ARMCI_Barrier();
    if (me == 0) {
        long sum = (long)np * (np + 1) / 2; /* sum of (me + 1) */
        int *ri = (int *)b;
        long *rl = (long *)(b + 64);
        float *rf = (float *)(b + 128);
        double *rd = (double *)(b + 192), *rz = (double *)(b + 320);
        float *rc = (float *)(b + 256);
        CHECK(ri[3] == 2 * sum, "ACC_INT: %d, expected %ld", ri[3], 2 * sum);
        CHECK(rl[3] == 3 * sum, "ACC_LNG: %ld, expected %ld", rl[3], 3 * sum);
        CHECK(rf[3] == 0.5f * sum, "ACC_FLT: %g, expected %g", rf[3], 0.5 * sum);
        CHECK(rd[3] == 0.25 * sum, "ACC_DBL: %g, expected %g", rd[3], 0.25 * sum);
        /* i * (x + i) = -1 + x i, summed */
        CHECK(rc[6] == -(float)np && rc[7] == (float)sum, "ACC_CPL: (%g, %g), expected (%d, %ld)", rc[6], rc[7], -np,
              sum);
        /* (2 - i)(x + i) = (2x + 1) + (2 - x) i */
        CHECK(rz[6] == 2.0 * sum + np && rz[7] == 2.0 * np - sum, "ACC_DCP: (%g, %g), expected (%g, %g)", rz[6], rz[7],
              2.0 * sum + np, 2.0 * np - sum);
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

static void check_rmw_mutex(void)
{
    void **ptr = malloc(sizeof(void *) * np);
    ARMCI_Malloc(ptr, 64);
    memset(ptr[me], 0, 64);
    ARMCI_Barrier();
    int *cnt = ptr[0];
    long *lcnt = (long *)((char *)ptr[0] + 8);
    int *plain = (int *)((char *)ptr[0] + 16);
    int *swapw = (int *)((char *)ptr[0] + 24);
    enum { N = 200 };
    int old, seen_max = -1;
    long lold;
    for (int i = 0; i < N; i++) {
        int rc = ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, cnt, 1, 0);
        CHECK(rc == 0, "Rmw returned %d", rc);
        if (old > seen_max)
            seen_max = old;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &lold, lcnt, 5, 0);
    }
    /* swap: each process puts its id + 100 and gets a previous value */
    int mine = me + 100;
    ARMCI_Rmw(ARMCI_SWAP, &mine, swapw, 0 /* ignored */, 0);
    CHECK(mine == 0 || (mine >= 100 && mine < 100 + np), "SWAP gave back %d", mine);
    /* mutexes: a read-increment-write under mutex 1 at the last process */
    ARMCI_Create_mutexes(2);
    for (int i = 0; i < N; i++) {
        int v;
        ARMCI_Lock(1, 0);
        ARMCI_Get(plain, &v, sizeof v, 0);
        v++;
        ARMCI_Put(&v, plain, sizeof v, 0);
        ARMCI_Fence(0);
        ARMCI_Unlock(1, 0);
    }
    ARMCI_Barrier();
    if (me == 0) {
        CHECK(*cnt == N * np, "FETCH_AND_ADD counter %d, expected %d", *cnt, N * np);
        CHECK(*lcnt == 5L * N * np, "FETCH_AND_ADD_LONG counter %ld, expected %ld", *lcnt, 5L * N * np);
        CHECK(*plain == N * np, "mutex-protected counter %d, expected %d", *plain, N * np);
    }
    ARMCI_Destroy_mutexes();
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    free(ptr);
}

static void check_misc(void)
{
    void **ptr = malloc(sizeof(void *) * np);
    /* zero bytes on odd processes: what pointer do the others see? */
    ARMCI_Malloc(ptr, (me % 2) ? 0 : 128);
    if (me == 0)
        for (int p = 0; p < np; p++)
            printf("[0] Malloc(0 on odd): ptr[%d] %s\n", p, ptr[p] ? "non-NULL" : "NULL");
    ARMCI_Barrier();
    /* nonblocking put, Test before and after Wait */
    int v = 42 + me, peer = (me + 2) % np;
    if (peer % 2 == 0) {
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbPut(&v, (char *)ptr[peer] + 4 * me % 64, sizeof v, peer, &h);
        int t1 = ARMCI_Test(&h);
        ARMCI_Wait(&h);
        int t2 = ARMCI_Test(&h);
        if (me == 0)
            printf("[0] ARMCI_Test after NbPut: %d, after Wait: %d\n", t1, t2);
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]); /* NULL on odd processes */
    /* Put_flag */
    ARMCI_Malloc(ptr, 64);
    memset(ptr[me], 0, 64);
    ARMCI_Barrier();
    if (me == 1) {
        double d[4] = {1, 2, 3, 4};
        ARMCI_Put_flag(d, ptr[0], sizeof d, (int *)((char *)ptr[0] + 48), 7, 0);
    }
    if (me == 0 && np > 1) {
        volatile int *f = (volatile int *)((char *)ptr[0] + 48);
        long spins = 0;
        while (*f != 7) {
            spins++;
            if (spins % 1000 == 0)
                ARMCI_Fence(0); /* lets progress happen */
        }
        CHECK(((double *)ptr[0])[3] == 4, "Put_flag: data not there when the flag is");
    }
    ARMCI_Barrier();
    ARMCI_Free(ptr[me]);
    /* groups: the even processes (ARMCI_Group_create is collective over the default group); an allocation on
     * the group, addressed with world ids */
    int n = (np + 1) / 2, *ids = malloc(sizeof(int) * n);
    for (int i = 0; i < n; i++)
        ids[i] = 2 * i;
    ARMCI_Group g;
    ARMCI_Group_create(n, ids, &g);
    if (me % 2 == 0) {
        int grank = -1, gsize = -1;
        ARMCI_Group_rank(&g, &grank);
        ARMCI_Group_size(&g, &gsize);
        CHECK(grank == me / 2 && gsize == n, "group rank %d size %d", grank, gsize);
        CHECK(ARMCI_Absolute_id(&g, n - 1) == 2 * (n - 1), "Absolute_id %d", ARMCI_Absolute_id(&g, n - 1));
        void **gp = malloc(sizeof(void *) * n);
        ARMCI_Malloc_group(gp, 64, &g);
        int w = me, target = 2 * ((me / 2 + 1) % n); /* world id of the next member */
        ARMCI_Put(&w, gp[(me / 2 + 1) % n], sizeof w, target);
        ARMCI_Fence(target);
        armci_msg_group_barrier(&g);
        int got = *(int *)gp[me / 2], from = 2 * ((me / 2 + n - 1) % n);
        CHECK(got == from, "group put: got %d, expected %d", got, from);
        armci_msg_group_barrier(&g);
        ARMCI_Free_group(gp[me / 2], &g);
        ARMCI_Group_free(&g);
        free(gp);
    }
    free(ids);
    free(ptr);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    me = armci_msg_me();
    np = armci_msg_nproc();
    for (int l = 0; l <= 8; l++) /* GA's ARMCI_MAX_STRIDE_LEVEL is 8 */
        check_strided(l);
    check_acc();
    check_rmw_mutex();
    check_misc();
    ARMCI_Barrier();
    int all;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s (%d processes, %d problems)\n", all ? "FAILED" : "ok", np, all);
    ARMCI_Finalize();
    MPI_Finalize();
    return all != 0;
}
