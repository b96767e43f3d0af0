/* SPDX-License-Identifier: BSD-3-Clause */
#include "mpi/coll/shm.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "base/compiler.h"
#include "base/copy.h"
#include "base/fence.h"
#include "base/log.h"
#include "base/sysmem.h"
#include "ckpt/ckpt.h"
#include "iso/iso.h"
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/op/op.h"
#include "mpi/pt2pt/pt2pt.h"
#include "msg/loc.h"
#include "sched/pin.h"
#include "sched/sched.h"

typedef struct slot {        /* what one rank publishes for the collective in progress */
    /* first line: what small collectives read */
    VMPI_ALIGNED_CL const void *sbuf;
    void *rbuf;
    vmpi_vp *vp;
    char *stage[2];          /* packed copies of small send data, by parity of the generation */
    /* the size of what this rank contributes (its type signature's bytes; reductions: times 2, plus 1 when
     * folded per PE; medium and large broadcasts: 1 from SLICE_MIN), by parity of the generation like
     * stage: compared with the other ranks' (see "size checks") */
    MPI_Count bytes[2];
    MPI_Count scount;        /* read only by collectives of 2 KiB and more */
    const vmpi_dtype *sdt;
    unsigned bposted;        /* gen + 1: rbuf, scount and sdt are this medium or large broadcast's */
    size_t stage_cap[2];
    unsigned bseq;           /* eager broadcasts this rank took part in (its own counter) */
    unsigned bknown;         /* it has seen broadcasts before this one read by everybody */
    _Atomic unsigned bwait;  /* the eager broadcast (seq) it sleeps on, 0 when none */
} slot;
_Static_assert(offsetof(slot, scount) <= VMPI_CACHELINE, "a slot's small-collective fields fit one line");

/* Eager broadcasts go through a ring of BCAST_RING mailboxes: the root of broadcast k fills mailbox
 * k % BCAST_RING and leaves, so it runs up to that many broadcasts ahead of the slowest reader, and a reader
 * finds several broadcasts ready when its turn comes.  Up to BCAST_INLINE bytes travel in the mailbox's
 * first line with the sequence number; more (up to EAGER_BCAST_MAX) in big buffer k % BCAST_BIG. */
enum { BCAST_RING = 64, BCAST_INLINE = 56, BCAST_BIG = 8, EAGER_BCAST_MAX = 2048 };

typedef struct ebox {
    VMPI_ALIGNED_CL _Atomic unsigned seq; /* k + 1 once broadcast k's data is in */
    unsigned bytes;          /* the root's byte count */
    char data[BCAST_INLINE];
    VMPI_ALIGNED_CL _Atomic unsigned root_waits; /* k + 1 while a root sleeps until broadcast k here is read */
    int waiting_root;        /* that root's rank */
} ebox;

typedef struct ebig {
    VMPI_ALIGNED_CL char data[EAGER_BCAST_MAX];
} ebig;

typedef struct group {       /* the communicator's ranks on one PE */
    VMPI_ALIGNED_CL int arrived; /* touched by this PE's ranks only: no atomics */
    int nlocal;
    int leader;              /* comm rank of this round's last arriver */
    int *members;            /* comm ranks, ascending */
    char *partial;           /* this PE's combined data (scratch, grows) */
    size_t partial_cap;
    MPI_Count bytes;         /* the size its ranks published this round, -1 if they differ */
    VMPI_ALIGNED_CL _Atomic unsigned sleeping; /* gen + 1 its sleeping leader waits for, 0 if none */
    VMPI_ALIGNED_CL int bread[BCAST_RING]; /* this PE's readers done with each mailbox's broadcast */
    /* k + 1 once every reader of broadcast k on this PE is done (they finish broadcasts in order): written
     * by this PE's last reader, read by roots that need a mailbox again */
    VMPI_ALIGNED_CL _Atomic unsigned bdone;
} group;

typedef struct shm {
    struct shm *next;        /* in the registry */
    int ctx, size;
    int *world;              /* world rank of each comm rank (the registry key with ctx) */
    int ngroups;
    int *group_of;           /* comm rank -> group */
    bool ordered;            /* groups are contiguous rank ranges, in group order */
    VMPI_ALIGNED_CL _Atomic int garrived;
    VMPI_ALIGNED_CL _Atomic unsigned gen;
    unsigned bad;            /* gen + 1 when generation gen's ranks published different sizes */
    /* a reduction folded in slices of elements by every leader that is awake (see fold_claim) */
    VMPI_ALIGNED_CL _Atomic unsigned fold_go; /* gen + 1 while the slices of generation gen are handed out */
    VMPI_ALIGNED_CL _Atomic int fold_next;    /* the next slice to take */
    VMPI_ALIGNED_CL _Atomic int fold_done;    /* slices folded */
    int fold_slices;
    char *result;            /* the combined data (scratch, grows) */
    MPI_Count result_bytes;  /* a medium broadcast's packed bytes in it */
    /* which collective filled result: gen + 1 and its kind.  Ranks of an erroneous program that enter
     * different collectives (one rank's MPI_Reduce with the others' MPI_Bcast...) complete a generation
     * whose last leader ran the steps of another kind: the readers fail (a reduction with MPI_ERR_OTHER, a
     * broadcast with MPI_ERR_TRUNCATE) instead of reading a result that was never made (MPICH
     * errors/coll/noalias2 crashed so on 1 PE). */
    unsigned result_gen;
    int result_kind;
    size_t result_cap;
    group *groups;
    slot *slots;
    ebox *eb;                /* BCAST_RING mailboxes */
    ebig *big;               /* BCAST_BIG big buffers */
    VMPI_ALIGNED_CL _Atomic int bsleepers; /* ranks sleeping on an eager broadcast */
    int left;                /* ranks that have not freed the communicator yet (under registry_lock) */
} shm;

static shm *registry;
VMPI_CKPT_STATIC(registry)
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

/* One object's ranks read each other's buffers: they must all live in one process (a communicator that
 * spans processes shares memory only within each, mpi/coll/span.h).  This catches any pointer that would
 * cross processes in the emulated multi-process mode. */
static void check_one_proc(const shm *s)
{
    if (VMPI_LIKELY(vmpi_xport_nprocs() == 1))
        return;
    for (int r = 1; r < s->size; r++)
        if (!vmpi_loc_same_proc(s->world[0], s->world[r]))
            vmpi_fatal("internal error: the shared collective state of a communicator (context %d) holds world "
                       "ranks %d and %d of different processes", s->ctx, s->world[0], s->world[r]);
}

