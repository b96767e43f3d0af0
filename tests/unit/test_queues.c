/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of the two queues of the base layer:
 *   - the intrusive list (base/list.h): insertion order of push_back/push_front/insert_before, removal from
 *     any position, pop order, safe iteration while removing;
 *   - the MPSC inbox queue (base/mpsc.h): pop on empty, a push caught between its two steps, the
 *     maybe_nonempty contract (true whenever a later pop can return a node), and a stress run with 3 producer
 *     threads pushing 200000 nodes each to 1 consumer: every node received exactly once, per-producer FIFO. */
#include "base/list.h"
#include "base/mpsc.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit_check.h"

/* ---- list ---- */

typedef struct item {
    int v;
    vmpi_list node;
} item;

static int item_of(vmpi_list *n) { return vmpi_container_of(n, item, node)->v; }

/* Compares the list, walked forwards and backwards, with `want[0..n)`. */
static void expect_list(const char *what, vmpi_list *head, const int *want, int n)
{
    int i = 0;
    vmpi_list_foreach(it, head)
    {
        if (i >= n) {
            CHECK(0, "%s: list longer than %d (extra value %d)", what, n, item_of(it));
            return;
        }
        CHECK(item_of(it) == want[i], "%s: forward position %d holds %d, expected %d", what, i, item_of(it),
              want[i]);
        CHECK(it->next->prev == it, "%s: broken back link after position %d", what, i);
        i++;
    }
    CHECK(i == n, "%s: list has %d entries, expected %d", what, i, n);
    i = n - 1;
    for (vmpi_list *it = head->prev; it != head && i >= 0; it = it->prev, i--)
        CHECK(item_of(it) == want[i], "%s: backward position %d holds %d, expected %d", what, i, item_of(it),
              want[i]);
    CHECK(vmpi_list_empty(head) == (n == 0), "%s: vmpi_list_empty() is %d with %d entries", what,
          vmpi_list_empty(head), n);
}

static void test_list(void)
{
    vmpi_list h;
    item it[8];
    for (int i = 0; i < 8; i++) {
        it[i].v = i;
        vmpi_list_init(&it[i].node);
    }
    vmpi_list_init(&h);
    expect_list("empty", &h, NULL, 0);
    CHECK(vmpi_list_pop_front(&h) == NULL, "pop_front of an empty list did not return NULL");

    vmpi_list_push_back(&h, &it[1].node);
    vmpi_list_push_back(&h, &it[2].node);
    vmpi_list_push_front(&h, &it[0].node);
    vmpi_list_push_back(&h, &it[4].node);
    vmpi_list_insert_before(&it[4].node, &it[3].node);
    vmpi_list_push_back(&h, &it[5].node);
    expect_list("after pushes", &h, (int[]){0, 1, 2, 3, 4, 5}, 6);

    vmpi_list_remove(&it[3].node); /* middle */
    CHECK(it[3].node.next == &it[3].node && it[3].node.prev == &it[3].node,
          "a removed node is not left pointing to itself");
    vmpi_list_remove(&it[3].node); /* removing it again must be harmless */
    expect_list("after removing the middle", &h, (int[]){0, 1, 2, 4, 5}, 5);
    vmpi_list_remove(&it[0].node); /* first */
    vmpi_list_remove(&it[5].node); /* last */
    expect_list("after removing both ends", &h, (int[]){1, 2, 4}, 3);

    vmpi_list *n = vmpi_list_pop_front(&h);
    CHECK(n == &it[1].node, "pop_front returned %d, expected 1", n ? item_of(n) : -1);
    CHECK(n && n->next == n && n->prev == n, "a popped node is not left pointing to itself");
    expect_list("after one pop", &h, (int[]){2, 4}, 2);

    /* foreach_safe lets the body remove the current node */
    for (int i = 0; i < 8; i++)
        if (i != 2 && i != 4)
            vmpi_list_push_back(&h, &it[i].node);
    expect_list("refilled", &h, (int[]){2, 4, 0, 1, 3, 5, 6, 7}, 8);
    vmpi_list_foreach_safe(x, tmp, &h)
    {
        if (item_of(x) % 2)
            vmpi_list_remove(x);
    }
    expect_list("odd ones removed in foreach_safe", &h, (int[]){2, 4, 0, 6}, 4);
    int want[] = {2, 4, 0, 6};
    for (int i = 0; i < 4; i++) {
        n = vmpi_list_pop_front(&h);
        CHECK(n && item_of(n) == want[i], "pop %d returned %d, expected %d", i, n ? item_of(n) : -1, want[i]);
    }
    CHECK(vmpi_list_pop_front(&h) == NULL && vmpi_list_empty(&h), "list not empty after popping everything");
}

