/* SPDX-License-Identifier: BSD-3-Clause */
/* The destructor-run counters of the privatization tests (privcount.h).  Atomic: ranks on several PEs
 * run their destructors at once. */
#include "privcount.h"
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static atomic_int runs[PRIVCOUNT_KINDS];
static atomic_int expect[PRIVCOUNT_KINDS]; /* 0 unannounced, 1 once per process, 2 once per rank */
static const char *_Atomic names[PRIVCOUNT_KINDS];
static atomic_int conflicts;

int privcount_nranks(void)
{
    const char *s = getenv("VMPI_NRANKS");
    int n = s ? atoi(s) : 1;
    return n > 0 ? n : 1;
}

void privcount_die(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dprintf(2, "privcount: %s\n", msg);
    _exit(1);
}

void privcount_expect(int kind, const char *name, int per_rank)
{
    if (kind < 0 || kind >= PRIVCOUNT_KINDS)
        privcount_die("destructor kind %d out of range", kind);
    int want = per_rank ? 2 : 1, old = 0;
    if (!atomic_compare_exchange_strong(&expect[kind], &old, want) && old != want)
        atomic_fetch_add(&conflicts, 1);
    atomic_store(&names[kind], name);
}

void privcount_ran(int kind)
{
    if (kind < 0 || kind >= PRIVCOUNT_KINDS)
        privcount_die("destructor kind %d out of range", kind);
    atomic_fetch_add(&runs[kind], 1);
}

/* At process exit, after every rank and the program's own destructors (a shared library's destructor runs
 * after those of the program that needs it). */
__attribute__((destructor)) static void privcount_check(void)
{
    int n = privcount_nranks(), bad = 0;
    if (atomic_load(&conflicts)) {
        dprintf(2, "privcount: ranks announced different destructor counts\n");
        bad++;
    }
    for (int k = 0; k < PRIVCOUNT_KINDS; k++) {
        int e = atomic_load(&expect[k]), r = atomic_load(&runs[k]);
        int want = e == 2 ? n : e;
        if (r != want) {
            const char *name = atomic_load(&names[k]);
            dprintf(2, "privcount: %s (kind %d): %d destructor runs, expected %d (%s)\n", name ? name : "?", k, r,
                    want, e == 2 ? "one per rank" : e == 1 ? "one for the process" : "none announced");
            bad++;
        }
    }
    if (bad)
        _exit(1);
}