/* Groups the communicator's ranks by the PE they live on now, numbered in order of their lowest rank. */
static void group_ranks(shm *s)
{
    int n = s->size, npes = vmpi_sched_npes();
    check_one_proc(s);
    int *gid = vmpi_iso_job_malloc(sizeof(int) * (size_t)npes);
    if (gid == NULL)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    for (int p = 0; p < npes; p++)
        gid[p] = -1;
    s->ngroups = 0;
    for (int r = 0; r < n; r++) {
        int pe = vmpi_loc_pe(s->world[r]);
        if (gid[pe] < 0)
            gid[pe] = s->ngroups++;
        s->group_of[r] = gid[pe];
    }
    s->groups = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof(group) * (size_t)s->ngroups);
    if (s->groups == NULL)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    memset(s->groups, 0, sizeof(group) * (size_t)s->ngroups);
    for (int r = 0; r < n; r++)
        s->groups[s->group_of[r]].nlocal++;
    for (int g = 0; g < s->ngroups; g++) {
        s->groups[g].members = vmpi_iso_job_malloc(sizeof(int) * (size_t)s->groups[g].nlocal);
        if (s->groups[g].members == NULL)
            vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
        s->groups[g].nlocal = 0;
    }
    s->ordered = true;
    for (int r = 0; r < n; r++) {
        group *g = &s->groups[s->group_of[r]];
        g->members[g->nlocal++] = r;
        if (r > 0 && s->group_of[r] != s->group_of[r - 1] && s->group_of[r] != s->group_of[r - 1] + 1)
            s->ordered = false;
    }
    free(gid);
}

static void free_groups(shm *s)
{
    for (int g = 0; g < s->ngroups; g++) {
        free(s->groups[g].members);
        free(s->groups[g].partial);
    }
    free(s->groups);
}

static shm *create(vmpi_comm *c)
{
    int n = c->size;
    shm *s = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof *s);
    if (s == NULL)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    memset(s, 0, sizeof *s);
    s->ctx = c->ctx;
    s->size = n;
    s->left = n;
    s->world = vmpi_iso_job_malloc(sizeof(int) * (size_t)n);
    s->group_of = vmpi_iso_job_malloc(sizeof(int) * (size_t)n);
    s->slots = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof(slot) * (size_t)n);
    if (!s->world || !s->group_of || !s->slots)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    memset(s->slots, 0, sizeof(slot) * (size_t)n);
    s->eb = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof(ebox) * BCAST_RING);
    s->big = vmpi_iso_job_memalign(VMPI_CACHELINE, sizeof(ebig) * BCAST_BIG);
    if (!s->eb || !s->big)
        vmpi_fatal("out of memory for a communicator's collective state (%d ranks)", n);
    for (int k = 0; k < BCAST_RING; k++) { /* the data need not be cleared */
        atomic_init(&s->eb[k].seq, 0);
        atomic_init(&s->eb[k].root_waits, 0);
    }
    for (int r = 0; r < n; r++)
        s->world[r] = vmpi_comm_world_rank(c, r);
    group_ranks(s);
    return s;
}

void vmpi_shm_forget_all(void)
{
    pthread_mutex_lock(&registry_lock);
    registry = NULL; /* the checkpoint's objects stay in the job heap, unused */
    pthread_mutex_unlock(&registry_lock);
}

