/* SPDX-License-Identifier: BSD-3-Clause */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "iso/iso.h"
#include "mpi/core/rank.h"
#include "mpi/core/stdio.h"

/* A rank's complete lines of a buffered stream go out once they fill this many bytes (or at fflush, at the
 * end of the rank, a checkpoint, or a fatal end).  4 KiB, as glibc's stdio buffer for a pipe or a file:
 * 32 KiB was at most 5% faster, for eight times the memory of each printing rank (docs/ARCHITECTURE.md). */
#define OUT_LIMIT 4096

/* One of the two replaced streams: where whole lines go, and which of a rank's buffers it fills. */
typedef struct line_stream {
    FILE *real;
    FILE *mine;
    int fd;
    int idx;
    bool eager; /* every complete line goes out at once: stderr, and stdout to a terminal */
} line_stream;

/* A rank's output of one stream, in system memory (not in its slot: a full slot must not make the next
 * printf fail).  Only the rank appends to it, under `lock`, which a flush from outside the rank (a
 * checkpoint, a fatal end) takes too. */
typedef struct outbuf {
    char *data;
    size_t len, cap;
    size_t whole; /* data[0, whole) are complete lines */
    atomic_int lock;
    bool skip;    /* a fatal flush could not take it */
} outbuf;

static line_stream streams[2];
static outbuf (*outs)[2]; /* by world rank */
static int nouts;
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER; /* whole lines of ranks never interleave */
static atomic_int dying; /* a fatal flush ran: buffers stay locked, fflush passes through */

extern int _IO_fflush(FILE *f); /* glibc's fflush: `fflush` itself is the program's (src/start/start.c) */

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return; /* as stdio: output to a closed or full file is lost, the program goes on */
        }
        p += w;
        n -= (size_t)w;
    }
}

static void out_write(line_stream *s, const char *p, size_t n)
{
    pthread_mutex_lock(&fd_lock);
    write_all(s->fd, p, n);
    pthread_mutex_unlock(&fd_lock);
}

static void buf_lock(outbuf *b)
{
    while (atomic_exchange_explicit(&b->lock, 1, memory_order_acquire)) {
        /* held by a fatal flush, for good: the process is about to end */
        __builtin_ia32_pause();
        if (atomic_load_explicit(&dying, memory_order_relaxed))
            sched_yield();
    }
}

/* The lock of a rank's stdio write, which holds its stream's (glibc's) lock meanwhile: false once a fatal end
 * keeps the buffer.  Waiting then would hang the end, whose fflush(NULL) takes every stream's lock. */
static bool buf_lock_alive(outbuf *b)
{
    while (atomic_exchange_explicit(&b->lock, 1, memory_order_acquire)) {
        if (atomic_load_explicit(&dying, memory_order_relaxed))
            return false;
        __builtin_ia32_pause();
    }
    return true;
}

static void buf_unlock(outbuf *b) { atomic_store_explicit(&b->lock, 0, memory_order_release); }

/* Writes out the complete lines, keeps the unfinished one. */
static void emit_whole(line_stream *s, outbuf *b)
{
    if (b->whole == 0)
        return;
    out_write(s, b->data, b->whole);
    b->len -= b->whole;
    memmove(b->data, b->data + b->whole, b->len);
    b->whole = 0;
}

static bool grow(outbuf *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *d = vmpi_sys_realloc(b->data, cap);
    if (d == NULL)
        return false;
    b->data = d;
    b->cap = cap;
    return true;
}

/* The streams are unbuffered, so every stdio call lands here at once, on the thread of the calling rank. */
static ssize_t line_write(void *cookie, const char *buf, size_t n)
{
    line_stream *s = cookie;
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL || outs == NULL)
        return (ssize_t)fwrite(buf, 1, n, s->real);
    outbuf *b = &outs[rk->world_rank][s->idx];
    if (!buf_lock_alive(b))
        return (ssize_t)n; /* after a fatal end's flush, a rank still running prints nothing more */
    if (b->whole && b->len + n > OUT_LIMIT)
        emit_whole(s, b);
    if (b->len + n > b->cap && !grow(b, b->len + n)) {
        /* no memory: out as it is, lines whole or not */
        out_write(s, b->data, b->len);
        b->len = b->whole = 0;
        out_write(s, buf, n);
        buf_unlock(b);
        return (ssize_t)n;
    }
    memcpy(b->data + b->len, buf, n);
    b->len += n;
    const char *nl = memrchr(buf, '\n', n);
    if (nl)
        b->whole = b->len - (size_t)(buf + n - (nl + 1));
    if (s->eager || b->whole >= OUT_LIMIT)
        emit_whole(s, b);
    buf_unlock(b);
    return (ssize_t)n;
}

