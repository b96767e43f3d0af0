/* SPDX-License-Identifier: BSD-3-Clause */
/* The transport between processes, on UCX (xport.h's contract).
 *
 * One UCP worker per PE (UCS_THREAD_MODE_SERIALIZED: made by the main thread, then used by its PE only), so a
 * PE's handlers run on its own thread inside its own progress, without a lock, and every ordered pair of PEs
 * has its own endpoint (made at the first send).  Active messages: the contract's bytes are packed into a
 * bounce buffer behind a 16-byte header (handler id, source PE, sequence number: UCX documents no order for
 * active messages, so the receiver checks it) and sent eager (`am_max` keeps them below UCX's eager limit, so
 * a handler always has its bytes in place).  One-sided operations: between processes of one node, get and put
 * are one copy by the kernel (process_vm_readv/writev: slots are at the same address in every process, and
 * the target takes no part); otherwise, within memory the target process exposed (a window's: rkey.c),
 * UCX's get and put with its remote key, on the PE's own worker and endpoint (an RDMA device's: the target
 * takes no part; UCX 1.13 has no RMA lane on registered memory over shared memory or TCP, where it emulates
 * them with its own messages, served in the target worker's progress without a handler of ours); anywhere
 * else, and for atomics, they are messages the target PE serves.  A put
 * by UCX is done when a flush of its endpoint completes (its bytes are in place at the target).  An idle PE
 * arms its worker and sleeps in epoll on the worker's event descriptor and an event fd of its own
 * (vmpi_ucx_sleep). */

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#include <ucp/api/ucp.h>
#include <unistd.h>
#include "net/net_int.h"
#include "sched/sched.h"

enum { AM_MSG, AM_ATOMIC, AM_ATOMIC_ANS, AM_GET, AM_GET_ANS, AM_PUT, AM_PUT_ANS, AM_CTRL, AM_COUNT };

/* The job-wide deadlock check's messages (not counted in the traffic they check). */
enum { C_IDLE, C_PROBE, C_STATE, C_REPORT, C_REPORTED };
enum { EV_WORKER, EV_WAKE }; /* what woke a sleeping PE (vmpi_ucx_sleep) */
typedef struct ctrl_hdr {
    uint32_t type, proc, round, unused;
    uint64_t sent, received, live;
} ctrl_hdr;

typedef struct msg_hdr {
    uint32_t id, src_pe, seq, unused;
} msg_hdr;

/* one-sided operations by message: the request and its answer */
typedef struct op_hdr {
    uint64_t token;          /* the origin's operation record */
    uint64_t remote;         /* the address at the target */
    uint64_t len, operand, compare, result;
    uint32_t src_pe, op, size, unused;
} op_hdr;

/* In front of what is sent (header and data): the sending PE, whose count of sends UCX holds goes down when
 * the buffer is freed, at the send's completion. */
typedef struct sendbuf {
    struct pe_state *s;
    uint32_t small;          /* from the PE's cache of small buffers */
    uint32_t ctrl;           /* a deadlock check's message (AM_CTRL): its failure is no error (ctrl_send) */
} sendbuf;                   /* (16 bytes: keeps the header 16-byte aligned) */
#define SMALL_BUF 512        /* the cached size: headers and small messages */

typedef struct pending_op {
    vmpi_xport_comp *c;
    void *local;
    uint64_t *result;
    size_t len;
    int pe;                  /* the origin PE (local index) */
    op_hdr h;                /* the request (sent as a copy: the answer may come before UCX is done with it) */
} pending_op;

/* One per cache line (or several): PEs write their own counts; the size is a multiple of the alignment, as
 * aligned_alloc requires (ASan refuses it otherwise). */
typedef struct pe_state {
    _Alignas(64) ucp_worker_h w;
    int efd;                 /* the worker's event descriptor */
    int epfd, wfd;           /* the PE sleeps in epoll on efd and wfd, an event fd its wakers write */
    ucp_ep_h *ep;            /* [job_npes]: made at the first send */
    uint32_t *seq_out, *seq_in; /* [job_npes] */
    _Atomic long sends;      /* sends UCX still holds (they move only when this worker progresses) */
    _Atomic long ops;        /* one-sided operations begun and not completed */
    _Atomic long rma;        /* of them, UCX's get and put requests (their progress is this worker's) */
    uint64_t n[9];           /* counts, in the order of vmpi_xport_counts */
    uint64_t sent, received; /* messages to and from other processes (handled), for global quiescence */
    int flush;               /* at the end: 1 flushing, 2 flushed */
    void *small_free;        /* cached send buffers of SMALL_BUF bytes (only this PE's thread touches it) */
    void *aligned;           /* am_max bytes, 16-aligned: a message's data that UCX placed misaligned */
    bool aligned_busy;       /* (a handler that made the PE progress its worker again: malloc instead) */
} pe_state;

static struct {
    ucp_context_h ctx;
    int first, npes, job_npes, nprocs, self, node;
    pe_state *pe;            /* [npes] */
    void **blobs;            /* [nprocs] the wire-up blobs (addresses point into them) */
    ucp_address_t **addr;    /* [job_npes] */
    pid_t *pid;              /* [nprocs] */
    int *node_of;            /* [nprocs] */
    char (*host)[64];        /* [nprocs] the host names the launcher gave, for messages */
    _Atomic bool *peer_mode; /* [nprocs] endpoints to that process in UCX's PEER error mode (vmpi_ucx_ep_create) */
    bool *cma;               /* [nprocs]: the kernel copies between this process and that one */
    bool rma;                /* UCX's get and put on exposed memory (VMPI_NET_RMA) */
    bool rma_emulated;       /* ... also where UCX emulates them (VMPI_NET_RMA_EMULATED) */
    bool one_node;           /* every process of the job is on this node */
    _Atomic signed char *rma_lane; /* [nprocs]: UCX has an RMA lane to that process (-1: not known yet) */
    size_t am_max;
    _Atomic int stopping;
    _Atomic int held;        /* vmpi_ucx_hold: no handler runs; read with acquire, as what the stop's leader
                              * did before releasing it (the requester woken on another PE) precedes the
                              * handlers that run next (pt2pt/isendrecv 13x2 under TSan, 2 processes) */
    _Atomic int ending, nflushed; /* vmpi_ucx_local_done */
    _Atomic int ended;       /* every process is done */
    _Atomic int in_ended;    /* ended() runs (on PMIx's thread): vmpi_ucx_finish waits for it to return */
} U;

static uint64_t probe_word;
static bool trace; /* VMPI_NET_TRACE=1: every message between processes on stderr (debugging) */
#define TRACE(...) (trace ? fprintf(stderr, __VA_ARGS__) : 0) /* read by the others at wire-up: can the kernel copy from this process? */

/* A boolean setting of the tunables table (base/tunables.c: the plugin reads the environment itself). */
static bool env_bool(const char *name, bool def)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0')
        return def;
    return !(!strcmp(v, "0") || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off"));
}

static inline int local(int pe) { return pe - U.first; }
static inline int proc_of(int pe) { return (int)((long)pe * U.nprocs / U.job_npes); }

static int self_local(void)
{
    int pe = H->self_pe();
    if (pe < U.first || pe >= U.first + U.npes)
        H->fatal("internal error: a transport operation between processes off this process's PEs (PE %d)", pe);
    return pe - U.first;
}

/* ---- lost connections ----
 * When the connection to a process is lost (reset, timed out, or with VMPI_NET_PEER=1 the process gone
 * silently: UCX's keepalive finds it), the endpoint's operations fail and ep_failed runs, where before the
 * job could wait for ever.  What follows this process's own end looks the
 * same from here, and so do the ends the launcher is about to make of it: the job's end (every process has
 * set `ending` before the last fence), a resize or a recovery (every process exits), an abort elsewhere.
 * So a loss is reported, ending the job, only once LOST_GRACE_MS have passed without any of them, by the
 * first PE that polls then (a sleeping PE looks every SLEEP_MAX_MS). */
