/* SPDX-License-Identifier: BSD-3-Clause */
/* Functions a copy of the program calls instead of the libraries' (bound by image.c when it resolves the
 * copy's undefined symbols):
 *  - __tls_get_addr: the copy's thread_local accesses (general- and local-dynamic model: the image is a
 *    shared object) reach the rank's block, not the thread's;
 *  - __cxa_atexit, atexit, __cxa_thread_atexit(_impl), __cxa_finalize: destructors the copy registers (C++ globals,
 *    atexit, thread_local objects) run when the rank that owns the objects exits (tls: globals are the
 *    process's, so theirs run at the end of the process).
 * They run on the rank (its slot is the current one), except the tls method's process-wide constructors. */
#include <pthread.h>
#include <string.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "img/image.h"
#include "iso/heap.h"

#define I vmpi_img_

typedef struct {
    unsigned long mod, off;
} tls_index;
extern void *__tls_get_addr(tls_index *ti);

static void *hook_tls_get_addr(tls_index *ti)
{
    uintptr_t m = ti->mod;
    if (m == IMG_TLS_CURRENT) { /* tls method: the running rank's block (an AM handler: its target's) */
        vmpi_iso_heap *h = vmpi_iso_tls_from_ ? vmpi_iso_tls_from_ : vmpi_iso_cur_;
        return (h && h->img_tls ? h->img_tls : I.shared.tls) + ti->off;
    }
    if (m > 0xffff) /* auto: the copy's own block */
        return (char *)m + ti->off;
    return __tls_get_addr(ti);
}

/* The record of the copy running now: the current rank's, or the process's (tls constructors). */
static img_rank *current(void)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    return h && h->img ? h->img : &I.shared;
}

static int record(img_rank *r, void (*fn)(void *), void *arg)
{
    if (r->ndtor == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        size_t n = (size_t)cap * sizeof(img_dtor);
        img_dtor *d = r->proc   ? vmpi_iso_job_realloc(r->dtor, n) /* saved with a checkpoint */
                      : r->dtor ? vmpi_iso_heap_realloc(vmpi_iso_cur_, r->dtor, n) /* it takes no NULL */
                                : vmpi_iso_heap_malloc(vmpi_iso_cur_, n);
        if (d == NULL)
            return -1;
        r->dtor = d;
        r->cap = cap;
    }
    r->dtor[r->ndtor++] = (img_dtor){fn, arg};
    return 0;
}

/* A thread_local object's destructor: its rank's block, so its rank's exit. */
static int hook_cxa_thread_atexit(void (*fn)(void *), void *arg, void *dso)
{
    (void)dso;
    return record(current(), fn, arg);
}

/* Globals' destructors and atexit handlers: auto, the rank's own copy's objects, destroyed when it exits;
 * tls, objects of the one copy all ranks share (a function static built by whichever rank came first),
 * destroyed at the end of the process, registered from any PE. */
static int hook_cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
    (void)dso;
    if (I.method != VMPI_PRIV_TLS)
        return record(current(), fn, arg);
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_mutex_lock(&lock);
    int err = record(&I.shared, fn, arg);
    pthread_mutex_unlock(&lock);
    return err;
}

/* atexit itself is a static stub of libc_nonshared.a that calls __cxa_atexit, so a copy normally imports no
 * `atexit`; but a library linked before libc that defines one (TSan's interceptor) makes it an import, and its
 * handlers would run once at the end of the process instead of at each rank's exit. */
static int hook_atexit(void (*fn)(void)) { return hook_cxa_atexit((void (*)(void *))(void (*)(void))fn, NULL, NULL); }

/* Registered destructors already ran, last first, when the copy's rank exited (copy.c). */
static void hook_cxa_finalize(void *dso) { (void)dso; }

static const struct {
    const char *name;
    void *fn;
} hooks[] = {
    {"__tls_get_addr", (void *)hook_tls_get_addr},
    {"__cxa_atexit", (void *)hook_cxa_atexit},
    {"atexit", (void *)hook_atexit},
    {"__cxa_thread_atexit", (void *)hook_cxa_thread_atexit},
    {"__cxa_thread_atexit_impl", (void *)hook_cxa_thread_atexit},
    {"__cxa_finalize", (void *)hook_cxa_finalize},
};

void *vmpi_img_hook(const char *name)
{
    if (name[0] != '_' && name[0] != 'a')
        return NULL;
    for (size_t i = 0; i < VMPI_ARRAY_LEN(hooks); i++)
        if (strcmp(name, hooks[i].name) == 0)
            return hooks[i].fn;
    return NULL;
}
