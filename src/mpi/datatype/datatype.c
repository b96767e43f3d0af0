/* SPDX-License-Identifier: BSD-3-Clause */
/* The process-wide table of derived datatype handles.  Lookups take no lock (chunks are published once and
 * never move; a slot's state word says which generation is live); creating, freeing and naming take a
 * mutex (short sections, no rank switch inside). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "ckpt/ckpt.h"
#include "iso/iso.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/datatype/datatype.h"
#include "mpi/datatype/f90.h"

#define SLOT_BITS 20
#define SLOT_MASK ((1u << SLOT_BITS) - 1)
#define GEN_MASK 0x3fu                 /* 26 - SLOT_BITS bits of generation */
#define CHUNK 1024
#define NCHUNKS ((1u << SLOT_BITS) / CHUNK)

typedef struct slot {
    _Atomic unsigned state;            /* (generation << 1) | live */
    vmpi_dtype *_Atomic dt;
    int next_free;
    int owner;                         /* the world rank that made the handle; -1: the process's (f90.c) */
} slot;

static slot *_Atomic chunks[NCHUNKS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int free_head = -1;
static vmpi_handle_seq seq = {VMPI_DT_BUILTIN_COUNT, 0, VMPI_DT_BUILTIN_COUNT - 1}; /* slots unique in the job */
VMPI_CKPT_STATIC(chunks)
VMPI_CKPT_STATIC(free_head)
VMPI_CKPT_STATIC(seq)

static slot *slot_at(unsigned i)
{
    slot *c = atomic_load_explicit(&chunks[i / CHUNK], memory_order_acquire);
    return c ? &c[i % CHUNK] : NULL;
}

vmpi_dtype *vmpi_dt_lookup(MPI_Datatype h)
{
    if (VMPI_HANDLE_KIND(h) != VMPI_KIND_DATATYPE)
        return NULL;
    unsigned idx = (unsigned)VMPI_HANDLE_INDEX(h), i = idx & SLOT_MASK;
    if (i < VMPI_DT_BUILTIN_COUNT)
        return idx == i ? (vmpi_dtype *)vmpi_dtype_builtin((int)i) : NULL;
    slot *s = slot_at(i);
    if (s == NULL || atomic_load_explicit(&s->state, memory_order_acquire) != (((idx >> SLOT_BITS) << 1) | 1u))
        return NULL;
    return atomic_load_explicit(&s->dt, memory_order_acquire);
}

const vmpi_dtype *vmpi_dt_get(MPI_Datatype h)
{
    if (VMPI_HANDLE_KIND(h) == VMPI_KIND_DATATYPE && VMPI_HANDLE_INDEX(h) < VMPI_DT_BUILTIN_COUNT)
        return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(h)); /* the common case, no table access */
    const vmpi_dtype *dt = vmpi_dt_lookup(h);
    return dt && dt->committed ? dt : NULL;
}

/* Slot i's entry, its chunk made if need be; NULL when out of memory.  Under the lock. */
static slot *slot_make(unsigned i)
{
    if (slot_at(i) == NULL) {
        slot *c = vmpi_iso_job_calloc(CHUNK, sizeof *c);
        if (c == NULL)
            return NULL;
        atomic_store_explicit(&chunks[i / CHUNK], c, memory_order_release);
    }
    return slot_at(i);
}

static MPI_Datatype register_as(vmpi_dtype *dt, int owner)
{
    pthread_mutex_lock(&lock);
    unsigned i;
    slot *s;
    if (free_head >= 0) {
        i = (unsigned)free_head;
        s = slot_at(i);
        free_head = s->next_free;
    } else {
        int k = vmpi_handle_seq_take(&seq, SLOT_MASK + 1);
        if (k < 0 || (s = slot_make((unsigned)k)) == NULL) {
            pthread_mutex_unlock(&lock);
            return MPI_DATATYPE_NULL;
        }
        i = (unsigned)k;
    }
    unsigned gen = atomic_load_explicit(&s->state, memory_order_relaxed) >> 1;
    s->owner = owner;
    atomic_store_explicit(&s->dt, dt, memory_order_relaxed);
    atomic_store_explicit(&s->state, (gen << 1) | 1u, memory_order_release);
    pthread_mutex_unlock(&lock);
    return VMPI_HANDLE(VMPI_KIND_DATATYPE, (gen << SLOT_BITS) | i);
}