enum { LOST_GRACE_MS = 2000 };
static struct {
    _Atomic int state;       /* 0 none, 1 being recorded, 2 recorded, 3 reported */
    _Atomic int proc;        /* the process the connection went to (-1: not known yet) */
    ucs_status_t st;
    struct timespec at;
} L = {.proc = -1};

/* Endpoints always have an error handler (ep_failed), which UCX calls in its default error mode too when a
 * transport sees the connection fail (TCP's reset: tests/tools/lost_conn.sh).  UCX's PEER mode, which
 * guarantees it and adds keepalive (a peer gone silently, a node lost without a reset), is asked for with
 * VMPI_NET_PEER=1, towards processes on other nodes: it costs about 13% of TCP's bandwidth at 1 MiB here
 * (docs/PERFORMANCE.md), and within a node UCX 1.13's shared-memory transports cannot detect a peer's
 * failure (a process that dies there is its launcher's to report), so PEER would leave only TCP between
 * them, or nothing.  An endpoint UCX cannot make in PEER mode ("unreachable", after UCX printed why) is made
 * in the default mode, and so are the next ones to that process. */
ucs_status_t vmpi_ucx_ep_create(ucp_worker_h w, ucp_ep_params_t *p, int proc, ucp_ep_h *ep)
{
    bool peer = atomic_load_explicit(&U.peer_mode[proc], memory_order_relaxed);
    p->err_mode = peer ? UCP_ERR_HANDLING_MODE_PEER : UCP_ERR_HANDLING_MODE_NONE;
    ucs_status_t st = ucp_ep_create(w, p, ep);
    if (st == UCS_ERR_UNREACHABLE && peer) {
        atomic_store(&U.peer_mode[proc], false);
        p->err_mode = UCP_ERR_HANDLING_MODE_NONE;
        st = ucp_ep_create(w, p, ep);
    }
    return st;
}

/* UCX's statuses of an operation on an endpoint whose peer is unreachable. */
static bool peer_lost(ucs_status_t st)
{
    return st == UCS_ERR_ENDPOINT_TIMEOUT || st == UCS_ERR_CONNECTION_RESET || st == UCS_ERR_UNREACHABLE ||
           st == UCS_ERR_CANCELED || st == UCS_ERR_IO_ERROR || st == UCS_ERR_REJECTED ||
           st == UCS_ERR_NOT_CONNECTED;
}

/* The connection to process `proc` (-1: not known) failed with `st`. */
static void lost(int proc, ucs_status_t st)
{
    if (atomic_load(&U.ending) || atomic_load(&U.ended) || atomic_load(&U.stopping))
        return;
    int none = -1, z = 0;
    if (proc >= 0)
        atomic_compare_exchange_strong(&L.proc, &none, proc);
    if (!atomic_compare_exchange_strong(&L.state, &z, 1))
        return;
    L.st = st;
    clock_gettime(CLOCK_MONOTONIC, &L.at);
    atomic_store(&L.state, 2);
}

static void ep_failed(void *arg, ucp_ep_h ep, ucs_status_t st)
{
    (void)ep;
    lost((int)(intptr_t)arg, st);
}

/* An operation with another process (`proc`, -1: not known) failed: a lost connection is recorded (reported
 * by lost_report; the operation never completes), anything else is fatal at once, saying what failed. */
static void failed(int proc, ucs_status_t st, const char *what)
{
    if (!peer_lost(st))
        H->fatal("process %d: %s failed: %s", U.self, what, ucs_status_string(st));
    lost(proc, st);
}

static void lost_report(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long ms = (t.tv_sec - L.at.tv_sec) * 1000 + (t.tv_nsec - L.at.tv_nsec) / 1000000;
    int two = 2;
    if (ms < LOST_GRACE_MS || atomic_load(&U.ending) || atomic_load(&U.ended) ||
        !atomic_compare_exchange_strong(&L.state, &two, 3))
        return;
    int k = atomic_load(&L.proc);
    char mine[256], theirs[256] = "";
    H->ranks_of(U.self, mine, sizeof mine);
    if (k >= 0) {
        char r[200];
        H->ranks_of(k, r, sizeof r);
        snprintf(theirs, sizeof theirs, " to process %d (host %s, %s)", k, U.host[k], r);
    }
    H->fatal("process %d (host %s, %s) lost its connection%s: %s; ending the job", U.self, U.host[U.self], mine,
             theirs, ucs_status_string(L.st));
}

/* In every poll of a PE: one relaxed load when nothing was lost. */
static inline void lost_check(void)
{
    if (__builtin_expect(atomic_load_explicit(&L.state, memory_order_relaxed) == 2, 0))
        lost_report();
}

/* Local PE l's endpoint to PE dst, made at first use; NULL (and *st) when it cannot be made. */
static ucp_ep_h ep_try(int l, int dst, ucs_status_t *st)
{
    pe_state *s = &U.pe[l];
    if (__builtin_expect(s->ep[dst] != NULL, 1))
        return s->ep[dst];
    ucp_ep_params_t p = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                                       UCP_EP_PARAM_FIELD_ERR_HANDLER,
                         .address = U.addr[dst],
                         .err_handler = {.cb = ep_failed, .arg = (void *)(intptr_t)proc_of(dst)}};
    if ((*st = vmpi_ucx_ep_create(s->w, &p, proc_of(dst), &s->ep[dst])) != UCS_OK)
        s->ep[dst] = NULL; /* tried again at the next use */
    else if (trace) { /* its lanes: which of UCX's transports carry messages, RMA (none: emulated by messages) */
        fprintf(stderr, "vmpi net %d: PE %d -> PE %d: endpoint made\n", U.self, U.first + l, dst);
        ucp_ep_print_info(s->ep[dst], stderr);
    }
    return s->ep[dst];
}

static ucp_ep_h ep_of(int l, int dst)
{
    ucs_status_t st = UCS_OK;
    ucp_ep_h ep = ep_try(l, dst, &st);
    if (ep == NULL)
        H->fatal("process %d: cannot connect PE %d to PE %d of process %d through UCX: %s", U.self, U.first + l, dst,
                 proc_of(dst), ucs_status_string(st));
    return ep;
}

/* only the PE itself writes its counts */
static void count(int l, int what, uint64_t by)
{
    __atomic_store_n(&U.pe[l].n[what], U.pe[l].n[what] + by, __ATOMIC_RELAXED);
}

/* A message from another process was handled on local PE `l`: counted only once its handler is over, and
 * with release order, so that whoever reads the count (vmpi_ucx_traffic, acquire) also sees what the handler
 * did (a rank it woke on a run queue, a record it queued).  Counted on arrival, a message's receipt could be
 * read by the deadlock check of a PE whose sibling was still in the handler, counted asleep (the scheduler
 * counts a PE asleep before its last look at its worker): the process then reported itself idle with the
 * message received and its rank about to run, and a probe that found nothing sent since (the rank busy with
 * its own process's part of a collective) declared a deadlock. */
static void count_received(int l)
{
    __atomic_store_n(&U.pe[l].received, U.pe[l].received + 1, __ATOMIC_RELEASE);
}

/* ---- active messages ---- */

/* Back to its PE's cache (send completions run on the sending PE, in its worker's progress). */
static void buf_free(sendbuf *b)
{
    if (b->small) {
        pe_state *s = b->s;
        *(void **)b = s->small_free; /* (over b->s: read first) */
        s->small_free = b;
    } else {
        free(b);
    }
}

static void sent(void *req, ucs_status_t st, void *arg)
{
    sendbuf *b = arg;
    pe_state *s = b->s;
    if (st != UCS_OK && !atomic_load(&U.ended) && !b->ctrl)
        failed(-1, st, "a message to another process");
    buf_free(b);
    atomic_fetch_sub_explicit(&s->sends, 1, memory_order_relaxed);
    ucp_request_free(req);
}

