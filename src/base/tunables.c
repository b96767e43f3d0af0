/* SPDX-License-Identifier: BSD-3-Clause */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <stdatomic.h>
#include "base/log.h"
#include "base/spin.h"
#include "base/sysmem.h"
#include "base/tunables.h"

vmpi_config vmpi_cfg;

static const vmpi_tunable table[] = {
    {"ranks", "VMPI_NRANKS", VMPI_TUNABLE_INT, "1", "number of MPI ranks (virtual processors)", .min = 1,
     .max = 1 << 24, .group = "job"},
    {"pes", "VMPI_NPES", VMPI_TUNABLE_INT, "0", "worker threads (PEs); 0 = one per core, at most one per rank",
     .max = 1024, .group = "job"},
    {"stack-size", "VMPI_STACK_SIZE", VMPI_TUNABLE_SIZE, "1M", "stack size of each rank (k/M/G suffixes)",
     .min = 64 << 10, .max = 16ull << 30, .group = "job"},
    {"eager-max", "VMPI_EAGER_MAX", VMPI_TUNABLE_SIZE, "4k",
     "largest message sent eagerly; larger ones use single-copy rendezvous", .max = 64 << 20, .group = "msg"},
    {"channel-size", "VMPI_CHANNEL_SIZE", VMPI_TUNABLE_SIZE, "64k",
     "ring between each pair of PEs; messages up to a quarter of it are copied through it", .min = 4 << 10,
     .max = 2 << 20, .group = "msg"},
    {"emulate-procs", "VMPI_EMULATE_PROCS", VMPI_TUNABLE_INT, "1",
     "emulated multi-process mode: split the PEs into this many process groups in one process, every "
     "operation between groups going through the remote transport's protocols (tests the transport seam); "
     "at most the PEs", .min = 1, .max = 1024, .group = "job"},
    {"net-cma", "VMPI_NET_CMA", VMPI_TUNABLE_BOOL, "1",
     "a job of several processes: get and put between processes of one node by the kernel's copy "
     "(process_vm_readv/writev); 0: by messages, as between nodes", .group = "net"},
    {"net-rma", "VMPI_NET_RMA", VMPI_TUNABLE_BOOL, "1",
     "a job of several processes: get and put on a window's memory in another process by the network's "
     "one-sided operations (UCX with remote keys; the kernel's copy first, within one node); 0: by messages",
     .group = "net"},
    {"net-rma-emulated", "VMPI_NET_RMA_EMULATED", VMPI_TUNABLE_BOOL, "0",
     "a job of several processes: use UCX's RMA also where UCX has no RMA lane for the memory and would "
     "emulate it with messages (shared memory and TCP without an RDMA device), instead of vmpi's messages, "
     "which move large data faster there (for tests of that path)", .group = "net"},
    {"net-peer", "VMPI_NET_PEER", VMPI_TUNABLE_BOOL, "0",
     "a job of several processes: connections to processes on other nodes in UCX's PEER error mode, which "
     "guarantees that a lost connection is seen and finds a peer gone silently (keepalive); costs some of "
     "TCP's bandwidth (a reset connection is seen without it)", .group = "net"},
    {"net-trace", "VMPI_NET_TRACE", VMPI_TUNABLE_BOOL, "0",
     "a job of several processes: print every message between processes on stderr (debugging)", .group = "net"},
    {"pin", "VMPI_PIN", VMPI_TUNABLE_BOOL, "1", "pin each PE to a core (hwloc)", .group = "sched"},
    {"idle-spin-us", "VMPI_IDLE_SPIN_US", VMPI_TUNABLE_INT, "200",
     "microseconds an idle PE polls before it sleeps", .max = 10000000, .group = "sched"},
    {"pe-wait", "VMPI_PE_WAIT", VMPI_TUNABLE_STRING, "auto",
     "how a PE with nothing to run waits: spin (polls for idle-spin-us, then sleeps), sleep (at once, giving the "
     "core away: for PEs that share cores), or auto (sleep when this node has more PE threads than cores)",
     "auto|spin|sleep", .group = "sched"},
    {"deadlock-check", "VMPI_DEADLOCK_CHECK", VMPI_TUNABLE_BOOL, "1",
     "report and stop a job whose live ranks are all blocked with no message in flight", .group = "sched"},
    {"balancer", "VMPI_BALANCER", VMPI_TUNABLE_STRING, "Null",
     "load-balancing strategies run at AMPI_Migrate, chained with commas: Null, Rotate, Random, Greedy, "
     "Refine, GreedyRefine, Metis (e.g. Greedy,Refine)", .group = "lb", .runtime = true},
    {"lb-period", "VMPI_LB_PERIOD", VMPI_TUNABLE_INT, "0",
     "milliseconds: AMPI_Migrate balances at most this often (calls in between only synchronize)",
     .max = 3600000, .group = "lb"},
    {"pes-active", "VMPI_PES_ACTIVE", VMPI_TUNABLE_INT, "0",
     "PEs that hold ranks at the start (0: all); the others join when the program expands the job "
     "(VMPIX_Set_active_pes, then AMPI_Migrate); at most the PEs", .max = 1024, .group = "job"},
    {"lb-background", "VMPI_LB_BACKGROUND", VMPI_TUNABLE_BOOL, "0",
     "balancers count each PE's background load (time its core ran other programs) as load on it",
     .group = "lb", .runtime = true},
    {"lb-procs", "VMPI_LB_PROCS", VMPI_TUNABLE_BOOL, "1",
     "in a job of several processes, balancers place ranks over every PE of the job (ranks move between "
     "processes); 0: each process balances its own ranks over its own PEs", .group = "lb"},
    {"lb-verbose", "VMPI_LB_VERBOSE", VMPI_TUNABLE_BOOL, "0",
     "report each balancing step on stderr: measured load per PE before, predicted after, ranks moved",
     .group = "lb", .runtime = true},
    {"iso-base", "VMPI_ISO_BASE", VMPI_TUNABLE_SIZE, VMPI_ISO_BASE_DEFAULT,
     "address of the isomalloc range (one slot per rank: its stack and heap); must be free in the process",
     .min = 1ull << 30, .max = 1ull << 47, .group = "iso"},
    {"iso-slot-size", "VMPI_ISO_SLOT_SIZE", VMPI_TUNABLE_SIZE, "0",
     "bytes of address space per rank (stack + heap), a power of two; 0 = largest up to 64G with all slots "
     "in " VMPI_ISO_AUTO_RANGE_TEXT, .max = 1ull << 40, .group = "iso"},
    {"restart", "VMPI_RESTART", VMPI_TUNABLE_STRING, "",
     "restart the job from the newest checkpoint in this directory (AMPI_Migrate with ampi_checkpoint=to_file=DIR); "
     "the ranks' count comes from it, the PEs' from -p", .group = "ckpt"},
    {"ft-dir", "VMPI_FT_DIR", VMPI_TUNABLE_STRING, "",
     "in a job of several processes, keep every in-memory checkpoint (ampi_checkpoint=in_memory) also as files "
     "in this directory (memory: tmpfs), each process's part in its own subdirectory and its buddy's, so that "
     "vmpirun --recover can restart the job after a process is lost (vmpirun --recover sets it)", .group = "ckpt"},
    {"procs-file", "VMPI_PROCS_FILE", VMPI_TUNABLE_STRING, "",
     "a file into which an operator writes a number of processes: at its next migration point the job goes on "
     "as that many (vmpirun's launch; the program's call is VMPIX_Set_procs)", .group = "job"},
    {"ckpt-verbose", "VMPI_CKPT_VERBOSE", VMPI_TUNABLE_BOOL, "0",
     "report every checkpoint and restart on stderr: bytes, seconds, bandwidth", .group = "ckpt", .runtime = true},
    {"am-staged", "VMPI_AM_STAGED", VMPI_TUNABLE_BOOL, "0",
     "active messages stage input and output in buffers at the target, as between processes (window hint "
     "am_staged overrides); by default the origin runs the target's handler on its buffers in place", .group = "rma"},
    {"am-system-buffer", "VMPI_AM_SYSTEM_BUFFER", VMPI_TUNABLE_SIZE, "8k",
     "staged active messages: bytes of a target's system buffer for each origin (window hint am_system_buffer)",
     .min = 64, .max = 1 << 30, .group = "rma"},
    {"armci-errors", "VMPI_ARMCI_ERRORS", VMPI_TUNABLE_STRING, "abort",
     "misuse of ARMCI: abort (print what is wrong and stop the job, as ARMCI does) or return (print it and return "
     "the MPI error class)", "abort|return", .group = "armci"},
    {"aslr", "VMPI_ASLR", VMPI_TUNABLE_BOOL, "0",
     "keep address-space randomization; checkpoints of such a job cannot be restarted (they need the libraries "
     "at the same addresses)", .group = "ckpt"},
};

