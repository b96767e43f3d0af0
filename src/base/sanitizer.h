/* SPDX-License-Identifier: BSD-3-Clause */
/* Which sanitizer the build has (CMake: VMPI_SANITIZE=ON gives VMPI_ASAN, VMPI_TSAN=ON gives VMPI_TSAN), and
 * ThreadSanitizer's happens-before annotations for synchronization it cannot see by itself (futexes,
 * membarrier's asymmetric fences, relaxed atomics used as handshakes).  Without TSan the annotations are
 * empty: the normal build pays nothing. */
#ifndef VMPI_BASE_SANITIZER_H
#define VMPI_BASE_SANITIZER_H

#ifndef VMPI_ASAN
#define VMPI_ASAN 0
#endif
#ifndef VMPI_TSAN
#define VMPI_TSAN 0
#endif
/* A sanitizer build: malloc is the sanitizer's (no interposition), no checkpoints. */
#define VMPI_SANITIZER (VMPI_ASAN || VMPI_TSAN)

#if VMPI_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
/* What the thread did before vmpi_tsan_release(a) happens before what a thread does after a later
 * vmpi_tsan_acquire(a) (TSan joins their clocks through the address, which is never accessed). */
#define vmpi_tsan_release(a) __tsan_release((void *)(a))
#define vmpi_tsan_acquire(a) __tsan_acquire((void *)(a))
#else
#define vmpi_tsan_release(a) ((void)0)
#define vmpi_tsan_acquire(a) ((void)0)
#endif

#endif