/* A buffer of `bytes` behind its sendbuf, freed when the send completes. */
static void *send_buf(int l, size_t bytes)
{
    pe_state *s = &U.pe[l];
    sendbuf *b;
    bool small = sizeof *b + bytes <= SMALL_BUF;
    if (small && s->small_free) { /* a send is a malloc and a free otherwise (from the running rank's heap) */
        b = s->small_free;
        s->small_free = *(void **)b;
    } else if ((b = malloc(small ? SMALL_BUF : sizeof *b + bytes)) == NULL) {
        H->fatal("out of memory sending %zu bytes to another process", bytes);
    }
    *b = (sendbuf){s, small, 0};
    return b + 1;
}

/* Sends header + data on endpoint `ep` of local PE `l`; `hdr` is a send_buf, freed when UCX is done with
 * header and data (the data must live until then). */
static void send_am(int l, ucp_ep_h ep, unsigned am, const void *hdr, size_t hlen, const void *data, size_t len,
                    uint32_t flags)
{
    pe_state *s = &U.pe[l];
    sendbuf *arg = (sendbuf *)hdr - 1;
    arg->ctrl = am == AM_CTRL;
    if (am != AM_CTRL)
        __atomic_store_n(&s->sent, s->sent + 1, __ATOMIC_RELAXED);
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                                              UCP_OP_ATTR_FIELD_FLAGS,
                              .cb.send = sent,
                              .user_data = arg,
                              .flags = flags};
    ucs_status_ptr_t r = ucp_am_send_nbx(ep, am, hdr, hlen, data, len, &rp);
    if (r == NULL) {
        buf_free(arg);
    } else if (UCS_PTR_IS_ERR(r)) {
        buf_free(arg);
        if (!atomic_load(&U.ended) && !arg->ctrl)
            failed(-1, UCS_PTR_STATUS(r), "sending a message to another process");
    } else {
        atomic_fetch_add_explicit(&s->sends, 1, memory_order_relaxed);
    }
}

static size_t ucx_am_max(const vmpi_xport *x) { return U.am_max; }

static void ucx_am_send(vmpi_xport *x, int dst_pe, uint32_t id, size_t len, vmpi_xport_pack_fn pack, void *arg)
{
    int l = self_local();
    msg_hdr *h = send_buf(l, sizeof *h + len);
    *h = (msg_hdr){.id = id, .src_pe = (uint32_t)(U.first + l), .seq = U.pe[l].seq_out[dst_pe]++};
    pack(h + 1, len, arg);
    TRACE("vmpi net %d: PE %d -> PE %d: message %u, %zu bytes, seq %u\n", U.self, U.first + l, dst_pe, id, len, h->seq);
    count(l, 0, 1);
    count(l, 1, len);
    send_am(l, ep_of(l, dst_pe), AM_MSG, h, sizeof *h, h + 1, len, UCP_AM_SEND_FLAG_EAGER);
}

static ucs_status_t on_msg(void *arg, const void *header, size_t hlen, void *data, size_t len,
                           const ucp_am_recv_param_t *param)
{
    int l = (int)(intptr_t)arg;
    msg_hdr hd, *h = &hd;
    if (hlen != sizeof *h || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV))
        H->fatal("internal error: a malformed message from another process (header %zu bytes, rendezvous %d)", hlen,
                 !!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV));
    memcpy(&hd, header, sizeof hd); /* (UCX aligns neither header nor data on every path) */
    uint32_t *expect = &U.pe[l].seq_in[h->src_pe];
    if (h->seq != *expect)
        H->fatal("internal error: messages from PE %u to PE %d arrived out of order (%u, expected %u): UCX "
                 "delivered them on several lanes", h->src_pe, U.first + l, h->seq, *expect);
    (*expect)++;
    TRACE("vmpi net %d: PE %d <- PE %u: message %u, %zu bytes, seq %u\n", U.self, U.first + l, h->src_pe, h->id, len,
          h->seq);
    pe_state *s = &U.pe[l];
    if (((uintptr_t)data & 15) == 0 || len == 0) {
        H->deliver(U.first + l, (int)h->src_pe, h->id, data, len);
        count_received(l);
        return UCS_OK;
    }
    /* the host's handlers read structs from the data (its own headers): copied to an aligned place first */
    bool mine = !s->aligned_busy;
    void *a = mine ? s->aligned : aligned_alloc(16, (len + 15) & ~(size_t)15);
    if (a == NULL)
        H->fatal("out of memory receiving %zu bytes from another process", len);
    memcpy(a, data, len);
    s->aligned_busy = true;
    H->deliver(U.first + l, (int)h->src_pe, h->id, a, len);
    if (mine)
        s->aligned_busy = false;
    else
        free(a);
    count_received(l);
    return UCS_OK;
}

/* ---- one-sided operations ---- */

static pending_op *op_new(int l, vmpi_xport_comp *c)
{
    pending_op *o = calloc(1, sizeof *o);
    if (o == NULL)
        H->fatal("out of memory for a one-sided operation to another process");
    o->c = c;
    o->pe = l;
    atomic_fetch_add_explicit(&U.pe[l].ops, 1, memory_order_relaxed);
    return o;
}

static void op_done(pending_op *o)
{
    vmpi_xport_comp *c = o->c;
    atomic_fetch_sub_explicit(&U.pe[o->pe].ops, 1, memory_order_relaxed);
    free(o);
    c->done(c);
}

/* A request sent by message; `o` lives until the origin gets the answer. */
static void op_send(pending_op *o, int dst_pe, unsigned am, const void *data, size_t len)
{
    o->h.token = (uint64_t)(uintptr_t)o;
    o->h.src_pe = (uint32_t)(U.first + o->pe);
    op_hdr *h = send_buf(o->pe, sizeof *h);
    *h = o->h;
    send_am(o->pe, ep_of(o->pe, dst_pe), am, h, sizeof *h, data, len, 0);
}

/* A get (or a put) between processes of one node: the kernel copies `len` bytes between `local` here and
 * `remote` in the process of PE dst_pe.  One call moves at most about 2 GiB (the kernel's MAX_RW_COUNT) and
 * says how much it moved: the rest takes more calls (pt2pt/large_message's 2.16 GB failed otherwise). */
static void cma_copy(bool write, int dst_pe, void *local, uint64_t remote, size_t len)
{
    pid_t pid = U.pid[proc_of(dst_pe)];
    for (size_t done = 0; done < len;) {
        struct iovec lv = {(char *)local + done, len - done}, rv = {(void *)(uintptr_t)(remote + done), len - done};
        ssize_t n = write ? process_vm_writev(pid, &lv, 1, &rv, 1, 0) : process_vm_readv(pid, &lv, 1, &rv, 1, 0);
        if (n <= 0)
            H->fatal("process %d: %s %zu bytes at %#llx in process %d failed after %zu: %s", U.self,
                     write ? "writing" : "reading", len, (unsigned long long)remote, proc_of(dst_pe), done,
                     n < 0 ? strerror(errno) : "no progress");
        done += (size_t)n;
    }
}

/* A get's or a put's flush by UCX completed (on its PE, in its worker's progress). */
static void rma_done(void *req, ucs_status_t st, void *arg)
{
    vmpi_xport_comp *c = arg;
    if (st != UCS_OK) {
        failed(-1, st, "a one-sided operation on another process's memory");
        ucp_request_free(req);
        return;
    }
    pe_state *s = &U.pe[self_local()];
    atomic_fetch_sub_explicit(&s->rma, 1, memory_order_relaxed);
    atomic_fetch_sub_explicit(&s->ops, 1, memory_order_relaxed);
    ucp_request_free(req);
    c->done(c);
}

static void rma_started(int l, ucs_status_ptr_t r, vmpi_xport_comp *c, const char *what)
{
    if (r == NULL) { /* complete already (UCX's cma copies at once) */
        c->done(c);
        return;
    }
    if (UCS_PTR_IS_ERR(r)) {
        failed(-1, UCS_PTR_STATUS(r), what);
        return;
    }
    atomic_fetch_add_explicit(&U.pe[l].rma, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&U.pe[l].ops, 1, memory_order_relaxed);
}