const vmpi_tunable *vmpi_tunables(size_t *count)
{
    *count = VMPI_ARRAY_LEN(table);
    return table;
}

const vmpi_tunable *vmpi_tunable_find(const char *name)
{
    for (size_t i = 0; i < VMPI_ARRAY_LEN(table); i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

bool vmpi_parse_size(const char *text, size_t *out)
{
    char *end;
    errno = 0;
    bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    unsigned long long v = strtoull(text, &end, hex ? 16 : 10);
    if (end == text || errno != 0 || text[0] == '-')
        return false;
    unsigned long long mul = 1;
    switch (*end) {
    case 'k': case 'K': mul = 1ull << 10; end++; break;
    case 'm': case 'M': mul = 1ull << 20; end++; break;
    case 'g': case 'G': mul = 1ull << 30; end++; break;
    case 't': case 'T': mul = 1ull << 40; end++; break;
    default: break;
    }
    if (hex && mul != 1)
        return false; /* 0x10G: a hex digit or a suffix? neither */
    if (*end == 'i' || *end == 'b' || *end == 'B')
        end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
    if (*end != '\0' || (v && mul > ~0ull / v))
        return false;
    *out = (size_t)(v * mul);
    return true;
}

static bool parse_long(const char *text, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0)
        return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *text, bool *out)
{
    if (!strcmp(text, "1") || !strcasecmp(text, "yes") || !strcasecmp(text, "true") || !strcasecmp(text, "on"))
        *out = true;
    else if (!strcmp(text, "0") || !strcasecmp(text, "no") || !strcasecmp(text, "false") ||
             !strcasecmp(text, "off"))
        *out = false;
    else
        return false;
    return true;
}

/* "64k", "2M", "1T" for exact multiples, else the bytes */
static void size_text(unsigned long long v, char *buf, size_t len)
{
    static const char units[] = "kMGT";
    int u = -1;
    while (u < 3 && v >= 1024 && v % 1024 == 0) {
        v /= 1024;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%llu", v);
    else
        snprintf(buf, len, "%llu%c", v, units[u]);
}

static bool in_range(const vmpi_tunable *t, unsigned long long v)
{
    return v >= t->min && (t->max == 0 || v <= t->max);
}

bool vmpi_tunable_check(const vmpi_tunable *t, const char *text, const char **why)
{
    static _Thread_local char buf[160]; /* (ranks on several PEs may check at once: MPI_T_cvar_write) */
    char lo[32], hi[32];
    long l;
    size_t s;
    bool b;
    switch (t->type) {
    case VMPI_TUNABLE_INT:
        snprintf(buf, sizeof buf, "an integer from %llu to %llu", t->min,
                 t->max ? t->max : (unsigned long long)LONG_MAX);
        *why = buf;
        return parse_long(text, &l) && l >= 0 && in_range(t, (unsigned long long)l);
    case VMPI_TUNABLE_SIZE:
        if (t->max) {
            size_text(t->min, lo, sizeof lo);
            size_text(t->max, hi, sizeof hi);
            snprintf(buf, sizeof buf, "a size from %s to %s (65536, 64k, 1M, 0x10000...)", lo, hi);
            *why = buf;
        } else {
            *why = "a size such as 65536, 64k, 1M or 0x10000";
        }
        return vmpi_parse_size(text, &s) && in_range(t, s);
    case VMPI_TUNABLE_BOOL:
        *why = "0/1, yes/no, true/false or on/off";
        return parse_bool(text, &b);
    case VMPI_TUNABLE_STRING:
        if (t->choices == NULL)
            return true;
        *why = t->choices;
        for (const char *c = t->choices; *c;) {
            size_t n = strcspn(c, "|");
            if (strlen(text) == n && strncmp(text, c, n) == 0)
                return true;
            c += n + (c[n] == '|');
        }
        return false;
    }
    return false;
}

void vmpi_tunable_require(const char *name, unsigned long long v, const char *given_as)
{
    const vmpi_tunable *t = vmpi_tunable_find(name);
    char text[32];
    const char *why = "";
    snprintf(text, sizeof text, "%llu", v);
    if (!vmpi_tunable_check(t, text, &why))
        vmpi_fatal("%s %s is not valid: expected %s", given_as, text, why);
}

/* Levenshtein distance, case-insensitive, of strings up to 63 characters (longer ones: far). */
static size_t distance(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b), row[64];
    if (na > 63 || nb > 63)
        return SIZE_MAX;
    for (size_t j = 0; j <= nb; j++)
        row[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t up = row[j];
            size_t sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[nb];
}

const vmpi_tunable *vmpi_tunable_closest(const char *name, bool env)
{
    const vmpi_tunable *best = NULL;
    size_t bd = SIZE_MAX;
    for (size_t i = 0; i < VMPI_ARRAY_LEN(table); i++) {
        size_t d = distance(name, env ? table[i].env : table[i].name);
        if (d < bd) {
            bd = d;
            best = &table[i];
        }
    }
    /* close: a third of the name's letters wrong at most (VMPI_STAK_SIZE, VMPI_NPE, --stacksize) */
    size_t len = strlen(name) - (env && strncmp(name, "VMPI_", 5) == 0 ? 5 : 0);
    return bd <= (len < 6 ? 1 : len / 3) ? best : NULL;
}

/* Variables named VMPI_* that are not settings but are vmpi's: the wrappers' and the runtime's own. */
static const char *const other_vars[] = {"VMPI_CC", "VMPI_CXX", "VMPI_PRIVATIZE", "VMPI_LAYOUT_FIXED"};

/* Warns about each VMPI_* variable of the environment that no setting has: a misspelt setting would
 * otherwise be ignored without a word. */
void vmpi_tunables_warn_unknown(void)
{
    extern char **environ;
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "VMPI_", 5) != 0)
            continue;
        char name[128];
        size_t n = strcspn(*e, "=");
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), *e);
        bool known = false;
        for (size_t i = 0; i < VMPI_ARRAY_LEN(table) && !known; i++)
            known = strcmp(name, table[i].env) == 0;
        for (size_t i = 0; i < VMPI_ARRAY_LEN(other_vars) && !known; i++)
            known = strcmp(name, other_vars[i]) == 0;
        if (known)
            continue;
        const vmpi_tunable *t = vmpi_tunable_closest(name, true);
        if (t)
            vmpi_warn("%s is not a vmpi setting and is ignored; did you mean %s (--%s)?", name, t->env, t->name);
        else
            vmpi_warn("%s is not a vmpi setting and is ignored (vmpirun --help lists them)", name);
    }
}

