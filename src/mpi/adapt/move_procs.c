/* SPDX-License-Identifier: BSD-3-Clause */
/* Ranks that move between the OS processes of a job, at a migration point (docs/research/restart-procs.md,
 * step 4; docs/ARCHITECTURE.md, "Migration between processes").
 *
 * Every process runs this inside the stop of its world, with the network's handlers held and no message
 * between processes in flight (the step's quiescence), after every process computed the same placement of
 * every rank.  A rank that leaves is what a checkpoint writes of it: its slot's used parts (at the same
 * addresses in every process), its unexpected and Mprobe'd messages in the portable form, and its entries in
 * the process's tables with the groups it refers to (its OWNED record); the arrival is a restart's, for one
 * rank.  The small records travel through the launcher's all-gather (which every process reads: it also
 * tells each what to expect), the slots through the transport's bulk exchange, straight from the leaving
 * slot into the arriving one (no staging copy).  The leaving process then forgets the rank (its tables, its
 * scheduler, the unwinder's record of its copy of the program) and gives its slot back to the system. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "img/img.h"
#include "iso/iso.h"
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/shm.h"
#include "mpi/core/group.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/core/stdio.h"
#include "mpi/datatype/datatype.h"
#include "mpi/datatype/f90.h"
#include "mpi/op/op.h"
#include "msg/loc.h"
#include "xport/netjob.h"
#include "xport/procs.h"

/* A leaving rank's record in the all-gather; then its extents (addr, len pairs), its unexpected messages,
 * its Mprobe'd ones and its OWNED record, each padded to 8 bytes. */
typedef struct mv_head {
    int32_t rank, to_pe;
    uint64_t rk;                    /* its vmpi_rank (the bottom of its slot's heap) */
    uint64_t guard;                 /* the stack-protector canary its frames were made with */
    uint64_t commit_addr, commit_len; /* its slot's committed part */
    uint64_t next, unexp_len, held_len, owned_len;
    uint64_t busy;                  /* its VP's busy ticks of the period (kept by a move that keeps the load) */
} mv_head;

typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *data, size_t n)
{
    size_t pad = (n + 7) & ~(size_t)7;
    if (b->len + pad > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + pad)
            cap *= 2;
        if ((b->p = vmpi_sys_realloc(b->p, cap)) == NULL)
            vmpi_fatal("out of memory moving ranks between processes");
        b->cap = cap;
    }
    if (data)
        memcpy(b->p + b->len, data, n);
    memset(b->p + b->len + (data ? n : 0), 0, pad - (data ? n : 0)); /* (NULL: room, zeros) */
    b->len += pad;
}

/* The pieces of a slot a move carries: its used parts less the code of the rank's copy of the program, which
 * the arrival maps from the file again (vmpi_img_each_saved_part). */
typedef struct pieces {
    vmpi_net_iov *v;
    size_t n, cap;
} pieces;

static void add_piece(pieces *s, char *lo, char *hi)
{
    if (hi <= lo)
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        if ((s->v = vmpi_sys_realloc(s->v, sizeof *s->v * s->cap)) == NULL)
            vmpi_fatal("out of memory moving ranks between processes");
    }
    s->v[s->n++] = (vmpi_net_iov){lo, (size_t)(hi - lo)};
}

static void piece(void *arg, void *addr, size_t len) { add_piece(arg, addr, (char *)addr + len); }

/* The step's placement, for the predicates below. */
static const int *to_pe;
static int self;

static bool leaving(int r)
{
    return vmpi_rank_get(r) != NULL && vmpi_xport_proc_of_pe(to_pe[r]) != self;
}

void vmpi_adapt_forget_places(void)
{
    vmpi_shm_forget_all(); /* the objects stay in the job heap, unused (a leak per such step: ARCHITECTURE.md) */
    for (int r = 0; r < vmpi_world_size(); r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        if (rk == NULL)
            continue;
        vmpi_coll_forget_places(&rk->world);
        vmpi_coll_forget_places(&rk->self);
        for (int i = 0; i < rk->ncomms; i++)
            if (rk->comms[i])
                vmpi_coll_forget_places(rk->comms[i]);
    }
}

/* Whether rank rk has a stdio stream of its own open (its FILE in its slot: glibc links every stream into
 * one list of the process, and the stream's descriptor is the process's). */
