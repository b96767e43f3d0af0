/* SPDX-License-Identifier: BSD-3-Clause */
/* The malloc family behind the start object's definitions (src/start/start.c).  A call made while a rank
 * runs on the calling thread goes to the rank's slot; any other (runtime threads, threads a rank created,
 * before the ranks start, libraries at load time) to the system allocator.  A free or realloc of a block
 * outside the range always goes to the system allocator, so blocks allocated before the runtime started
 * stay valid.
 *
 * The system allocator is reached through glibc's __libc_* entry points (base/sysmem.h), not through malloc
 * (which is ours in the program); glibc has no __libc_ form of posix_memalign, aligned_alloc or
 * malloc_usable_size, so those use memalign and libc's own malloc_usable_size.  In sanitizer builds
 * nothing is interposed (the sanitizer's malloc must see every block) and the system allocator is plain
 * malloc. */
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "iso/heap.h"

#if VMPI_SANITIZER
#define sys_usable_size malloc_usable_size
#else
static size_t sys_usable_size(void *p)
{
    static _Atomic(size_t (*)(void *)) fn;
    size_t (*f)(void *) = atomic_load_explicit(&fn, memory_order_relaxed);
    if (f == NULL) {
        /* libc's own, not the program's (ours): looked up in libc itself */
        void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
        f = libc ? (size_t (*)(void *))dlsym(libc, "malloc_usable_size") : NULL;
        if (f == NULL)
            vmpi_fatal("cannot find libc's malloc_usable_size: %s", dlerror());
        atomic_store_explicit(&fn, f, memory_order_relaxed);
    }
    return f(p);
}
#endif

/* Libraries whose allocations are process-wide state, not the calling rank's: libgfortran caches the units
 * of internal WRITEs for any later statement of any rank (a block in a rank's slot would leave the process
 * with the rank, and libgfortran would write into whatever is there next).  Their code's range, found at
 * start-up; a call from there goes to the system allocator. */
static uintptr_t proc_lib_lo, proc_lib_len;

static int find_proc_lib(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size, (void)arg;
    if (info->dlpi_name == NULL || strstr(info->dlpi_name, "/libgfortran.so") == NULL)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            proc_lib_lo = info->dlpi_addr + ph->p_vaddr;
            proc_lib_len = ph->p_memsz;
        }
    }
    return 1;
}

void vmpi_iso_malloc_init(void) { dl_iterate_phdr(find_proc_lib, NULL); }

/* whether a call from `caller` allocates for the process (a process-wide library's, or outside any rank) */
static inline bool for_process(const void *caller)
{
    return (uintptr_t)caller - proc_lib_lo < proc_lib_len;
}

void *vmpi_iso_malloc(size_t n)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    return VMPI_LIKELY(h != NULL) ? vmpi_iso_heap_malloc(h, n) : vmpi_sys_malloc(n);
}

void *vmpi_iso_malloc_from(size_t n, const void *caller)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    return VMPI_LIKELY(h != NULL && !for_process(caller)) ? vmpi_iso_heap_malloc(h, n) : vmpi_sys_malloc(n);
}

void *vmpi_iso_calloc_from(size_t n, size_t size, const void *caller)
{
    return for_process(caller) ? vmpi_sys_calloc(n, size) : vmpi_iso_calloc(n, size);
}

void *vmpi_iso_realloc_from(void *p, size_t n, const void *caller)
{
    if (!for_process(caller))
        return vmpi_iso_realloc(p, n);
    if (p == NULL)
        return vmpi_sys_malloc(n);
    if (!iso_in_range(p) || n == 0)
        return vmpi_iso_realloc(p, n); /* a system block stays one; 0 frees */
    return vmpi_iso_move(p, vmpi_sys_malloc(n), n); /* a rank's block the library keeps: the process's now */
}

void vmpi_iso_free(void *p)
{
    if (iso_in_range(p))
        vmpi_iso_free_any(p);
    else
        vmpi_sys_free(p);
}

void *vmpi_iso_calloc(size_t n, size_t size)
{
    vmpi_iso_heap *h = vmpi_iso_cur_;
    if (h == NULL)
        return vmpi_sys_calloc(n, size);
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return vmpi_iso_heap_calloc(h, bytes);
}

void *vmpi_iso_realloc(void *p, size_t n)
{
    if (p == NULL)
        return vmpi_iso_malloc(n);
    if (n == 0) { /* as glibc: frees and returns NULL */
        vmpi_iso_free(p);
        return NULL;
    }
    if (!iso_in_range(p))
        return vmpi_sys_realloc(p, n); /* a system block stays one */
    vmpi_iso_heap *h = vmpi_iso_cur_;
    if (h != NULL && iso_heap_of(p) == h)
        return vmpi_iso_heap_realloc(h, p, n);
    /* another rank's block, or a rank's block outside every rank: moves to the caller's allocator */
    return vmpi_iso_move(p, vmpi_iso_malloc(n), n);
}

void *vmpi_iso_reallocarray(void *p, size_t n, size_t size)
{
    size_t bytes;
    if (__builtin_mul_overflow(n, size, &bytes)) {
        errno = ENOMEM;
        return NULL;
    }
    return vmpi_iso_realloc(p, bytes);
}

/* memalign's rules (glibc): an alignment that is not a power of two is rounded up to one. */
void *vmpi_iso_memalign(size_t align, size_t n)
{
    if (align > SIZE_MAX / 2 + 1) {
        errno = EINVAL;
        return NULL;
    }
    if (align & (align - 1))
        align = (size_t)1 << (64 - __builtin_clzll(align));
    vmpi_iso_heap *h = vmpi_iso_cur_;
    if (h == NULL)
        return vmpi_sys_memalign(align, n);
    return align <= 16 ? vmpi_iso_heap_malloc(h, n) : vmpi_iso_heap_memalign(h, align, n);
}

int vmpi_iso_posix_memalign(void **out, size_t align, size_t n)
{
    if (align == 0 || (align & (align - 1)) || align % sizeof(void *))
        return EINVAL;
    int e = errno;
    void *p = vmpi_iso_memalign(align, n);
    if (p == NULL) {
        int r = errno == EINVAL ? EINVAL : ENOMEM;
        errno = e;
        return r;
    }
    *out = p;
    return 0;
}

void *vmpi_iso_aligned_alloc(size_t align, size_t n) { return vmpi_iso_memalign(align, n); }

void *vmpi_iso_valloc(size_t n) { return vmpi_iso_memalign((size_t)sysconf(_SC_PAGESIZE), n); }

void *vmpi_iso_pvalloc(size_t n)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (n > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    n = n ? (n + page - 1) & ~(page - 1) : page;
    return vmpi_iso_memalign(page, n);
}

size_t vmpi_iso_malloc_usable_size(void *p)
{
    if (p == NULL)
        return 0;
    return iso_in_range(p) ? vmpi_iso_usable_size(p) : sys_usable_size(p);
}