/* ---- MPSC, one thread ---- */

typedef struct msg {
    vmpi_mpsc_node node;
    int producer;
    int seq;
} msg;

static void test_mpsc_single(void)
{
    vmpi_mpsc q;
    msg m[4];
    for (int i = 0; i < 4; i++)
        m[i] = (msg){.producer = 0, .seq = i};
    vmpi_mpsc_init(&q);
    CHECK(vmpi_mpsc_pop(&q) == NULL, "pop of a new queue did not return NULL");
    CHECK(!vmpi_mpsc_maybe_nonempty(&q), "maybe_nonempty true on a new queue");

    /* one node, then empty again (twice: the stub has been recycled the second time) */
    for (int round = 0; round < 2; round++) {
        vmpi_mpsc_push(&q, &m[0].node);
        CHECK(vmpi_mpsc_maybe_nonempty(&q), "round %d: maybe_nonempty false after a push", round);
        vmpi_mpsc_node *n = vmpi_mpsc_pop(&q);
        CHECK(n == &m[0].node, "round %d: pop returned %p, expected the pushed node %p", round, (void *)n,
              (void *)&m[0].node);
        CHECK(!vmpi_mpsc_maybe_nonempty(&q), "round %d: maybe_nonempty true on a drained queue", round);
        CHECK(vmpi_mpsc_pop(&q) == NULL, "round %d: pop of a drained queue did not return NULL", round);
    }

    /* FIFO, with maybe_nonempty checked before every pop: it must be true whenever the pop then returns a
     * node (the header: "true when something was pushed or is being pushed") */
    for (int round = 0; round < 3; round++) {
        int k = round + 2; /* 2, 3, 4 nodes */
        for (int i = 0; i < k; i++)
            vmpi_mpsc_push(&q, &m[i].node);
        for (int i = 0; i < k; i++) {
            bool mn = vmpi_mpsc_maybe_nonempty(&q);
            CHECK(mn, "%d nodes pushed, %d popped: maybe_nonempty() is false although node %d is still queued "
                      "(src/base/mpsc.h vmpi_mpsc_maybe_nonempty misses a real node at the head)",
                  k, i, i);
            vmpi_mpsc_node *n = vmpi_mpsc_pop(&q);
            CHECK(n == &m[i].node, "%d pushed: pop %d returned seq %d, expected %d", k, i,
                  n ? vmpi_container_of(n, msg, node)->seq : -1, i);
        }
        CHECK(!vmpi_mpsc_maybe_nonempty(&q), "maybe_nonempty true after draining %d nodes", k);
        CHECK(vmpi_mpsc_pop(&q) == NULL, "pop after draining %d nodes did not return NULL", k);
    }

    /* a push caught between its two steps (tail exchanged, link not yet stored): pop must not return the
     * half-pushed node yet nor lose anything; the node before it may be held back too (it cannot be unlinked
     * while its successor is unknown); maybe_nonempty must be true; once linked, everything comes out in
     * order */
    for (int before = 0; before < 3; before++) {
        for (int i = 0; i < before; i++)
            vmpi_mpsc_push(&q, &m[i].node);
        msg *half = &m[3];
        atomic_store(&half->node.next, NULL);
        vmpi_mpsc_node *prev = atomic_exchange(&q.tail, &half->node);
        int popped = 0;
        vmpi_mpsc_node *n;
        while (popped <= before && (n = vmpi_mpsc_pop(&q)) != NULL) {
            CHECK(n != &half->node, "half push after %d: pop returned the node before its link was stored",
                  before);
            CHECK(n == &m[popped].node, "half push after %d: pop %d returned %p, expected seq %d", before, popped,
                  (void *)n, popped);
            popped++;
        }
        CHECK(popped >= before - 1, "half push after %d: only %d of the %d complete pushes could be popped",
              before, popped, before);
        CHECK(vmpi_mpsc_pop(&q) == NULL, "half push after %d: pop returned a node after a NULL", before);
        CHECK(vmpi_mpsc_maybe_nonempty(&q), "half push after %d: maybe_nonempty false while a push is in progress",
              before);
        atomic_store(&prev->next, &half->node);
        for (int i = popped; i < before; i++) {
            n = vmpi_mpsc_pop(&q);
            CHECK(n == &m[i].node, "half push after %d: after the link, pop returned %p, expected seq %d", before,
                  (void *)n, i);
        }
        n = vmpi_mpsc_pop(&q);
        CHECK(n == &half->node, "half push after %d: the completed push was not popped (got %p)", before,
              (void *)n);
        CHECK(vmpi_mpsc_pop(&q) == NULL && !vmpi_mpsc_maybe_nonempty(&q),
              "half push after %d: queue not empty at the end", before);
    }
}