void vmpi_shm_relocate(void)
{
    pthread_mutex_lock(&registry_lock);
    for (shm *s = registry; s; s = s->next) {
        for (int g = 0; g < s->ngroups; g++)
            if (s->groups[g].arrived != 0 || atomic_load(&s->garrived) != 0)
                vmpi_fatal("internal error: a communicator's ranks were moved during one of its collectives");
        for (int r = 1; r < s->size; r++) /* the broadcast marks below assume every rank did as many */
            if (s->slots[r].bseq != s->slots[0].bseq)
                vmpi_fatal("at a migration point, ranks %d and %d of a communicator (context %d) have taken part "
                           "in %u and %u broadcasts on it: the program's collectives do not match",
                           0, r, s->ctx, s->slots[0].bseq, s->slots[r].bseq);
        free_groups(s);
        group_ranks(s);
        /* every rank has left every earlier collective, so every eager broadcast so far is read */
        for (int g = 0; g < s->ngroups; g++)
            atomic_store(&s->groups[g].bdone, s->slots[0].bseq);
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Whether `s` is the calling rank's communicator `c`.  Communicators that share a context id (the parts of
 * one Comm_split) are disjoint, and context ids are never reused, so the context, the size and the calling
 * rank's place tell it (the ends too, for good measure): comparing every member made each rank's first
 * collective O(size), a job's O(size^2), minutes at 100,000 ranks. */
static bool same(const shm *s, vmpi_comm *c)
{
    int last = c->size - 1;
    return s->ctx == c->ctx && s->size == c->size && s->world[c->rank] == vmpi_comm_world_rank(c, c->rank) &&
           s->world[0] == vmpi_comm_world_rank(c, 0) && s->world[last] == vmpi_comm_world_rank(c, last);
}

/* The communicator's shared state: cached in the rank's communicator, else found or made in the registry
 * (the cache is checked, so a communicator struct copied from another one finds its own). */
static shm *get(vmpi_comm *c)
{
    shm *s = c->coll_shm;
    if (s && s->ctx == c->ctx && s->size == c->size && s->world[0] == vmpi_comm_world_rank(c, 0))
        return s;
    pthread_mutex_lock(&registry_lock);
    for (s = registry; s && !same(s, c); s = s->next)
        ;
    if (s == NULL) {
        s = create(c);
        s->next = registry;
        registry = s;
    }
    pthread_mutex_unlock(&registry_lock);
    c->coll_shm = s;
    return s;
}

static void destroy(shm *s)
{
    free_groups(s);
    for (int r = 0; r < s->size; r++) {
        free(s->slots[r].stage[0]);
        free(s->slots[r].stage[1]);
    }
    free(s->eb);
    free(s->big);
    free(s->slots);
    free(s->world);
    free(s->group_of);
    free(s->result);
    free(s);
}

/* The object goes when every rank of the communicator has freed it.  A rank that frees it before anyone
 * made it never used it; then no one can (every collective needs every rank), so nothing is left over.
 * Counting frees rather than users matters: the root of an eager broadcast may leave, and free the
 * communicator, before a reader has even looked the object up. */
void vmpi_shm_release(vmpi_comm *c)
{
    pthread_mutex_lock(&registry_lock);
    shm **p = &registry;
    while (*p && !same(*p, c))
        p = &(*p)->next;
    shm *s = *p;
    if (s && --s->left == 0)
        *p = s->next;
    else
        s = NULL;
    pthread_mutex_unlock(&registry_lock);
    c->coll_shm = NULL;
    if (s)
        destroy(s);
}

static bool grow(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    char *p = vmpi_iso_job_realloc(*buf, need);
    if (p == NULL)
        return false;
    *buf = p;
    *cap = need;
    return true;
}

/* Steps run by the leaders: `local` by each PE's last arriver, `global` by the last leader. */
typedef struct steps {
    void (*local)(shm *s, group *g, const struct steps *st);
    void (*global)(shm *s, const struct steps *st);
    MPI_Count count;
    const vmpi_dtype *dt;
    MPI_Datatype dth;
    MPI_Op op;
    int root;
    int err;
    bool hier;               /* reductions: folded per PE first (hierarchical()) */
    bool split;              /* the last leader's fold is shared out in slices (fold_claim) */
    bool mismatch;           /* the last leader found ranks' sizes differing: every rank fails */
    unsigned gen;            /* the generation of this call (its ranks' `bytes` parity) */
} steps;

static void fold_claim(shm *s, const steps *st);

/* A leader waits for the last leader: it spins on the generation for a while (running anything else its
 * PE has meanwhile), then asks for a release message and blocks on it like any receive.  Exactly one of
 * the waiter and the releaser takes the `sleeping` flag back, so a message is sent iff it is awaited.
 * The flag holds the generation awaited: a releaser that is late (descheduled after its release) cannot
 * take the flag its peer set for the next generation and wake it early. */
enum { SPIN_POLLS = 16000, SPIN_POLLS_OVERSUB = 1 };

/* How long a wait spins: with more PE threads than cores, a few passes (the PE's other ranks still get
 * their turn), as a spin holds the core the awaited leader's thread may need until the kernel's tick. */
static inline int spin_polls(void) { return vmpi_sched_oversubscribed() ? SPIN_POLLS_OVERSUB : SPIN_POLLS; }

/* One pass of a spin: other ranks of the PE get their turn at once (what we wait for may be theirs);
 * alone, mostly a pause, and every 8th pass a poll of the PE's channels. */
static inline void spin_once(int i)
{
    if ((i & 7) == 7 || !vmpi_list_empty(&vmpi_pe_self()->runq))
        vmpi_vp_yield();
    else
        __builtin_ia32_pause();
}

static int wait_release(shm *s, group *g, unsigned gen, vmpi_comm *c, const steps *st)
{
    vmpi_vp_wait_begin(); /* spinning is waiting, not load */
    bool released = false;
    for (int i = 0, polls = spin_polls(); i < polls && !released; i++) {
        released = atomic_load_explicit(&s->gen, memory_order_acquire) != gen;
        if (!released && st && st->split && atomic_load_explicit(&s->fold_go, memory_order_acquire) == gen + 1 &&
            atomic_load_explicit(&s->fold_next, memory_order_relaxed) < s->fold_slices)
            fold_claim(s, st); /* help the last leader fold */
        else if (!released)
            spin_once(i);
    }
    vmpi_vp_wait_end();
    if (released)
        return MPI_SUCCESS;
    unsigned want = gen + 1;
    atomic_store(&g->sleeping, want);
    if (atomic_load(&s->gen) != gen && atomic_compare_exchange_strong(&g->sleeping, &want, 0))
        return MPI_SUCCESS; /* released meanwhile, and no message was sent */
    return vmpi_recv(NULL, 0, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)), MPI_ANY_SOURCE, VMPI_SHM_TAG, c, 1,
                     MPI_STATUS_IGNORE);
}

/* Arrival and release of the calling rank `me`; returns when every rank has arrived and the steps ran. */
static int sync_all(shm *s, vmpi_comm *c, steps *st, const char *why)
{
    int me = c->rank;
    group *g = &s->groups[s->group_of[me]];
    unsigned gen = atomic_load_explicit(&s->gen, memory_order_acquire);
    s->slots[me].vp = vmpi_vp_self();
    if (++g->arrived < g->nlocal) {
        while (atomic_load_explicit(&s->gen, memory_order_acquire) == gen)
            vmpi_vp_block(why);
        return s->bad == gen + 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    }
    g->arrived = 0;
    g->leader = me;
    if (st && st->local)
        st->local(s, g, st);
    if (atomic_fetch_add_explicit(&s->garrived, 1, memory_order_acq_rel) + 1 == s->ngroups) {
        atomic_store_explicit(&s->garrived, 0, memory_order_relaxed);
        if (st && st->global)
            st->global(s, st);
        if (st && st->mismatch)
            s->bad = gen + 1; /* on gen's line: read with it */
        if (st && st->split && st->err == MPI_SUCCESS && !st->mismatch) {
            atomic_store_explicit(&s->fold_go, gen + 1, memory_order_release);
            fold_claim(s, st);
            while (atomic_load_explicit(&s->fold_done, memory_order_acquire) < s->fold_slices)
                if (vmpi_sched_oversubscribed())
                    sched_yield(); /* only leaders awake and folding a slice are waited for */
                else
                    __builtin_ia32_pause();
        }
        atomic_store(&s->gen, gen + 1);
        for (int k = 0; k < s->ngroups; k++) { /* a message only to the leaders that stopped spinning */
            unsigned want = gen + 1;
            if (&s->groups[k] != g && atomic_compare_exchange_strong(&s->groups[k].sleeping, &want, 0))
                vmpi_send(NULL, 0, vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)), s->groups[k].leader,
                          VMPI_SHM_TAG, c, 1, VMPI_SENDK_STD);
        }
    } else {
        int err = wait_release(s, g, gen, c, st);
        if (err != MPI_SUCCESS)
            return err;
    }
    for (int k = 0; k < g->nlocal; k++)
        if (g->members[k] != me)
            vmpi_vp_wake(s->slots[g->members[k]].vp);
    return s->bad == gen + 1 ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

int vmpi_shm_barrier(vmpi_comm *c) { return sync_all(get(c), c, NULL, "MPI_Barrier"); }

