/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "base/compiler.h"
#include "base/log.h"
#include "base/sysmem.h"
#include "sched/sched.h"
#include "xport/chan.h"
#include "xport/procs.h"
#include "xport/xport.h"

#define CELL 64
#define H_PAD 0xffffu /* fills the end of the ring when a record does not fit before the wrap */

/* First 16 bytes of a record's first cell; the record's bytes follow, contiguous over the next cells. */
typedef struct rec_hdr {
    _Atomic uint32_t seq;    /* (uint32_t)(position + 1) once the record is complete */
    uint16_t handler;
    uint16_t ncells;
    uint32_t len;
    uint32_t unused;
} rec_hdr;
#define HDR sizeof(rec_hdr)

/* A record that found its ring full, waiting on the sender's side. */
typedef struct ovf {
    struct ovf *next;
    uint32_t handler;
    size_t len;
    max_align_t data[];
} ovf;

typedef struct chan {
    /* the sender's side */
    VMPI_ALIGNED_CL char *ring;    /* (each side has its own copy: no line shared with what the other writes) */
    uint64_t tail;                 /* cells written */
    uint64_t head_seen;            /* the receiver's published head, as last read */
    ovf *ovf_head, *ovf_tail;      /* queued records, oldest first */
    ovf *resv_ovf;                 /* the open reservation went to the queue */
    size_t resv_len;
    /* the receiver's side */
    VMPI_ALIGNED_CL char *rring;
    _Atomic uint64_t head;         /* cells consumed; written by the receiver only */
    VMPI_ALIGNED_CL _Atomic uint64_t head_pub; /* what the sender may reuse */
} chan;

typedef struct pe_chans {
    VMPI_ALIGNED_CL _Atomic int backlog; /* outgoing channels with queued records (read by other PEs) */
    bool polling;
} pe_chans;

static struct {
    int npes, first;         /* this process's PEs: first .. first + npes - 1 of the job */
    uint64_t ncells;         /* per ring, a power of two */
    chan *ch;                /* [src * npes + dst] */
    pe_chans *pe;
    char *rings;
} C;

/* by local index (PE first + i) */
static inline chan *chan_at(int src, int dst) { return &C.ch[(size_t)src * (size_t)C.npes + (size_t)dst]; }
/* by PE number in the job */
static inline chan *chan_of(int src, int dst) { return chan_at(src - C.first, dst - C.first); }
static inline pe_chans *pc_of(int pe) { return &C.pe[pe - C.first]; }
static inline rec_hdr *cell_at(char *ring, uint64_t pos) { return (rec_hdr *)(ring + (pos & (C.ncells - 1)) * CELL); }
/* The seq that marks a record at `pos` complete; never 0, the value of a consumed continuation cell (a
 * plain (uint32_t)(pos + 1) would be 0 once every 2^32 cells and a consumed cell would look published). */
static inline uint32_t seq_of(uint64_t pos)
{
    uint32_t s = (uint32_t)(pos + 1);
    return s ? s : 1;
}
static inline uint64_t cells_for(size_t len) { return (HDR + len + CELL - 1) / CELL; }

static int chan_poll(vmpi_pe *pe);
static inline __attribute__((always_inline)) bool chan_ready(int pe);
static inline __attribute__((always_inline)) bool chan_backlog(int pe);
/* one call per pass of the scheduler's spin loops (through the built-in source): the checks inlined in it */
static bool chan_work(int pe) { return chan_backlog(pe) || chan_ready(pe); }
/* the scheduler's built-in source (sched.h): bound at link time so that its spin loops inline these */
const vmpi_progress_source vmpi_progress_builtin = {"channels", chan_poll, chan_ready, chan_backlog, chan_work, NULL};

int vmpi_chan_poll(vmpi_pe *pe) { return chan_poll(pe); }
bool vmpi_chan_pending(int pe) { return chan_ready(pe); }
bool vmpi_chan_backlog(int pe) { return chan_backlog(pe); }

