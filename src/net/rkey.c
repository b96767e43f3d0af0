/* SPDX-License-Identifier: BSD-3-Clause */
/* Exposed memory and remote keys: the transport's one-sided get and put on memory another process exposed
 * (xport.h's expose, unexpose, remote_add, remote_remove).
 *
 * This process's side: a window's memory is registered with UCX (ucp_mem_map of the window's range, not of
 * the isomalloc slots or the job heap it lies in: slots grow by mprotect after a registration, a whole
 * range of 32 TiB cannot be pinned by an RDMA device, and only what a window exposes should be reachable)
 * and its packed key handed to the window's code, which exchanges it over the window's communicator.
 * Ranges are counted: two windows over the same memory share one registration.
 *
 * The others' side: per process, a table of exposed ranges sorted by address (a read-write lock: every get
 * and put looks up, windows add and remove), each with its packed key and the keys unpacked from it, one per
 * (local PE, PE of that process): UCX's unpacked key is good on one endpoint only, and each PE has its own
 * endpoint to each PE (ucx.c).  A PE unpacks its own key at its first use, under the read lock.  A range's
 * last remove takes it out of the table; each PE then destroys its own unpacked keys in its poll (a key
 * belongs to its worker, which only its PE touches), once none of its one-sided requests is in flight, and
 * the last PE frees the entry.  The origins of a window remove its ranges before its owners unexpose them
 * (Win_free's barrier is between), so no key outlives its registration while in a table. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "net/net_int.h"

typedef struct local_reg {
    uint64_t addr;
    size_t len;
    unsigned refs;
    ucp_mem_h memh;
    void *key;
    size_t klen;
    struct local_reg *next;
} local_reg;

typedef struct rkey_ent {
    uint64_t lo, hi;
    int proc, npes;          /* the exposing process and its PE count */
    unsigned refs;
    void *key;
    size_t klen;
    ucp_rkey_h *rk;          /* [local PE][its PE]: unpacked by the local PE, at first use */
    unsigned char *reaped;   /* [local PE], after removal */
    _Atomic int left;        /* after removal: local PEs that have not destroyed theirs yet */
    struct rkey_ent *next_dead;
} rkey_ent;

typedef struct rkey_tab {
    rkey_ent **e;            /* sorted by lo */
    int n, cap;
} rkey_tab;

static struct {
    bool on;
    ucp_context_h ctx;
    int npes, nprocs, job_npes;
    pthread_mutex_t reg_lock;
    local_reg *regs;
    pthread_rwlock_t lock;
    rkey_tab *tab;           /* [nprocs] */
    pthread_mutex_t dead_lock;
    rkey_ent *dead;
    _Atomic unsigned dead_gen;
    unsigned *seen;          /* [npes]: the dead_gen each local PE has reaped up to */
} R = {.reg_lock = PTHREAD_MUTEX_INITIALIZER, .lock = PTHREAD_RWLOCK_INITIALIZER,
       .dead_lock = PTHREAD_MUTEX_INITIALIZER};

static int first_pe(int k) { return (int)((long)k * R.job_npes / R.nprocs); }

void vmpi_rkey_init(ucp_context_h ctx, bool on, int npes, int nprocs, int job_npes)
{
    R.on = on;
    R.ctx = ctx;
    R.npes = npes;
    R.nprocs = nprocs;
    R.job_npes = job_npes;
    R.tab = calloc((size_t)nprocs, sizeof *R.tab);
    R.seen = calloc((size_t)npes, sizeof *R.seen);
    if (R.tab == NULL || R.seen == NULL)
        H->fatal("out of memory for the remote keys");
}

/* ---- this process's memory ---- */

