/* SPDX-License-Identifier: BSD-3-Clause */
/* The bulk exchange of a job-wide step (net.h's bulk): the memory of ranks that move between processes.
 *
 * UCX's tag API, on a context and worker of their own, made at the first exchange (every process makes it in
 * the same step, so the worker's address goes through the launcher then: a job that never moves ranks
 * between processes pays nothing), and progressed only by the thread in the exchange (the PE workers are held
 * meanwhile, and never see its traffic).  Tags in the transport's context would change the lanes UCX 1.13
 * picks for a process's endpoint to itself (the deadlock check's: shared memory, or TCP over the loopback,
 * instead of its self transport); a context of its own costs 1-2 ms at the first exchange.
 *
 * A transfer is a stream of bytes, which the sender cuts into messages: each contiguous run of its pieces
 * (adjacent pieces merged) of at least ZC_MIN bytes goes alone, with the contiguous datatype, which UCX's
 * rendezvous moves without a copy (the kernel's copy within a node, RDMA across nodes); smaller runs are
 * gathered into messages with the IOV datatype.  IOV is not UCX 1.13's zero-copy path: its rendezvous
 * copies the data in fragments through active messages (64 MiB between two processes over TCP: 1.2 GB/s as
 * IOV, 3 GB/s contiguous; about even over shared memory), so it only gathers what would otherwise cost a
 * message per piece (measured between two processes of one node: runs of 16 KiB went faster one message
 * each than gathered, runs of 4 KiB slower).  UCX takes any number of pieces per operation (2^20 went
 * through over shared memory and TCP) and any length (3 GiB in one message).
 *
 * The receiver knows its own pieces but not the sender's cuts.  Each transfer's messages follow a header
 * (its tag, length, and the number of transfers of this exchange from that sender), and the wire tag is the
 * sending process and the count of messages it sent to this process (all exchanges long), matched with the
 * full mask: the receiver probes each sender's next message, learns its length, and receives it at its
 * offset of the transfer, contiguously when that falls within one run of its own pieces (zero copy end to
 * end when both sides have the same layout, as ranks that move to the same addresses do), else as IOV.  Any
 * 64-bit tag is so carried, and a transfer the receiver does not expect, or expects with another length, is
 * fatal at once rather than written into the wrong memory.  An exchange ends with a fence of every process
 * (vmpi_bulk's end says why). */
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "net/net_int.h"

enum { PROC_BITS = 20, SEQ_BITS = 64 - PROC_BITS };
#define ZC_MIN ((size_t)16 << 10)    /* a run this long is a message of its own (the zero-copy path) */
#define GROUP_MAX ((size_t)4 << 20)  /* IOV messages of smaller runs end past this many bytes */

typedef struct bulk_hdr {
    uint64_t tag, len;
    uint64_t count;          /* the transfers from this sender to this receiver in this exchange */
} bulk_hdr;

/* An operation in flight: what its callback needs to report a failure and to free. */
typedef struct bulk_op {
    int proc;
    bool recv;
    uint64_t tag;            /* the transfer's */
    ucp_dt_iov_t *iov;       /* a receive's own pieces (freed at completion) */
} bulk_op;

/* A transfer's pieces as runs of adjacent memory (no empty one). */
typedef struct runs {
    ucp_dt_iov_t *r;
    int n;
    size_t total;
} runs;

/* A receive: the offset reached, and the run it lies in (run `cur` begins at offset `at`). */
typedef struct rstream {
    const vmpi_net_bulk *b;
    runs rn;
    size_t off, at;
    int cur;
    bool begun;
} rstream;

static struct {
    ucp_context_h ctx;
    int nprocs, self;
    ucp_worker_h w;          /* NULL until the first exchange */
    void **blobs;            /* [nprocs] the workers' addresses */
    ucp_ep_h *ep;            /* [nprocs] made at the first send to that process */
    uint64_t *seq_out, *seq_in; /* [nprocs] messages sent to, taken from each process */
    long pending;            /* operations of this exchange not completed */
    bool closing;            /* vmpi_bulk_fini: the peers may have exited */
} B;

