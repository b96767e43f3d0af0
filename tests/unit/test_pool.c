/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the per-owner object pool (base/pool.h, base/pool.c):
 *   - objects are 16-byte aligned and their payloads do not overlap, for several payload sizes;
 *   - steady-state alloc/free reuses objects: the chain of slabs does not grow;
 *   - objects freed by another thread (remote frees) come back through refill before any new slab;
 *   - a two-thread stress exchange through MPSC queues never hands out an object twice, every object is freed
 *     back to its owner, and the pools stay bounded by the number of objects in flight. */
#include "base/mpsc.h"
#include "base/pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit_check.h"

/* Slabs are chained through their first word (pool.c: struct slab { struct slab *next; ... }). */
static int count_slabs(const vmpi_pool *p)
{
    int n = 0;
    for (void *s = p->slabs; s; s = *(void **)s)
        n++;
    return n;
}

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (void *const *)a, y = (uintptr_t) * (void *const *)b;
    return x < y ? -1 : x > y;
}

/* Every pointer distinct, 16-byte aligned, and `size` bytes apart at least (no overlap). */
static void check_set(const char *what, void **v, int n, size_t size)
{
    void **s = malloc(sizeof(void *) * (size_t)n);
    memcpy(s, v, sizeof(void *) * (size_t)n);
    qsort(s, (size_t)n, sizeof(void *), cmp_ptr);
    for (int i = 0; i < n; i++) {
        CHECK(((uintptr_t)s[i] & 15) == 0, "%s: object %p is not 16-byte aligned", what, s[i]);
        if (i > 0) {
            CHECK(s[i] != s[i - 1], "%s: object %p handed out twice", what, s[i]);
            CHECK((char *)s[i] - (char *)s[i - 1] >= (ptrdiff_t)size,
                  "%s: objects %p and %p overlap (payload %zu bytes)", what, s[i - 1], s[i], size);
        }
    }
    free(s);
}

/* ---- one thread: alignment, no overlap, reuse ---- */