bool vmpi_rkey_expose(uint64_t addr, size_t len, void **key, size_t *klen)
{
    *key = NULL;
    *klen = 0;
    if (!R.on || len == 0)
        return false;
    pthread_mutex_lock(&R.reg_lock);
    local_reg *g = R.regs;
    while (g && !(g->addr == addr && g->len == len))
        g = g->next;
    if (g)
        g->refs++;
    else {
        ucp_mem_map_params_t mp = {.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
                                   .address = (void *)(uintptr_t)addr,
                                   .length = len};
        ucp_mem_h memh;
        void *buf = NULL;
        size_t blen = 0;
        ucs_status_t st = ucp_mem_map(R.ctx, &mp, &memh);
        if (st == UCS_OK && (st = ucp_rkey_pack(R.ctx, memh, &buf, &blen)) != UCS_OK)
            ucp_mem_unmap(R.ctx, memh);
        if (st != UCS_OK) { /* served by messages, as without the network's one-sided operations */
            pthread_mutex_unlock(&R.reg_lock);
            H->warn("registering %zu bytes at %#llx with UCX failed (%s): one-sided operations there go by "
                    "messages", len, (unsigned long long)addr, ucs_status_string(st));
            return false;
        }
        g = calloc(1, sizeof *g);
        void *k = malloc(blen ? blen : 1);
        if (g == NULL || k == NULL)
            H->fatal("out of memory registering window memory");
        memcpy(k, buf, blen);
        ucp_rkey_buffer_release(buf);
        *g = (local_reg){addr, len, 1, memh, k, blen, R.regs};
        R.regs = g;
    }
    if ((*key = malloc(g->klen ? g->klen : 1)) == NULL)
        H->fatal("out of memory registering window memory");
    memcpy(*key, g->key, g->klen);
    *klen = g->klen;
    pthread_mutex_unlock(&R.reg_lock);
    return true;
}

void vmpi_rkey_unexpose(uint64_t addr, size_t len)
{
    pthread_mutex_lock(&R.reg_lock);
    for (local_reg **p = &R.regs; *p; p = &(*p)->next) {
        local_reg *g = *p;
        if (g->addr != addr || g->len != len)
            continue;
        if (--g->refs == 0) {
            *p = g->next;
            ucp_mem_unmap(R.ctx, g->memh);
            free(g->key);
            free(g);
        }
        break;
    }
    pthread_mutex_unlock(&R.reg_lock);
}

/* ---- the others' memory ---- */