void vmpi_chan_init(int first, int npes, size_t ring_bytes)
{
    uint64_t n = 64; /* at least 4 KiB, at most 2 MiB (ncells must fit a record's 16-bit count) */
    while (n * 2 * CELL <= ring_bytes && n < 32768)
        n *= 2;
    C.npes = npes;
    C.first = first;
    C.ncells = n;
    C.ch = aligned_alloc(VMPI_CACHELINE, sizeof(chan) * (size_t)npes * (size_t)npes);
    C.pe = aligned_alloc(VMPI_CACHELINE, sizeof(pe_chans) * (size_t)npes);
    /* calloc: rings are touched lazily, so pairs that never talk cost no memory */
    C.rings = calloc((size_t)npes * (size_t)npes, n * CELL + VMPI_CACHELINE);
    if (!C.ch || !C.pe || !C.rings)
        vmpi_fatal("out of memory for the channels of %d PEs (%zu bytes per ring)", npes, (size_t)(n * CELL));
    memset(C.ch, 0, sizeof(chan) * (size_t)npes * (size_t)npes);
    memset(C.pe, 0, sizeof(pe_chans) * (size_t)npes);
    uintptr_t base = ((uintptr_t)C.rings + VMPI_CACHELINE - 1) & ~(uintptr_t)(VMPI_CACHELINE - 1);
    for (size_t i = 0; i < (size_t)npes * (size_t)npes; i++)
        C.ch[i].ring = C.ch[i].rring = (char *)base + i * n * CELL;
}

void vmpi_chan_fini(void)
{
    for (int i = 0; i < C.npes * C.npes; i++)
        for (ovf *o = C.ch[i].ovf_head, *n; o; o = n) {
            n = o->next;
            vmpi_sys_free(o);
        }
    free(C.ch);
    free(C.pe);
    free(C.rings);
    memset(&C, 0, sizeof C);
}

size_t vmpi_chan_max_record(void) { return C.ncells / 4 * CELL - HDR; }

/* ---- sending ---- */

/* Room for `len` bytes at the ring's tail (after a padding record if the ring wraps), or NULL. */
static void *ring_reserve(chan *c, size_t len)
{
    uint64_t need = cells_for(len), pos = c->tail, off = pos & (C.ncells - 1);
    uint64_t pad = off + need > C.ncells ? C.ncells - off : 0;
    if (pos + pad + need - c->head_seen > C.ncells) {
        c->head_seen = atomic_load_explicit(&c->head_pub, memory_order_acquire);
        if (pos + pad + need - c->head_seen > C.ncells)
            return NULL;
    }
    if (pad) {
        rec_hdr *h = cell_at(c->ring, pos);
        h->handler = H_PAD;
        h->ncells = (uint16_t)pad;
        h->len = 0;
        atomic_store_explicit(&h->seq, seq_of(pos), memory_order_release);
        c->tail = pos + pad;
    }
    return cell_at(c->ring, c->tail) + 1;
}

static void ring_commit(chan *c, int dst, uint32_t handler, size_t len)
{
    uint64_t pos = c->tail;
    rec_hdr *h = cell_at(c->ring, pos);
    h->handler = (uint16_t)handler;
    h->ncells = (uint16_t)cells_for(len);
    h->len = (uint32_t)len;
    atomic_store_explicit(&h->seq, seq_of(pos), memory_order_release);
    c->tail = pos + h->ncells;
    /* the publication must be visible before we look whether the receiver sleeps (it checks the other way) */
    atomic_thread_fence(memory_order_seq_cst);
    vmpi_sched_wake(dst);
}

void *vmpi_chan_reserve(int dst, size_t len)
{
    chan *c = chan_of(vmpi_pe_self()->id, dst);
    vmpi_assert(len <= vmpi_chan_max_record());
    c->resv_len = len;
    c->resv_ovf = NULL;
    if (c->ovf_head == NULL) { /* records already queued go first */
        void *p = ring_reserve(c, len);
        if (p)
            return p;
    }
    ovf *o = vmpi_sys_malloc(sizeof(ovf) + len); /* the PE's, not the running rank's (base/sysmem.h) */
    if (o == NULL)
        vmpi_fatal("out of memory queuing a %zu-byte record for PE %d", len, dst);
    o->len = len;
    o->next = NULL;
    c->resv_ovf = o;
    return o->data;
}

/* A record of the in-process protocols may carry pointers: between the process groups of the emulated
 * multi-process mode only the emulated transport (vmpi_chan_commit_remote) may use the channels. */