static const char *value_of(const vmpi_tunable *t)
{
    const char *v = getenv(t->env);
    const char *why = "";
    if (v == NULL || *v == '\0')
        return t->defval;
    if (!vmpi_tunable_check(t, v, &why))
        vmpi_fatal("%s='%s' is not valid: expected %s", t->env, v, why);
    return v;
}

/* Puts setting t's value `v` (checked) into vmpi_cfg: the one place that knows which field holds which setting
 * (the settings a plugin reads from the environment itself, net-*, have none). */
static void apply(const vmpi_tunable *t, const char *v)
{
    const char *n = t->name;
    size_t sz = 0;
    long ms = 0;
    if (!strcmp(n, "ranks"))
        parse_long(v, &vmpi_cfg.nranks);
    else if (!strcmp(n, "pes"))
        parse_long(v, &vmpi_cfg.npes);
    else if (!strcmp(n, "stack-size"))
        vmpi_parse_size(v, &vmpi_cfg.stack_size);
    else if (!strcmp(n, "eager-max"))
        vmpi_parse_size(v, &vmpi_cfg.eager_max);
    else if (!strcmp(n, "channel-size"))
        vmpi_parse_size(v, &vmpi_cfg.channel_size);
    else if (!strcmp(n, "emulate-procs"))
        parse_long(v, &vmpi_cfg.emulate_procs);
    else if (!strcmp(n, "pin"))
        parse_bool(v, &vmpi_cfg.pin);
    else if (!strcmp(n, "idle-spin-us"))
        parse_long(v, &vmpi_cfg.idle_spin_us);
    else if (!strcmp(n, "pe-wait"))
        vmpi_cfg.pe_wait = !strcmp(v, "spin") ? VMPI_PE_WAIT_SPIN : !strcmp(v, "sleep") ? VMPI_PE_WAIT_SLEEP
                                                                                     : VMPI_PE_WAIT_AUTO;
    else if (!strcmp(n, "deadlock-check"))
        parse_bool(v, &vmpi_cfg.deadlock_check);
    else if (!strcmp(n, "balancer"))
        vmpi_cfg.balancer = v;
    else if (!strcmp(n, "lb-period") && parse_long(v, &ms))
        vmpi_cfg.lb_period = 1e-3 * (double)ms;
    else if (!strcmp(n, "lb-verbose"))
        parse_bool(v, &vmpi_cfg.lb_verbose);
    else if (!strcmp(n, "lb-background"))
        parse_bool(v, &vmpi_cfg.lb_background);
    else if (!strcmp(n, "lb-procs"))
        parse_bool(v, &vmpi_cfg.lb_procs);
    else if (!strcmp(n, "pes-active"))
        parse_long(v, &vmpi_cfg.pes_active);
    else if (!strcmp(n, "iso-base") && vmpi_parse_size(v, &sz))
        vmpi_cfg.iso_base = (uintptr_t)sz;
    else if (!strcmp(n, "iso-slot-size"))
        vmpi_parse_size(v, &vmpi_cfg.iso_slot_size);
    else if (!strcmp(n, "restart"))
        vmpi_cfg.restart = v;
    else if (!strcmp(n, "aslr"))
        parse_bool(v, &vmpi_cfg.aslr);
    else if (!strcmp(n, "ckpt-verbose"))
        parse_bool(v, &vmpi_cfg.ckpt_verbose);
    else if (!strcmp(n, "ft-dir"))
        vmpi_cfg.ft_dir = v;
    else if (!strcmp(n, "procs-file"))
        vmpi_cfg.procs_file = v;
    else if (!strcmp(n, "am-staged"))
        parse_bool(v, &vmpi_cfg.am_staged);
    else if (!strcmp(n, "am-system-buffer"))
        vmpi_parse_size(v, &vmpi_cfg.am_system_buffer);
    else if (!strcmp(n, "armci-errors"))
        vmpi_cfg.armci_errors_return = strcmp(v, "return") == 0;
}

