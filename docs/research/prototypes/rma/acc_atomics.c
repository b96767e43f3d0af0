/* SPDX-License-Identifier: MIT */
/* acc_atomics: what element-wise atomicity costs for MPI_Accumulate in one address space.
 * Per element, 1 thread (uncontended) and 2 threads on the same elements (contended):
 *   plain     - vectorizable loop, no atomicity (what an exclusive-lock epoch allows)
 *   lockadd   - atomic_fetch_add per int64 element (lock xadd)
 *   casdbl    - CAS loop per double element (MPI_SUM on MPI_DOUBLE)
 *   spinlock  - one test-and-set lock around a plain loop (Open MPI osc/sm style, per target)
 * build: cc -O2 -pthread acc_atomics.c -o acc_atomics */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static _Atomic int64_t *ti; static _Atomic double *td; static int64_t *pi; static atomic_flag lk = ATOMIC_FLAG_INIT;
static int64_t src[1 << 17]; static double srcd[1 << 17];
static int N, REPS, MODE;
static _Atomic int go;

static void once(void)
{
    switch (MODE) {
    case 0: for (int i = 0; i < N; i++) pi[i] += src[i]; break;
    case 1: for (int i = 0; i < N; i++) atomic_fetch_add_explicit(&ti[i], src[i], memory_order_relaxed); break;
    case 2: for (int i = 0; i < N; i++) { double o = atomic_load_explicit(&td[i], memory_order_relaxed);
                while (!atomic_compare_exchange_weak_explicit(&td[i], &o, o + srcd[i], memory_order_relaxed, memory_order_relaxed)); } break;
    case 3: while (atomic_flag_test_and_set_explicit(&lk, memory_order_acquire)) ;
            for (int i = 0; i < N; i++) pi[i] += src[i];
            atomic_flag_clear_explicit(&lk, memory_order_release); break;
    }
}
static void *thr(void *a) { (void)a; while (!go) ; for (int r = 0; r < REPS; r++) once(); return NULL; }

int main(void)
{
    const char *names[] = {"plain", "lockadd", "casdbl", "spinlock"};
    int sizes[] = {1, 8, 128, 4096, 131072};
    ti = aligned_alloc(64, sizeof(int64_t) << 17); td = aligned_alloc(64, sizeof(double) << 17); pi = (int64_t *)ti;
    for (int i = 0; i < (1 << 17); i++) { src[i] = i; srcd[i] = i; }
    printf("%-9s %8s %14s %14s\n", "mode", "elems", "1 thr ns/elem", "2 thr ns/elem");
    for (MODE = 0; MODE < 4; MODE++)
        for (int s = 0; s < 5; s++) {
            N = sizes[s]; REPS = (int)(20000000LL / N) + 1; if (REPS > 2000000) REPS = 2000000;
            if (MODE == 2) td = (_Atomic double *)ti;
            double t1, t2;
            go = 1; double t = now(); thr(NULL); t1 = (now() - t) / ((double)REPS * N) * 1e9;
            go = 0; pthread_t a, b; pthread_create(&a, 0, thr, 0); pthread_create(&b, 0, thr, 0);
            t = now(); go = 1; pthread_join(a, 0); pthread_join(b, 0); t2 = (now() - t) / ((double)REPS * N * 2) * 1e9;
            printf("%-9s %8d %14.2f %14.2f\n", names[MODE], N, t1, t2);
        }
    return 0;
}