/* Whether UCX carries RMA to process k on an RMA lane (an RDMA device's: one-sided), as the endpoint `ep`
 * to one of its PEs shows (UCX 1.13 has no query for it: ucp_ep_print_info's lanes, a lane used for RMA
 * reading " rma#N").  Without one UCX emulates get and put with its own active messages, which the target's
 * worker serves: vmpi's messages are then used instead (measured faster for large transfers: they move the
 * data by UCX's zero-copy rendezvous, where the emulation copies it in fragments), unless
 * VMPI_NET_RMA_EMULATED=1.  Decided once per process (every endpoint to it has the same transports). */
static bool rma_lane(int k, ucp_ep_h ep)
{
    signed char v = atomic_load_explicit(&U.rma_lane[k], memory_order_relaxed);
    if (v >= 0)
        return v;
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (f) {
        ucp_ep_print_info(ep, f);
        fclose(f);
    }
    v = text && strstr(text, " rma#") != NULL;
    free(text);
    atomic_store_explicit(&U.rma_lane[k], v, memory_order_relaxed);
    TRACE("vmpi net %d: RMA to process %d: %s\n", U.self, k,
          v ? "UCX's RMA lane" : "no RMA lane (UCX would emulate it)");
    return v;
}

/* UCX's one-sided get or put when process k exposed [remote, remote + len) (rkey.c); false otherwise. */
static bool rma_xfer(int l, bool put, int dst_pe, int k, void *local, uint64_t remote, size_t len,
                     vmpi_xport_comp *c)
{
    if (!U.rma || len == 0)
        return false;
    ucp_ep_h ep = ep_of(l, dst_pe);
    if (!U.rma_emulated && !rma_lane(k, ep))
        return false;
    ucp_rkey_h rk = vmpi_rkey_find(l, ep, k, dst_pe, remote, len);
    if (rk == NULL)
        return false;
    count(l, 8, 1);
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                              .cb.send = rma_done,
                              .user_data = c};
    if (!put) {
        rma_started(l, ucp_get_nbx(ep, local, len, remote, rk, &rp), c, "reading another process's memory");
        return true;
    }
    /* done when its bytes are at the target: the endpoint's flush (after the put's own completion) says so */
    ucp_request_param_t np = {.op_attr_mask = 0};
    ucs_status_ptr_t r = ucp_put_nbx(ep, local, len, remote, rk, &np);
    if (UCS_PTR_IS_ERR(r)) {
        failed(k, UCS_PTR_STATUS(r), "writing another process's memory");
        return true;
    }
    if (r != NULL)
        ucp_request_free(r); /* it goes on; the flush completes after it */
    rma_started(l, ucp_ep_flush_nbx(ep, &rp), c, "writing another process's memory");
    return true;
}

static void ucx_get(vmpi_xport *x, int dst_pe, void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    int l = self_local(), k = proc_of(dst_pe);
    count(l, 2, 1);
    count(l, 3, len);
    if (U.cma[k]) {
        cma_copy(false, dst_pe, local, remote, len);
        count(l, 7, 1);
        c->done(c);
        return;
    }
    if (rma_xfer(l, false, dst_pe, k, local, remote, len, c))
        return;
    pending_op *o = op_new(l, c);
    o->local = local;
    o->len = len;
    o->h.remote = remote;
    o->h.len = len;
    op_send(o, dst_pe, AM_GET, NULL, 0);
}

static void ucx_put(vmpi_xport *x, int dst_pe, const void *local, uint64_t remote, size_t len, vmpi_xport_comp *c)
{
    int l = self_local(), k = proc_of(dst_pe);
    count(l, 4, 1);
    count(l, 5, len);
    if (U.cma[k]) {
        cma_copy(true, dst_pe, (void *)local, remote, len);
        count(l, 7, 1);
        c->done(c);
        return;
    }
    if (rma_xfer(l, true, dst_pe, k, (void *)local, remote, len, c))
        return;
    pending_op *o = op_new(l, c);
    o->h.remote = remote;
    o->h.len = len;
    op_send(o, dst_pe, AM_PUT, local, len);
}

static void ucx_atomic(vmpi_xport *x, int dst_pe, vmpi_xport_aop op, uint64_t remote, int size, uint64_t operand,
                       uint64_t compare, uint64_t *result, vmpi_xport_comp *c)
{
    int l = self_local();
    count(l, 6, 1);
    pending_op *o = op_new(l, c);
    o->result = result;
    o->h.remote = remote;
    o->h.op = (uint32_t)op;
    o->h.size = (uint32_t)size;
    o->h.operand = operand;
    o->h.compare = compare;
    op_send(o, dst_pe, AM_ATOMIC, NULL, 0);
}

/* The answer to an operation, from the target PE `l` to the origin, with `data` (the target's memory). */
static void answer(int l, const op_hdr *req, unsigned am, uint64_t result, const void *data, size_t len)
{
    op_hdr *a = send_buf(l, sizeof *a);
    *a = *req;
    a->result = result;
    send_am(l, ep_of(l, (int)req->src_pe), am, a, sizeof *a, data, len, 0);
}

typedef struct recv_into {
    int l;
    op_hdr h;                /* the request (put: to acknowledge) */
    pending_op *o;           /* get: the origin's record */
} recv_into;

/* Data of a get's answer (into the origin's buffer, `o`) or of a put (into the target's memory, request `h`)
 * is in place: the get completes, the put is acknowledged. */
static void landed(int l, pending_op *o, const op_hdr *h)
{
    if (o)
        op_done(o);
    else
        answer(l, h, AM_PUT_ANS, 0, NULL, 0);
}

static void received(void *req, ucs_status_t st, size_t len, void *arg)
{
    recv_into *r = arg;
    if (st != UCS_OK) {
        failed(-1, st, "receiving data from another process");
        free(r);
        if (req)
            ucp_request_free(req);
        return;
    }
    landed(r->l, r->o, &r->h);
    count_received(r->l);
    free(r);
    if (req)
        ucp_request_free(req);
}

/* Data for `to` that came with a message: in place (copied), or fetched by UCX's rendezvous straight into
 * `to` (zero copy); then landed(). */
static ucs_status_t take_data(int l, void *data, size_t len, const ucp_am_recv_param_t *param, void *to,
                              pending_op *o, const op_hdr *h)
{
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
        memcpy(to, data, len);
        landed(l, o, h);
        return UCS_OK;
    }
    recv_into *r = calloc(1, sizeof *r);
    if (r == NULL)
        H->fatal("out of memory receiving from another process");
    r->l = l;
    r->o = o;
    if (h)
        r->h = *h;
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                              .cb.recv_am = received,
                              .user_data = r};
    ucs_status_ptr_t q = ucp_am_recv_data_nbx(U.pe[l].w, data, to, len, &rp);
    if (UCS_PTR_IS_ERR(q))
        H->fatal("process %d: receiving data from another process failed: %s", U.self,
                 ucs_status_string(UCS_PTR_STATUS(q)));
    if (q == NULL) {
        received(NULL, UCS_OK, len, r); /* complete at once: the callback is not called */
        return UCS_OK;
    }
    return UCS_INPROGRESS;
}

static ucs_status_t handle_op(int l, int am, const void *header, size_t hlen, void *data, size_t len,
                              const ucp_am_recv_param_t *param);

static ucs_status_t on_op(void *arg, const void *header, size_t hlen, void *data, size_t len,
                          const ucp_am_recv_param_t *param)
{
    int l = (int)(intptr_t)((uintptr_t)arg >> 8), am = (int)((uintptr_t)arg & 0xff);
    ucs_status_t st = handle_op(l, am, header, hlen, data, len, param);
    /* received once handled: data still coming (rendezvous) counts when it is in place (received()) */
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV))
        count_received(l);
    return st;
}

