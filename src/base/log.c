/* SPDX-License-Identifier: BSD-3-Clause */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
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
static VMPI_TLS bool dying_late; /* this one, after the first did not end the process in DYING_WAIT_S */

/* How long a second dying thread waits for the first to end the process: longer, the first hangs in the
 * hook (a rank's output lock its crash left held, a pipe nobody reads) and the job must not hang with it. */
#define DYING_WAIT_S 5
#define STR_(x) #x
#define STR(x) STR_(x)

void vmpi_log_set_die_hook(void (*fn)(void)) { atomic_store(&die_hook, fn); }

void vmpi_log_run_die_hook(void)
{
    /* The hook runs once (not again when it fails: that call exits at once), and by one thread: when ranks
     * on two PEs fail at the same time, the second waits for the first's flush and exit instead of running
     * the hook beside it, DYING_WAIT_S at most; then it goes on without the hook, and vmpi_die without
     * stdio's flush (the first may hold its locks).  (Only async-signal-safe calls: signal handlers come
     * here.) */
    void (*hook)(void) = NULL;
    if (!dying_here) {
        dying_here = true;
        if (atomic_exchange(&dying, true)) {
            for (int ms = 0; ms < DYING_WAIT_S * 1000; ms += 10)
                nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
            dying_late = true;
            static const char m[] = "vmpi: the thread that began ending the process first did not finish in "
                                    STR(DYING_WAIT_S) " s: this one ends it, without the ranks' last output\n";
            ssize_t w = write(STDERR_FILENO, m, sizeof m - 1);
            (void)w;
            return;
        }
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
    if (!dying_late)
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