static void test_local(void)
{
    static const size_t sizes[] = {1, 8, 15, 16, 17, 40, 100, 256};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t sz = sizes[k];
        const int per = 8;
        vmpi_pool p;
        vmpi_pool_init(&p, sz, (size_t)per);
        CHECK(count_slabs(&p) == 0, "size %zu: a new pool already has %d slab(s)", sz, count_slabs(&p));
        void *v[3 * 8];
        for (int i = 0; i < 3 * per; i++) {
            v[i] = vmpi_pool_alloc(&p);
            memset(v[i], 0xA0 + i, sz); /* whole payload writable (valgrind / ASan check the bounds) */
        }
        CHECK(count_slabs(&p) == 3, "size %zu: %d objects of slab_objs %d took %d slabs, expected 3", sz, 3 * per,
              per, count_slabs(&p));
        check_set("local", v, 3 * per, sz);
        for (int i = 0; i < 3 * per; i++) {
            unsigned char *b = v[i];
            for (size_t j = 0; j < sz; j++)
                if (b[j] != (unsigned char)(0xA0 + i)) {
                    CHECK(0, "size %zu: payload byte %zu of object %d was overwritten (0x%02x)", sz, j, i, b[j]);
                    break;
                }
        }
        /* free everything, allocate the same number again: the same objects, no new slab */
        for (int i = 0; i < 3 * per; i++)
            vmpi_pool_free(v[i], &p);
        void *w[3 * 8];
        for (int i = 0; i < 3 * per; i++)
            w[i] = vmpi_pool_alloc(&p);
        CHECK(count_slabs(&p) == 3, "size %zu: re-allocating after freeing all grew the pool to %d slabs", sz,
              count_slabs(&p));
        check_set("reuse", w, 3 * per, sz);
        void *a[3 * 8], *b[3 * 8];
        memcpy(a, v, sizeof a);
        memcpy(b, w, sizeof b);
        qsort(a, 3 * (size_t)per, sizeof(void *), cmp_ptr);
        qsort(b, 3 * (size_t)per, sizeof(void *), cmp_ptr);
        CHECK(memcmp(a, b, sizeof a) == 0, "size %zu: re-allocation did not return the freed objects", sz);
        /* LIFO reuse: the last freed is the first handed out again */
        vmpi_pool_free(w[5], &p);
        CHECK(vmpi_pool_alloc(&p) == w[5], "size %zu: a freed object was not the next one allocated", sz);
        /* steady state: many alloc/free cycles of varying depth never add a slab */
        for (int i = 0; i < 3 * per; i++)
            vmpi_pool_free(w[i], &p);
        for (int round = 0; round < 10000; round++) {
            int d = 1 + round % (3 * per);
            for (int i = 0; i < d; i++)
                v[i] = vmpi_pool_alloc(&p);
            for (int i = d - 1; i >= 0; i -= 2)
                vmpi_pool_free(v[i], &p);
            for (int i = d - 2; i >= 0; i -= 2)
                vmpi_pool_free(v[i], &p);
        }
        CHECK(count_slabs(&p) == 3, "size %zu: steady-state alloc/free grew the pool to %d slabs", sz,
              count_slabs(&p));
        /* one more than the pool holds: exactly one more slab */
        for (int i = 0; i < 3 * per; i++)
            v[i] = vmpi_pool_alloc(&p);
        void *extra = vmpi_pool_alloc(&p);
        CHECK(count_slabs(&p) == 4, "size %zu: object %d should have taken a 4th slab (have %d)", sz, 3 * per + 1,
              count_slabs(&p));
        CHECK(((uintptr_t)extra & 15) == 0, "size %zu: object %p from a new slab not 16-byte aligned", sz, extra);
        vmpi_pool_destroy(&p);
        CHECK(p.slabs == NULL && p.local == NULL, "size %zu: destroy left slabs or a local list behind", sz);
    }
    /* slab_objs 0 means the default (64) */
    vmpi_pool p;
    vmpi_pool_init(&p, 24, 0);
    for (int i = 0; i < 64; i++)
        vmpi_pool_alloc(&p);
    CHECK(count_slabs(&p) == 1, "default slab size: 64 objects took %d slabs", count_slabs(&p));
    vmpi_pool_alloc(&p);
    CHECK(count_slabs(&p) == 2, "default slab size: 65 objects took %d slabs", count_slabs(&p));
    vmpi_pool_destroy(&p);
}

/* ---- remote frees come back through refill ---- */

#define RN 40
static vmpi_pool owner_pool;
static void *handed[RN];

static void *remote_freer(void *arg)
{
    (void)arg;
    vmpi_pool mine;
    vmpi_pool_init(&mine, 32, 8);
    for (int i = 0; i < RN; i++)
        vmpi_pool_free(handed[i], &mine); /* not the owner: goes to owner_pool's remote stack */
    CHECK(count_slabs(&mine) == 0 && mine.local == NULL, "remote frees landed in the freeing thread's pool");
    vmpi_pool_destroy(&mine);
    return NULL;
}

