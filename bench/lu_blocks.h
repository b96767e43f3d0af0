/* SPDX-License-Identifier: BSD-3-Clause */
/* The blocked LU factorization shared by bench/armci_lu.c (ARMCI), bench/rma_lu.c (MPI-3 RMA) and
 * tests/mpi/armci/lu.c: the matrix's distribution over processes, the block kernels, the right-looking
 * driver and the check.  The programs supply only how a remote block is fetched and how processes
 * synchronize (lu_comm), so that every implementation runs the very same arithmetic.
 *
 * The algorithm is the one of ARMCI's LU benchmarks (Global Arrays, armci/examples/benchmarks/lu/
 * armci_blocking/lu.c and lu-block.c), written anew: an n x n matrix of doubles in nb x nb blocks of b x b
 * (the last block row and column hold the remaining n - (nb-1) b), each block stored column-major in its
 * owner's memory; LU without pivoting, A = L U with L unit lower triangular and U upper triangular, both
 * written over A.  Step K:
 *   1. the owner of block (K,K) factors it;                                           barrier
 *   2. the owners of blocks (I,K), I > K, solve them with U_KK (L_IK = A_IK U_KK^-1), the owners of (K,J),
 *      J > K, with L_KK (U_KJ = L_KK^-1 A_KJ), each first fetching (K,K) if it is not theirs;  barrier
 *   3. the owner of each (I,J), I, J > K, computes A_IJ -= L_IK U_KJ, fetching L_IK once per block row I
 *      it updates in (lu.c fetches it for every I, also where the process updates nothing) and U_KJ for
 *      every block it updates (as lu.c: no cache, so the gets per step grow with the trailing matrix).
 * The order of the floating-point operations on each element does not depend on the distribution or the
 * process count, so every run gives the same bits (the test compares with a one-process run bit for bit).
 *
 * Distributions (owner of block (I,J)):
 *   cyclic  lu.c's 2-D block-cyclic one on a rows x cols grid (rows = the largest divisor of the process
 *           count that is at most its square root): (J mod cols) + (I mod rows) cols.
 *   block   lu-block.c's: the blocks in column order (I + J nb) cut into runs of ceil(nb^2 / procs); the
 *           processes owning the first columns finish early (a load-imbalanced LU), processes past the last
 *           run own nothing.
 *
 * Matrices: LU_MAT_TIMING is lu.c's a_ij = i + 6j + 1 (0-based), diagonal x10 (not diagonally dominant,
 * so no accuracy is claimed for it: the work does not depend on the values); LU_MAT_CHECK is diagonally
 * dominant (off-diagonal elements in [-1, 1) from a hash of (i, j), n + 1 added to the diagonal), for which
 * LU without pivoting is stable, so the residual max |LU - A| / max |A| must be near the rounding error.
 *
 * No mutable globals (vmpi runs the processes as threads of one process): all state is in lu_layout and
 * lu_comm, buffers come from the heap. */
#ifndef VMPI_BENCH_LU_BLOCKS_H
#define VMPI_BENCH_LU_BLOCKS_H

#include <math.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { LU_CYCLIC = 0, LU_BLOCK = 1 };
enum { LU_MAT_TIMING = 0, LU_MAT_CHECK = 1 };

typedef struct lu_layout {
    int n, b, nb;    /* matrix order, block size, blocks per dimension */
    int dist;        /* LU_CYCLIC or LU_BLOCK */
    int nproc, me;
    int rows, cols;  /* cyclic: the process grid */
    int run;         /* block: blocks per process */
    size_t *off;     /* nb * nb: element offset of block I + J nb in its owner's memory */
    size_t *elems;   /* nproc: elements each process owns (its ARMCI_Malloc / window size / 8) */
    int *nblocks;    /* nproc: blocks each process owns */
} lu_layout;

/* How a driver reaches other processes' blocks.  get copies `count` doubles at element offset `off` of
 * process `owner`'s memory into buf; barrier separates the phases of a step (and must make each process's
 * stores to its own blocks visible to the other processes' gets after it); step_done, if not NULL, runs
 * after every step K (every process calls it at the same points: a place for migration).  The driver counts
 * the gets, their bytes and the time spent in them (MPI_Wtime around each, as lu.c does). */
