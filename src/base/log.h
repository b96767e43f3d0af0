/* SPDX-License-Identifier: BSD-3-Clause */
/* Diagnostics: every message starts with "vmpi:" so users can tell runtime messages from program output. */
#ifndef VMPI_BASE_LOG_H
#define VMPI_BASE_LOG_H

#include "base/compiler.h"

VMPI_NORETURN void vmpi_fatal(const char *fmt, ...) VMPI_PRINTF(1, 2);
void vmpi_warn(const char *fmt, ...) VMPI_PRINTF(1, 2);
/* Flush stdio and leave the process with `code` at once (other PEs are not joined). */
VMPI_NORETURN void vmpi_die(int code);
/* `fn` runs first in vmpi_die (an upper layer writes out what it buffers); NULL removes it. */
void vmpi_log_set_die_hook(void (*fn)(void));
/* `fn(code)` runs last in vmpi_die, before the process ends (a job of several processes ends them all
 * through the launcher); NULL removes it. */
void vmpi_log_set_exit_hook(void (*fn)(int code));
/* Runs the die hook now (once in all: a fatal signal's handler, or before a fatal message, so that the
 * program's output comes before it). */
void vmpi_log_run_die_hook(void);

#define vmpi_assert(c)                                                                                        \
    ((c) ? (void)0 : vmpi_fatal("internal error: %s:%d: assertion '%s' failed", __FILE__, __LINE__, #c))

#endif