static void test_remote(void)
{
    vmpi_pool_init(&owner_pool, 32, 8);
    for (int i = 0; i < RN; i++)
        handed[i] = vmpi_pool_alloc(&owner_pool);
    int slabs = count_slabs(&owner_pool); /* 5 */
    CHECK(owner_pool.local == NULL, "40 objects from 5 slabs of 8 left a local list");
    pthread_t t;
    pthread_create(&t, NULL, remote_freer, NULL);
    pthread_join(t, NULL);
    CHECK(atomic_load(&owner_pool.remote) != NULL, "objects freed by another thread are not on the remote stack");
    void *back[RN];
    for (int i = 0; i < RN; i++)
        back[i] = vmpi_pool_alloc(&owner_pool);
    CHECK(count_slabs(&owner_pool) == slabs,
          "re-allocating %d remotely freed objects took new slabs (%d -> %d): refill ignored the remote stack", RN,
          slabs, count_slabs(&owner_pool));
    check_set("remote", back, RN, 32);
    void *a[RN], *b[RN];
    memcpy(a, handed, sizeof a);
    memcpy(b, back, sizeof b);
    qsort(a, RN, sizeof(void *), cmp_ptr);
    qsort(b, RN, sizeof(void *), cmp_ptr);
    CHECK(memcmp(a, b, sizeof a) == 0, "the objects allocated after remote frees are not the ones freed");
    CHECK(atomic_load(&owner_pool.remote) == NULL, "remote stack not emptied by refill");
    vmpi_pool_destroy(&owner_pool);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- two-thread stress ---- */

#define NMSG 300000
#define WINDOW 200 /* objects a thread may have outstanding */
#define SLAB 16
#define MAGIC_LIVE 0x4c4956454c495645ull
#define MAGIC_FREE 0x4652454546524545ull

typedef struct obj {
    vmpi_mpsc_node node;
    _Atomic uint64_t state;
    int from;
    int seq;
    unsigned char fill[40];
} obj;

static vmpi_pool pools[2];
static vmpi_mpsc inbox[2];
static _Atomic long returned[2]; /* objects of thread t freed by the other one */
static _Atomic int stop;
static int max_slabs[2];

/* A slab just added to `p` holds objects never handed out: mark them free so that the in-use check below
 * reads defined memory.  Layout as in pool.c: the chain pointer, padded to max_align_t, then the objects. */
struct slab_layout {
    void *next;
    max_align_t pad[];
};

static void mark_new_slab(vmpi_pool *p, void *slab, const void *first)
{
    char *base = (char *)slab + offsetof(struct slab_layout, pad);
    const char *f = (const char *)first - sizeof(vmpi_pool_obj);
    CHECK(f >= base && f < base + p->obj_size * p->slab_objs && (size_t)(f - base) % p->obj_size == 0,
          "object %p handed out right after a new slab is not in it: the test's idea of the slab layout is wrong",
          first);
    for (size_t i = 0; i < p->slab_objs; i++) {
        obj *o = (obj *)(base + i * p->obj_size + sizeof(vmpi_pool_obj));
        atomic_store(&o->state, MAGIC_FREE);
    }
}

static void *stress(void *arg)
{
    int me = (int)(long)arg, other = 1 - me;
    vmpi_pool *mine = &pools[me];
    long sent = 0, recvd = 0, next_seq = 0, idle = 0;
    void *last_slab = mine->slabs;
    while ((sent < NMSG || recvd < NMSG) && !atomic_load(&stop)) {
        long progress = sent + recvd;
        /* produce, within the window; sometimes free locally instead, so local and remote frees mix */
        while (sent < NMSG && sent - atomic_load(&returned[me]) < WINDOW) {
            obj *o = vmpi_pool_alloc(mine);
            if (mine->slabs != last_slab) {
                last_slab = mine->slabs;
                mark_new_slab(mine, last_slab, o);
            }
            CHECK(((uintptr_t)o & 15) == 0, "thread %d: object %p not 16-byte aligned", me, (void *)o);
            uint64_t st = atomic_exchange(&o->state, MAGIC_LIVE);
            if (st == MAGIC_LIVE) {
                CHECK(0, "thread %d: pool handed out object %p that is still in use", me, (void *)o);
                atomic_store(&stop, 1);
                break;
            }
            if ((sent & 7) == 3) { /* a local round trip */
                atomic_store(&o->state, MAGIC_FREE);
                vmpi_pool_free(o, mine);
                obj *again = vmpi_pool_alloc(mine);
                CHECK(again == o, "thread %d: a locally freed object was not reused at once", me);
                atomic_store(&again->state, MAGIC_LIVE);
                o = again;
            }
            o->from = me;
            o->seq = (int)sent;
            memset(o->fill, (unsigned char)sent, sizeof o->fill);
            vmpi_mpsc_push(&inbox[other], &o->node);
            sent++;
        }
        int cs = 0;
        for (void *s = mine->slabs; s; s = *(void **)s)
            cs++;
        if (cs > max_slabs[me])
            max_slabs[me] = cs;
        vmpi_mpsc_node *n;
        while ((n = vmpi_mpsc_pop(&inbox[me])) != NULL) {
            obj *o = vmpi_container_of(n, obj, node);
            CHECK(o->from == other, "thread %d: received an object of thread %d", me, o->from);
            CHECK(o->seq == next_seq, "thread %d: received seq %d, expected %ld", me, o->seq, next_seq);
            for (size_t j = 0; j < sizeof o->fill; j++)
                if (o->fill[j] != (unsigned char)o->seq) {
                    CHECK(0, "thread %d: payload of seq %d overwritten while in flight", me, o->seq);
                    atomic_store(&stop, 1);
                    break;
                }
            uint64_t st = atomic_exchange(&o->state, MAGIC_FREE);
            CHECK(st == MAGIC_LIVE, "thread %d: received object %p not marked live", me, (void *)o);
            next_seq = o->seq + 1;
            vmpi_pool_free(o, mine); /* not its owner: a remote free */
            atomic_fetch_add(&returned[other], 1);
            recvd++;
        }
        if (errs)
            atomic_store(&stop, 1);
        /* waiting for the other thread: spin a while (real concurrency is what finds races), then let it
         * run in case it is not scheduled (loaded machine) */
        if (sent + recvd != progress)
            idle = 0;
        else if (++idle % 4096 == 0)
            sched_yield();
    }
    return NULL;
}

static void test_stress(void)
{
    atomic_store(&stop, 0);
    for (int t = 0; t < 2; t++) {
        atomic_store(&returned[t], 0);
        max_slabs[t] = 0;
        vmpi_pool_init(&pools[t], sizeof(obj), SLAB);
        vmpi_mpsc_init(&inbox[t]);
    }
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        pthread_create(&th[t], NULL, stress, (void *)(long)t);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < 2; t++) {
        CHECK(atomic_load(&returned[t]) == NMSG, "thread %d: %ld of %d objects came back", t,
              atomic_load(&returned[t]), NMSG);
        /* a slab is added only when every object is in flight: at most WINDOW (+1 for the local round trip) */
        int bound = (WINDOW + 1 + SLAB - 1) / SLAB + 1;
        CHECK(max_slabs[t] <= bound, "thread %d: pool grew to %d slabs with at most %d objects in flight (bound %d)",
              t, max_slabs[t], WINDOW, bound);
        /* every object is back: the owner can allocate them all without a new slab */
        int slabs = count_slabs(&pools[t]);
        int all = slabs * SLAB;
        void **v = malloc(sizeof(void *) * (size_t)all);
        for (int i = 0; i < all; i++)
            v[i] = vmpi_pool_alloc(&pools[t]);
        CHECK(count_slabs(&pools[t]) == slabs, "thread %d's pool: allocating its %d objects after the run took a "
                                               "new slab (objects lost)", t, all);
        check_set("after stress", v, all, sizeof(obj));
        free(v);
        vmpi_pool_destroy(&pools[t]);
    }
}

int main(void)
{
    test_local();
    test_remote();
    /* races show only when the threads really overlap: repeat for a while (a loaded machine gives few
     * overlapping time slices per round) */
    double t0 = now();
    int rounds = 0;
    do {
        test_stress();
        rounds++;
    } while (errs == 0 && rounds < 25 && now() - t0 < 2.0);
    if (errs) {
        fprintf(stderr, "test_pool: %d error(s)\n", errs);
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
