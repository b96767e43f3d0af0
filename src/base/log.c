/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "base/compiler.h"
#include "base/log.h"

static void vreport(const char *fmt, va_list ap)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "vmpi: ");
    n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    if (n > (int)sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n++] = '\n';
    /* one write(2) so that concurrent diagnostics from several PEs never interleave mid-line */
    ssize_t w = write(STDERR_FILENO, line, (size_t)n);
    (void)w;
}

void vmpi_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
}

static void (*_Atomic die_hook)(void);
static _Atomic bool dying;      /* a thread is ending the process */
static VMPI_TLS bool dying_here; /* this one */

void vmpi_log_set_die_hook(void (*fn)(void)) { atomic_store(&die_hook, fn); }

void vmpi_log_run_die_hook(void)
{
    /* The hook runs once (not again when it fails: that call exits at once), and by one thread: when ranks
     * on two PEs fail at the same time, the second waits for the first's flush and exit instead of running
     * the hook beside it. */
    void (*hook)(void) = NULL;
    if (!dying_here) {
        dying_here = true;
        if (atomic_exchange(&dying, true))
            for (;;)
                pause();
        hook = atomic_exchange(&die_hook, NULL);
    }
    if (hook)
        hook();
}

static void (*exit_hook)(int code);

void vmpi_log_set_exit_hook(void (*fn)(int code)) { exit_hook = fn; }

void vmpi_die(int code)
{
    vmpi_log_run_die_hook();
    fflush(NULL);
    if (exit_hook)
        exit_hook(code);
    _exit(code);
}

void vmpi_fatal(const char *fmt, ...)
{
    vmpi_log_run_die_hook(); /* the program's output, then the message */
    va_list ap;
    va_start(ap, fmt);
    vreport(fmt, ap);
    va_end(ap);
    vmpi_die(1);
}