/* The index of the first entry of `t` whose lo is above `addr`. */
static int upper(const rkey_tab *t, uint64_t addr)
{
    int a = 0, b = t->n;
    while (a < b) {
        int m = a + (b - a) / 2;
        if (t->e[m]->lo <= addr)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

void vmpi_rkey_add(int proc, uint64_t addr, size_t len, const void *key, size_t klen)
{
    if (!R.on || len == 0 || proc < 0 || proc >= R.nprocs)
        return;
    pthread_rwlock_wrlock(&R.lock);
    rkey_tab *t = &R.tab[proc];
    for (int i = 0; i < t->n; i++) {
        rkey_ent *e = t->e[i];
        if (e->lo == addr && e->hi == addr + len && e->klen == klen && !memcmp(e->key, key, klen)) {
            e->refs++;
            pthread_rwlock_unlock(&R.lock);
            return;
        }
    }
    int np = first_pe(proc + 1) - first_pe(proc);
    rkey_ent *e = calloc(1, sizeof *e);
    void *k = malloc(klen ? klen : 1);
    ucp_rkey_h *rk = calloc((size_t)R.npes * (size_t)np, sizeof *rk);
    unsigned char *reaped = calloc((size_t)R.npes, 1);
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 8;
        t->e = realloc(t->e, sizeof *t->e * (size_t)t->cap);
    }
    if (e == NULL || k == NULL || rk == NULL || reaped == NULL || t->e == NULL)
        H->fatal("out of memory for a remote key");
    memcpy(k, key, klen);
    *e = (rkey_ent){.lo = addr, .hi = addr + len, .proc = proc, .npes = np, .refs = 1, .key = k, .klen = klen,
                    .rk = rk, .reaped = reaped};
    int at = upper(t, addr);
    memmove(&t->e[at + 1], &t->e[at], sizeof *t->e * (size_t)(t->n - at));
    t->e[at] = e;
    t->n++;
    pthread_rwlock_unlock(&R.lock);
}

void vmpi_rkey_remove(int proc, uint64_t addr, size_t len)
{
    if (!R.on || len == 0 || proc < 0 || proc >= R.nprocs)
        return;
    pthread_rwlock_wrlock(&R.lock);
    rkey_tab *t = &R.tab[proc];
    rkey_ent *gone = NULL;
    for (int i = t->n - 1; i >= 0; i--) { /* (the latest of equal ranges: they are interchangeable) */
        rkey_ent *e = t->e[i];
        if (e->lo != addr || e->hi != addr + len)
            continue;
        if (--e->refs == 0) {
            memmove(&t->e[i], &t->e[i + 1], sizeof *t->e * (size_t)(t->n - i - 1));
            t->n--;
            gone = e;
        }
        break;
    }
    pthread_rwlock_unlock(&R.lock);
    if (gone == NULL)
        return;
    atomic_store(&gone->left, R.npes);
    pthread_mutex_lock(&R.dead_lock);
    gone->next_dead = R.dead;
    R.dead = gone;
    atomic_fetch_add(&R.dead_gen, 1);
    pthread_mutex_unlock(&R.dead_lock);
}

ucp_rkey_h vmpi_rkey_find(int l, ucp_ep_h ep, int proc, int dst_pe, uint64_t addr, size_t len)
{
    if (!R.on)
        return NULL;
    pthread_rwlock_rdlock(&R.lock);
    const rkey_tab *t = &R.tab[proc];
    ucp_rkey_h rk = NULL;
    for (int i = upper(t, addr) - 1; i >= 0; i--) { /* ranges may overlap (windows over the same memory) */
        rkey_ent *e = t->e[i];
        if (e->hi < addr + len)
            continue;
        ucp_rkey_h *slot = &e->rk[(size_t)l * (size_t)e->npes + (size_t)(dst_pe - first_pe(proc))];
        if (*slot == NULL) {
            ucs_status_t st = ucp_ep_rkey_unpack(ep, e->key, slot);
            if (st != UCS_OK)
                H->fatal("unpacking the remote key of process %d's memory at %#llx failed: %s", proc,
                         (unsigned long long)e->lo, ucs_status_string(st));
        }
        rk = *slot;
        break;
    }
    pthread_rwlock_unlock(&R.lock);
    return rk;
}

/* Local PE l destroys its keys of removed ranges (`idle`: none of its one-sided requests is in flight, so
 * none uses them). */
void vmpi_rkey_reap(int l, bool idle)
{
    unsigned gen = atomic_load_explicit(&R.dead_gen, memory_order_acquire);
    if (gen == R.seen[l] || !idle)
        return;
    pthread_mutex_lock(&R.dead_lock);
    for (rkey_ent **p = &R.dead; *p;) {
        rkey_ent *e = *p;
        if (!e->reaped[l]) {
            e->reaped[l] = 1;
            for (int i = 0; i < e->npes; i++) {
                ucp_rkey_h *slot = &e->rk[(size_t)l * (size_t)e->npes + (size_t)i];
                if (*slot)
                    ucp_rkey_destroy(*slot);
                *slot = NULL;
            }
            if (atomic_fetch_sub(&e->left, 1) == 1) {
                *p = e->next_dead;
                free(e->key);
                free(e->rk);
                free(e->reaped);
                free(e);
                continue;
            }
        }
        p = &e->next_dead;
    }
    R.seen[l] = gen;
    pthread_mutex_unlock(&R.dead_lock);
}

/* At the end (the PEs stopped, their workers still there): every key and registration goes. */
static void ent_free(rkey_ent *e)
{
    for (size_t i = 0; i < (size_t)R.npes * (size_t)e->npes; i++)
        if (e->rk[i])
            ucp_rkey_destroy(e->rk[i]);
    free(e->key);
    free(e->rk);
    free(e->reaped);
    free(e);
}

void vmpi_rkey_fini(void)
{
    for (rkey_ent *e = R.dead, *n; e; e = n) {
        n = e->next_dead;
        ent_free(e);
    }
    R.dead = NULL;
    for (int k = 0; R.tab && k < R.nprocs; k++) {
        for (int i = 0; i < R.tab[k].n; i++)
            ent_free(R.tab[k].e[i]);
        free(R.tab[k].e);
    }
    free(R.tab);
    R.tab = NULL;
    free(R.seen);
    R.seen = NULL;
}

void vmpi_rkey_unmap_all(void)
{
    for (local_reg *g = R.regs, *n; g; g = n) {
        n = g->next;
        ucp_mem_unmap(R.ctx, g->memh);
        free(g->key);
        free(g);
    }
    R.regs = NULL;
}
