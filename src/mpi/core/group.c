/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "ckpt/ckpt.h"
#include "iso/iso.h"
#include "mpi/core/group.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"

#define CHUNK 256
#define MAX_CHUNKS 4096 /* a million live groups */

/* Process-wide handle table: chunks never move, so a lookup reads an entry without the lock.  Indices are
 * unique in the job and each entry has its owner, the rank that made the handle (handle.h). */
typedef struct entry {
    _Atomic(vmpi_group *) g;
    int owner;
} entry;
static struct {
    pthread_mutex_t lock;
    entry *chunks[MAX_CHUNKS];
    vmpi_handle_seq seq;
    int *free_idx;          /* recycled indices */
    int nfree, cap_free;
    vmpi_group *empty, *world;
} G = {.lock = PTHREAD_MUTEX_INITIALIZER, .seq = {2, 0, 1}};
VMPI_CKPT_STATIC(G)

enum { IDX_EMPTY = 1, IDX_FIRST_FREE = 2 }; /* index 0 is MPI_GROUP_NULL */

static int cmp_world(const void *a, const void *b, void *g)
{
    const int *w = g;
    int x = w[*(const int *)a], y = w[*(const int *)b];
    return (x > y) - (x < y);
}

vmpi_group *vmpi_group_new(const int *world, int n)
{
    vmpi_group *g = vmpi_iso_job_malloc(sizeof *g);
    int *w = vmpi_iso_job_malloc(sizeof(int) * (size_t)(n ? n : 1));
    int *s = vmpi_iso_job_malloc(sizeof(int) * (size_t)(n ? n : 1));
    if (!g || !w || !s) {
        free(g);
        free(w);
        free(s);
        return NULL;
    }
    if (n > 0)
        memcpy(w, world, sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        s[i] = i;
    qsort_r(s, (size_t)n, sizeof(int), cmp_world, w);
    atomic_init(&g->refs, 1);
    g->size = n;
    g->world = w;
    g->by_world = s;
    return g;
}

vmpi_group *vmpi_group_ref(vmpi_group *g)
{
    atomic_fetch_add_explicit(&g->refs, 1, memory_order_relaxed);
    return g;
}

void vmpi_group_unref(vmpi_group *g)
{
    if (g == NULL || atomic_fetch_sub_explicit(&g->refs, 1, memory_order_acq_rel) != 1)
        return;
    free(g->world);
    free(g->by_world);
    free(g);
}

int vmpi_group_rank_of(const vmpi_group *g, int w)
{
    int lo = 0, hi = g->size - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, r = g->by_world[mid], x = g->world[r];
        if (x == w)
            return r;
        if (x < w)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return MPI_UNDEFINED;
}

vmpi_group *vmpi_group_empty(void) { return G.empty; }
vmpi_group *vmpi_group_world(void) { return G.world; }

static _Atomic(vmpi_group *) *slot(int idx)
{
    return &G.chunks[idx / CHUNK][idx % CHUNK].g;
}

void vmpi_group_init(int nranks)
{
    int *w = vmpi_iso_job_malloc(sizeof(int) * (size_t)nranks);
    if (w == NULL)
        vmpi_fatal("out of memory for the group of %d ranks", nranks);
    for (int i = 0; i < nranks; i++)
        w[i] = i;
    G.world = vmpi_group_new(w, nranks);
    G.empty = vmpi_group_new(NULL, 0);
    free(w);
    if (!G.world || !G.empty)
        vmpi_fatal("out of memory for the predefined groups");
    G.chunks[0] = vmpi_iso_job_calloc(CHUNK, sizeof(*G.chunks[0]));
    if (G.chunks[0] == NULL)
        vmpi_fatal("out of memory for the group table");
    atomic_store(slot(IDX_EMPTY), G.empty);
    G.chunks[0][IDX_EMPTY].owner = -1;
}

void vmpi_group_fini(void)
{
    for (int c = 0; c < MAX_CHUNKS; c++) {
        if (G.chunks[c] == NULL) /* indices unique in the job leave gaps */
            continue;
        for (int i = 0; i < CHUNK; i++) {
            int idx = c * CHUNK + i;
            vmpi_group *g = atomic_load(slot(idx));
            if (g && idx >= IDX_FIRST_FREE)
                vmpi_group_unref(g);
        }
        free(G.chunks[c]);
        G.chunks[c] = NULL;
    }
    vmpi_group_unref(G.world);
    vmpi_group_unref(G.empty);
    free(G.free_idx);
    G.free_idx = NULL;
    G.nfree = G.cap_free = 0;
    G.world = G.empty = NULL;
}

MPI_Group vmpi_group_handle(vmpi_group *g)
{
    int idx = -1;
    pthread_mutex_lock(&G.lock);
    if (G.nfree > 0) {
        idx = G.free_idx[--G.nfree];
    } else if ((idx = vmpi_handle_seq_take(&G.seq, MAX_CHUNKS * CHUNK)) > 0) {
        if (G.chunks[idx / CHUNK] == NULL && (G.chunks[idx / CHUNK] = vmpi_iso_job_calloc(CHUNK, sizeof(*G.chunks[0]))) == NULL)
            idx = -1;
    }
    if (idx > 0) {
        vmpi_rank *rk = vmpi_rank_self();
        G.chunks[idx / CHUNK][idx % CHUNK].owner = rk ? rk->world_rank : -1;
        atomic_store(slot(idx), vmpi_group_ref(g));
    }
    pthread_mutex_unlock(&G.lock);
    return idx > 0 ? VMPI_HANDLE(VMPI_KIND_GROUP, idx) : MPI_GROUP_NULL;
}

vmpi_group *vmpi_group_get(MPI_Group h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_GROUP)
        return NULL;
    int idx = VMPI_HANDLE_INDEX(h);
    if (idx <= 0 || idx >= MAX_CHUNKS * CHUNK || G.chunks[idx / CHUNK] == NULL)
        return NULL;
    return atomic_load(slot(idx));
}