typedef struct lu_comm {
    void *ctx;
    void (*get)(void *ctx, int owner, size_t off, double *buf, size_t count);
    void (*barrier)(void *ctx);
    void (*step_done)(void *ctx, int K);
    long gets;
    double get_bytes, get_s;
} lu_comm;

static inline int lu_owner(const lu_layout *L, int I, int J)
{
    if (L->dist == LU_CYCLIC)
        return J % L->cols + (I % L->rows) * L->cols;
    return (int)(((long)I + (long)J * L->nb) / L->run);
}

/* Rows of block row I (= columns of block column I). */
static inline int lu_dim(const lu_layout *L, int I) { return I < L->nb - 1 ? L->b : L->n - (L->nb - 1) * L->b; }

static inline size_t lu_block_elems(const lu_layout *L, int I, int J)
{
    return (size_t)lu_dim(L, I) * (size_t)lu_dim(L, J);
}

static inline const char *lu_dist_name(int dist) { return dist == LU_CYCLIC ? "cyclic" : "block"; }

static inline void lu_layout_free(lu_layout *L)
{
    free(L->off);
    free(L->elems);
    free(L->nblocks);
    L->off = L->elems = NULL;
    L->nblocks = NULL;
}

/* Fills L for an n x n matrix in b x b blocks over nproc processes; 0, or -1 for bad sizes or no memory. */
static inline int lu_layout_init(lu_layout *L, int n, int b, int dist, int nproc, int me)
{
    memset(L, 0, sizeof *L);
    if (n < 1 || b < 1 || nproc < 1 || me < 0 || me >= nproc || (dist != LU_CYCLIC && dist != LU_BLOCK))
        return -1;
    L->n = n;
    L->b = b;
    L->nb = (n + b - 1) / b;
    L->dist = dist;
    L->nproc = nproc;
    L->me = me;
    L->rows = (int)sqrt((double)nproc);
    while (L->rows > 1 && nproc % L->rows)
        L->rows--;
    if (L->rows < 1)
        L->rows = 1;
    L->cols = nproc / L->rows;
    long nb2 = (long)L->nb * L->nb;
    L->run = (int)((nb2 + nproc - 1) / nproc);
    L->off = (size_t *)malloc((size_t)nb2 * sizeof *L->off);
    L->elems = (size_t *)calloc((size_t)nproc, sizeof *L->elems);
    L->nblocks = (int *)calloc((size_t)nproc, sizeof *L->nblocks);
    if (!L->off || !L->elems || !L->nblocks) {
        lu_layout_free(L);
        return -1;
    }
    /* each owner's blocks one after the other, in column order */
    for (int J = 0; J < L->nb; J++)
        for (int I = 0; I < L->nb; I++) {
            int p = lu_owner(L, I, J);
            L->off[I + (size_t)J * L->nb] = L->elems[p];
            L->elems[p] += lu_block_elems(L, I, J);
            L->nblocks[p]++;
        }
    return 0;
}

/* Block (I,J) in the owner's memory `mine` (only for blocks the caller owns). */
static inline double *lu_block(const lu_layout *L, double *mine, int I, int J)
{
    return mine + L->off[I + (size_t)J * L->nb];
}

/* Element (i, j) of the matrix to factor (0-based). */
static inline double lu_matrix_elem(int kind, int n, int i, int j)
{
    if (kind == LU_MAT_TIMING) {
        double v = (double)i + 6.0 * j + 1.0;
        return i == j ? 10.0 * v : v;
    }
    uint64_t z = ((uint64_t)(uint32_t)i << 32 | (uint32_t)j) * 0x9e3779b97f4a7c15ull;
    z ^= z >> 31;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 29;
    double v = (double)(z >> 11) / 4503599627370496.0 - 1.0; /* [-1, 1), 53 bits */
    return i == j ? v + n + 1.0 : v;
}