/* ---- MPSC, 3 producers ---- */

#define NPROD 3
#define PER_PROD 200000

static vmpi_mpsc sq;
static msg *nodes[NPROD];
static _Atomic int producers_done;
static _Atomic int go;

static void *producer(void *arg)
{
    int p = (int)(long)arg;
    while (!atomic_load(&go))
        ;
    for (int i = 0; i < PER_PROD; i++) {
        nodes[p][i].producer = p;
        nodes[p][i].seq = i;
        vmpi_mpsc_push(&sq, &nodes[p][i].node);
    }
    atomic_fetch_add(&producers_done, 1);
    return NULL;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_mpsc_threads(void)
{
    vmpi_mpsc_init(&sq);
    atomic_store(&go, 0);
    atomic_store(&producers_done, 0);
    pthread_t th[NPROD];
    unsigned char *seen[NPROD];
    int next[NPROD];
    for (int p = 0; p < NPROD; p++) {
        nodes[p] = calloc(PER_PROD, sizeof(msg));
        seen[p] = calloc(PER_PROD, 1);
        if (!nodes[p] || !seen[p]) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        next[p] = 0;
        if (pthread_create(&th[p], NULL, producer, (void *)(long)p) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(2);
        }
    }
    atomic_store(&go, 1);
    long got = 0, total = (long)NPROD * PER_PROD, nulls_after_done = 0, contract = 0;
    double last_progress = now();
    long idle = 0;
    while (got < total) {
        int done_before = atomic_load(&producers_done);
        bool mn = vmpi_mpsc_maybe_nonempty(&sq);
        vmpi_mpsc_node *n = vmpi_mpsc_pop(&sq);
        if (n == NULL) {
            /* once every producer has returned no push is in progress: NULL means a lost node */
            if (done_before == NPROD && ++nulls_after_done > 2) {
                CHECK(0, "pop returned NULL with %ld of %ld nodes received and every producer finished", got,
                      total);
                break;
            }
            if (now() - last_progress > 30) {
                CHECK(0, "no node for 30 s with %ld of %ld received", got, total);
                break;
            }
            if (++idle % 4096 == 0)
                sched_yield(); /* let the producers run on a loaded machine */
            continue;
        }
        last_progress = now();
        /* with every producer finished before the test, nothing can have been pushed in between */
        if (!mn && done_before == NPROD && contract++ == 0)
            CHECK(0, "stress: with all producers finished, maybe_nonempty() was false just before a pop "
                     "returned a node (after %ld nodes)",
                  got);
        msg *m = vmpi_container_of(n, msg, node);
        int p = m->producer;
        if (p < 0 || p >= NPROD || m < nodes[p] || m >= nodes[p] + PER_PROD) {
            CHECK(0, "popped a node %p that no producer pushed", (void *)m);
            break;
        }
        int i = (int)(m - nodes[p]);
        CHECK(m->seq == i, "node %d of producer %d carries seq %d", i, p, m->seq);
        if (seen[p][i]) {
            CHECK(0, "node %d of producer %d received twice", i, p);
        } else {
            seen[p][i] = 1;
            got++;
        }
        if (i != next[p])
            CHECK(0, "producer %d: received seq %d where %d was due (FIFO order broken)", p, i, next[p]);
        next[p] = i + 1;
    }
    for (int p = 0; p < NPROD; p++)
        pthread_join(th[p], NULL);
    if (errs == 0) {
        for (int p = 0; p < NPROD; p++)
            for (int i = 0; i < PER_PROD; i++)
                if (!seen[p][i]) {
                    CHECK(0, "node %d of producer %d never received", i, p);
                    break;
                }
        CHECK(vmpi_mpsc_pop(&sq) == NULL, "pop returned a node after all %ld were received", total);
        CHECK(!vmpi_mpsc_maybe_nonempty(&sq), "maybe_nonempty true after all %ld nodes were received", total);
    }
    if (contract > 1)
        fprintf(stderr, "stress: maybe_nonempty() was false before %ld successful pops in all\n", contract);
    for (int p = 0; p < NPROD; p++) {
        free(nodes[p]);
        free(seen[p]);
    }
}

int main(void)
{
    test_list();
    test_mpsc_single();
    /* races show only when the threads really overlap: repeat for a while (a loaded machine gives few
     * overlapping time slices per round) */
    double t0 = now();
    int rounds = 0;
    do {
        test_mpsc_threads();
        rounds++;
    } while (errs == 0 && rounds < 25 && now() - t0 < 2.0);
    if (errs) {
        fprintf(stderr, "test_queues: %d error(s)\n", errs);
        return 1;
    }
    printf(" No Errors\n");
    return 0;
}