static ucs_status_t handle_op(int l, int am, const void *header, size_t hlen, void *data, size_t len,
                              const ucp_am_recv_param_t *param)
{
    op_hdr h;
    if (hlen != sizeof h)
        H->fatal("internal error: a malformed one-sided operation from another process");
    memcpy(&h, header, sizeof h);
    pending_op *o = (pending_op *)(uintptr_t)h.token;
    switch (am) {
    case AM_ATOMIC:
        answer(l, &h, AM_ATOMIC_ANS,
               H->local_atomic((vmpi_xport_aop)h.op, (void *)(uintptr_t)h.remote, (int)h.size, h.operand, h.compare),
               NULL, 0);
        return UCS_OK;
    case AM_ATOMIC_ANS:
        *o->result = h.result;
        op_done(o);
        return UCS_OK;
    case AM_GET:
        answer(l, &h, AM_GET_ANS, 0, (const void *)(uintptr_t)h.remote, h.len);
        return UCS_OK;
    case AM_GET_ANS:
        return take_data(l, data, len, param, o->local, o, NULL);
    case AM_PUT:
        return take_data(l, data, len, param, (void *)(uintptr_t)h.remote, NULL, &h);
    case AM_PUT_ANS:
        op_done(o);
        return UCS_OK;
    }
    return UCS_OK;
}

/* ---- the job-wide deadlock check ----
 * A process whose PEs all sleep with nothing to do (its ranks blocked, or all done) tells process 0 its
 * counts of messages sent to and received from other processes (IDLE, once per idle period).  Process 0,
 * holding such a report from every process with as many messages received as sent, asks each process for
 * its counts again (PROBE, STATE): if none changed since its report, every process was idle at its report
 * and nothing moved since (the four-counter argument), so with ranks still live the job is deadlocked:
 * every process prints where its ranks wait (REPORT, REPORTED), then process 0 ends the job.  All of it runs
 * in handlers on process 0's first PE, and these messages are not counted in the traffic they check. */

static struct {
    uint64_t (*rep)[3];      /* [nprocs]: sent, received, live at the last IDLE */
    bool *have;
    int nhave, nstate, nreported;
    uint32_t round;
    bool probing, changed;
    uint64_t last[2];        /* this process's counts at its last IDLE (any process) */
    bool sent_idle;
    int quiet;               /* probe rounds in a row that found nothing moved */
    bool again;              /* a confirming round starts at `again_at` (process 0's first PE polls for it) */
    struct timespec again_at;
    atomic_flag reporting;   /* a PE of this process is in vmpi_ucx_idle (two can be: a PE that wakes and
                              * sleeps again while another checks is the last asleep too) */
} Q;

static int first_pe_of(int k) { return (int)((long)k * U.job_npes / U.nprocs); }

/* A deadlock is reported only when CONFIRM_ROUNDS probe rounds in a row, CONFIRM_PAUSE_MS apart, found
 * nothing moved.  One round is enough by the four-counter argument; the second is there because jobs under
 * load still met a rare false report with every rank in MPI_Allreduce (about 1 run in 400 of
 * coll/allreduce:8x2 over TCP, none in 390 runs with the check off: the job was not stuck), whose cause is
 * not found.  A real deadlock is reported a fraction of a second later. */
enum { CONFIRM_ROUNDS = 2, CONFIRM_PAUSE_MS = 200 };

static void maybe_probe(int l);

/* Process 0's first PE, in its poll (a sleeping PE looks every SLEEP_MAX_MS): the confirming round. */
static void confirm_check(int l)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (t.tv_sec < Q.again_at.tv_sec || (t.tv_sec == Q.again_at.tv_sec && t.tv_nsec < Q.again_at.tv_nsec))
        return;
    Q.again = false;
    maybe_probe(l);
}

/* A check's message, with this process's counts of messages sent and received (read by the caller).  It
 * may find its target process gone (the job ends: process 0 tears its workers down once every process
 * reached the end's fence, before this one has seen the fence pass) or refusing connections: it is
 * dropped, as a process really lost ends the job through the launcher anyway.  No connection is begun once
 * this process's ranks are done: one still being wired when the workers are destroyed trips an assertion of
 * UCX 1.13 over TCP (3 runs in 292 of pt2pt and coll); a PE that talked to process 0 before still reports. */
static void ctrl_send_counts(int l, int proc, uint32_t type, uint32_t round, uint64_t s, uint64_t r)
{
    if (U.pe[l].ep[first_pe_of(proc)] == NULL && atomic_load_explicit(&U.ending, memory_order_relaxed))
        return;
    ucs_status_t st;
    ucp_ep_h ep = ep_try(l, first_pe_of(proc), &st);
    if (ep == NULL)
        return;
    ctrl_hdr *h = send_buf(l, sizeof *h);
    *h = (ctrl_hdr){.type = type, .proc = (uint32_t)U.self, .round = round, .sent = s, .received = r,
                    .live = (uint64_t)H->live()};
    send_am(l, ep, AM_CTRL, h, sizeof *h, NULL, 0, 0);
}

static void ctrl_send(int l, int proc, uint32_t type, uint32_t round)
{
    uint64_t s, r;
    vmpi_ucx_traffic(&s, &r);
    ctrl_send_counts(l, proc, type, round, s, r);
}

static void maybe_probe(int l)
{
    if (Q.probing || Q.nhave < U.nprocs)
        return;
    uint64_t s = 0, r = 0;
    for (int k = 0; k < U.nprocs; k++)
        s += Q.rep[k][0], r += Q.rep[k][1];
    if (s != r)
        return; /* messages on the wire: their receivers will report again */
    Q.probing = true;
    Q.changed = false;
    Q.nstate = 0;
    Q.round++;
    for (int k = 0; k < U.nprocs; k++)
        ctrl_send(l, k, C_PROBE, Q.round);
}

static ucs_status_t on_ctrl(void *arg, const void *header, size_t hlen, void *data, size_t len,
                            const ucp_am_recv_param_t *param)
{
    int l = (int)(intptr_t)arg;
    ctrl_hdr h;
    if (hlen != sizeof h)
        H->fatal("internal error: a malformed control message from another process");
    memcpy(&h, header, sizeof h);
    int k = (int)h.proc;
    switch (h.type) {
    case C_IDLE:
        /* a process's reports leave from whichever PE fell asleep last, on that PE's own connection, so an
         * older one may arrive after a newer one: the counts only grow, so a report with fewer is stale
         * (taken, it would have the probe find the process moved, and the process, idle with the counts it
         * reported last, would never report again: a deadlock never reported, or a hang) */
        if (h.sent + h.received < Q.rep[k][0] + Q.rep[k][1])
            break;
        /* it moved since the counts this round compares with (a process reports again only when its counts
         * changed): comparing its answer with these new counts would miss what it sent before them */
        if (Q.probing)
            Q.changed = true;
        Q.quiet = 0; /* (its counts grew: maybe_probe below starts afresh) */
        Q.again = false;
        if (!Q.have[k])
            Q.nhave++;
        Q.have[k] = true;
        Q.rep[k][0] = h.sent, Q.rep[k][1] = h.received, Q.rep[k][2] = h.live;
        maybe_probe(l);
        break;
    case C_PROBE:
        ctrl_send(l, 0, C_STATE, h.round);
        break;
    case C_STATE:
        if (!Q.probing || h.round != Q.round)
            break;
        if (!Q.have[k] || h.sent != Q.rep[k][0] || h.received != Q.rep[k][1]) {
            Q.changed = true; /* it moved: it reports again when idle */
            if (Q.have[k])
                Q.nhave--;
            Q.have[k] = false;
        }
        if (++Q.nstate < U.nprocs)
            break;
        Q.probing = false;
        uint64_t live = 0;
        for (int j = 0; j < U.nprocs; j++)
            live += Q.rep[j][2];
        if (Q.changed || live == 0) { /* (all done: the job ends by itself) */
            Q.quiet = 0;
            maybe_probe(l);
            break;
        }
        if (++Q.quiet < CONFIRM_ROUNDS) { /* a second round, a pause later, must find the same */
            clock_gettime(CLOCK_MONOTONIC, &Q.again_at);
            Q.again_at.tv_nsec += CONFIRM_PAUSE_MS * 1000000L;
            Q.again_at.tv_sec += Q.again_at.tv_nsec / 1000000000L;
            Q.again_at.tv_nsec %= 1000000000L;
            Q.again = true;
            break;
        }
        Q.quiet = 0;
        H->report_blocked((long)live);
        Q.nreported = 1;
        for (int j = 1; j < U.nprocs; j++)
            ctrl_send(l, j, C_REPORT, Q.round);
        break;
    case C_REPORT:
        H->report_blocked(0);
        ctrl_send(l, 0, C_REPORTED, h.round);
        break;
    case C_REPORTED:
        if (++Q.nreported == U.nprocs)
            H->die(1);
        break;
    }
    return UCS_OK;
}

