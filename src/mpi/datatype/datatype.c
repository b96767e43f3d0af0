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
} slot;

static slot *_Atomic chunks[NCHUNKS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int free_head = -1;
static unsigned next_unused = VMPI_DT_BUILTIN_COUNT;
VMPI_CKPT_STATIC(chunks)
VMPI_CKPT_STATIC(free_head)
VMPI_CKPT_STATIC(next_unused)

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

MPI_Datatype vmpi_dt_register(vmpi_dtype *dt)
{
    pthread_mutex_lock(&lock);
    unsigned i;
    slot *s;
    if (free_head >= 0) {
        i = (unsigned)free_head;
        s = slot_at(i);
        free_head = s->next_free;
    } else {
        i = next_unused;
        if (i > SLOT_MASK) {
            pthread_mutex_unlock(&lock);
            return MPI_DATATYPE_NULL;
        }
        if (slot_at(i) == NULL) {
            slot *c = vmpi_iso_job_calloc(CHUNK, sizeof *c);
            if (c == NULL) {
                pthread_mutex_unlock(&lock);
                return MPI_DATATYPE_NULL;
            }
            atomic_store_explicit(&chunks[i / CHUNK], c, memory_order_release);
        }
        next_unused++;
        s = slot_at(i);
    }
    unsigned gen = atomic_load_explicit(&s->state, memory_order_relaxed) >> 1;
    atomic_store_explicit(&s->dt, dt, memory_order_relaxed);
    atomic_store_explicit(&s->state, (gen << 1) | 1u, memory_order_release);
    pthread_mutex_unlock(&lock);
    return VMPI_HANDLE(VMPI_KIND_DATATYPE, (gen << SLOT_BITS) | i);
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
                          int nd, vmpi_dtype *const *types)
{
    vmpi_dtype_contents *c = &dt->contents;
    c->ints = ni ? vmpi_iso_job_malloc(sizeof *ints * (size_t)ni) : NULL;
    c->aints = na ? vmpi_iso_job_malloc(sizeof *aints * (size_t)na) : NULL;
    c->types = nd ? vmpi_iso_job_malloc(sizeof *types * (size_t)nd) : NULL;
    if ((ni && !c->ints) || (na && !c->aints) || (nd && !c->types)) {
        free(c->ints);
        free(c->aints);
        free(c->types);
        c->ints = NULL, c->aints = NULL, c->types = NULL;
        return false;
    }
    if (ni)
        memcpy(c->ints, ints, sizeof *ints * (size_t)ni);
    if (na)
        memcpy(c->aints, aints, sizeof *aints * (size_t)na);
    for (int k = 0; k < nd; k++) {
        c->types[k] = types[k];
        vmpi_dtype_retain(types[k]);
    }
    c->combiner = combiner;
    c->ni = ni, c->na = na, c->nd = nd;
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