static bool has_stream(const vmpi_rank *rk)
{
    extern FILE *_IO_list_all; /* (glibc's list of open streams; the world is stopped: nobody opens one) */
    int slot = rk->world_rank;
    for (FILE *f = _IO_list_all; f; f = f->_chain)
        if (vmpi_iso_slot_of(f) == slot)
            return true;
    return false;
}

const char *vmpi_adapt_stays_why(const vmpi_rank *rk)
{
    if (vmpi_img_method() == VMPI_PRIV_TLS)
        return "the program was built with -privatize=tls: its globals are its process's, shared by its ranks";
    if (vmpi_img_method() == VMPI_PRIV_NONE)
        return "the program was not built with -privatize=auto: its globals are its process's";
    if (has_stream(rk))
        return "it has a stdio stream open (fopen): its FILE and descriptor are its process's";
    for (int k = 0; k < VMPI_RANK_EXT_MAX; k++)
        if (rk->ext[k] != NULL)
            return "it uses ARMCI, whose tables are its process's";
    for (int i = 0; i < rk->nwins; i++)
        if (rk->wins[i] != NULL)
            return "it has an MPI window, whose shared state is its process's";
    if (vmpi_dt_f90_count() > 0)
        return "its process made types with MPI_Type_create_f90_*, which its ranks share";
    if (rk->vp.state == VMPI_VP_DONE)
        return "it has ended";
    return NULL;
}

typedef struct arrival {
    const mv_head *h;
    const uint64_t *ext;
    const char *unexp, *held, *owned;
    int from;
} arrival;

static const char *parse(const char *p, const char *end, arrival *a)
{
    if ((size_t)(end - p) < sizeof(mv_head))
        return NULL;
    a->h = (const mv_head *)(const void *)p;
    p += sizeof(mv_head);
    size_t need[4] = {a->h->next * 2 * sizeof(uint64_t), a->h->unexp_len, a->h->held_len, a->h->owned_len};
    const char *at[4];
    for (int i = 0; i < 4; i++) {
        size_t pad = (need[i] + 7) & ~(size_t)7;
        if (need[i] > (size_t)(end - p) || pad > (size_t)(end - p))
            return NULL;
        at[i] = p;
        p += pad;
    }
    a->ext = (const uint64_t *)(const void *)at[0];
    a->unexp = at[1];
    a->held = at[2];
    a->owned = at[3];
    return p;
}

/* The rank of `a`, whose memory is here now: checked, and made this process's, on PE a->h->to_pe. */
static void arrive(const arrival *a, uint64_t my_guard, bool keep_load)
{
    int r = a->h->rank;
    vmpi_iso_heap *h = vmpi_iso_slot_restored(r);
    vmpi_rank *rk = (vmpi_rank *)(uintptr_t)a->h->rk;
    if (h == NULL || vmpi_iso_slot_of(rk) != r || rk->world_rank != r || rk->vp.heap != h || rk->vp.id != r)
        vmpi_fatal("internal error: rank %d's memory from process %d is not a rank's", r, a->from);
    vmpi_img_rank_restored(h);
    rk->vp.guard = a->h->guard != my_guard ? a->h->guard : 0;
    vmpi_rank_set(r, rk);
    vmpi_loc_adopt(&rk->vp, a->h->to_pe);
    if (!vmpi_msg_ep_restored(&rk->ep, r, a->unexp, a->h->unexp_len))
        vmpi_fatal("internal error: rank %d's unexpected messages from process %d are malformed", r, a->from);
    if (!vmpi_adapt_held_load(rk, a->held, a->h->held_len))
        vmpi_fatal("internal error: rank %d's Mprobe'd messages from process %d are malformed", r, a->from);
    const char *why = vmpi_adapt_owned_load(rk, a->owned, a->h->owned_len);
    if (why)
        vmpi_fatal("internal error: rank %d's objects from process %d: %s", r, a->from, why);
    vmpi_stdio_rank_arrive(rk);
    if (keep_load) /* (ticks of a clock of the same rate on one node: not exact between nodes) */
        rk->vp.busy = a->h->busy;
    else if (rk->adapt) { /* its VP's busy ticks start again here, and what it asked for was for this point */
        rk->adapt->want_pe = -1;
        rk->adapt->excluded = rk->adapt->off_at = 0;
    }
    if (rk->adapt) /* it waits at the migration point: released with the others */
        rk->adapt->in_migrate = false;
}