static FILE *open_line_stream(line_stream *s, FILE *real, int idx)
{
    s->real = real;
    s->idx = idx;
    s->fd = fileno(real);
    s->eager = idx == 1 || isatty(s->fd);
    s->mine = fopencookie(s, "w", (cookie_io_functions_t){.write = line_write});
    if (s->mine == NULL)
        vmpi_fatal("cannot create the line-buffered output streams");
    setvbuf(s->mine, NULL, _IONBF, 0);
    return s->mine;
}

/* Takes a buffer from outside its rank, giving up after a while: the holder may be the thread this runs
 * on, interrupted by a signal. */
static bool buf_trylock(outbuf *b)
{
    for (long i = 0; i < 200000; i++) {
        if (!atomic_exchange_explicit(&b->lock, 1, memory_order_acquire))
            return true;
        __builtin_ia32_pause();
    }
    return false;
}

/* Every fatal end vmpi sees (a crash, a signal that ends the job, MPI_Abort, a fatal MPI error, a
 * deadlock, a rank's exit with a status): every rank's complete lines, then the unfinished ones.  The
 * buffers stay locked: ranks still running on other PEs print nothing more. */
static void flush_fatal(void)
{
    if (atomic_exchange(&dying, 1))
        return;
    bool locked = false;
    for (long i = 0; i < 200000 && !locked; i++)
        locked = pthread_mutex_trylock(&fd_lock) == 0;
    for (int i = 0; i < 2; i++) /* what threads outside the ranks wrote, first */
        if (streams[i].real && ftrylockfile(streams[i].real) == 0) {
            fflush_unlocked(streams[i].real);
            funlockfile(streams[i].real);
        }
    if (outs != NULL) {
        for (int r = 0; r < nouts; r++)
            for (int i = 0; i < 2; i++) {
                outbuf *b = &outs[r][i];
                b->skip = !buf_trylock(b);
                if (!b->skip)
                    write_all(streams[i].fd, b->data, b->whole);
            }
        for (int r = 0; r < nouts; r++)
            for (int i = 0; i < 2; i++) {
                outbuf *b = &outs[r][i];
                if (!b->skip)
                    write_all(streams[i].fd, b->data + b->whole, b->len - b->whole);
            }
    }
    if (locked)
        pthread_mutex_unlock(&fd_lock);
}

int vmpi_stdio_fflush(FILE *f)
{
    vmpi_rank *rk = vmpi_rank_self();
    if (rk != NULL && outs != NULL && !atomic_load_explicit(&dying, memory_order_relaxed)) {
        for (int i = 0; i < 2; i++) {
            if (f != NULL && f != streams[i].mine)
                continue;
            outbuf *b = &outs[rk->world_rank][i];
            buf_lock(b);
            emit_whole(&streams[i], b);
            buf_unlock(b);
            if (f != NULL)
                return _IO_fflush(streams[i].real);
        }
    }
    for (int i = 0; i < 2; i++)
        if (f != NULL && f == streams[i].mine)
            return _IO_fflush(streams[i].real);
    return _IO_fflush(f);
}

/* The unfinished lines saved in rank rk's slot, back into its buffers. */
static void lines_back(vmpi_rank *rk)
{
    int r = rk->world_rank;
    for (int i = 0; i < 2; i++) {
        vmpi_ckpt_line *c = &rk->out_ckpt[i];
        if (c->len > 0 && grow(&outs[r][i], c->len)) {
            memcpy(outs[r][i].data, c->data, c->len);
            outs[r][i].len = c->len;
        }
        if (c->data)
            vmpi_iso_free_any(c->data);
        *c = (vmpi_ckpt_line){0};
    }
}