/* ---- size checks ----
 * MPI makes the ranks' type signatures match; counts or types whose sizes differ would make ranks read
 * past each other's buffers.  Each rank publishes its size with its buffer (slot.bytes, on the line the
 * collective writes anyway), each PE's leader compares its ranks' during the arrival (lines of its own
 * core) and the last leader the PEs' (on the lines it reads for their partial results): one compare per
 * rank.  A difference leaves the data alone and makes sync_all fail with MPI_ERR_TRUNCATE on every rank,
 * so that all take the same way out (none waits for a second synchronization the others skip). */
static void sizes_local(shm *s, group *g, const steps *st)
{
    int k = (int)(st->gen & 1);
    MPI_Count b = s->slots[g->members[0]].bytes[k];
    for (int i = 1; i < g->nlocal; i++)
        if (s->slots[g->members[i]].bytes[k] != b)
            b = -1;
    g->bytes = b;
}

static bool sizes_global(shm *s, const steps *st)
{
    MPI_Count b = s->groups[0].bytes;
    bool bad = b < 0;
    for (int g = 1; g < s->ngroups; g++)
        bad |= s->groups[g].bytes != b;
    if (bad)
        ((steps *)st)->mismatch = true;
    return !bad;
}

static void check_global(shm *s, const steps *st) { sizes_global(s, st); }

/* ---- reductions ---- */

static size_t span(MPI_Count count, const vmpi_dtype *dt)
{
    return count > 0 ? (size_t)(dt->true_extent + (count - 1) * dt->extent) : 1;
}

/* acc = x[first] op ... op x[last], folded right to left (inout = in op inout needs no copies). */
static void fold(const steps *st, char *acc, const void *const *x, int nx)
{
    vmpi_dtype_copy(x[nx - 1], st->count, st->dt, acc, st->count, st->dt);
    for (int k = nx - 2; k >= 0; k--)
        vmpi_op_apply(st->op, st->dth, st->dt, x[k], acc, st->count);
}

/* Each PE's part folded first, then the PEs' results: only when the grouping cannot change the bits.  A
 * floating-point sum is folded over all ranks in rank order, as the sliced algorithm below does, so that
 * its result does not depend on where the ranks run: a job gives the same bits on any number of PEs,
 * after any migration, and restarted from a checkpoint on another number of PEs. */
static bool hierarchical(const shm *s, const steps *st)
{
    return (s->ordered || vmpi_op_commutative(st->op)) && vmpi_op_reassociable(st->op, st->dt);
}

enum { FOLD_ON_STACK = 256 };

static void reduce_local(shm *s, group *g, const steps *st)
{
    sizes_local(s, g, st);
    if (s->ngroups == 1 || !st->hier || g->bytes < 0)
        return; /* the last leader folds everything */
    if (!grow(&g->partial, &g->partial_cap, span(st->count, st->dt))) {
        ((steps *)st)->err = MPI_ERR_NO_MEM;
        return;
    }
    /* one pointer per rank of the PE: on the stack only when few (500,000 ranks per PE made a 4 MB array,
     * which overflowed a 1 MiB stack); from the system's heap otherwise (a rank's slot may be small) */
    const void *few[FOLD_ON_STACK];
    const void **x = g->nlocal <= FOLD_ON_STACK ? few : vmpi_sys_malloc(sizeof *x * (size_t)g->nlocal);
    if (x == NULL) {
        ((steps *)st)->err = MPI_ERR_NO_MEM;
        return;
    }
    for (int k = 0; k < g->nlocal; k++)
        x[k] = s->slots[g->members[k]].sbuf;
    fold(st, g->partial - st->dt->true_lb, x, g->nlocal);
    if (x != few)
        vmpi_sys_free(x);
}

/* Slices of a fold over all ranks in rank order, taken by the last leader and by the leaders still
 * spinning in wait_release: each element's value is the same fold whoever computes it, and the PEs share
 * the work (a sleeping leader takes none; the last leader takes what is left). */
static void fold_claim(shm *s, const steps *st)
{
    const vmpi_dtype *dt = st->dt;
    int n = s->size, ns = s->fold_slices;
    for (int j; (j = atomic_fetch_add_explicit(&s->fold_next, 1, memory_order_relaxed)) < ns;) {
        MPI_Count lo = st->count * j / ns, cnt = st->count * (j + 1) / ns - lo;
        MPI_Aint off = lo * dt->extent;
        char *acc = s->result - dt->true_lb + off;
        vmpi_dtype_copy((const char *)s->slots[n - 1].sbuf + off, cnt, dt, acc, cnt, dt);
        for (int r = n - 2; r >= 0; r--)
            vmpi_op_apply(st->op, st->dth, dt, (const char *)s->slots[r].sbuf + off, acc, cnt);
        atomic_fetch_add_explicit(&s->fold_done, 1, memory_order_release);
    }
}

enum { RESULT_REDUCE = 1, RESULT_BCAST };

/* The global step of generation st->gen made s->result for a collective of `kind`. */
static void made(shm *s, const steps *st, int kind)
{
    s->result_gen = st->gen + 1;
    s->result_kind = kind;
}

/* The result this rank's collective of `kind` in generation `gen` reads was made by it. */
static bool result_is(const shm *s, unsigned gen, int kind)
{
    return s->result_gen == gen + 1 && s->result_kind == kind;
}

static void reduce_global(shm *s, const steps *st)
{
    if (!sizes_global(s, st))
        return;
    if (!grow(&s->result, &s->result_cap, span(st->count, st->dt))) {
        ((steps *)st)->err = MPI_ERR_NO_MEM;
        return;
    }
    char *res = s->result - st->dt->true_lb;
    made(s, st, RESULT_REDUCE);
    if (st->split) { /* sync_all hands the slices out */
        s->fold_slices = 2 * s->ngroups;
        atomic_store_explicit(&s->fold_next, 0, memory_order_relaxed);
        atomic_store_explicit(&s->fold_done, 0, memory_order_relaxed);
        return;
    }
    if (s->ngroups == 1 || !st->hier) {
        const void **x = vmpi_sys_malloc(sizeof *x * (size_t)s->size); /* 8 MB at a million ranks */
        if (x == NULL) {
            ((steps *)st)->err = MPI_ERR_NO_MEM;
            return;
        }
        for (int r = 0; r < s->size; r++)
            x[r] = s->slots[r].sbuf;
        fold(st, res, x, s->size);
        vmpi_sys_free(x);
        return;
    }
    const void *x[s->ngroups];
    for (int k = 0; k < s->ngroups; k++)
        x[k] = s->groups[k].partial - st->dt->true_lb;
    fold(st, res, x, s->ngroups);
}

