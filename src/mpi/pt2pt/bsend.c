/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffered sends: the message is packed into the user-attached buffer (first fit over the gaps between
 * segments in use) and sent from there; the segment is freed when the send completes. */
#include <stdint.h>
#include "mpi/core/handle.h"
#include "mpi/core/rank.h"
#include "mpi/pt2pt/pt2pt.h"

typedef struct vmpi_bsend_seg {
    struct vmpi_bsend_seg *next; /* next segment in use, by address */
    size_t size;                 /* bytes from the header's start to the segment's end */
    max_align_t data[];
} seg;

_Static_assert(sizeof(seg) + 2 * 16 <= MPI_BSEND_OVERHEAD, "MPI_BSEND_OVERHEAD too small");

static char *align_up(char *p) { return (char *)(((uintptr_t)p + 15) & ~(uintptr_t)15); }

int vmpi_bsend_attach(void *buf, MPI_Count size)
{
    vmpi_bsend_state *b = &vmpi_rank_self()->bsend;
    if (b->buf)
        return MPI_ERR_BUFFER;
    b->buf = buf;
    b->size = size;
    b->segs = NULL;
    b->pending = 0;
    return MPI_SUCCESS;
}

int vmpi_bsend_detach(void *buf_addr, MPI_Count *size)
{
    vmpi_bsend_state *b = &vmpi_rank_self()->bsend;
    if (b->buf == NULL) {
        *(void **)buf_addr = NULL;
        *size = 0;
        return MPI_SUCCESS;
    }
    while (b->pending > 0) /* detach waits for every buffered message to be delivered */
        vmpi_vp_block("MPI_Buffer_detach");
    *(void **)buf_addr = b->buf;
    *size = b->size;
    b->buf = NULL;
    b->size = 0;
    return MPI_SUCCESS;
}

static seg *seg_alloc(vmpi_bsend_state *b, size_t bytes)
{
    size_t need = sizeof(seg) + ((bytes + 15) & ~(size_t)15);
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
    for (seg **link = &b->segs; *link; link = &(*link)->next)
        if (*link == s) {
            *link = s->next;
            return;
        }
}

static void bsend_done(vmpi_req *r)
{
    vmpi_mreq *m = (vmpi_mreq *)r;
    vmpi_bsend_state *b = &vmpi_container_of(r->owner, vmpi_rank, vp)->bsend; /* not the current rank's */
    seg_free(b, m->ptr);
    b->pending--;
    vmpi_mreq_release(m);
}

int vmpi_bsend_start(const void *buf, MPI_Count count, const vmpi_dtype *dt, int dest, int tag, vmpi_comm *c)
{
    if (dest == MPI_PROC_NULL)
        return MPI_SUCCESS;
    vmpi_bsend_state *b = &vmpi_rank_self()->bsend;
    MPI_Count bytes = count * dt->size;
    seg *s = b->buf ? seg_alloc(b, (size_t)bytes) : NULL;
    if (s == NULL)
        return MPI_ERR_BUFFER;
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
