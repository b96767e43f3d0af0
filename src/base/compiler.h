/* SPDX-License-Identifier: BSD-3-Clause */
/* Small compiler helpers used by every layer. */
#ifndef VMPI_BASE_COMPILER_H
#define VMPI_BASE_COMPILER_H

#include <stddef.h>

#define VMPI_LIKELY(x) __builtin_expect(!!(x), 1)
#define VMPI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define VMPI_CACHELINE 64
#define VMPI_ALIGNED_CL _Alignas(VMPI_CACHELINE)
#define VMPI_NORETURN _Noreturn
#define VMPI_NOINLINE __attribute__((noinline))
#define VMPI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define VMPI_EXPORT __attribute__((visibility("default")))
/* Thread-locals of libvmpi: the library is always loaded at start-up, so the fast model is safe. */
#define VMPI_TLS __thread __attribute__((tls_model("initial-exec")))

#define vmpi_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define VMPI_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#endif