/* Rank rk's complete lines written out, its unfinished ones copied into its slot (no room there: written
 * out unfinished). */
static void lines_out(vmpi_rank *rk)
{
    int r = rk->world_rank;
    for (int i = 0; i < 2; i++) {
        outbuf *b = &outs[r][i];
        buf_lock(b);
        emit_whole(&streams[i], b);
        if (b->len > 0) {
            char *c = vmpi_iso_heap_malloc(rk->vp.heap, b->len);
            if (c == NULL) {
                out_write(&streams[i], b->data, b->len);
                b->len = 0;
            } else {
                rk->out_ckpt[i] = (vmpi_ckpt_line){memcpy(c, b->data, b->len), b->len};
            }
        }
        buf_unlock(b);
    }
}

void vmpi_stdio_init(bool restart)
{
    _IO_fflush(stdout);
    nouts = vmpi_world_size();
    outs = vmpi_sys_calloc((size_t)nouts, sizeof *outs);
    if (outs == NULL)
        vmpi_fatal("out of memory for the output buffers of %d ranks", nouts);
    stdout = open_line_stream(&streams[0], stdout, 0);
    stderr = open_line_stream(&streams[1], stderr, 1);
    if (restart) /* the unfinished lines a checkpoint saved in the ranks' slots */
        for (int r = 0; r < nouts; r++)
            if (vmpi_rank_get(r)) /* (another process's rank: NULL) */
                lines_back(vmpi_rank_get(r));
    vmpi_log_set_die_hook(flush_fatal);
}

void vmpi_stdio_ckpt_begin(void)
{
    for (int r = 0; r < nouts; r++)
        if (vmpi_rank_get(r)) /* (another process's rank: its lines are there) */
            lines_out(vmpi_rank_get(r));
    for (int i = 0; i < 2; i++)
        if (streams[i].mine)
            _IO_fflush(streams[i].real);
}

void vmpi_stdio_ckpt_end(void)
{
    for (int r = 0; r < nouts; r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        for (int i = 0; rk && i < 2; i++) {
            if (rk->out_ckpt[i].data)
                vmpi_iso_free_any(rk->out_ckpt[i].data);
            rk->out_ckpt[i] = (vmpi_ckpt_line){0};
        }
    }
}

void vmpi_stdio_rank_leave(vmpi_rank *rk)
{
    if (outs == NULL)
        return;
    lines_out(rk);
    for (int i = 0; i < 2; i++) {
        outbuf *b = &outs[rk->world_rank][i];
        if (streams[i].mine)
            _IO_fflush(streams[i].real);
        buf_lock(b);
        vmpi_sys_free(b->data);
        b->data = NULL;
        b->len = b->cap = b->whole = 0;
        buf_unlock(b);
    }
}

void vmpi_stdio_rank_arrive(vmpi_rank *rk)
{
    if (outs != NULL)
        lines_back(rk);
}

void vmpi_stdio_rank_done(vmpi_rank *rk)
{
    if (outs == NULL)
        return;
    for (int i = 0; i < 2; i++) {
        outbuf *b = &outs[rk->world_rank][i];
        buf_lock(b);
        out_write(&streams[i], b->data, b->len);
        vmpi_sys_free(b->data);
        b->data = NULL;
        b->len = b->cap = b->whole = 0;
        buf_unlock(b);
    }
}

void vmpi_stdio_fini(void)
{
    for (int r = 0; r < nouts; r++)
        if (vmpi_rank_get(r)) /* (another process's rank: none here) */
            vmpi_stdio_rank_done(vmpi_rank_get(r));
    vmpi_log_set_die_hook(NULL);
    vmpi_sys_free(outs);
    outs = NULL;
    nouts = 0;
    for (int i = 0; i < 2; i++) {
        FILE *mine = streams[i].mine;
        if (i == 0)
            stdout = streams[i].real;
        else
            stderr = streams[i].real;
        streams[i].mine = NULL;
        fclose(mine);
    }
}