void vmpi_bulk_init(int nprocs, int self)
{
    B.nprocs = nprocs;
    B.self = self;
}

static uint64_t wire_tag(int proc, uint64_t seq)
{
    return ((uint64_t)proc << SEQ_BITS) | (seq & ((UINT64_C(1) << SEQ_BITS) - 1));
}

static void start(void)
{
    if (B.nprocs > 1 << PROC_BITS)
        H->fatal("process %d: bulk exchanges between more than %d processes are not supported (%d)", B.self,
                 1 << PROC_BITS, B.nprocs);
    ucp_params_t pp = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_TAG};
    B.ctx = vmpi_ucx_context(&pp, " for a bulk exchange");
    ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                              .thread_mode = UCS_THREAD_MODE_SERIALIZED};
    ucp_address_t *a;
    size_t alen;
    ucs_status_t st;
    if ((st = ucp_worker_create(B.ctx, &wp, &B.w)) != UCS_OK || (st = ucp_worker_get_address(B.w, &a, &alen)) != UCS_OK)
        H->fatal("process %d: cannot make the UCX worker of bulk exchanges: %s", B.self, ucs_status_string(st));
    B.blobs = calloc((size_t)B.nprocs, sizeof *B.blobs);
    size_t *lens = calloc((size_t)B.nprocs, sizeof *lens);
    B.ep = calloc((size_t)B.nprocs, sizeof *B.ep);
    B.seq_out = calloc((size_t)B.nprocs, sizeof *B.seq_out);
    B.seq_in = calloc((size_t)B.nprocs, sizeof *B.seq_in);
    if (!B.blobs || !lens || !B.ep || !B.seq_out || !B.seq_in)
        H->fatal("out of memory for bulk exchanges");
    vmpi_wire_allgather("vmpi.bulk", a, alen, B.blobs, lens); /* (collective: the first exchange is) */
    ucp_worker_release_address(B.w, a);
    free(lens);
}

/* A connection lost during an exchange (this worker progresses only then) ends the job at once, naming the
 * process, where its receives would otherwise wait for ever (error modes: vmpi_ucx_ep_create). */
static void ep_failed(void *arg, ucp_ep_h ep, ucs_status_t st)
{
    (void)ep;
    if (B.closing)
        return;
    H->fatal("process %d: the connection to process %d was lost during a bulk exchange: %s", B.self,
             (int)(intptr_t)arg, ucs_status_string(st));
}

static ucp_ep_h ep_to(int p)
{
    if (B.ep[p])
        return B.ep[p];
    ucp_ep_params_t ep = {.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE |
                                        UCP_EP_PARAM_FIELD_ERR_HANDLER,
                          .address = B.blobs[p],
                          .err_handler = {.cb = ep_failed, .arg = (void *)(intptr_t)p}};
    ucs_status_t st = vmpi_ucx_ep_create(B.w, &ep, p, &B.ep[p]);
    if (st != UCS_OK)
        H->fatal("process %d: cannot connect to process %d for a bulk exchange through UCX: %s", B.self, p,
                 ucs_status_string(st));
    return B.ep[p];
}

static void failed(const bulk_op *o, ucs_status_t st)
{
    H->fatal("process %d: a bulk transfer (tag %#llx) %s process %d failed: %s", B.self, (unsigned long long)o->tag,
             o->recv ? "from" : "to", o->proc, ucs_status_string(st));
}

static void op_done(void *req, ucs_status_t st, bulk_op *o)
{
    if (st != UCS_OK)
        failed(o, st);
    free(o->iov);
    free(o);
    if (req) {
        B.pending--;
        ucp_request_free(req);
    }
}

static void sent(void *req, ucs_status_t st, void *arg) { op_done(req, st, arg); }

static void received(void *req, ucs_status_t st, const ucp_tag_recv_info_t *info, void *arg)
{
    op_done(req, st, arg);
}