/* The counts are read before the host confirms that no PE woke meanwhile: counts read after a PE took a
 * message, from a process then active, would make the probe's unchanged answer look like idleness. */
void vmpi_ucx_idle(bool (*still_idle)(void))
{
    if (atomic_load(&U.ended) || atomic_flag_test_and_set(&Q.reporting))
        return; /* (the other PE reports this process's counts) */
    uint64_t s, r;
    vmpi_ucx_traffic(&s, &r);
    if ((!Q.sent_idle || s != Q.last[0] || r != Q.last[1]) && still_idle()) { /* not reported yet, or moved */
        Q.sent_idle = true;
        Q.last[0] = s, Q.last[1] = r;
        ctrl_send_counts(self_local(), 0, C_IDLE, 0, s, r);
    }
    atomic_flag_clear(&Q.reporting);
}

static void ucx_flush(vmpi_xport *x, int pe)
{
    int l = local(pe);
    while (atomic_load_explicit(&U.pe[l].ops, memory_order_relaxed))
        ucp_worker_progress(U.pe[l].w);
}

static bool ucx_expose(vmpi_xport *x, uint64_t addr, size_t len, void **key, size_t *klen)
{
    return vmpi_rkey_expose(addr, len, key, klen);
}

static void ucx_unexpose(vmpi_xport *x, uint64_t addr, size_t len) { vmpi_rkey_unexpose(addr, len); }

static void ucx_remote_add(vmpi_xport *x, int proc, uint64_t addr, size_t len, const void *key, size_t klen)
{
    vmpi_rkey_add(proc, addr, len, key, klen);
}

static void ucx_remote_remove(vmpi_xport *x, int proc, uint64_t addr, size_t len)
{
    vmpi_rkey_remove(proc, addr, len);
}

static const vmpi_xport_ops ucx_ops = {
    .name = "UCX",
    .am_max = ucx_am_max,
    .am_send = ucx_am_send,
    .get = ucx_get,
    .put = ucx_put,
    .atomic = ucx_atomic,
    .flush = ucx_flush,
    .expose = ucx_expose,
    .unexpose = ucx_unexpose,
    .remote_add = ucx_remote_add,
    .remote_remove = ucx_remote_remove,
};

vmpi_xport vmpi_ucx_xport = {&ucx_ops, "ucx"};

/* ---- progress ---- */

static void start_flush(int l);

static bool is_self(int pe) { return H->self_pe() == pe; }

int vmpi_ucx_poll(struct vmpi_pe *pe)
{
    int id = pe->id, n = 0;
    if (id < U.first || id >= U.first + U.npes || atomic_load_explicit(&U.held, memory_order_acquire))
        return 0;
    ucp_worker_h w = U.pe[id - U.first].w;
    lost_check();
    if (__builtin_expect(id == U.first && U.self == 0 && Q.again, 0)) /* (only that PE touches Q) */
        confirm_check(0);
    if (__builtin_expect(atomic_load_explicit(&U.ending, memory_order_relaxed), 0) && U.pe[id - U.first].flush == 0)
        start_flush(id - U.first);
    vmpi_rkey_reap(id - U.first, atomic_load_explicit(&U.pe[id - U.first].rma, memory_order_relaxed) == 0);
    while (ucp_worker_progress(w))
        n++;
    return n;
}

bool vmpi_ucx_backlog(int pe)
{
    pe_state *s = &U.pe[local(pe)];
    /* held (a stop of the world after the job-wide quiescence): every message sent was received, only its
     * local completion may lag (TCP), and it can wait */
    if (atomic_load_explicit(&U.held, memory_order_acquire))
        return false;
    if (atomic_load_explicit(&U.ending, memory_order_relaxed) && s->flush != 2)
        return true; /* its flush must move on (or start) */
    /* UCX's get and put move on in this worker's progress only (and a PE waiting for one would not sleep) */
    return atomic_load_explicit(&s->sends, memory_order_relaxed) != 0 ||
           atomic_load_explicit(&s->rma, memory_order_relaxed) != 0;
}

/* Asked by the PE itself (sched.h): whether its worker had anything (handlers ran; a woken rank is on the run
 * queue then); answered by a progress, as UCX has no cheaper test.  (No check that the caller is PE `pe`:
 * a call through the host's table per pass of the spin loops.) */
bool vmpi_ucx_work(int pe)
{
    if (atomic_load_explicit(&U.held, memory_order_acquire))
        return false;
    return ucp_worker_progress(U.pe[local(pe)].w) != 0 || vmpi_ucx_backlog(pe);
}

/* Asked by a PE before it sleeps (and by the deadlock check): with nothing to do, the worker is armed, and
 * its event wakes the PE (vmpi_ucx_sleep) when the network brings something. */
bool vmpi_ucx_ready(int pe)
{
    if (!is_self(pe) || atomic_load_explicit(&U.held, memory_order_acquire))
        return false;
    pe_state *s = &U.pe[local(pe)];
    /* Twice: UCX 1.13 polls an interface no endpoint of this worker uses only once its first message
     * comes (the async thread sees it and leaves a callback for the next progress, which arms or activates
     * it); a message that lands while that callback arms it makes the arm fail and the callback stay, seen
     * by the next progress only, and ucp_worker_arm does not arm such an interface: a PE that slept after
     * one progress that returned 0 was never woken (coll/userop:64x2 as 3 processes, 1 run in 50) */
    if (ucp_worker_progress(s->w) || ucp_worker_progress(s->w))
        return true;
    ucs_status_t st = ucp_worker_arm(s->w);
    if (st == UCS_ERR_BUSY)
        return true;
    if (st != UCS_OK)
        H->fatal("process %d: arming the UCX worker of PE %d failed: %s", U.self, pe, ucs_status_string(st));
    struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u32 = EV_WORKER};
    if (epoll_ctl(s->epfd, EPOLL_CTL_MOD, s->efd, &ev) != 0)
        H->fatal("process %d: epoll_ctl on the worker of PE %d: %s", U.self, pe, strerror(errno));
    return false;
}

/* Messages may be on the wire between processes at any time: a job of several processes is never declared
 * deadlocked by one of them alone (the global check is still to come).  While held, what arrives waits: a
 * stop of this process's world may go on. */
bool vmpi_ucx_in_flight(void) { return !atomic_load(&U.stopping) && !atomic_load(&U.held); }

/* A PE that went to sleep while held did not arm its worker (vmpi_ucx_ready): when the hold ends every PE is
 * woken, to progress and arm again, or what arrives afterwards would never wake it. */
void vmpi_ucx_hold(bool on)
{
    atomic_store(&U.held, on);
    for (int l = 0; !on && l < U.npes; l++)
        H->wake(U.first + l);
}

void vmpi_ucx_traffic(uint64_t *sent, uint64_t *received)
{
    uint64_t s = 0, r = 0;
    for (int l = 0; l < U.npes; l++) {
        s += __atomic_load_n(&U.pe[l].sent, __ATOMIC_RELAXED);
        r += __atomic_load_n(&U.pe[l].received, __ATOMIC_ACQUIRE); /* (count_received) */
    }
    *sent = s;
    *received = r;
}

/* An idle PE sleeps here, not on a futex (sched.h, the source's sleep and wake): in epoll on its worker's
 * descriptor (armed by vmpi_ucx_ready, one-shot) and on its event fd, which vmpi_ucx_wake writes after the
 * scheduler cleared its word.  A message from another process so wakes its PE directly; a waker thread that
 * epolled every worker and then woke the PE's futex cost a second thread wake-up per message (most of a
 * hop's time when PE threads outnumber the cores). */
