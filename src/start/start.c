/* SPDX-License-Identifier: BSD-3-Clause */
/* Linked into every vmpi program by the compiler wrappers, with -Wl,--wrap=main -Wl,--wrap=exit: the C
 * runtime's call to main lands here and boots vmpi, which runs the program's real main once per rank.
 * exit() called by a rank ends that rank only, as it would end one process of a process-based MPI.
 * Keeping the program's main addressable as a function is what lets a later loader give each rank its own
 * copy of the program's globals.
 *
 * It also defines the malloc family, so that every allocation of the program and of the libraries it loads
 * (C++ new, Fortran ALLOCATE, strdup, fopen...) reaches libvmpi's isomalloc layer (src/iso/malloc.c): a
 * rank's memory lives in its slot, everything else goes to glibc.  Definitions in the executable come first
 * in symbol lookup, so glibc's and libstdc++'s own calls land here too.  Not in sanitizer builds, where the
 * sanitizer's malloc must see every block.
 *
 * And fflush: stdout and stderr are libvmpi's per-rank line streams (src/mpi/core/stdio.c), whose lines wait
 * in the rank's buffer; a rank's fflush writes them to the file descriptor, as a process's fflush would. */
#include <stdio.h>
#include <stdlib.h>

extern int __real_main(int, char **, char **);
extern _Noreturn void __real_exit(int);
extern int vmpi_boot(int argc, char **argv, int (*main)(int, char **, char **));
extern void vmpi_start_exit(int code);

int __wrap_main(int argc, char **argv, char **envp)
{
    (void)envp;
    return vmpi_boot(argc, argv, __real_main);
}

_Noreturn void __wrap_exit(int code)
{
    vmpi_start_exit(code); /* does not return when called by a rank */
    __real_exit(code);
}

extern int vmpi_stdio_fflush(FILE *f);
int fflush(FILE *f) { return vmpi_stdio_fflush(f); }

#if !VMPI_ASAN && !VMPI_TSAN
extern void *vmpi_iso_malloc_from(size_t n, const void *caller);
extern void *vmpi_iso_calloc_from(size_t n, size_t size, const void *caller);
extern void *vmpi_iso_realloc_from(void *p, size_t n, const void *caller);
extern void vmpi_iso_free(void *p);
extern void *vmpi_iso_reallocarray(void *p, size_t n, size_t size);
extern int vmpi_iso_posix_memalign(void **out, size_t align, size_t n);
extern void *vmpi_iso_aligned_alloc(size_t align, size_t n);
extern void *vmpi_iso_memalign(size_t align, size_t n);
extern void *vmpi_iso_valloc(size_t n);
extern void *vmpi_iso_pvalloc(size_t n);
extern size_t vmpi_iso_malloc_usable_size(void *p);

/* the caller's address: a library whose allocations are process-wide state gets the system's (iso.h) */
void *malloc(size_t n) { return vmpi_iso_malloc_from(n, __builtin_return_address(0)); }
void free(void *p) { vmpi_iso_free(p); }
void *calloc(size_t n, size_t size) { return vmpi_iso_calloc_from(n, size, __builtin_return_address(0)); }
void *realloc(void *p, size_t n) { return vmpi_iso_realloc_from(p, n, __builtin_return_address(0)); }
void *reallocarray(void *p, size_t n, size_t size) { return vmpi_iso_reallocarray(p, n, size); }
int posix_memalign(void **out, size_t align, size_t n) { return vmpi_iso_posix_memalign(out, align, n); }
void *aligned_alloc(size_t align, size_t n) { return vmpi_iso_aligned_alloc(align, n); }
void *memalign(size_t align, size_t n) { return vmpi_iso_memalign(align, n); }
void *valloc(size_t n) { return vmpi_iso_valloc(n); }
void *pvalloc(size_t n) { return vmpi_iso_pvalloc(n); }
size_t malloc_usable_size(void *p) { return vmpi_iso_malloc_usable_size(p); }
#endif