static bulk_op *op_new(int proc, bool recv, uint64_t tag, ucp_dt_iov_t *iov)
{
    bulk_op *o = malloc(sizeof *o);
    if (o == NULL)
        H->fatal("out of memory for a bulk exchange");
    *o = (bulk_op){proc, recv, tag, iov};
    return o;
}

/* r: what a non-blocking call gave (NULL: complete already, its callback is not called) */
static void posted(ucs_status_ptr_t r, bulk_op *o)
{
    if (UCS_PTR_IS_ERR(r))
        failed(o, UCS_PTR_STATUS(r));
    if (r == NULL)
        op_done(NULL, UCS_OK, o);
    else
        B.pending++;
}

/* `n` bytes at `buf`: contiguous, or `n` pieces of an iov when iov is set */
static void send_msg(int p, uint64_t tag, const void *buf, size_t n, bool iov)
{
    bulk_op *o = op_new(p, false, tag, NULL);
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                                              UCP_OP_ATTR_FIELD_DATATYPE,
                              .cb.send = sent,
                              .user_data = o,
                              .datatype = iov ? ucp_dt_make_iov() : ucp_dt_make_contig(1)};
    posted(ucp_tag_send_nbx(ep_to(p), buf, n, wire_tag(B.self, B.seq_out[p]++), &rp), o);
}

static runs merge(const vmpi_net_bulk *b)
{
    runs rn = {malloc(sizeof(ucp_dt_iov_t) * (size_t)(b->n > 0 ? b->n : 1)), 0, 0};
    if (rn.r == NULL)
        H->fatal("out of memory for a bulk exchange of %d pieces", b->n);
    for (int i = 0; i < b->n; i++) {
        char *a = b->iov[i].addr;
        size_t len = b->iov[i].len;
        if (len == 0)
            continue;
        if (rn.n > 0 && (char *)rn.r[rn.n - 1].buffer + rn.r[rn.n - 1].length == a)
            rn.r[rn.n - 1].length += len;
        else
            rn.r[rn.n++] = (ucp_dt_iov_t){a, len};
        rn.total += len;
    }
    return rn;
}

/* A transfer to another process: its header, then its runs cut into messages (the top of this file).
 * `h` and `rn` live until the sends complete. */
static void send_transfer(const vmpi_net_bulk *b, uint64_t count, bulk_hdr *h, const runs *rn)
{
    int p = b->proc;
    *h = (bulk_hdr){b->tag, rn->total, count};
    send_msg(p, b->tag, h, sizeof *h, false);
    for (int i = 0; i < rn->n;) {
        ucp_dt_iov_t *r = &rn->r[i];
        if (r->length >= ZC_MIN) { /* (UCX cuts it as its transports need: 3 GiB went through in one) */
            send_msg(p, b->tag, r->buffer, r->length, false);
            i++;
            continue;
        }
        int j = i;
        size_t bytes = 0;
        while (j < rn->n && rn->r[j].length < ZC_MIN && bytes < GROUP_MAX)
            bytes += rn->r[j++].length;
        if (j - i == 1)
            send_msg(p, b->tag, r->buffer, r->length, false);
        else
            send_msg(p, b->tag, r, (size_t)(j - i), true);
        i = j;
    }
}

/* Within this process: the bytes of send b go into receive r, piece by piece. */
static void copy_local(const vmpi_net_bulk *b, const rstream *r)
{
    runs s = merge(b);
    if (s.total != r->rn.total)
        H->fatal("process %d: a bulk transfer to itself under tag %#llx sends %zu bytes, its receive expects %zu",
                 B.self, (unsigned long long)b->tag, s.total, r->rn.total);
    size_t i = 0, j = 0, oi = 0, oj = 0;
    while (i < (size_t)s.n && j < (size_t)r->rn.n) {
        size_t n = s.r[i].length - oi, m = r->rn.r[j].length - oj;
        if (m < n)
            n = m;
        memmove((char *)r->rn.r[j].buffer + oj, (char *)s.r[i].buffer + oi, n);
        if ((oi += n) == s.r[i].length)
            i++, oi = 0;
        if ((oj += n) == r->rn.r[j].length)
            j++, oj = 0;
    }
    free(s.r);
}

