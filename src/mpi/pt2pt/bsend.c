/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffered sends: the message is packed into an attached buffer (first fit over the gaps between segments
 * in use) and sent from there; the segment is freed when the send completes.  A communicator's sends use
 * the buffer attached to it, else its session's, else the rank's (MPI-4.1 3.6); MPI_BUFFER_AUTOMATIC gives
 * each message a block of the rank's heap instead.  Flushing waits until the buffer's messages are all
 * delivered. */
#include <stdint.h>
#include <stdlib.h>
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/core/session.h"
#include "mpi/pt2pt/pt2pt.h"

typedef struct vmpi_bsend_seg {
    struct vmpi_bsend_seg *next; /* next segment in use, by address (attached buffers only) */
    size_t size;                 /* bytes from the header's start to the segment's end */
    vmpi_bsend_state *owner;     /* the buffer it belongs to */
    max_align_t data[];
} seg;

_Static_assert(sizeof(seg) + 2 * 16 <= MPI_BSEND_OVERHEAD, "MPI_BSEND_OVERHEAD too small");

static char *align_up(char *p) { return (char *)(((uintptr_t)p + 15) & ~(uintptr_t)15); }

/* The buffer a communicator's buffered sends go through: its own, else its session's, else the rank's (never
 * NULL). */
static vmpi_bsend_state *used_by(vmpi_comm *c)
{
    if (c && c->bsend && c->bsend->buf)
        return c->bsend;
    vmpi_session *s = c && c->session ? vmpi_session_get(c->session) : NULL;
    if (s && s->bsend && s->bsend->buf)
        return s->bsend;
    return &vmpi_rank_self()->bsend;
}

/* The buffer a slot names (the rank's for NULL); NULL for an owner without one. */
static vmpi_bsend_state *named(vmpi_bsend_state **slot)
{
    return slot ? *slot : &vmpi_rank_self()->bsend;
}

int vmpi_bsend_attach(vmpi_bsend_state **slot, void *buf, MPI_Count size)
{
    vmpi_bsend_state *b = named(slot);
    if (b && b->buf)
        return MPI_ERR_BUFFER;
    if (b == NULL) {
        if ((b = calloc(1, sizeof *b)) == NULL)
            return MPI_ERR_NO_MEM;
        *slot = b;
    }
    b->automatic = buf == MPI_BUFFER_AUTOMATIC;
    b->buf = buf;
    b->size = b->automatic ? 0 : size;
    b->segs = NULL;
    return MPI_SUCCESS;
}

static void wait_delivered(vmpi_bsend_state *b, const char *why)
{
    while (b->pending > 0)
        vmpi_vp_block(why);
}

int vmpi_bsend_detach(vmpi_bsend_state **slot, void *buf_addr, MPI_Count *size, const char *why)
{
    vmpi_bsend_state *b = named(slot);
    if (b == NULL || b->buf == NULL) {
        *(void **)buf_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    wait_delivered(b, why);
    *(void **)buf_addr = b->buf;
    *size = b->size;
    b->buf = NULL;
    b->size = 0;
    b->automatic = false;
    return MPI_SUCCESS;
}

int vmpi_bsend_flush(vmpi_bsend_state **slot, const char *why)
{
    vmpi_bsend_state *b = named(slot);
    if (b)
        wait_delivered(b, why);
    return MPI_SUCCESS;
}

int vmpi_bsend_iflush(vmpi_bsend_state **slot, MPI_Comm obj, MPI_Request *req)
{
    vmpi_bsend_state *b = named(slot);
    if (b == NULL || b->pending == 0) {
        *req = vmpi_mreq_new_complete(obj);
        return *req == MPI_REQUEST_NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
    }
    if (b->nflushes == b->cap_flushes) {
        int cap = b->cap_flushes ? 2 * b->cap_flushes : 4;
        vmpi_mreq **f = realloc(b->flushes, sizeof *f * (size_t)cap);
        if (f == NULL)
            return MPI_ERR_NO_MEM;
        b->flushes = f;
        b->cap_flushes = cap;
    }
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_FLUSH, obj);
    m->r.kind = VMPI_REQ_SEND; /* its status is an empty send's */
    m->r.complete = false;
    m->r.on_done = NULL;
    vmpi_status_empty(&m->r.status);
    b->flushes[b->nflushes++] = m;
    *req = vmpi_mreq_handle(m);
    return MPI_SUCCESS;
}

