/* SPDX-License-Identifier: BSD-3-Clause */
/* A PE thread's dynamic TLS blocks made at its start.  glibc allocates a thread's block of a library loaded
 * with dlopen (the network plugin, UCX, PMIx, a library the program opened) with malloc at the thread's first
 * access to it; on a PE thread that access may come while a rank runs (a library the rank calls), and iso's
 * malloc then takes the block from the rank's slot.  When the rank moves to another process its slot goes,
 * and glibc frees the block at the thread's end: a crash outside any rank (as with the thread records of
 * threads ranks start: img/libc.c).  So each PE thread asks for every loaded library's block first, before
 * any rank runs on it. */
#include <link.h>
#include <stddef.h>
#include "sched/tls_warm.h"

typedef struct {
    unsigned long module, offset;
} tls_index;
extern void *__tls_get_addr(tls_index *ti);

static int warm_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (info->dlpi_tls_modid != 0 && info->dlpi_tls_data == NULL) {
        tls_index ti = {info->dlpi_tls_modid, 0};
        (void)__tls_get_addr(&ti);
    }
    return 0;
}

void vmpi_tls_warm(void) { dl_iterate_phdr(warm_one, NULL); }