static int by_proc_tag(const void *x, const void *y, void *base)
{
    const vmpi_net_bulk *a = (const vmpi_net_bulk *)base + *(const int *)x;
    const vmpi_net_bulk *b = (const vmpi_net_bulk *)base + *(const int *)y;
    if (a->proc != b->proc)
        return a->proc < b->proc ? -1 : 1;
    return a->tag < b->tag ? -1 : a->tag > b->tag;
}

/* The receive from process q under `tag`: its index in `st`, -1 when there is none. */
static int find(const rstream *st, const int *ord, int lo, int hi, uint64_t tag)
{
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        uint64_t t = st[ord[mid]].b->tag;
        if (t == tag)
            return ord[mid];
        if (t < tag)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* A request that the caller needs complete before it goes on (what: for the message of a failure). */
static void wait_done(ucs_status_ptr_t r, const char *what, int q)
{
    ucs_status_t st = UCS_PTR_IS_ERR(r) ? UCS_PTR_STATUS(r) : UCS_OK;
    if (r != NULL && !UCS_PTR_IS_ERR(r)) {
        while ((st = ucp_request_check_status(r)) == UCS_INPROGRESS)
            ucp_worker_progress(B.w);
        ucp_request_free(r);
    }
    if (st != UCS_OK && q >= 0)
        H->fatal("process %d: %s process %d failed: %s", B.self, what, q, ucs_status_string(st));
    if (st != UCS_OK)
        H->fatal("process %d: %s failed: %s", B.self, what, ucs_status_string(st));
}

/* Message `info` (probed from process q) into receive s at its offset: contiguous within one run, else as
 * IOV over the runs it spans. */
static void recv_data(int q, rstream *s, ucp_tag_message_h m, const ucp_tag_recv_info_t *info)
{
    size_t len = info->length;
    if (len == 0 || len > s->rn.total - s->off)
        H->fatal("internal error: process %d sent a message of %zu bytes under tag %#llx to process %d, where %zu "
                 "remain", q, len, (unsigned long long)s->b->tag, B.self, s->rn.total - s->off);
    while (s->at + s->rn.r[s->cur].length <= s->off)
        s->at += s->rn.r[s->cur++].length;
    ucp_dt_iov_t *r = &s->rn.r[s->cur], *iov = NULL;
    size_t skip = s->off - s->at, count = len;
    void *buf = (char *)r->buffer + skip;
    if (skip + len > r->length) {
        int k = 1; /* the runs it spans */
        for (size_t have = r->length - skip; have < len; have += r[k++].length) {
        }
        if ((iov = malloc(sizeof *iov * (size_t)k)) == NULL)
            H->fatal("out of memory for a bulk exchange");
        memcpy(iov, r, sizeof *iov * (size_t)k);
        iov[0].buffer = buf;
        iov[0].length -= skip;
        size_t sum = 0;
        for (int i = 0; i < k - 1; i++)
            sum += iov[i].length;
        iov[k - 1].length = len - sum;
        buf = iov;
        count = (size_t)k;
    }
    bulk_op *o = op_new(q, true, s->b->tag, iov);
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA |
                                              UCP_OP_ATTR_FIELD_DATATYPE,
                              .cb.recv = received,
                              .user_data = o,
                              .datatype = iov ? ucp_dt_make_iov() : ucp_dt_make_contig(1)};
    posted(ucp_tag_msg_recv_nbx(B.w, buf, count, m, &rp), o);
    s->off += len;
}

/* This exchange's receives, by sending process. */
typedef struct exch {
    rstream *st;             /* [nr] */
    int *ord;                /* [nr] their indices by (process, tag) */
    int *from;               /* [K + 1] ord[from[q] .. from[q + 1]): the receives from q */
    int *cur;                /* [K] q's transfer being received, -1: q's next message is a header */
    int *left;               /* [K] q's transfers not received yet */
} exch;