static void state_free(vmpi_bsend_state *b)
{
    free(b->flushes);
    free(b);
}

void vmpi_bsend_release(vmpi_bsend_state **slot)
{
    vmpi_bsend_state *b = *slot;
    *slot = NULL;
    if (b == NULL)
        return;
    if (b->pending == 0)
        state_free(b);
    else
        b->orphan = true;
}

static void comm_released(vmpi_comm *c) { vmpi_bsend_release(&c->bsend); }

void vmpi_bsend_init(void) { vmpi_comm_on_release(comm_released); }

void vmpi_bsend_finalize(void)
{
    vmpi_rank *rk = vmpi_rank_self();
    wait_delivered(&rk->bsend, "MPI_Finalize");
    rk->bsend.buf = NULL;
    rk->bsend.size = 0;
    rk->bsend.automatic = false;
    free(rk->bsend.flushes);
    rk->bsend.flushes = NULL;
    rk->bsend.nflushes = rk->bsend.cap_flushes = 0;
    vmpi_comm *pre[2] = {&rk->world, &rk->self};
    for (int i = 0; i < 2; i++)
        if (pre[i]->bsend) {
            wait_delivered(pre[i]->bsend, "MPI_Finalize");
            vmpi_bsend_release(&pre[i]->bsend);
        }
    for (int i = 0; i < rk->ncomms; i++)
        if (rk->comms[i] && rk->comms[i]->bsend)
            wait_delivered(rk->comms[i]->bsend, "MPI_Finalize");
}

static seg *seg_alloc(vmpi_bsend_state *b, size_t bytes)
{
    size_t need = sizeof(seg) + ((bytes + 15) & ~(size_t)15);
    if (b->automatic) {
        seg *s = malloc(need);
        if (s)
            s->size = need;
        return s;
    }
    char *end = b->buf + b->size;
    char *start = align_up(b->buf);
    seg **link = &b->segs;
    for (;;) {
        seg *next = *link;
        char *gap_end = next ? (char *)next : end;
        if (start + need <= gap_end) {
            seg *s = (seg *)start;
            s->size = need;
            s->next = next;
            *link = s;
            return s;
        }
        if (next == NULL)
            return NULL;
        start = align_up((char *)next + next->size);
        link = &next->next;
    }
}

static void seg_free(vmpi_bsend_state *b, seg *s)
{
    if (b->automatic) {
        free(s);
        return;
    }
    for (seg **link = &b->segs; *link; link = &(*link)->next)
        if (*link == s) {
            *link = s->next;
            return;
        }
}

/* On the sending rank's PE (not necessarily while it runs). */
static void bsend_done(vmpi_req *r)
{
    vmpi_mreq *m = (vmpi_mreq *)r;
    seg *s = m->ptr;
    vmpi_bsend_state *b = s->owner;
    seg_free(b, s);
    vmpi_mreq_release(m);
    if (--b->pending > 0)
        return;
    int n = b->nflushes;
    b->nflushes = 0;
    for (int i = 0; i < n; i++)
        vmpi_req_complete(&b->flushes[i]->r);
    if (b->orphan)
        state_free(b);
}

int vmpi_bsend_start(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    vmpi_bsend_state *b = used_by(c);
    MPI_Count bytes = count * dt->size;
    seg *s = b->buf ? seg_alloc(b, (size_t)bytes) : NULL;
    if (s == NULL)
        return MPI_ERR_BUFFER;
    s->owner = b;
    vmpi_dtype_pack(buf, count, dt, s->data, bytes);
    vmpi_mreq *m = vmpi_mreq_new(VMPI_MREQ_SEND, c->handle);
    m->ptr = s;
    b->pending++;
    m->r.buf = s->data;
    m->r.count = bytes;
    m->r.dt = vmpi_dtype_builtin(VMPI_HANDLE_INDEX(MPI_BYTE));
    m->r.ctx = c->ctx;
    m->r.rank = c->rank;
    m->r.tag = tag;
    m->r.peer = vmpi_comm_world_rank(c, dest);
    m->r.mode = VMPI_SEND_STD;
    m->r.on_done = bsend_done;
    vmpi_msg_isend(&m->r);
    if (m->r.complete)
        bsend_done(&m->r); /* went out eagerly: no callback will come */
    return MPI_SUCCESS;
}