static VMPI_NOINLINE void crossing(int me, int dst, uint32_t handler)
{
    vmpi_fatal("internal error: an in-process record (handler %u) from PE %d to PE %d crosses from emulated "
               "process %d to %d", handler, me, dst, vmpi_xport_proc_of_pe(me), vmpi_xport_proc_of_pe(dst));
}

void vmpi_chan_commit(int dst, uint32_t handler)
{
    int me = vmpi_pe_self()->id;
    if (VMPI_UNLIKELY(vmpi_xport_procs_.nprocs > 1) && vmpi_xport_proc_of_pe(me) != vmpi_xport_proc_of_pe(dst))
        crossing(me, dst, handler);
    vmpi_chan_commit_remote(dst, handler);
}

void vmpi_chan_commit_remote(int dst, uint32_t handler)
{
    int me = vmpi_pe_self()->id;
    chan *c = chan_of(me, dst);
    ovf *o = c->resv_ovf;
    if (o == NULL) {
        ring_commit(c, dst, handler, c->resv_len);
        return;
    }
    o->handler = handler;
    if (c->ovf_head == NULL) {
        c->ovf_head = o;
        atomic_store_explicit(&pc_of(me)->backlog, atomic_load_explicit(&pc_of(me)->backlog, memory_order_relaxed) + 1,
                              memory_order_relaxed); /* only this PE writes it */
    } else {
        c->ovf_tail->next = o;
    }
    c->ovf_tail = o;
}

/* Moves queued records of PE `me` into rings that have room again. */
static void drain_backlog(int me)
{
    pe_chans *pc = pc_of(me);
    for (int i = 0; i < C.npes && atomic_load_explicit(&pc->backlog, memory_order_relaxed); i++) {
        int dst = C.first + i;
        chan *c = chan_of(me, dst);
        ovf *o;
        while ((o = c->ovf_head) != NULL) {
            void *p = ring_reserve(c, o->len);
            if (p == NULL)
                break;
            memcpy(p, o->data, o->len);
            ring_commit(c, dst, o->handler, o->len);
            c->ovf_head = o->next;
            vmpi_sys_free(o);
        }
        if (c->ovf_head == NULL && c->ovf_tail != NULL) {
            c->ovf_tail = NULL;
            atomic_store_explicit(&pc->backlog, atomic_load_explicit(&pc->backlog, memory_order_relaxed) - 1,
                                  memory_order_relaxed);
        }
    }
}

static inline bool chan_backlog(int pe) { return atomic_load_explicit(&pc_of(pe)->backlog, memory_order_relaxed) != 0; }

/* ---- receiving ---- */

static inline bool ready(const chan *c, uint64_t head)
{
    return atomic_load_explicit(&cell_at(c->rring, head)->seq, memory_order_acquire) == seq_of(head);
}

static int chan_poll(vmpi_pe *pe)
{
    int me = pe->id, ran = 0;
    pe_chans *pc = pc_of(me);
    if (pc->polling)
        return 0; /* a handler's callee polled: records stay in place until the outer poll is done */
    pc->polling = true;
    if (atomic_load_explicit(&pc->backlog, memory_order_relaxed))
        drain_backlog(me);
    for (int i = 0; i < C.npes; i++) {
        int src = C.first + i;
        chan *c = chan_of(src, me);
        uint64_t head = atomic_load_explicit(&c->head, memory_order_relaxed), start = head;
        while (ready(c, head)) {
            rec_hdr *h = cell_at(c->rring, head);
            uint16_t n = h->ncells;
            if (h->handler != H_PAD) {
                vmpi_xport_am_table[h->handler](pe, src, h + 1, h->len);
                ran++;
            }
            /* a stale first word of a continuation cell must never look like the seq of a later record */
            for (uint16_t k = 1; k < n; k++)
                atomic_store_explicit(&cell_at(c->rring, head + k)->seq, 0, memory_order_relaxed);
            head += n;
            atomic_store_explicit(&c->head, head, memory_order_relaxed);
        }
        if (head != start)
            atomic_store_explicit(&c->head_pub, head, memory_order_release);
    }
    pc->polling = false;
    return ran;
}

static inline bool chan_ready(int pe)
{
    for (int i = 0; i < C.npes; i++) {
        const chan *c = chan_of(C.first + i, pe);
        if (ready(c, atomic_load_explicit(&c->head, memory_order_relaxed)))
            return true;
    }
    return false;
}