/* A header from q: the transfer that follows, checked against what this process expects. */
static void take_header(exch *E, int q, ucp_tag_message_h m, const ucp_tag_recv_info_t *info)
{
    bulk_hdr h;
    if (info->length != sizeof h)
        H->fatal("internal error: a bulk header of %zu bytes from process %d", info->length, q);
    ucp_request_param_t rp = {.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE, .datatype = ucp_dt_make_contig(1)};
    wait_done(ucp_tag_msg_recv_nbx(B.w, &h, sizeof h, m, &rp), "receiving a bulk header from", q);
    int n = E->from[q + 1] - E->from[q], r = find(E->st, E->ord, E->from[q], E->from[q + 1], h.tag);
    if (h.count != (uint64_t)n)
        H->fatal("process %d sends %llu bulk transfers to process %d, which expects %d", q,
                 (unsigned long long)h.count, B.self, n);
    if (r < 0 || E->st[r].begun)
        H->fatal("process %d sends %llu bytes under tag %#llx to process %d, which expects no such bulk transfer%s",
                 q, (unsigned long long)h.len, (unsigned long long)h.tag, B.self, r < 0 ? "" : " again");
    if (h.len != E->st[r].rn.total)
        H->fatal("process %d sends %llu bytes under tag %#llx to process %d, which expects %zu", q,
                 (unsigned long long)h.len, (unsigned long long)h.tag, B.self, E->st[r].rn.total);
    E->st[r].begun = true;
    if (h.len == 0)
        E->left[q]--;
    else
        E->cur[q] = r;
}

/* Every message from q that has come, in order. */
static void take(exch *E, int q)
{
    ucp_tag_recv_info_t info;
    ucp_tag_message_h m;
    while (E->left[q] && (m = ucp_tag_probe_nb(B.w, wire_tag(q, B.seq_in[q]), UINT64_MAX, 1, &info))) {
        B.seq_in[q]++;
        if (E->cur[q] < 0) {
            take_header(E, q, m, &info);
            continue;
        }
        rstream *s = &E->st[E->cur[q]];
        recv_data(q, s, m, &info);
        if (s->off == s->rn.total)
            E->cur[q] = -1, E->left[q]--;
    }
}

