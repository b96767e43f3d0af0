/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/log.h"
#include "mpi/core/rank.h"
#include "mpi/core/stdio.h"

/* One of the two replaced streams: where whole lines go, and which of a rank's buffers it fills. */
typedef struct line_stream {
    FILE *real;
    FILE *mine;
    int idx;
} line_stream;

static line_stream streams[2];

static void put(vmpi_linebuf *b, const char *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (d == NULL)
            vmpi_fatal("out of memory buffering a line of output");
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void emit(line_stream *s, vmpi_linebuf *b)
{
    if (b->len == 0)
        return;
    fwrite(b->data, 1, b->len, s->real); /* one call under the stream's lock: lines stay whole */
    b->len = 0;
}

/* The streams are unbuffered, so every stdio call lands here at once, on the thread of the calling rank. */
static ssize_t line_write(void *cookie, const char *buf, size_t n)
{
    line_stream *s = cookie;
    vmpi_rank *rk = vmpi_rank_self();
    if (rk == NULL)
        return (ssize_t)fwrite(buf, 1, n, s->real);
    vmpi_linebuf *b = &rk->out[s->idx];
    const char *nl = memrchr(buf, '\n', n);
    if (nl == NULL) {
        put(b, buf, n);
        return (ssize_t)n;
    }
    size_t whole = (size_t)(nl - buf) + 1;
    put(b, buf, whole);
    emit(s, b);
    put(b, nl + 1, n - whole);
    return (ssize_t)n;
}

static FILE *open_line_stream(line_stream *s, FILE *real, int idx)
{
    s->real = real;
    s->idx = idx;
    s->mine = fopencookie(s, "w", (cookie_io_functions_t){.write = line_write});
    if (s->mine == NULL)
        vmpi_fatal("cannot create the line-buffered output streams");
    setvbuf(s->mine, NULL, _IONBF, 0);
    return s->mine;
}

static void flush_all_ranks(void)
{
    for (int r = 0; r < vmpi_world_size(); r++)
        for (int i = 0; i < 2; i++)
            if (streams[i].mine)
                emit(&streams[i], &vmpi_rank_get(r)->out[i]);
}

void vmpi_stdio_init(void)
{
    fflush(stdout);
    stdout = open_line_stream(&streams[0], stdout, 0);
    stderr = open_line_stream(&streams[1], stderr, 1);
    vmpi_log_set_die_hook(flush_all_ranks);
}

void vmpi_stdio_flush(void)
{
    for (int i = 0; i < 2; i++)
        if (streams[i].mine)
            fflush(streams[i].real);
}

void vmpi_stdio_rank_done(vmpi_rank *rk)
{
    for (int i = 0; i < 2; i++) {
        emit(&streams[i], &rk->out[i]);
        free(rk->out[i].data);
        rk->out[i] = (vmpi_linebuf){0};
    }
}

void vmpi_stdio_fini(void)
{
    flush_all_ranks();
    vmpi_log_set_die_hook(NULL);
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
