/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun: starts a vmpi program with V ranks on P PEs.  The ranks are user-level threads of one process,
 * so launching is setting the runtime's variables (the tunables table) and exec'ing the program: its exit
 * status is the job's.  With --procs K the job is K processes, vmpirun their parent and PMIx server
 * (vmpirun_procs.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>
#include "base/compiler.h"
#include "base/tunables.h"
#include "vmpirun.h"

static void usage(FILE *f)
{
    size_t n;
    const vmpi_tunable *t = vmpi_tunables(&n);
    fprintf(f, "usage: vmpirun -n RANKS [-p PES] [options] PROGRAM [ARGS...]\n"
               "       vmpirun +pPES PROGRAM [ARGS...] +vpRANKS      (AMPI spelling)\n\n"
               "Runs PROGRAM, built with vmpicc, as RANKS MPI ranks (user-level threads) on PES worker threads.\n\n"
               "options:\n"
               "  -n, -np, --ranks N        number of MPI ranks (default 1)\n"
               "  -p, --pes P, +pP          worker threads; default one per core, at most one per rank\n"
               "  +vpN                      same as -n N\n"
               "  +tcharm_stacksize SIZE    same as --stack-size SIZE\n"
               "  --procs K                 OS processes on this machine (default 1); each runs P PEs (-p is per\n"
               "                            process); the N ranks are split in blocks: process k hosts ranks\n"
               "                            k*N/K .. (k+1)*N/K-1.  vmpirun stays their parent and PMIx server\n"
               "  --emulate-nodes M         with --procs K: the processes are told (through PMIx) that they run on\n"
               "                            M nodes, in blocks, named HOST-node0 .. (for tests of what depends on\n"
               "                            the node: processor names, node splits, MPI_WTIME_IS_GLOBAL, get and\n"
               "                            put by messages); they still share this machine's cores\n"
               "  --recover N               with --procs K: when a process is lost (killed, crashed), start the\n"
               "                            job again from its newest in-memory checkpoint (AMPI_Migrate with\n"
               "                            ampi_checkpoint=in_memory: each process's part is kept in memory by it\n"
               "                            and by a buddy process), up to N times (default 0: the job ends)\n"
               "  --recover-procs WHICH     where a recovered job goes on: survivors (default: the surviving\n"
               "                            processes host the lost ones' ranks) or same (as many processes as\n"
               "                            before: MPI windows and ARMCI restart only so)\n"
               "  -h, --help                this text\n\n"
               "MPIEXEC_TIMEOUT=SECONDS in the environment stops the job after that time (exit status %d).\n\n"
               "runtime settings (--NAME VALUE or --NAME=VALUE; or the environment variable):\n",
            VMPIRUN_TIMEOUT_EXIT);
    for (size_t i = 0; i < n; i++) {
        const char *why = "";
        char range[200] = "";
        if (t[i].max && !vmpi_tunable_check(&t[i], "-", &why)) /* what it expects, with the range */
            snprintf(range, sizeof range, "; %s", why);
        fprintf(f, "  --%-20s %-22s %s (default %s%s)\n", t[i].name, t[i].env, t[i].help, t[i].defval, range);
    }
}

static _Noreturn VMPI_PRINTF(1, 2) void bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "vmpirun: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nvmpirun: see 'vmpirun --help'\n");
    exit(2);
}

/* --procs K, --emulate-nodes M: 1 to 1024; --recover N: 0 to 1024 */
static int procs_value(const char *opt, const char *value)
{
    char *end;
    if (value == NULL)
        bad("option '%s' needs a value", opt);
    errno = 0;
    long v = strtol(value, &end, 10);
    int min = strstr(opt, "recover") ? 0 : 1;
    if (end == value || *end != '\0' || errno || v < min || v > 1024)
        bad("bad value '%s' for %s: expected a number of %s from %d to 1024", value, opt,
            strstr(opt, "nodes") ? "nodes" : min ? "processes" : "recoveries", min);
    return (int)v;
}