/* A leaving rank: its record, and the pieces of its slot to send. */
static void pack(vmpi_rank *rk, int to, buf *b, pieces *s)
{
    int r = rk->world_rank;
    vmpi_iso_heap *h = rk->vp.heap;
    vmpi_stdio_rank_leave(rk); /* its unfinished lines into its slot: before its extents are taken */
    size_t first = s->n;
    vmpi_img_each_saved_part(h, rk->vp.ctx, piece, s);
    size_t ulen, hlen, olen;
    void *unexp = vmpi_msg_ep_leave(&rk->ep, r, &ulen);
    char *held = vmpi_adapt_held_save(rk, &hlen);
    vmpi_adapt_held_drop(rk);
    void *owned = vmpi_adapt_owned_save(rk, &olen);
    vmpi_iso_extent c = vmpi_iso_slot_committed(h);
    mv_head mh = {.rank = r, .to_pe = to, .rk = (uint64_t)(uintptr_t)rk,
                  .guard = rk->vp.guard ? rk->vp.guard : *ck_stack_guard(),
                  .commit_addr = (uint64_t)(uintptr_t)c.addr, .commit_len = c.len, .next = s->n - first,
                  .unexp_len = ulen, .held_len = hlen, .owned_len = olen, .busy = rk->vp.busy};
    put(b, &mh, sizeof mh);
    size_t at = b->len;
    put(b, NULL, mh.next * 2 * sizeof(uint64_t));
    uint64_t *ext = (uint64_t *)(void *)(b->p + at);
    for (size_t i = first; i < s->n; i++) {
        ext[2 * (i - first)] = (uint64_t)(uintptr_t)s->v[i].addr;
        ext[2 * (i - first) + 1] = s->v[i].len;
    }
    put(b, unexp, ulen);
    put(b, held, hlen);
    put(b, owned, olen);
    vmpi_sys_free(unexp);
    vmpi_sys_free(held);
    vmpi_sys_free(owned);
}

/* After its slot went: the process forgets the rank. */
static void forget(vmpi_rank *rk)
{
    int r = rk->world_rank;
    vmpi_dt_forget_owned(r);
    vmpi_group_forget_owned(r); /* (its references to groups are left: others here may share them) */
    vmpi_info_forget_owned(r);
    vmpi_op_forget_owned(r);
    vmpi_img_rank_leaving(rk->vp.heap);
    vmpi_sched_remove_vp(&rk->vp);
    vmpi_rank_set(r, NULL);
    vmpi_iso_slot_vacate(r);
}