/* Each setting's value as text, by its place in the table: read by any rank (MPI_T_cvar_read), written at
 * boot and by vmpi_tunable_set. */
static _Atomic(const char *) text[VMPI_ARRAY_LEN(table)];
static atomic_flag set_lock = ATOMIC_FLAG_INIT;

const char *vmpi_tunable_text(const vmpi_tunable *t)
{
    const char *v = atomic_load_explicit(&text[t - table], memory_order_acquire);
    return v ? v : t->defval;
}

void vmpi_tunable_given(const char *name, const char *v)
{
    const vmpi_tunable *t = vmpi_tunable_find(name);
    atomic_store_explicit(&text[t - table], v, memory_order_release);
}

/* A written value's text, kept for the process's life (a reader may hold the previous one): each distinct
 * text once, so that toggling a setting does not grow memory. */
static const char *intern(const char *v)
{
    static struct kept {
        struct kept *next;
        char s[];
    } *kept;
    for (struct kept *k = kept; k; k = k->next)
        if (strcmp(k->s, v) == 0)
            return k->s;
    struct kept *k = vmpi_sys_malloc(sizeof *k + strlen(v) + 1);
    if (k == NULL)
        return NULL;
    strcpy(k->s, v);
    k->next = kept;
    kept = k;
    return k->s;
}

bool vmpi_tunable_set(const vmpi_tunable *t, const char *v, const char **why)
{
    if (!t->runtime) {
        *why = "it is fixed once the job has started";
        return false;
    }
    if (!vmpi_tunable_check(t, v, why))
        return false;
    vmpi_spin_lock(&set_lock);
    const char *kept = intern(v);
    if (kept) {
        apply(t, kept);
        atomic_store_explicit(&text[t - table], kept, memory_order_release);
    }
    vmpi_spin_unlock(&set_lock);
    *why = "out of memory";
    return kept != NULL;
}

void vmpi_tunables_load(void)
{
    for (size_t i = 0; i < VMPI_ARRAY_LEN(table); i++) {
        const char *v = value_of(&table[i]);
        apply(&table[i], v);
        atomic_store_explicit(&text[i], v, memory_order_relaxed);
    }
}