/* Writes the matrix into the blocks the caller owns. */
static inline void lu_fill(const lu_layout *L, double *mine, int kind)
{
    for (int J = 0; J < L->nb; J++)
        for (int I = 0; I < L->nb; I++) {
            if (lu_owner(L, I, J) != L->me)
                continue;
            double *blk = lu_block(L, mine, I, J);
            int m = lu_dim(L, I), w = lu_dim(L, J);
            for (int j = 0; j < w; j++)
                for (int i = 0; i < m; i++)
                    blk[i + (size_t)j * m] = lu_matrix_elem(kind, L->n, I * L->b + i, J * L->b + j);
        }
}

/* A digest of the caller's blocks (their bytes), to see that a checkpoint or a migration kept them. */
static inline uint64_t lu_digest(const double *p, size_t count)
{
    uint64_t h = 0xcbf29ce484222325ull ^ count;
    for (size_t k = 0; k < count; k++) {
        uint64_t x;
        memcpy(&x, &p[k], sizeof x);
        h = (h ^ x) * 0x100000001b3ull;
        h ^= h >> 32;
    }
    return h;
}

/* ---- the block kernels (column-major, leading dimension = rows) ---- */

/* D (m x m) = L U in place, L unit lower, U upper. */
static inline void lu_kernel_diag(double *d, int m)
{
    for (int k = 0; k < m; k++) {
        double pivot = d[k + (size_t)k * m];
        for (int i = k + 1; i < m; i++)
            d[i + (size_t)k * m] /= pivot;
        for (int j = k + 1; j < m; j++) {
            double u = d[k + (size_t)j * m];
            double *col = d + (size_t)j * m, *l = d + (size_t)k * m;
            for (int i = k + 1; i < m; i++)
                col[i] -= l[i] * u;
        }
    }
}

/* A (m x w) = A U^-1, U the upper triangle of the factored diagonal block d (w x w). */
static inline void lu_kernel_col(double *a, int m, const double *d, int w)
{
    for (int k = 0; k < w; k++) {
        double *ak = a + (size_t)k * m;
        for (int l = 0; l < k; l++) {
            double u = d[l + (size_t)k * w];
            const double *al = a + (size_t)l * m;
            for (int i = 0; i < m; i++)
                ak[i] -= al[i] * u;
        }
        double pivot = d[k + (size_t)k * w];
        for (int i = 0; i < m; i++)
            ak[i] /= pivot;
    }
}

/* A (m x w) = L^-1 A, L the unit lower triangle of the factored diagonal block d (m x m). */
static inline void lu_kernel_row(const double *d, int m, double *a, int w)
{
    for (int j = 0; j < w; j++) {
        double *aj = a + (size_t)j * m;
        for (int k = 0; k < m; k++) {
            double x = aj[k];
            const double *l = d + (size_t)k * m;
            for (int i = k + 1; i < m; i++)
                aj[i] -= l[i] * x;
        }
    }
}

/* C (m x w) -= A (m x q) B (q x w). */
static inline void lu_kernel_update(double *c, const double *a, const double *bm, int m, int w, int q)
{
    for (int j = 0; j < w; j++) {
        double *cj = c + (size_t)j * m;
        for (int k = 0; k < q; k++) {
            double x = bm[k + (size_t)j * q];
            const double *ak = a + (size_t)k * m;
            for (int i = 0; i < m; i++)
                cj[i] -= ak[i] * x;
        }
    }
}

/* ---- the driver ---- */

/* Block (I,J): the caller's own, or fetched into buf. */
static inline const double *lu_fetch(const lu_layout *L, double *mine, lu_comm *c, int I, int J, double *buf)
{
    int p = lu_owner(L, I, J);
    if (p == L->me)
        return lu_block(L, mine, I, J);
    size_t count = lu_block_elems(L, I, J);
    double t0 = MPI_Wtime();
    c->get(c->ctx, p, L->off[I + (size_t)J * L->nb], buf, count);
    c->get_s += MPI_Wtime() - t0;
    c->gets++;
    c->get_bytes += (double)count * sizeof(double);
    return buf;
}

/* One factorization of the distributed matrix (collective: every process calls it).  0, or -1 if the
 * three block buffers could not be allocated (on that process). */