/* Large data: every rank reduces its own slice of the elements over all ranks' buffers (in rank order, so
 * the result does not depend on the PEs) and writes it where it belongs, between two synchronizations:
 * both PEs work and no partial results are staged. */
enum { SLICE_MIN = 32768 }; /* bytes of data from which the sliced algorithm is used */
enum { FOLD_SPLIT_MIN = 1024 }; /* below SLICE_MIN: bytes from which the leaders share a rank-order fold */

static int reduce_sliced(shm *s, const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt,
                         MPI_Datatype dth, MPI_Op op, int root, vmpi_comm *c, const char *why, steps *chk)
{
    int n = c->size, me = c->rank;
    s->slots[me].sbuf = sbuf;
    s->slots[me].rbuf = rbuf;
    MPI_Count lo = count * me / n, cnt = count * (me + 1) / n - lo;
    MPI_Aint off = lo * dt->extent;
    char *tmp = cnt > 0 ? malloc(span(cnt, dt)) : NULL;
    int err = sync_all(s, c, chk, why);
    if (err == MPI_ERR_TRUNCATE) { /* sizes differ: every rank knows, none reads or waits again */
        free(tmp);
        return err;
    }
    if (err == MPI_SUCCESS && cnt > 0 && tmp == NULL)
        err = MPI_ERR_NO_MEM; /* the others still finish; this rank's slice is missing */
    if (err == MPI_SUCCESS && cnt > 0) {
        char *acc = tmp - dt->true_lb; /* private: a destination may be a send buffer (in place) */
        vmpi_dtype_copy((const char *)s->slots[n - 1].sbuf + off, cnt, dt, acc, cnt, dt);
        for (int r = n - 2; r >= 0; r--)
            vmpi_op_apply(op, dth, dt, (const char *)s->slots[r].sbuf + off, acc, cnt);
        for (int r = root < 0 ? 0 : root; r < (root < 0 ? n : root + 1); r++)
            vmpi_dtype_copy(acc, cnt, dt, (char *)s->slots[r].rbuf + off, cnt, dt);
    }
    free(tmp);
    int e2 = sync_all(s, c, NULL, why); /* every slice written, no send buffer read any more */
    return err ? err : e2;
}

int vmpi_shm_reduce(const void *sbuf, void *rbuf, MPI_Count count, const vmpi_dtype *dt, MPI_Datatype dth,
                    MPI_Op op, int root, vmpi_comm *c)
{
    shm *s = get(c);
    const char *why = root < 0 ? "MPI_Allreduce" : "MPI_Reduce";
    unsigned gen = atomic_load_explicit(&s->gen, memory_order_acquire);
    steps st = {reduce_local, reduce_global, count, dt, dth, op, root, MPI_SUCCESS, false, false, false, gen};
    st.hier = hierarchical(s, &st);
    slot *sl = &s->slots[c->rank];
    /* ranks that differ in the grouping (their types or operations differ) would also read each other's
     * partial results wrongly */
    sl->bytes[gen & 1] = count * dt->size * 2 + st.hier;
    if (count * dt->size >= SLICE_MIN && c->size > 1) {
        steps chk = {sizes_local, check_global, count, dt, dth, op, root, MPI_SUCCESS, false, false, false, gen};
        return reduce_sliced(s, sbuf, rbuf, count, dt, dth, op, root, c, why, &chk);
    }
    sl->sbuf = sbuf;
    /* a fold over all ranks (not per PE) big enough to share between the PEs */
    st.split = s->ngroups > 1 && !st.hier && count * dt->size >= FOLD_SPLIT_MIN &&
               count >= 2 * s->ngroups;
    int err = sync_all(s, c, &st, why);
    if (err != MPI_SUCCESS)
        return err;
    /* an allocation failure of a leader is seen only by its own rank: the others find garbage, as with a
     * crashed peer; report it where it happened */
    if (st.err != MPI_SUCCESS)
        return st.err;
    if (!result_is(s, gen, RESULT_REDUCE))
        return MPI_ERR_OTHER;
    if (root < 0 || root == c->rank)
        vmpi_dtype_copy(s->result - dt->true_lb, count, dt, rbuf, count, dt);
    return MPI_SUCCESS;
}
/* ---- broadcast ---- */

/* Medium broadcasts: the last leader packs the root's data (described by the root: the ranks' types may
 * differ, only their signatures match) into the shared result, and every rank unpacks it. */
/* The root's buffer is published for this broadcast: a root that took the eager path (it passed at most
 * EAGER_BCAST_MAX bytes, the readers more) never came, and the generation was completed by a later
 * collective of its.  Every rank fails then, instead of reading what the root's slot held before. */
static bool root_posted(shm *s, const steps *st)
{
    if (s->slots[st->root].bposted == st->gen + 1)
        return true;
    ((steps *)st)->mismatch = true;
    return false;
}

static void bcast_check_global(shm *s, const steps *st)
{
    if (sizes_global(s, st))
        root_posted(s, st);
}

static void bcast_global(shm *s, const steps *st)
{
    if (!sizes_global(s, st) || !root_posted(s, st))
        return;
    const slot *rs = &s->slots[st->root];
    MPI_Count bytes = rs->scount * rs->sdt->size;
    if (!grow(&s->result, &s->result_cap, (size_t)bytes)) {
        ((steps *)st)->err = MPI_ERR_NO_MEM;
        return;
    }
    vmpi_dtype_pack(rs->rbuf, rs->scount, rs->sdt, s->result, bytes);
    s->result_bytes = bytes;
    made(s, st, RESULT_BCAST);
}

/* Small broadcasts need no synchronization: the root puts the data into the next mailbox of the ring and
 * leaves; the others spin on its sequence number (running anything else their PE has), then sleep on a
 * message if it is late.  Readers count themselves out per PE on a plain counter, and the last one of a PE
 * marks the broadcast done on a line of its PE's own; a root that needs the mailbox (or the big buffer)
 * again checks every PE's mark, and sleeps on a message if that takes long.  Per broadcast, the data's
 * line is the only one that must cross to another core, and the fast paths have no locked instruction:
 * the store-then-load handshakes with a rank going to sleep use asymmetric fences (base/fence.h), whose
 * cost the sleeper pays. */
