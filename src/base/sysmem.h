/* SPDX-License-Identifier: BSD-3-Clause */
/* The system allocator, for memory the runtime owns per PE or per process (pool slabs, channel overflow
 * blocks).  In a vmpi program malloc is the isomalloc layer's (iso/malloc.c): called while a rank runs, it
 * would put such memory in that rank's slot, to fill it up and to travel with the rank.  glibc's own entry
 * points bypass it; in sanitizer builds nothing is interposed and malloc is the sanitizer's. */
#ifndef VMPI_BASE_SYSMEM_H
#define VMPI_BASE_SYSMEM_H

#include <stddef.h>
#include <malloc.h>
#include <stdlib.h>

#include "base/sanitizer.h"

#if VMPI_SANITIZER
static inline void *vmpi_sys_malloc(size_t n) { return malloc(n); }
static inline void *vmpi_sys_calloc(size_t n, size_t size) { return calloc(n, size); }
static inline void *vmpi_sys_realloc(void *p, size_t n) { return realloc(p, n); }
static inline void *vmpi_sys_memalign(size_t align, size_t n) { return memalign(align, n); }
static inline void vmpi_sys_free(void *p) { free(p); }
#else
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void __libc_free(void *p);
static inline void *vmpi_sys_malloc(size_t n) { return __libc_malloc(n); }
static inline void *vmpi_sys_calloc(size_t n, size_t size) { return __libc_calloc(n, size); }
static inline void *vmpi_sys_realloc(void *p, size_t n) { return __libc_realloc(p, n); }
static inline void *vmpi_sys_memalign(size_t align, size_t n) { return __libc_memalign(align, n); }
static inline void vmpi_sys_free(void *p) { __libc_free(p); }
#endif

#endif