static void set(const char *name, const char *opt, const char *value)
{
    const vmpi_tunable *t = vmpi_tunable_find(name);
    const char *why = "";
    if (value == NULL)
        bad("option '%s' needs a value", opt);
    if (!vmpi_tunable_check(t, value, &why))
        bad("bad value '%s' for %s: expected %s", value, opt, why);
    setenv(t->env, value, 1);
}

/* An option vmpirun does not know: refused, naming the closest one. */
static _Noreturn void unknown(const char *opt)
{
    const vmpi_tunable *t = opt[0] == '-' && opt[1] == '-' ? vmpi_tunable_closest(opt + 2, false) : NULL;
    if (t)
        bad("unknown option '%s'; did you mean --%s?", opt, t->name);
    bad("unknown option '%s'", opt);
}

int main(int argc, char **argv)
{
    int i = 1, procs = 1, nodes = 1, recover = 0;
    bool recover_same = false;
    for (; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-n") || !strcmp(a, "-np") || !strcmp(a, "--ranks") || !strcmp(a, "--np")) {
            set("ranks", a, next), i++;
        } else if (!strcmp(a, "-p") || !strcmp(a, "--pes")) {
            set("pes", a, next), i++;
        } else if (!strncmp(a, "+vp", 3)) {
            a[3] ? set("ranks", "+vp", a + 3) : (set("ranks", a, next), i++);
        } else if (!strncmp(a, "+p", 2) && (a[2] == '\0' || (a[2] >= '0' && a[2] <= '9'))) {
            a[2] ? set("pes", "+p", a + 2) : (set("pes", a, next), i++);
        } else if (!strcmp(a, "+tcharm_stacksize")) {
            set("stack-size", a, next), i++;
        } else if (!strcmp(a, "--procs")) {
            procs = procs_value(a, next), i++;
        } else if (!strncmp(a, "--procs=", 8)) {
            procs = procs_value(a, a + 8);
        } else if (!strcmp(a, "--recover")) {
            recover = procs_value(a, next), i++;
        } else if (!strncmp(a, "--recover=", 10)) {
            recover = procs_value(a, a + 10);
        } else if (!strcmp(a, "--recover-procs") || !strncmp(a, "--recover-procs=", 16)) {
            const char *v = a[15] == '=' ? a + 16 : (i++, next);
            if (v == NULL)
                bad("option '--recover-procs' needs a value");
            if (strcmp(v, "same") && strcmp(v, "survivors"))
                bad("bad value '%s' for --recover-procs: expected survivors or same", v);
            recover_same = !strcmp(v, "same");
        } else if (!strcmp(a, "--emulate-nodes")) {
            nodes = procs_value(a, next), i++;
        } else if (!strncmp(a, "--emulate-nodes=", 16)) {
            nodes = procs_value(a, a + 16);
        } else if (!strncmp(a, "--", 2) && a[2]) {
            char name[64];
            const char *eq = strchr(a, '=');
            size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            snprintf(name, sizeof name, "%.*s", (int)len, a + 2);
            if (!strcmp(name, "no-pin")) {
                setenv("VMPI_PIN", "0", 1);
                continue;
            }
            const vmpi_tunable *t = vmpi_tunable_find(name);
            if (t == NULL)
                unknown(a);
            if (eq)
                set(name, a, eq + 1);
            else
                set(name, a, next), i++;
        } else if (a[0] == '-' || a[0] == '+') {
            unknown(a);
        } else {
            break;
        }
    }
    if (i >= argc)
        bad("no program given");
    /* a vmpirun executed again by the one before it (a resize, a recovery: vmpirun_recover.c) */
    bool again = vmpirun_state_take();
    const char *resized = again ? getenv("VMPIRUN_PROCS") : NULL;
    if (resized && *resized) {
        procs = atoi(resized);
        nodes = nodes > procs ? procs : nodes;
    }
    bool supervised = procs > 1 || (resized && *resized); /* (one process, after a resize, can grow again) */
    if (recover > 0 && !supervised)
        bad("--recover %d needs --procs 2 or more: each process's in-memory checkpoints are kept by another process",
            recover);
    long ranks = 1; /* the ranks' count for --procs (0: unknown, from a checkpoint) */
    const char *nr = getenv("VMPI_NRANKS"), *restart = getenv("VMPI_RESTART");
    if (procs > 1 && nr && *nr) {
        const char *why = "";
        if (!vmpi_tunable_check(vmpi_tunable_find("ranks"), nr, &why))
            bad("bad value '%s' for VMPI_NRANKS: expected %s", nr, why);
        ranks = strtol(nr, NULL, 10);
    } else if (procs > 1 && restart && *restart) {
        ranks = 0;
    }
    if (ranks > 0 && procs > ranks)
        bad("--procs %d with %ld rank%s: a process would host no rank (at most one process per rank)", procs, ranks,
            ranks == 1 ? "" : "s");
    /* AMPI-style +vp/+p after the program are left in argv: the runtime consumes them.  Without address
     * randomization (src/base/layout.c says why), unless --aslr 1; the program would turn it off itself,
     * at the cost of executing itself again. */
    const char *aslr = getenv("VMPI_ASLR");
    if (!(aslr && (!strcmp(aslr, "1") || !strcmp(aslr, "true") || !strcmp(aslr, "yes")))) {
        int p = personality(0xffffffff);
        if (p != -1)
            personality((unsigned long)p | ADDR_NO_RANDOMIZE);
    }
    char path[4096];
    /* VMPIRUN_ANY_PROGRAM=1: the launcher's own tests (tests/launch) start plain PMIx programs */
    const char *any = getenv("VMPIRUN_ANY_PROGRAM");
    bool any_program = any && !strcmp(any, "1");
    switch (any_program ? VMPIRUN_UNKNOWN : vmpirun_check(argc - i, &argv[i], path, sizeof path)) {
    case VMPIRUN_LIBVMPI:
        fprintf(stderr, "vmpirun: %s uses libvmpi but was not linked by vmpicc or vmpicxx: its main would run once, "
                        "outside any rank.  Link it with vmpicc/vmpicxx (or their -show flags, pkg-config vmpi, "
                        "CMake's vmpi::mpi), then run it again\n", path);
        return 126;
    case VMPIRUN_OTHER:
        fprintf(stderr, "vmpirun: %s is not a vmpi program: vmpirun starts programs built with vmpicc or vmpicxx, "
                        "whose ranks are threads of one process (it would run once, with -n ignored).  Build it "
                        "with vmpicc.  A tool that starts one (valgrind, gdb --args, env, perf...) is run with the "
                        "program among its arguments; a script that starts one is run without vmpirun, with the "
                        "settings in the environment (VMPI_NRANKS=8 VMPI_NPES=2 ./script; vmpirun --help lists "
                        "them)\n", path);
        return 126;
    default:
        break;
    }
    const char *timeout = getenv("MPIEXEC_TIMEOUT");
    int seconds = 0;
    if (timeout && *timeout) {
        seconds = vmpirun_timeout_parse(timeout);
        if (seconds < 0)
            bad("bad value '%s' for MPIEXEC_TIMEOUT: expected a number of seconds", timeout);
    }
    if (nodes > procs)
        bad("--emulate-nodes %d with --procs %d: a node would host no process", nodes, procs);
    if (supervised && !vmpirun_dir_prepare(recover > 0, again)) /* (last: nothing above may leave it behind) */
        return 1;
    if (supervised) {
        int lost[procs];
        memset(lost, 0, sizeof lost);
        int rc = procs > 1 ? vmpirun_procs(procs, nodes, ranks, &argv[i], seconds, lost)
                           : vmpirun_exec_supervised(&argv[i], seconds, false); /* (no buddy: no recovery) */
        return vmpirun_after(rc, lost, procs, procs > 1 ? recover : 0, recover_same, argv);
    }
    if (seconds > 0)
        return vmpirun_exec_timeout(&argv[i], seconds);
    execvp(argv[i], &argv[i]);
    fprintf(stderr, "vmpirun: cannot run '%s': %s\n", argv[i], strerror(errno));
    return errno == ENOENT ? 127 : 126;
}