enum { TAG_BCAST_READER = VMPI_SHM_TAG + 1, TAG_BCAST_ROOT = VMPI_SHM_TAG + 2 };

static const vmpi_dtype *byte_type(void) { return vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE)); }

/* Every PE has marked broadcast i (or a later one) done. */
static bool bcast_read(shm *s, unsigned i)
{
    for (int g = 0; g < s->ngroups; g++)
        if ((int)(atomic_load_explicit(&s->groups[g].bdone, memory_order_acquire) - (i + 1)) < 0)
            return false;
    return true;
}

/* The root's wait until every reader of broadcast i (published: the caller took part in it) is done.
 * Asleep, it is woken by the first PE that marks i after it armed root_waits, and looks again: the PEs'
 * last readers do not order their marks against each other, so the one that wakes it cannot know it was
 * the last. */
static int bcast_wait_read(shm *s, unsigned i, vmpi_comm *c)
{
    int n = 0, polls = spin_polls();
    vmpi_vp_wait_begin(); /* spinning is waiting, not load */
    while (!bcast_read(s, i) && n++ < polls)
        spin_once(n);
    vmpi_vp_wait_end();
    if (n <= polls)
        return MPI_SUCCESS;
    ebox *e = &s->eb[i % BCAST_RING];
    for (;;) {
        unsigned want = i + 1;
        e->waiting_root = c->rank;
        atomic_store(&e->root_waits, want);
        vmpi_fence_heavy(); /* pairs with the readers' light fence between their mark and root_waits */
        bool done = bcast_read(s, i);
        if (done && atomic_compare_exchange_strong(&e->root_waits, &want, 0))
            return MPI_SUCCESS; /* and no message was sent */
        int err = vmpi_recv(NULL, 0, byte_type(), MPI_ANY_SOURCE, TAG_BCAST_ROOT, c, 1, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS || done || bcast_read(s, i))
            return err;
    }
}

/* The root of broadcast k needs broadcast `need` read by everybody.  When it does not know that yet, it
 * waits for a later one, `ahead` broadcasts before k, and then knows for the next few calls (readers
 * finish broadcasts in order): it looks at the readers' lines once per batch, not once per broadcast, and
 * not while they write them one broadcast at a time. */
static int bcast_need(shm *s, slot *sl, unsigned need, unsigned ahead, unsigned k, vmpi_comm *c)
{
    if ((int)(sl->bknown - (need + 1)) >= 0)
        return MPI_SUCCESS;
    unsigned i = k - ahead;
    int err = bcast_wait_read(s, i, c);
    sl->bknown = i + 1;
    return err;
}

/* A reader's wait for broadcast k's data. */
static int bcast_wait_data(shm *s, ebox *e, unsigned k, int root, vmpi_comm *c)
{
    int n = 0, polls = spin_polls();
    vmpi_vp_wait_begin();
    while (atomic_load_explicit(&e->seq, memory_order_acquire) != k + 1 && n++ < polls)
        spin_once(n);
    vmpi_vp_wait_end();
    if (n <= polls)
        return MPI_SUCCESS;
    slot *sl = &s->slots[c->rank]; /* the root is late: sleep until it sends word */
    atomic_store(&sl->bwait, k + 1);
    atomic_fetch_add(&s->bsleepers, 1);
    vmpi_fence_heavy(); /* pairs with the root's light fence between seq and bsleepers */
    if (atomic_load(&e->seq) == k + 1 && atomic_exchange(&sl->bwait, 0)) {
        atomic_fetch_sub(&s->bsleepers, 1);
        return MPI_SUCCESS;
    }
    return vmpi_recv(NULL, 0, byte_type(), root, TAG_BCAST_READER, c, 1, MPI_STATUS_IGNORE);
}

/* The last reader of broadcast k on its PE marks it, and wakes the root that sleeps on it, if any. */
static void bcast_mark_read(shm *s, group *g, unsigned k, vmpi_comm *c)
{
    ebox *e = &s->eb[k % BCAST_RING];
    atomic_store_explicit(&g->bdone, k + 1, memory_order_release);
    vmpi_fence_light();
    unsigned want = k + 1;
    if (atomic_load_explicit(&e->root_waits, memory_order_relaxed) == want &&
        atomic_compare_exchange_strong(&e->root_waits, &want, 0))
        vmpi_send(NULL, 0, byte_type(), e->waiting_root, TAG_BCAST_ROOT, c, 1, VMPI_SENDK_STD);
}

static int bcast_eager(shm *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    int n = c->size, me = c->rank, err = MPI_SUCCESS;
    slot *sl = &s->slots[me];
    unsigned k = sl->bseq++;
    ebox *e = &s->eb[k % BCAST_RING];
    MPI_Count bytes = count * dt->size;
    group *rg = &s->groups[s->group_of[root]];
    if (me == root) {
        /* the mailbox's and the big buffer's previous broadcasts read (k wraps: BCAST_RING divides 2^32) */
        if (bytes > BCAST_INLINE)
            err = bcast_need(s, sl, k - BCAST_BIG, BCAST_BIG / 2, k, c);
        else
            err = bcast_need(s, sl, k - BCAST_RING, BCAST_RING * 3 / 4, k, c);
        vmpi_dtype_pack(buf, count, dt, bytes > BCAST_INLINE ? s->big[k % BCAST_BIG].data : e->data, bytes);
        e->bytes = (unsigned)bytes;
        if (rg->nlocal == 1) /* no readers on the root's PE */
            atomic_store_explicit(&rg->bdone, k + 1, memory_order_release);
        atomic_store_explicit(&e->seq, k + 1, memory_order_release);
        vmpi_fence_light(); /* pairs with a sleeping reader's heavy fence */
        if (atomic_load_explicit(&s->bsleepers, memory_order_relaxed) > 0)
            for (int r = 0; r < n; r++) {
                unsigned want = k + 1;
                if (r != me && atomic_compare_exchange_strong(&s->slots[r].bwait, &want, 0)) {
                    atomic_fetch_sub(&s->bsleepers, 1);
                    vmpi_send(NULL, 0, byte_type(), r, TAG_BCAST_READER, c, 1, VMPI_SENDK_STD);
                }
            }
        return err;
    }
    err = bcast_wait_data(s, e, k, root, c);
    /* like a receive: at most what fits (the root's count decides where the data is) */
    vmpi_dtype_unpack(e->bytes > BCAST_INLINE ? s->big[k % BCAST_BIG].data : e->data, e->bytes, buf, count, dt);
    if (e->bytes != bytes && err == MPI_SUCCESS)
        err = MPI_ERR_TRUNCATE; /* the root's size and this rank's differ (the standard makes them match) */
    group *g = &s->groups[s->group_of[me]];
    if (++g->bread[k % BCAST_RING] == g->nlocal - (g == rg)) {
        g->bread[k % BCAST_RING] = 0;
        bcast_mark_read(s, g, k, c);
    }
    return err;
}