/* The longest sleep without a look at the worker: a wake-up that UCX loses (as in vmpi_ucx_ready) costs this
 * much time instead of the job; ten wake-ups a second of an idle PE cost nothing measurable. */
enum { SLEEP_MAX_MS = 100 };

void vmpi_ucx_sleep(int pe, _Atomic uint32_t *word)
{
    pe_state *s = &U.pe[local(pe)];
    struct epoll_event ev[2];
    while (atomic_load(word)) {
        int n = epoll_wait(s->epfd, ev, 2, SLEEP_MAX_MS);
        if (n == 0)
            H->wake(pe); /* (a look at the worker now and then: see SLEEP_MAX_MS) */
        for (int i = 0; i < n; i++) {
            uint64_t v;
            if (ev[i].data.u32 == EV_WORKER)
                H->wake(pe); /* clears the word (and counts the PE awake) */
            else if (read(s->wfd, &v, sizeof v) < 0) { /* drained: a late write wakes the next sleep once */
            }
        }
    }
}

void vmpi_ucx_wake(int pe)
{
    uint64_t one = 1;
    if (write(U.pe[local(pe)].wfd, &one, sizeof one) < 0) { /* full (2^64 - 2): it is readable anyway */
    }
}

/* ---- start and end ---- */

typedef struct blob_hdr {
    uint64_t glen, pid, probe_addr, probe_value;
    int32_t node, npes, first, unused;
    char host[64];
} blob_hdr;

/* VMPI_NET_CMA=0: get and put by messages between processes of one node too (as between nodes: tests
 * and measures that path). */
static void cma_probe(void)
{
    bool allowed = env_bool("VMPI_NET_CMA", true);
    for (int k = 0; k < U.nprocs; k++) {
        blob_hdr b;
        memcpy(&b, U.blobs[k], sizeof b);
        U.cma[k] = false;
        if (!allowed || k == U.self || U.node_of[k] != U.node)
            continue;
        uint64_t v = 0;
        struct iovec lv = {&v, sizeof v}, rv = {(void *)(uintptr_t)b.probe_addr, sizeof v};
        U.cma[k] = process_vm_readv(U.pid[k], &lv, 1, &rv, 1, 0) == (ssize_t)sizeof v && v == b.probe_value;
    }
}

ucp_context_h vmpi_ucx_context(const ucp_params_t *pp, const char *what)
{
    ucp_config_t *cfg;
    ucp_context_h ctx = NULL;
    ucs_status_t st = ucp_config_read(NULL, NULL, &cfg);
    /* A job on one node needs shared memory only: UCX's default also opens a TCP interface on every network
     * device, listening for connections from anyone (UCX_TLS, when set, is the user's choice) */
    if (st == UCS_OK && U.one_node && getenv("UCX_TLS") == NULL)
        st = ucp_config_modify(cfg, "TLS", "sm,self");
    if (st == UCS_OK) {
        st = ucp_init(pp, cfg, &ctx);
        ucp_config_release(cfg);
    }
    if (st != UCS_OK)
        H->fatal("process %d: UCX could not start%s: %s (check the UCX_* settings, e.g. UCX_TLS, UCX_NET_DEVICES)",
                 U.self, what, ucs_status_string(st));
    return ctx;
}

void vmpi_ucx_start(int first, int npes, int job_npes, const vmpi_net_job *job, const void *geometry, size_t glen)
{
    U.first = first;
    U.npes = npes;
    U.job_npes = job_npes;
    U.nprocs = job->nprocs;
    U.self = job->self;
    U.node = job->node;
    trace = env_bool("VMPI_NET_TRACE", false);
    U.rma = env_bool("VMPI_NET_RMA", true);
    U.rma_emulated = env_bool("VMPI_NET_RMA_EMULATED", false);
    ucp_params_t pp = {.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED |
                                     UCP_PARAM_FIELD_ESTIMATED_NUM_EPS,
                       .features = UCP_FEATURE_AM | UCP_FEATURE_WAKEUP | (U.rma ? UCP_FEATURE_RMA : 0),
                       .mt_workers_shared = 1,
                       .estimated_num_eps = (size_t)job_npes};
    U.one_node = job->local_size == job->nprocs;
    U.ctx = vmpi_ucx_context(&pp, "");
    ucs_status_t st;
    U.pe = aligned_alloc(64, sizeof(pe_state) * (size_t)npes);
    if (U.pe == NULL)
        H->fatal("process %d: out of resources starting the transport", U.self);
    memset(U.pe, 0, sizeof(pe_state) * (size_t)npes);
    size_t blen = sizeof(blob_hdr) + glen;
    ucp_address_t *a[npes];
    size_t alen[npes];
    for (int l = 0; l < npes; l++) {
        pe_state *s = &U.pe[l];
        ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE | UCP_WORKER_PARAM_FIELD_AM_ALIGNMENT,
                                  .thread_mode = UCS_THREAD_MODE_SERIALIZED,
                                  .am_alignment = 16};
        if ((st = ucp_worker_create(U.ctx, &wp, &s->w)) != UCS_OK ||
            (st = ucp_worker_get_address(s->w, &a[l], &alen[l])) != UCS_OK ||
            (st = ucp_worker_get_efd(s->w, &s->efd)) != UCS_OK)
            H->fatal("process %d: cannot make the UCX worker of PE %d: %s", U.self, first + l, ucs_status_string(st));
        for (unsigned am = 0; am < AM_COUNT; am++) {
            ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                                                       UCP_AM_HANDLER_PARAM_FIELD_FLAGS | UCP_AM_HANDLER_PARAM_FIELD_ARG,
                                         .id = am,
                                         .flags = UCP_AM_FLAG_WHOLE_MSG,
                                         .cb = am == AM_MSG ? on_msg : am == AM_CTRL ? on_ctrl : on_op,
                                         .arg = am == AM_MSG || am == AM_CTRL ? (void *)(intptr_t)l
                                                                              : (void *)(((uintptr_t)l << 8) | am)};
            if ((st = ucp_worker_set_am_recv_handler(s->w, &hp)) != UCS_OK)
                H->fatal("process %d: cannot set a UCX handler: %s", U.self, ucs_status_string(st));
        }
        s->ep = calloc((size_t)job_npes, sizeof *s->ep);
        s->seq_out = calloc((size_t)job_npes, sizeof *s->seq_out);
        s->seq_in = calloc((size_t)job_npes, sizeof *s->seq_in);
        if (!s->ep || !s->seq_out || !s->seq_in)
            H->fatal("out of memory for the endpoints of PE %d", first + l);
        struct epoll_event ev = {.events = EPOLLIN | EPOLLONESHOT, .data.u32 = EV_WORKER},
                           wv = {.events = EPOLLIN, .data.u32 = EV_WAKE};
        s->epfd = epoll_create1(EPOLL_CLOEXEC);
        s->wfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (s->epfd < 0 || s->wfd < 0 || epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->efd, &ev) != 0 ||
            epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->wfd, &wv) != 0)
            H->fatal("process %d: cannot set up the sleep of PE %d: %s", U.self, first + l, strerror(errno));
        blen += sizeof(uint64_t) + alen[l];
    }
    /* the blob: header, geometry, then each PE's address (length, bytes) */
    probe_word = 0x766d7069ull ^ ((uint64_t)getpid() << 20);
    char *blob = malloc(blen), *p = blob;
    if (blob == NULL)
        H->fatal("out of memory for the wire-up");
    blob_hdr bh = {.glen = glen, .pid = (uint64_t)getpid(), .probe_addr = (uint64_t)(uintptr_t)&probe_word,
                   .probe_value = probe_word, .node = job->node, .npes = npes, .first = first};
    snprintf(bh.host, sizeof bh.host, "%.63s", job->host);
    memcpy(p, &bh, sizeof bh), p += sizeof bh;
    memcpy(p, geometry, glen), p += glen;
    for (int l = 0; l < npes; l++) {
        uint64_t n = alen[l];
        memcpy(p, &n, sizeof n), p += sizeof n;
        memcpy(p, a[l], alen[l]), p += alen[l];
        ucp_worker_release_address(U.pe[l].w, a[l]);
    }
    U.blobs = calloc((size_t)U.nprocs, sizeof *U.blobs);
    size_t *lens = calloc((size_t)U.nprocs, sizeof *lens);
    U.addr = calloc((size_t)job_npes, sizeof *U.addr);
    U.pid = calloc((size_t)U.nprocs, sizeof *U.pid);
    U.node_of = calloc((size_t)U.nprocs, sizeof *U.node_of);
    U.host = calloc((size_t)U.nprocs, sizeof *U.host);
    U.peer_mode = calloc((size_t)U.nprocs, sizeof *U.peer_mode);
    U.cma = calloc((size_t)U.nprocs, sizeof *U.cma);
    U.rma_lane = malloc((size_t)U.nprocs * sizeof *U.rma_lane);
    if (!U.blobs || !lens || !U.addr || !U.pid || !U.node_of || !U.host || !U.peer_mode || !U.cma || !U.rma_lane)
        H->fatal("out of memory for the wire-up");
    bool peer = env_bool("VMPI_NET_PEER", false);
    vmpi_wire_allgather("vmpi.wire", blob, blen, U.blobs, lens);
    free(blob);
    for (int k = 0; k < U.nprocs; k++) {
        blob_hdr b;
        const char *q = U.blobs[k];
        if (lens[k] < sizeof b)
            H->fatal("process %d: the wire-up data of process %d is malformed", U.self, k);
        memcpy(&b, q, sizeof b), q += sizeof b;
        if (b.glen != glen || memcmp(q, geometry, glen) != 0)
            H->fatal("process %d: process %d runs with another layout or settings (another program, or other "
                     "options: every process of a job must run the same program with the same settings)",
                     U.self, k);
        q += glen;
        U.pid[k] = (pid_t)b.pid;
        U.node_of[k] = b.node;
        memcpy(U.host[k], b.host, sizeof b.host);
        U.host[k][sizeof b.host - 1] = '\0';
        atomic_init(&U.peer_mode[k], peer && b.node != job->node);
        if (b.first != (int)((long)k * job_npes / U.nprocs) || b.npes != (int)((long)(k + 1) * job_npes / U.nprocs) - b.first)
            H->fatal("process %d: process %d has PEs %d..%d, expected a block of the job's %d", U.self, k, b.first,
                     b.first + b.npes - 1, job_npes);
        for (int i = 0; i < b.npes; i++) {
            uint64_t n;
            memcpy(&n, q, sizeof n), q += sizeof n;
            U.addr[b.first + i] = (ucp_address_t *)q;
            q += n;
        }
    }
    free(lens);
    for (int k = 0; k < U.nprocs; k++)
        atomic_init(&U.rma_lane[k], -1);
    cma_probe();
    vmpi_rkey_init(U.ctx, U.rma, npes, U.nprocs, job_npes);
    vmpi_bulk_init(U.nprocs, U.self);
    Q.rep = calloc((size_t)U.nprocs, sizeof *Q.rep);
    Q.have = calloc((size_t)U.nprocs, sizeof *Q.have);
    if (!Q.rep || !Q.have)
        H->fatal("out of memory");
    /* eager messages only: a handler has its bytes in place */
    U.am_max = 8192 - sizeof(msg_hdr);
    for (int l = 0; l < U.npes; l++)
        if ((U.pe[l].aligned = aligned_alloc(16, (U.am_max + 15) & ~(size_t)15)) == NULL)
            H->fatal("out of memory starting the transport");
    /* (Endpoints are made at the first send, the deadlock check's too.  Made here for the check, while every
     * process lives, they avoided an assertion of UCX 1.13 at the end (a connection still being wired when
     * the worker is destroyed: coll/collerr over TCP, 1 run in 12) but made pt2pt/ring:8x2 over TCP crash
     * in 6 runs of 40 (SIGSEGV outside any rank at 0xff..f8, not found yet), against 0 without.) */
}