void vmpi_bulk(const vmpi_net_bulk *sends, int ns, const vmpi_net_bulk *recvs, int nr)
{
    if (B.w == NULL)
        start();
    int K = B.nprocs, npeers = 0;
    exch E = {calloc((size_t)(nr > 0 ? nr : 1), sizeof *E.st), malloc(sizeof(int) * (size_t)(nr > 0 ? nr : 1)),
              calloc((size_t)K + 1, sizeof(int)), malloc(sizeof(int) * (size_t)K), calloc((size_t)K, sizeof(int))};
    int *peers = malloc(sizeof(int) * (size_t)K), *to = calloc((size_t)K, sizeof *to);
    bulk_hdr *hdr = malloc(sizeof *hdr * (size_t)(ns > 0 ? ns : 1));
    runs *sr = calloc((size_t)(ns > 0 ? ns : 1), sizeof *sr);
    if (!E.st || !E.ord || !E.from || !E.cur || !E.left || !peers || !to || !hdr || !sr)
        H->fatal("out of memory for a bulk exchange");
    for (int i = 0; i < nr; i++) {
        if (recvs[i].proc < 0 || recvs[i].proc >= K)
            H->fatal("internal error: a bulk receive from process %d of %d", recvs[i].proc, K);
        E.st[i].b = &recvs[i];
        E.st[i].rn = merge(&recvs[i]);
        E.ord[i] = i;
        E.from[recvs[i].proc + 1]++;
    }
    qsort_r(E.ord, (size_t)nr, sizeof *E.ord, by_proc_tag, (void *)recvs);
    for (int i = 1; i < nr; i++)
        if (!by_proc_tag(&E.ord[i - 1], &E.ord[i], (void *)recvs))
            H->fatal("internal error: two bulk receives from process %d under tag %#llx", recvs[E.ord[i]].proc,
                     (unsigned long long)recvs[E.ord[i]].tag);
    for (int q = 0; q < K; q++) {
        E.from[q + 1] += E.from[q];
        E.cur[q] = -1;
        E.left[q] = E.from[q + 1] - E.from[q];
        if (E.left[q] && q != B.self)
            peers[npeers++] = q;
    }
    for (int i = 0; i < ns; i++) {
        if (sends[i].proc < 0 || sends[i].proc >= K)
            H->fatal("internal error: a bulk send to process %d of %d", sends[i].proc, K);
        to[sends[i].proc]++;
    }
    for (int i = 0; i < ns; i++)
        if (sends[i].proc != B.self) {
            sr[i] = merge(&sends[i]);
            send_transfer(&sends[i], (uint64_t)to[sends[i].proc], &hdr[i], &sr[i]);
        }
    for (int i = 0; i < ns; i++) /* (the network's sends move meanwhile, in the progress below) */
        if (sends[i].proc == B.self) {
            int r = find(E.st, E.ord, E.from[B.self], E.from[B.self + 1], sends[i].tag);
            if (r < 0 || E.st[r].begun)
                H->fatal("process %d: a bulk transfer to itself under tag %#llx that it does not expect once", B.self,
                         (unsigned long long)sends[i].tag);
            E.st[r].begun = true;
            copy_local(&sends[i], &E.st[r]);
            E.left[B.self]--;
        }
    if (E.left[B.self])
        H->fatal("process %d: %d bulk receives from itself without their sends", B.self, E.left[B.self]);
    while (npeers > 0 || B.pending > 0) {
        ucp_worker_progress(B.w);
        for (int x = 0; x < npeers; x++) {
            take(&E, peers[x]);
            if (E.left[peers[x]] == 0)
                peers[x--] = peers[--npeers];
        }
    }
    /* Complete here, but another process may still need this worker: a rendezvous's acknowledgement that
     * UCX has yet to send (ucp_worker_flush does not wait for those: after one, a sender of 4096 messages
     * over shared memory waited for ever for 457), data in its TCP buffers.  The worker moves only in an
     * exchange, so none ends before every process is done: a fence through the launcher (0.1-0.3 ms here),
     * this worker progressed until it passes. */
    _Atomic int fenced = 0;
    vmpi_wire_barrier_nb(&fenced);
    while (!atomic_load(&fenced))
        if (!ucp_worker_progress(B.w))
            sched_yield(); /* (PMIx's threads, here and in the launcher, carry the fence) */
    for (int i = 0; i < nr; i++)
        free(E.st[i].rn.r);
    for (int i = 0; i < ns; i++)
        free(sr[i].r);
    free(E.st);
    free(E.ord);
    free(E.from);
    free(E.cur);
    free(E.left);
    free(peers);
    free(to);
    free(hdr);
    free(sr);
}

/* At the end: waits for a closing endpoint at most a second (as ucx.c). */
void vmpi_bulk_fini(void)
{
    if (B.w == NULL)
        return;
    B.closing = true;
    for (int p = 0; p < B.nprocs; p++) {
        if (B.ep[p] == NULL)
            continue;
        ucp_request_param_t cp = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_EP_CLOSE_FLAG_FORCE};
        ucs_status_ptr_t r = ucp_ep_close_nbx(B.ep[p], &cp);
        if (r == NULL || UCS_PTR_IS_ERR(r))
            continue;
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        while (ucp_request_check_status(r) == UCS_INPROGRESS) {
            ucp_worker_progress(B.w);
            clock_gettime(CLOCK_MONOTONIC, &t);
            if (t.tv_sec - t0.tv_sec > 1)
                break;
        }
        if (ucp_request_check_status(r) != UCS_INPROGRESS)
            ucp_request_free(r);
    }
    ucp_worker_destroy(B.w);
    ucp_cleanup(B.ctx);
    B.w = NULL;
    for (int p = 0; p < B.nprocs; p++)
        free(B.blobs[p]);
    free(B.blobs);
    free(B.ep);
    free(B.seq_out);
    free(B.seq_in);
}