/* Large broadcasts copy straight from the root's buffer between two synchronizations.  Every rank whose
 * layout is contiguous, like the root's, and that expects the root's byte count, is filled in slices: the
 * leader of PE group g copies the g-th part of the bytes to all of them, a chunk at a time (the chunk of the
 * source stays in the core's cache while it goes to every destination), so the cores copy equal shares
 * whatever the ranks' placement (ranks of one PE run one at a time: the PE's copying is serial anyway).
 * Data beyond a quarter of the last-level cache cannot stay cached: the destinations past that budget are
 * written with non-temporal stores, which skip the read-for-ownership of every destination line and leave
 * the cached ones alone (a 1 MiB broadcast to 64 ranks writes 63 MiB; memory bandwidth bounds it).
 * Other ranks copy their own data after the first synchronization. */
enum { BCAST_CHUNK = 256 * 1024 };

static bool sliced(const shm *s, int r, int root)
{
    const slot *o = &s->slots[r], *rs = &s->slots[root];
    return r != root && rs->sdt->contig && o->sdt->contig && o->scount * o->sdt->size == rs->scount * rs->sdt->size;
}

/* Destinations (in rank order) that fit in the cache budget; the others are streamed. */
static int bcast_cached(size_t bytes, int ndest)
{
    size_t budget = vmpi_pin_llc_bytes() / 4;
    if (budget == 0)
        budget = (size_t)8 << 20;
    size_t fit = budget / bytes;
    return fit < (size_t)ndest ? (int)fit : ndest;
}

static void bcast_slices(shm *s, int gi, int root)
{
    const slot *rs = &s->slots[root];
    size_t bytes = (size_t)(rs->scount * rs->sdt->size), G = (size_t)s->ngroups;
    size_t lo = (bytes * (size_t)gi / G) & ~(size_t)63;
    size_t hi = gi + 1 == s->ngroups ? bytes : (bytes * (size_t)(gi + 1) / G) & ~(size_t)63;
    const char *from = (const char *)rs->rbuf + rs->sdt->lb;
    int ndest = 0;
    for (int r = 0; r < s->size; r++)
        ndest += sliced(s, r, root);
    int streamed = ndest - bcast_cached(bytes, ndest);
    for (size_t at = lo; at < hi; at += BCAST_CHUNK) {
        size_t len = hi - at < BCAST_CHUNK ? hi - at : BCAST_CHUNK;
        for (int r = 0, d = 0; r < s->size; r++) {
            if (!sliced(s, r, root))
                continue;
            char *to = (char *)s->slots[r].rbuf + s->slots[r].sdt->lb + at;
            if (d++ < streamed)
                vmpi_copy_nt(to, from + at, len);
            else
                memcpy(to, from + at, len);
        }
    }
}

static int bcast_large(shm *s, void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c,
                       steps *chk)
{
    int me = c->rank;
    int err = sync_all(s, c, chk, "MPI_Bcast");
    if (err == MPI_ERR_TRUNCATE) /* sizes differ: every rank knows, none copies or waits again */
        return err;
    group *g = &s->groups[s->group_of[me]];
    if (err == MPI_SUCCESS && g->leader == me) /* the leader of this synchronization runs first on its PE */
        bcast_slices(s, s->group_of[me], root);
    const slot *rs = &s->slots[root];
    if (err == MPI_SUCCESS && me != root && !sliced(s, me, root)) {
        vmpi_dtype_copy(rs->rbuf, rs->scount, rs->sdt, buf, count, dt);
        if (rs->scount * rs->sdt->size != count * dt->size)
            err = MPI_ERR_TRUNCATE;
    }
    int e2 = sync_all(s, c, NULL, "MPI_Bcast"); /* every slice is written, the root's buffer is read no more */
    return err ? err : e2;
}

int vmpi_shm_bcast(void *buf, MPI_Count count, const vmpi_dtype *dt, int root, vmpi_comm *c)
{
    shm *s = get(c);
    if (c->size == 1)
        return MPI_SUCCESS;
    if (count * dt->size <= EAGER_BCAST_MAX)
        return bcast_eager(s, buf, count, dt, root, c);
    slot *sl = &s->slots[c->rank];
    unsigned gen = atomic_load_explicit(&s->gen, memory_order_acquire);
    sl->rbuf = buf;
    sl->scount = count;
    sl->sdt = dt;
    sl->bposted = gen + 1;
    /* a reader whose size differs from the root's fails alone and gets the part that fits (the root's
     * size is in the data it reads); only ranks on different sides of SLICE_MIN, which would synchronize
     * once and twice, must all stop after the first synchronization */
    sl->bytes[gen & 1] = count * dt->size >= SLICE_MIN;
    if (count * dt->size >= SLICE_MIN) {
        steps chk = {sizes_local, bcast_check_global, count, dt, 0, MPI_OP_NULL, root, MPI_SUCCESS, false, false,
                     false, gen};
        return bcast_large(s, buf, count, dt, root, c, &chk);
    }
    steps st = {sizes_local, bcast_global, count, dt, 0, MPI_OP_NULL, root, MPI_SUCCESS, false, false, false, gen};
    int err = sync_all(s, c, &st, "MPI_Bcast");
    if (err == MPI_SUCCESS && st.err == MPI_SUCCESS && !result_is(s, gen, RESULT_BCAST))
        err = MPI_ERR_TRUNCATE; /* the root took the eager path (it passed less), as root_posted finds */
    if (err == MPI_SUCCESS && st.err == MPI_SUCCESS && c->rank != root) {
        vmpi_dtype_unpack(s->result, s->result_bytes, buf, count, dt);
        if (s->result_bytes != count * dt->size)
            err = MPI_ERR_TRUNCATE;
    }
    return err ? err : st.err;
}