MPI_Datatype vmpi_dt_register(vmpi_dtype *dt)
{
    vmpi_rank *rk = vmpi_rank_self();
    return register_as(dt, rk ? rk->world_rank : -1);
}

MPI_Datatype vmpi_dt_register_shared(vmpi_dtype *dt) { return register_as(dt, -1); }

int vmpi_dt_each_owned(int owner, vmpi_dt_entry_fn fn, void *arg)
{
    int n = 0;
    pthread_mutex_lock(&lock);
    for (unsigned c = 0; c < NCHUNKS; c++) {
        slot *ch = atomic_load_explicit(&chunks[c], memory_order_acquire);
        for (unsigned j = 0; ch && j < CHUNK; j++) {
            slot *s = &ch[j];
            unsigned st = atomic_load_explicit(&s->state, memory_order_relaxed);
            if ((st & 1u) && s->owner == owner) {
                fn(arg, c * CHUNK + j, st, atomic_load_explicit(&s->dt, memory_order_relaxed));
                n++;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    return n;
}

bool vmpi_dt_install(unsigned i, unsigned state, vmpi_dtype *dt, int owner)
{
    bool ok = false;
    pthread_mutex_lock(&lock);
    slot *s = i >= VMPI_DT_BUILTIN_COUNT && i <= SLOT_MASK && (state & 1u) ? slot_make(i) : NULL;
    if (s && !(atomic_load_explicit(&s->state, memory_order_relaxed) & 1u)) {
        s->owner = owner;
        atomic_store_explicit(&s->dt, dt, memory_order_relaxed);
        atomic_store_explicit(&s->state, state, memory_order_release);
        vmpi_handle_seq_saw(&seq, (int)i);
        ok = true;
    }
    pthread_mutex_unlock(&lock);
    return ok;
}

void vmpi_dt_keep_only(bool (*here)(int owner))
{
    pthread_mutex_lock(&lock);
    for (unsigned c = 0; c < NCHUNKS; c++) {
        slot *ch = atomic_load_explicit(&chunks[c], memory_order_acquire);
        for (unsigned j = 0; ch && j < CHUNK; j++)
            if ((atomic_load_explicit(&ch[j].state, memory_order_relaxed) & 1u) && ch[j].owner >= 0 &&
                !here(ch[j].owner)) {
                atomic_store_explicit(&ch[j].dt, NULL, memory_order_relaxed);
                atomic_store_explicit(&ch[j].state, 0, memory_order_release);
            }
    }
    pthread_mutex_unlock(&lock);
}

void vmpi_dt_forget_owned(int owner)
{
    pthread_mutex_lock(&lock);
    for (unsigned c = 0; c < NCHUNKS; c++) {
        slot *ch = atomic_load_explicit(&chunks[c], memory_order_acquire);
        for (unsigned j = 0; ch && j < CHUNK; j++)
            if ((atomic_load_explicit(&ch[j].state, memory_order_relaxed) & 1u) && ch[j].owner == owner) {
                atomic_store_explicit(&ch[j].dt, NULL, memory_order_relaxed);
                atomic_store_explicit(&ch[j].state, 0, memory_order_release); /* not reused: no free list */
            }
    }
    pthread_mutex_unlock(&lock);
}

int vmpi_dt_top(void) { return seq.top; }

void vmpi_dt_rebase(int above)
{
    pthread_mutex_lock(&lock);
    vmpi_handle_seq_rebase(&seq, above);
    free_head = -1; /* a freed slot of the checkpoint's process may be reused by another process too */
    pthread_mutex_unlock(&lock);
}

MPI_Datatype vmpi_dt_handle_for(vmpi_dtype *dt)
{
    if (dt->builtin)
        return VMPI_DT(dt->basic);
    if (vmpi_dt_is_f90(dt)) /* predefined: its one handle */
        return vmpi_dt_f90_handle(dt);
    vmpi_dtype_retain(dt);
    MPI_Datatype h = vmpi_dt_register(dt);
    if (h == MPI_DATATYPE_NULL)
        vmpi_dtype_release(dt);
    return h;
}

bool vmpi_dt_free(MPI_Datatype h)
{
    vmpi_dtype *dt = vmpi_dt_lookup(h);
    if (dt == NULL || dt->builtin || vmpi_dt_is_f90(dt))
        return false;
    unsigned i = (unsigned)VMPI_HANDLE_INDEX(h) & SLOT_MASK;
    slot *s = slot_at(i);
    pthread_mutex_lock(&lock);
    unsigned st = atomic_load_explicit(&s->state, memory_order_relaxed);
    bool live = (st & 1u) && atomic_load_explicit(&s->dt, memory_order_relaxed) == dt;
    if (live) {
        /* the next generation; a freed slot's state is even, so no handle matches it until reused */
        atomic_store_explicit(&s->state, (((st >> 1) + 1) & GEN_MASK) << 1, memory_order_release);
        atomic_store_explicit(&s->dt, NULL, memory_order_relaxed);
        s->next_free = free_head;
        free_head = (int)i;
    }
    pthread_mutex_unlock(&lock);
    if (live)
        vmpi_dtype_release(dt);
    return live;
}

bool vmpi_dt_set_contents(vmpi_dtype *dt, int combiner, int ni, const int *ints, int na, const MPI_Aint *aints,
                          int nl, const MPI_Count *counts, int nd, vmpi_dtype *const *types)
{
    vmpi_dtype_contents *c = &dt->contents;
    /* in the rank's slot, as the type: checkpoints and migrations carry them with it */
    c->ints = ni ? vmpi_iso_own_malloc(sizeof *ints * (size_t)ni) : NULL;
    c->aints = na ? vmpi_iso_own_malloc(sizeof *aints * (size_t)na) : NULL;
    c->counts = nl ? vmpi_iso_own_malloc(sizeof *counts * (size_t)nl) : NULL;
    c->types = nd ? vmpi_iso_own_malloc(sizeof *types * (size_t)nd) : NULL;
    if ((ni && !c->ints) || (na && !c->aints) || (nl && !c->counts) || (nd && !c->types)) {
        free(c->ints);
        free(c->aints);
        free(c->counts);
        free(c->types);
        c->ints = NULL, c->aints = NULL, c->counts = NULL, c->types = NULL;
        return false;
    }
    if (ni)
        memcpy(c->ints, ints, sizeof *ints * (size_t)ni);
    if (na)
        memcpy(c->aints, aints, sizeof *aints * (size_t)na);
    if (nl)
        memcpy(c->counts, counts, sizeof *counts * (size_t)nl);
    for (int k = 0; k < nd; k++) {
        c->types[k] = types[k];
        vmpi_dtype_retain(types[k]);
    }
    c->combiner = combiner;
    c->ni = ni, c->na = na, c->nl = nl, c->nd = nd;
    return true;
}

void vmpi_dt_set_name(vmpi_dtype *dt, const char *name)
{
    pthread_mutex_lock(&lock);
    size_t n = strnlen(name, MPI_MAX_OBJECT_NAME - 1);
    memcpy(dt->name, name, n);
    dt->name[n] = '\0';
    pthread_mutex_unlock(&lock);
}

void vmpi_dt_get_name(const vmpi_dtype *dt, char *name, int *len)
{
    pthread_mutex_lock(&lock);
    size_t n = strlen(dt->name);
    memcpy(name, dt->name, n + 1);
    pthread_mutex_unlock(&lock);
    *len = (int)n;
}