int vmpi_group_handle_free(MPI_Group *h)
{
    int idx = VMPI_HANDLE_INDEX(*h);
    if (VMPI_HANDLE_KIND(*h) != VMPI_KIND_GROUP || idx < IDX_FIRST_FREE)
        return MPI_ERR_GROUP;
    pthread_mutex_lock(&G.lock);
    vmpi_group *g = idx < MAX_CHUNKS * CHUNK && G.chunks[idx / CHUNK] ? atomic_exchange(slot(idx), NULL) : NULL;
    if (g && G.nfree == G.cap_free) {
        int cap = G.cap_free ? 2 * G.cap_free : 64;
        int *f = vmpi_iso_job_realloc(G.free_idx, sizeof(int) * (size_t)cap);
        if (f) {
            G.free_idx = f;
            G.cap_free = cap;
        }
    }
    if (g && G.nfree < G.cap_free)
        G.free_idx[G.nfree++] = idx;
    pthread_mutex_unlock(&G.lock);
    if (g == NULL)
        return MPI_ERR_GROUP;
    vmpi_group_unref(g);
    *h = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

int vmpi_group_each_owned(int owner, vmpi_group_entry_fn fn, void *arg)
{
    int n = 0;
    pthread_mutex_lock(&G.lock);
    for (int c = 0; c < MAX_CHUNKS; c++)
        for (int j = 0; G.chunks[c] && j < CHUNK; j++) {
            vmpi_group *g = atomic_load(&G.chunks[c][j].g);
            if (g && c * CHUNK + j >= IDX_FIRST_FREE && G.chunks[c][j].owner == owner) {
                fn(arg, c * CHUNK + j, g);
                n++;
            }
        }
    pthread_mutex_unlock(&G.lock);
    return n;
}

bool vmpi_group_install(int idx, vmpi_group *g, int owner)
{
    bool ok = false;
    pthread_mutex_lock(&G.lock);
    if (idx >= IDX_FIRST_FREE && idx < MAX_CHUNKS * CHUNK &&
        (G.chunks[idx / CHUNK] != NULL || (G.chunks[idx / CHUNK] = vmpi_iso_job_calloc(CHUNK, sizeof(*G.chunks[0]))) != NULL) &&
        atomic_load(slot(idx)) == NULL) {
        G.chunks[idx / CHUNK][idx % CHUNK].owner = owner;
        atomic_store(slot(idx), g); /* the caller's reference */
        vmpi_handle_seq_saw(&G.seq, idx);
        ok = true;
    }
    pthread_mutex_unlock(&G.lock);
    return ok;
}

void vmpi_group_keep_only(bool (*here)(int owner))
{
    pthread_mutex_lock(&G.lock);
    for (int c = 0; c < MAX_CHUNKS; c++)
        for (int j = 0; G.chunks[c] && j < CHUNK; j++)
            if (c * CHUNK + j >= IDX_FIRST_FREE && G.chunks[c][j].owner >= 0 && !here(G.chunks[c][j].owner))
                atomic_store(&G.chunks[c][j].g, NULL); /* its reference is left: the group may be others' too */
    pthread_mutex_unlock(&G.lock);
}

void vmpi_group_forget_owned(int owner)
{
    pthread_mutex_lock(&G.lock);
    for (int c = 0; c < MAX_CHUNKS; c++)
        for (int j = 0; G.chunks[c] && j < CHUNK; j++)
            if (c * CHUNK + j >= IDX_FIRST_FREE && G.chunks[c][j].owner == owner)
                atomic_store(&G.chunks[c][j].g, NULL); /* another process's object: left alone */
    pthread_mutex_unlock(&G.lock);
}

int vmpi_group_top(void) { return G.seq.top; }

void vmpi_group_rebase(int above)
{
    pthread_mutex_lock(&G.lock);
    vmpi_handle_seq_rebase(&G.seq, above);
    G.nfree = 0; /* freed indices of the checkpoint's process may be reused by another process too */
    pthread_mutex_unlock(&G.lock);
}
