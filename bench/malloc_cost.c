/* SPDX-License-Identifier: BSD-3-Clause */
/* malloc_cost: what a rank pays for memory in its isomalloc slot.  Rank 0 (run it with -n 1) times, in ns
 * per malloc+free pair, the best of 5 runs:
 *   - a pair of one size, repeated (the free list's fast path), for 16 B .. 1 MiB;
 *   - a batch: 1000 blocks of random sizes 16-1024 B allocated, then freed in random order (per pair);
 * through the program's malloc (the rank's slot) and through glibc's own entry points (__libc_malloc,
 * __libc_free: the same glibc allocator a process-based MPI program uses), and once more from a thread the
 * rank started (outside every rank: the program's malloc forwards to glibc). */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);

enum { ITERS = 1000000, BATCH = 1000, BATCH_REPS = 300 };

typedef struct allocator {
    void *(*alloc)(size_t);
    void (*release)(void *);
} allocator;

static void *prog_malloc(size_t n) { return malloc(n); }
static void prog_free(void *p) { free(p); }

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* the pointer escapes, so the compiler keeps every call */
static inline void keep(void *p) { __asm__ volatile("" : : "r"(p) : "memory"); }

static double pair_ns(const allocator *a, size_t n)
{
    double best = 1e30;
    long iters = n >= 65536 ? ITERS / 10 : ITERS;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (long i = 0; i < iters; i++) {
            void *p = a->alloc(n);
            keep(p);
            a->release(p);
        }
        double t = (now() - t0) / (double)iters * 1e9;
        best = t < best ? t : best;
    }
    return best;
}

static double batch_ns(const allocator *a)
{
    void **v = a->alloc(sizeof(void *) * BATCH);
    size_t sz[BATCH];
    int order[BATCH];
    uint64_t x = 12345;
    for (int i = 0; i < BATCH; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        sz[i] = 16 + (size_t)(x >> 33) % 1009;
        order[i] = i;
    }
    for (int i = BATCH - 1; i > 0; i--) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((x >> 33) % (uint64_t)(i + 1)), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int r = 0; r < BATCH_REPS; r++) {
            for (int i = 0; i < BATCH; i++) {
                v[i] = a->alloc(sz[i]);
                keep(v[i]);
            }
            for (int i = 0; i < BATCH; i++)
                a->release(v[order[i]]);
        }
        double t = (now() - t0) / ((double)BATCH * BATCH_REPS) * 1e9;
        best = t < best ? t : best;
    }
    a->release(v);
    return best;
}

static const size_t sizes[] = {16, 64, 256, 1024, 4096, 16384, 65536, 1 << 20};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

typedef struct result {
    double pair[NSIZES], batch;
} result;

static void measure(const allocator *a, result *r)
{
    for (int i = 0; i < NSIZES; i++)
        r->pair[i] = pair_ns(a, sizes[i]);
    r->batch = batch_ns(a);
}

static void *outside(void *arg)
{
    static const allocator prog = {prog_malloc, prog_free};
    measure(&prog, arg);
    return NULL;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        static const allocator prog = {prog_malloc, prog_free}, glibc = {__libc_malloc, __libc_free};
        result *r = malloc(3 * sizeof(result));
        measure(&prog, &r[0]);
        measure(&glibc, &r[1]);
        pthread_t t;
        pthread_create(&t, NULL, outside, &r[2]);
        pthread_join(t, NULL);
        printf("# malloc+free pair, ns (best of 5); in slot = a rank's malloc; forwarded = malloc outside a rank\n");
        printf("%-10s %10s %10s %10s\n", "size", "in slot", "glibc", "forwarded");
        for (int i = 0; i < NSIZES; i++)
            printf("%-10zu %10.1f %10.1f %10.1f\n", sizes[i], r[0].pair[i], r[1].pair[i], r[2].pair[i]);
        printf("%-10s %10.1f %10.1f %10.1f\n", "batch", r[0].batch, r[1].batch, r[2].batch);
        free(r);
    }
    MPI_Finalize();
    return 0;
}