static inline int lu_factor(const lu_layout *L, double *mine, lu_comm *c)
{
    size_t bb = (size_t)L->b * L->b;
    double *dbuf = (double *)malloc(bb * sizeof(double));
    double *abuf = (double *)malloc(bb * sizeof(double));
    double *bbuf = (double *)malloc(bb * sizeof(double));
    if (!dbuf || !abuf || !bbuf) {
        free(dbuf);
        free(abuf);
        free(bbuf);
        return -1;
    }
    int nb = L->nb, me = L->me;
    for (int K = 0; K < nb; K++) {
        int bk = lu_dim(L, K);
        if (lu_owner(L, K, K) == me)
            lu_kernel_diag(lu_block(L, mine, K, K), bk);
        c->barrier(c->ctx);

        const double *d = NULL;
        for (int I = K + 1; I < nb; I++)
            if (lu_owner(L, I, K) == me) {
                if (!d)
                    d = lu_fetch(L, mine, c, K, K, dbuf);
                lu_kernel_col(lu_block(L, mine, I, K), lu_dim(L, I), d, bk);
            }
        for (int J = K + 1; J < nb; J++)
            if (lu_owner(L, K, J) == me) {
                if (!d)
                    d = lu_fetch(L, mine, c, K, K, dbuf);
                lu_kernel_row(d, bk, lu_block(L, mine, K, J), lu_dim(L, J));
            }
        c->barrier(c->ctx);

        for (int I = K + 1; I < nb; I++) {
            const double *a = NULL;
            for (int J = K + 1; J < nb; J++) {
                if (lu_owner(L, I, J) != me)
                    continue;
                if (!a)
                    a = lu_fetch(L, mine, c, I, K, abuf);
                const double *u = lu_fetch(L, mine, c, K, J, bbuf);
                lu_kernel_update(lu_block(L, mine, I, J), a, u, lu_dim(L, I), lu_dim(L, J), bk);
            }
        }
        if (c->step_done)
            c->step_done(c->ctx, K);
    }
    free(dbuf);
    free(abuf);
    free(bbuf);
    return 0;
}

/* Gathers the whole factored matrix into f (n x n, column-major) with lu_fetch (the caller's blocks are
 * copied, the others fetched): for the check, on one process.  0, or -1 without memory. */
static inline int lu_gather(const lu_layout *L, double *mine, lu_comm *c, double *f)
{
    double *buf = (double *)malloc((size_t)L->b * L->b * sizeof(double));
    if (!buf)
        return -1;
    for (int J = 0; J < L->nb; J++)
        for (int I = 0; I < L->nb; I++) {
            const double *blk = lu_fetch(L, mine, c, I, J, buf);
            int m = lu_dim(L, I), w = lu_dim(L, J);
            for (int j = 0; j < w; j++)
                memcpy(f + (size_t)I * L->b + ((size_t)J * L->b + j) * L->n, blk + (size_t)j * m,
                       (size_t)m * sizeof(double));
        }
    free(buf);
    return 0;
}

/* max_ij |(L U)_ij - a_ij| / max_ij |a_ij| for the factors f (n x n, column-major, as lu_gather leaves
 * them) of the matrix `kind`.  O(n^3 / 3). */
static inline double lu_residual(const double *f, int n, int kind)
{
    double err = 0.0, amax = 0.0;
    double *col = (double *)malloc((size_t)n * sizeof(double));
    if (!col)
        return INFINITY;
    for (int j = 0; j < n; j++) {
        /* column j of L U = sum over k <= j of L(:,k) U(k,j), L(k,k) = 1 */
        memset(col, 0, (size_t)n * sizeof(double));
        for (int k = 0; k <= j; k++) {
            double u = f[k + (size_t)j * n];
            const double *lk = f + (size_t)k * n;
            col[k] += u;
            for (int i = k + 1; i < n; i++)
                col[i] += lk[i] * u;
        }
        for (int i = 0; i < n; i++) {
            double a = lu_matrix_elem(kind, n, i, j);
            double e = fabs(col[i] - a);
            if (isnan(e) || e > err) /* a NaN stays */
                err = e;
            if (fabs(a) > amax)
                amax = fabs(a);
        }
    }
    free(col);
    return err / amax;
}

#endif