/* ---- data movement ----
 * Small data is packed into the sender's staging buffer for this generation's parity, so one
 * synchronization suffices: a rank rewrites that buffer two generations later, when every reader of it
 * has arrived at the generation in between.  Larger data is copied straight from the senders' buffers
 * between two synchronizations (the second says nobody reads them any more). */
enum { STAGE_MAX = 16384 }; /* bytes a rank sends in all, at most, to be staged */

static char *stage(shm *s, int me, unsigned gen, size_t bytes)
{
    slot *sl = &s->slots[me];
    int k = (int)(gen & 1);
    return grow(&sl->stage[k], &sl->stage_cap[k], bytes ? bytes : 1) ? sl->stage[k] : NULL;
}

/* The size checks of data movement: every rank reads every other's block, so each compares the sizes the
 * others published with its own (equal sizes also mean that they took the same path, staged or not, so
 * their slots say where the data is).  All see the same published sizes, so all agree on whether some
 * differ, and they then skip the second synchronization together (staged blocks of the right size are still
 * delivered: they stay until two generations later).  A rank whose own send and receive sizes differ fails
 * alone. */
static bool same_size(const shm *s, int p, unsigned gen, MPI_Count blk)
{
    return s->slots[p].bytes[gen & 1] == blk;
}

/* Direct copies: a rank that finds sizes differing leaves after the first synchronization, and its send
 * buffer with it, so all compare every size before anyone reads a block. */
static bool sizes_differ(const shm *s, int n, unsigned gen, MPI_Count blk)
{
    bool differ = false;
    for (int p = 0; p < n; p++)
        differ |= !same_size(s, p, gen, blk);
    return differ;
}

/* Staged data: block p of the result is `blk` bytes at offset `at` of rank p's staging buffer, unpacked
 * where its size matches; true when some rank's size differs from this one's. */
static bool unpack_staged(shm *s, int n, unsigned gen, size_t blk, size_t at, void *rbuf, MPI_Count rcount,
                          const vmpi_dtype *rdt)
{
    bool differ = false;
    for (int p = 0; p < n; p++)
        if (!same_size(s, p, gen, (MPI_Count)blk))
            differ = true;
        else
            vmpi_dtype_unpack(s->slots[p].stage[gen & 1] + at, (MPI_Count)blk, (char *)rbuf + p * rcount * rdt->extent,
                              rcount, rdt);
    return differ;
}

int vmpi_shm_alltoall(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                      const vmpi_dtype *rdt, vmpi_comm *c)
{
    shm *s = get(c);
    int n = c->size, me = c->rank;
    size_t blk = (size_t)(scount * sdt->size);
    unsigned gen = atomic_load_explicit(&s->gen, memory_order_acquire);
    s->slots[me].bytes[gen & 1] = (MPI_Count)blk;
    int err = rcount * rdt->size != (MPI_Count)blk ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    char *st = blk * (size_t)n <= STAGE_MAX ? stage(s, me, gen, blk * (size_t)n) : NULL;
    if (st) {
        vmpi_dtype_pack(sbuf, scount * n, sdt, st, (MPI_Count)(blk * (size_t)n));
        int e = sync_all(s, c, NULL, "MPI_Alltoall");
        if (e != MPI_SUCCESS)
            return e;
        return unpack_staged(s, n, gen, blk, (size_t)me * blk, rbuf, rcount, rdt) ? MPI_ERR_TRUNCATE : err;
    }
    s->slots[me].sbuf = sbuf;
    s->slots[me].scount = scount;
    s->slots[me].sdt = sdt;
    int e = sync_all(s, c, NULL, "MPI_Alltoall");
    if (e != MPI_SUCCESS)
        return e;
    if (sizes_differ(s, n, gen, (MPI_Count)blk))
        return MPI_ERR_TRUNCATE;
    for (int i = 0; i < n; i++) {
        int p = (me + i) % n;
        const slot *o = &s->slots[p];
        vmpi_dtype_copy((const char *)o->sbuf + me * o->scount * o->sdt->extent, o->scount, o->sdt,
                        (char *)rbuf + p * rcount * rdt->extent, rcount, rdt);
    }
    e = sync_all(s, c, NULL, "MPI_Alltoall"); /* nobody's send buffer is read any more */
    return err ? err : e;
}

int vmpi_shm_allgather(const void *sbuf, MPI_Count scount, const vmpi_dtype *sdt, void *rbuf, MPI_Count rcount,
                       const vmpi_dtype *rdt, vmpi_comm *c)
{
    shm *s = get(c);
    int n = c->size, me = c->rank;
    if (sbuf == MPI_IN_PLACE) {
        sbuf = (char *)rbuf + me * rcount * rdt->extent;
        scount = rcount;
        sdt = rdt;
    }
    size_t blk = (size_t)(scount * sdt->size);
    unsigned gen = atomic_load_explicit(&s->gen, memory_order_acquire);
    s->slots[me].bytes[gen & 1] = (MPI_Count)blk;
    int err = rcount * rdt->size != (MPI_Count)blk ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    char *st = blk * (size_t)n <= STAGE_MAX ? stage(s, me, gen, blk) : NULL;
    if (st) {
        vmpi_dtype_pack(sbuf, scount, sdt, st, (MPI_Count)blk);
        int e = sync_all(s, c, NULL, "MPI_Allgather");
        if (e != MPI_SUCCESS)
            return e;
        return unpack_staged(s, n, gen, blk, 0, rbuf, rcount, rdt) ? MPI_ERR_TRUNCATE : err;
    }
    s->slots[me].sbuf = sbuf;
    s->slots[me].scount = scount;
    s->slots[me].sdt = sdt;
    int e = sync_all(s, c, NULL, "MPI_Allgather");
    if (e != MPI_SUCCESS)
        return e;
    if (sizes_differ(s, n, gen, (MPI_Count)blk))
        return MPI_ERR_TRUNCATE;
    for (int i = 1; i < n; i++) {
        int p = (me + i) % n;
        const slot *o = &s->slots[p];
        vmpi_dtype_copy(o->sbuf, o->scount, o->sdt, (char *)rbuf + p * rcount * rdt->extent, rcount, rdt);
    }
    if (sbuf != (char *)rbuf + me * rcount * rdt->extent)
        vmpi_dtype_copy(sbuf, scount, sdt, (char *)rbuf + me * rcount * rdt->extent, rcount, rdt);
    e = sync_all(s, c, NULL, "MPI_Allgather");
    return err ? err : e;
}