int vmpi_ucx_node_of(int proc) { return U.node_of[proc]; }

static void ended(void)
{
    atomic_store(&U.in_ended, 1); /* before the end lets the PEs' loops, then vmpi_ucx_finish, go on */
    atomic_store(&U.ended, 1);
    H->end();
    atomic_store(&U.in_ended, 0);
}

/* This process's ranks are done.  What its PEs sent must have reached the other processes before it may
 * end (UCX's send completion only frees the buffer: a process that ended with a connection still being made
 * to it would refuse it): each PE flushes its worker (vmpi_ucx_poll starts it), then a fence of every
 * process says all are done, and the job ends. */
void vmpi_ucx_local_done(void)
{
    atomic_store(&U.ending, 1);
    for (int l = 0; l < U.npes; l++)
        H->wake(U.first + l);
}

static void flushed(void *req, ucs_status_t st, void *arg)
{
    pe_state *s = arg;
    s->flush = 2;
    if (req)
        ucp_request_free(req);
    if (atomic_fetch_add(&U.nflushed, 1) + 1 == U.npes)
        vmpi_wire_fence_nb(ended);
}

static void start_flush(int l)
{
    pe_state *s = &U.pe[l];
    s->flush = 1;
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
                              .cb.send = flushed,
                              .user_data = s};
    ucs_status_ptr_t r = ucp_worker_flush_nbx(s->w, &rp);
    if (UCS_PTR_IS_ERR(r))
        H->fatal("process %d: flushing the messages of PE %d failed: %s", U.self, U.first + l,
                 ucs_status_string(UCS_PTR_STATUS(r)));
    if (r == NULL)
        flushed(NULL, UCS_OK, s);
}

/* At the end: waits for a closing endpoint, at most a second (a close left waiting is left to the exit). */
static void wait_req(pe_state *s, ucs_status_ptr_t r)
{
    if (r == NULL || UCS_PTR_IS_ERR(r))
        return;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (ucp_request_check_status(r) == UCS_INPROGRESS) {
        ucp_worker_progress(s->w);
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (t.tv_sec - t0.tv_sec > 1)
            return;
    }
    ucp_request_free(r);
}

void vmpi_ucx_finish(void)
{
    /* the end's wake-ups write the PEs' event fds from PMIx's thread: not closed or freed under them (a
     * use-after-free ThreadSanitizer found in jobs of 2 processes) */
    while (atomic_load(&U.in_ended))
        sched_yield();
    atomic_store(&U.stopping, 1);
    vmpi_rkey_fini(); /* (the keys belong to the workers) */
    vmpi_bulk_fini();
    /* No flush here: what the ranks sent was flushed before the end's fence (vmpi_ucx_local_done); what
     * is left is a deadlock check's message to a process that may have exited, which a flush (over TCP)
     * would wait for for ever (coll/collerr:13x2 spun so). */
    for (int l = 0; l < U.npes; l++) {
        pe_state *s = &U.pe[l];
        for (int d = 0; d < U.job_npes; d++)
            if (s->ep[d]) {
                ucp_request_param_t cp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
                wait_req(s, ucp_ep_close_nbx(s->ep[d], &cp));
            }
        ucp_worker_destroy(s->w);
        for (void *b = s->small_free, *n; b; b = n) {
            n = *(void **)b;
            free(b);
        }
        close(s->epfd);
        close(s->wfd);
        free(s->aligned);
        free(s->ep);
        free(s->seq_out);
        free(s->seq_in);
    }
    vmpi_rkey_unmap_all();
    ucp_cleanup(U.ctx);
    for (int k = 0; k < U.nprocs; k++)
        free(U.blobs[k]);
    free(U.blobs);
    free(U.addr);
    free(U.pid);
    free(U.node_of);
    free(U.host);
    free((void *)U.peer_mode);
    free(U.cma);
    free((void *)U.rma_lane);
    free(U.pe);
}

vmpi_xport_counts vmpi_ucx_counts(void)
{
    uint64_t t[9] = {0};
    for (int l = 0; l < U.npes; l++)
        for (int i = 0; i < 9; i++)
            t[i] += __atomic_load_n(&U.pe[l].n[i], __ATOMIC_RELAXED);
    return (vmpi_xport_counts){t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8]};
}
