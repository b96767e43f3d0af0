/* SPDX-License-Identifier: BSD-3-Clause */
/* armci/lu: the LU factorization of bench/armci_lu.c (bench/lu_blocks.h: blocks in ARMCI_Malloc'ed memory,
 * remote blocks fetched with ARMCI_Get, ARMCI_Barrier between phases) with both distributions, lu.c's 2-D
 * cyclic one and lu-block.c's runs of blocks (with more processes than blocks' runs, the last processes own
 * nothing and allocate 0 bytes), and ARMCI_Migrate after every block step (the testlist runs it with
 * VMPI_BALANCER=Rotate too, which moves every process at every step).
 *
 * Checks, for a matrix with full blocks (96, b 8) and one with partial last blocks (61, b 8):
 *   - ARMCI_Malloc's pointers: NULL exactly for the processes that asked for 0 bytes;
 *   - process 0 fetches every block of the factored matrix with ARMCI_Get and finds the very bits of the
 *     same factorization done alone in its own memory (the order of the operations on each element does not
 *     depend on the distribution, so any wrong block fetched, any block moved wrongly by a migration,
 *     any step run before its inputs were ready shows here);
 *   - max |LU - A| / max |A| <= 1e-12 (the matrix is diagonally dominant);
 *   - every process's blocks have the same digest after one more ARMCI_Migrate as before it (a migration
 *     keeps the data where the pointers say). */
#include <armci.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../bench/lu_blocks.h"
#include "mtest.h"

typedef struct lu_test_ctx {
    void **ptr;
    int nb;
    int migrations;
} lu_test_ctx;

static void test_get(void *ctx, int owner, size_t off, double *buf, size_t count)
{
    lu_test_ctx *x = (lu_test_ctx *)ctx;
    ARMCI_Get((double *)x->ptr[owner] + off, buf, (int)(count * sizeof(double)), owner);
}

static void test_barrier(void *ctx)
{
    (void)ctx;
    ARMCI_Barrier();
}

static void test_migrate(void *ctx, int K)
{
    lu_test_ctx *x = (lu_test_ctx *)ctx;
    if (K + 1 < x->nb) {
        ARMCI_Migrate();
        x->migrations++;
    }
}

/* What the program's own process does with nobody else: the reference bits. */
static void local_get(void *ctx, int owner, size_t off, double *buf, size_t count)
{
    (void)ctx, (void)owner, (void)off, (void)buf, (void)count;
    MPI_Abort(MPI_COMM_WORLD, 2); /* one process owns every block: never called */
}

static void local_barrier(void *ctx) { (void)ctx; }

static int one_case(int n, int b, int dist, int nproc, int me)
{
    int errs = 0;
    lu_layout L;
    if (lu_layout_init(&L, n, b, dist, nproc, me) != 0) {
        MT_ERR(errs, "lu_layout_init(%d, %d) failed", n, b);
        return errs;
    }
    void **ptr = (void **)mt_malloc((size_t)nproc * sizeof(void *));
    int rc = ARMCI_Malloc(ptr, (armci_size_t)(L.elems[me] * sizeof(double)));
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, rc);
    for (int p = 0; p < nproc; p++)
        MT_CHECK(errs, (ptr[p] == NULL) == (L.elems[p] == 0),
                 "n %d %s: process %d asked for %zu bytes and got pointer %p", n, lu_dist_name(dist), p,
                 L.elems[p] * sizeof(double), ptr[p]);
    double *mine = (double *)ptr[me];

    lu_test_ctx x = {.ptr = ptr, .nb = L.nb};
    lu_comm c = {.ctx = &x, .get = test_get, .barrier = test_barrier, .step_done = test_migrate};
    lu_fill(&L, mine, LU_MAT_CHECK);
    if (lu_factor(&L, mine, &c) != 0)
        MT_ERR(errs, "lu_factor: no memory");
    MT_CHECK_INT(errs, "migration points", L.nb - 1, x.migrations);

    /* blocks unchanged across one more migration point */
    uint64_t before = lu_digest(mine, L.elems[me]);
    ARMCI_Migrate();
    MT_CHECK(errs, lu_digest(mine, L.elems[me]) == before, "n %d %s: blocks changed across ARMCI_Migrate", n,
             lu_dist_name(dist));

    if (me == 0) {
        double *f = (double *)mt_malloc((size_t)n * n * sizeof(double));
        double *ref = (double *)mt_malloc((size_t)n * n * sizeof(double));
        if (lu_gather(&L, mine, &c, f) != 0)
            MT_ERR(errs, "lu_gather: no memory");

        lu_layout S;
        if (lu_layout_init(&S, n, b, dist, 1, 0) != 0)
            MT_ERR(errs, "lu_layout_init for one process failed");
        double *alone = (double *)mt_malloc(S.elems[0] * sizeof(double));
        lu_comm sc = {.get = local_get, .barrier = local_barrier};
        lu_fill(&S, alone, LU_MAT_CHECK);
        lu_factor(&S, alone, &sc);
        lu_gather(&S, alone, &sc, ref);

        long differ = 0;
        for (size_t k = 0; k < (size_t)n * n; k++)
            if (memcmp(&f[k], &ref[k], sizeof(double)) != 0 && ++differ <= 3)
                MT_ERR(errs, "n %d %s on %d processes: element (%zu, %zu) is %.17g, alone %.17g", n,
                       lu_dist_name(dist), nproc, k % (size_t)n, k / (size_t)n, f[k], ref[k]);
        MT_CHECK(errs, differ == 0, "n %d %s on %d processes: %ld of %d elements differ from the factorization "
                 "done alone", n, lu_dist_name(dist), nproc, differ, n * n);
        double res = lu_residual(f, n, LU_MAT_CHECK);
        MT_CHECK(errs, res <= 1e-12, "n %d %s: max |LU - A| / max |A| = %.3e, expected <= 1e-12", n,
                 lu_dist_name(dist), res);
        free(alone);
        lu_layout_free(&S);
        free(ref);
        free(f);
    }
    ARMCI_Barrier(); /* process 0's gets are done before the memory goes */
    ARMCI_Free(mine);
    free(ptr);
    lu_layout_free(&L);
    return errs;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ARMCI_Init();
    int nproc, me, errs = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &nproc);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    static const int sizes[][2] = {{96, 8}, {61, 8}};
    for (int s = 0; s < 2; s++)
        for (int dist = LU_CYCLIC; dist <= LU_BLOCK; dist++)
            errs += one_case(sizes[s][0], sizes[s][1], dist, nproc, me);
    ARMCI_Finalize();
    return mt_finish(errs);
}