long vmpi_adapt_move_procs(const int *to, uint64_t *bytes_out, bool keep_load)
{
    int n = vmpi_world_size(), K = vmpi_xport_nprocs();
    to_pe = to;
    self = vmpi_xport_self_proc();
    /* the processes' caches of where ranks are (shared collective state, communicators' spans) go first: the
     * leaving ranks' too, whose communicators are cleared before their slots are copied */
    vmpi_adapt_forget_places();
    vmpi_msg_make_portable(leaving); /* messages held here that name a leaving sender's buffer by address */
    for (int r = 0; r < n; r++)
        if (vmpi_rank_get(r) != NULL && !leaving(r))
            vmpi_adapt_held_portable(vmpi_rank_get(r), leaving);
    buf b = {0};
    pieces s = {0};
    int nsend = 0;
    size_t *first = vmpi_sys_malloc(sizeof(size_t) * (size_t)(n + 1)); /* per leaving rank: its first piece */
    int *who = vmpi_sys_malloc(sizeof(int) * (size_t)(n + 1));
    if (first == NULL || who == NULL)
        vmpi_fatal("out of memory moving ranks between processes");
    for (int r = 0; r < n; r++)
        if (leaving(r)) {
            first[nsend] = s.n;
            who[nsend++] = r;
            pack(vmpi_rank_get(r), to[r], &b, &s);
        }
    first[nsend] = s.n;
    void **out = vmpi_sys_malloc(sizeof(void *) * (size_t)K);
    size_t *lens = vmpi_sys_malloc(sizeof(size_t) * (size_t)K);
    if (out == NULL || lens == NULL)
        vmpi_fatal("out of memory moving ranks between processes");
    vmpi_xport_net_allgather(b.p, b.len, out, lens);
    /* what comes here: made writable, its pieces received in place */
    int nin = 0, cap_in = 0;
    arrival *in = NULL;
    vmpi_net_iov *riov = NULL;
    size_t nriov = 0, cap_riov = 0;
    long moved = 0;
    for (int k = 0; k < K; k++) {
        const char *p = out[k], *end = p + lens[k];
        while (p < end) {
            arrival a = {.from = k};
            if ((p = parse(p, end, &a)) == NULL)
                vmpi_fatal("internal error: process %d's record of the ranks it sends is malformed", k);
            int r = a.h->rank;
            if (r < 0 || r >= n || a.h->to_pe < 0 || a.h->to_pe >= vmpi_sched_npes() || to[r] != a.h->to_pe)
                vmpi_fatal("internal error: process %d sends rank %d to PE %d, not where the step placed it", k, r,
                           a.h->to_pe);
            moved++;
            if (vmpi_xport_proc_of_pe(a.h->to_pe) != self)
                continue;
            void *ca = (void *)(uintptr_t)a.h->commit_addr;
            if (vmpi_iso_slot_of(ca) != r || vmpi_iso_slot_of((char *)ca + a.h->commit_len - 1) != r ||
                !vmpi_iso_make_writable(ca, a.h->commit_len))
                vmpi_fatal("internal error: rank %d's memory from process %d is outside its slot", r, k);
            if (nin == cap_in && (in = vmpi_sys_realloc(in, sizeof *in * (size_t)(cap_in = cap_in ? 2 * cap_in : 8))) == NULL)
                vmpi_fatal("out of memory moving ranks between processes");
            in[nin++] = a;
            for (uint64_t i = 0; i < a.h->next; i++) {
                char *lo = (char *)(uintptr_t)a.ext[2 * i];
                uint64_t len = a.ext[2 * i + 1];
                if (lo < (char *)ca || lo + len > (char *)ca + a.h->commit_len)
                    vmpi_fatal("internal error: rank %d's memory from process %d is outside its slot", r, k);
                if (nriov == cap_riov &&
                    (riov = vmpi_sys_realloc(riov, sizeof *riov * (cap_riov = cap_riov ? 2 * cap_riov : 256))) == NULL)
                    vmpi_fatal("out of memory moving ranks between processes");
                riov[nriov++] = (vmpi_net_iov){lo, len};
                vmpi_iso_fill_soon(lo, len);
            }
        }
    }
    /* the transfers: one per moving rank, tagged with its world rank */
    vmpi_net_bulk *sends = vmpi_sys_malloc(sizeof *sends * (size_t)(nsend + 1));
    vmpi_net_bulk *recvs = vmpi_sys_malloc(sizeof *recvs * (size_t)(nin + 1));
    if (sends == NULL || recvs == NULL)
        vmpi_fatal("out of memory moving ranks between processes");
    uint64_t bytes = 0;
    for (int i = 0; i < nsend; i++) {
        sends[i] = (vmpi_net_bulk){vmpi_xport_proc_of_pe(to[who[i]]), (uint64_t)who[i], s.v + first[i],
                                   (int)(first[i + 1] - first[i])};
        for (size_t j = first[i]; j < first[i + 1]; j++)
            bytes += s.v[j].len;
    }
    for (int i = 0, at = 0; i < nin; i++) {
        recvs[i] = (vmpi_net_bulk){in[i].from, (uint64_t)in[i].h->rank, riov + at, (int)in[i].h->next};
        at += (int)in[i].h->next;
    }
    /* (the exchange ends with a fence: no rank runs anywhere before every process has its arrivals' memory,
     * which a rank released elsewhere may read at once by the kernel's copy, without this process's handlers) */
    vmpi_xport_net_bulk(sends, nsend, recvs, nin);
    uint64_t my_guard = *ck_stack_guard();
    for (int i = 0; i < nin; i++) { /* (first: the process is never without a rank) */
        if (i == 0 || in[i].from != in[i - 1].from)
            vmpi_adapt_owned_part_begin(); /* each process's groups are made again once */
        arrive(&in[i], my_guard, keep_load);
    }
    for (int i = 0; i < nsend; i++)
        forget(vmpi_rank_get(who[i]));
    for (int k = 0; k < K; k++)
        free(out[k]);
    vmpi_sys_free(out);
    vmpi_sys_free(lens);
    vmpi_sys_free(sends);
    vmpi_sys_free(recvs);
    vmpi_sys_free(riov);
    vmpi_sys_free(in);
    vmpi_sys_free(s.v);
    vmpi_sys_free(b.p);
    vmpi_sys_free(first);
    vmpi_sys_free(who);
    if (bytes_out)
        *bytes_out = bytes;
    return moved;
}
