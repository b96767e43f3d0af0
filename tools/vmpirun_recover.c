/* SPDX-License-Identifier: BSD-3-Clause */
/* What vmpirun does after a job of several processes ends, when the job asked for it or lost a process
 * (issue 20; the designs: docs/research/recovery.md, docs/CHECKPOINT.md):
 *
 *   - a resize (VMPIX_Set_procs, --procs-file): the processes checkpointed the job into VMPIRUN_DIR/resize,
 *     process 0 wrote the new number into VMPIRUN_DIR/resize.req, and each ended with VMPI_EXIT_RESIZE;
 *     vmpirun starts the job again on that many processes from there (a restart on another number);
 *   - --recover N: a process was lost (killed, crashed; its node lost).  The runtime kept each in-memory
 *     checkpoint also as files in memory that outlives its processes (VMPI_FT_DIR = VMPIRUN_DIR): process
 *     K's part in FT/pK and a copy in its buddy's FT/pJ, with the manifest in each
 *     (src/mpi/adapt/ckpt_buddy.c).  vmpirun treats the lost processes' directories as gone with their
 *     nodes, finds the newest checkpoint whose manifest and every part survive in the others (else the
 *     last resize's checkpoint), links them into FT/restart and starts the job again, up to N times, on the
 *     surviving processes (they host the lost ones' ranks) or, with --recover-procs same, on as many as
 *     before.
 *
 * Either way vmpirun executes itself again with the same arguments: the restart path of every checkpoint,
 * so the job goes on to the uninterrupted run's result.  State that survives the exec is in the
 * environment: VMPIRUN_RECOVERED (recoveries made), VMPIRUN_RESTART_FROM (the restart's directory),
 * VMPIRUN_PROCS (a resize's number), VMPIRUN_FT_OWNED (vmpirun made the directory and removes it at the
 * end).  The directory is a fresh one in /dev/shm (tmpfs: memory), or --ft-dir's. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/tunables.h"
#include "vmpirun.h"

static char ft[4096];

/* Directories a vmpirun killed by SIGKILL left in `base` (vmpi-ft.PID.XXXXXX, ours, mode 0700, PID gone):
 * checkpoints in memory nobody will read. */
static void clean_stale(const char *base)
{
    DIR *d = opendir(base);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long pid = 0;
        char path[4096];
        struct stat st;
        if (sscanf(e->d_name, "vmpi-ft.%ld.", &pid) != 1 || pid <= 0 || pid == (long)getpid())
            continue;
        snprintf(path, sizeof path, "%s/%s", base, e->d_name);
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 0777) == 0700 &&
            kill((pid_t)pid, 0) != 0 && errno == ESRCH)
            vmpirun_remove_tree(path);
    }
    closedir(d);
}

/* The state a vmpirun leaves to the one it executes (same pid); a vmpirun started inside a job inherits
 * its parent's, which is not its own. */
static const char *const state_vars[] = {"VMPIRUN_STATE_PID", "VMPIRUN_DIR", "VMPIRUN_FT_OWNED", "VMPIRUN_PROCS",
                                         "VMPIRUN_RESTART_FROM", "VMPIRUN_RECOVERED", "VMPIRUN_FT_SET"};

bool vmpirun_state_take(void)
{
    const char *p = getenv("VMPIRUN_STATE_PID");
    if (p && atol(p) == (long)getpid()) {
        const char *rs = getenv("VMPIRUN_RESTART_FROM");
        if (rs && *rs) /* over any --restart of the command line: the job goes on from there */
            setenv("VMPI_RESTART", rs, 1);
        return true;
    }
    const char *d = getenv("VMPIRUN_DIR"), *ftd = getenv("VMPI_FT_DIR");
    if (getenv("VMPIRUN_FT_SET") && d && ftd && !strcmp(d, ftd)) /* the outer job's, not --ft-dir's */
        unsetenv("VMPI_FT_DIR");
    for (size_t k = 0; k < sizeof state_vars / sizeof state_vars[0]; k++)
        unsetenv(state_vars[k]);
    return false;
}

/* A directory given with --ft-dir may hold what an earlier job left: its kept checkpoints and requests
 * would be taken for this job's. */
static void clear_leftovers(void)
{
    DIR *d = opendir(ft);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        int k, n = 0;
        bool ours = !strcmp(e->d_name, "restart") || !strcmp(e->d_name, "resize") ||
                    !strcmp(e->d_name, "resize.req") || !strcmp(e->d_name, ".resize.req.tmp") ||
                    !strcmp(e->d_name, "same") ||
                    (sscanf(e->d_name, "p%d%n", &k, &n) == 1 && n > 0 && e->d_name[n] == '\0');
        if (ours) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", ft, e->d_name);
            vmpirun_remove_tree(path);
        }
    }
    if (d)
        closedir(d);
}

bool vmpirun_dir_prepare(bool recover, bool again)
{
    const char *given = getenv("VMPI_FT_DIR"), *before = getenv("VMPIRUN_DIR");
    char pid[32];
    snprintf(pid, sizeof pid, "%ld", (long)getpid());
    if (again && before && *before) { /* the one the vmpirun before this one used */
        snprintf(ft, sizeof ft, "%s", before);
    } else if (given && *given) { /* --ft-dir */
        snprintf(ft, sizeof ft, "%s", given);
        struct stat st;
        if (mkdir(ft, 0700) != 0 && errno != EEXIST) {
            fprintf(stderr, "vmpirun: cannot create the directory of the kept checkpoints %s (--ft-dir): %s\n", ft,
                    strerror(errno));
            return false;
        }
        if (lstat(ft, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) {
            fprintf(stderr, "vmpirun: --ft-dir %s: not a directory of yours\n", ft);
            return false;
        }
        clear_leftovers();
    } else { /* memory: /dev/shm (tmpfs), else TMPDIR */
        const char *base = "/dev/shm";
        struct stat st;
        if (stat(base, &st) != 0 || !S_ISDIR(st.st_mode) || access(base, W_OK | X_OK) != 0) {
            base = getenv("TMPDIR");
            base = base && *base ? base : "/tmp";
        }
        clean_stale(base);
        snprintf(ft, sizeof ft, "%s/vmpi-ft.%ld.XXXXXX", base, (long)getpid());
        if (mkdtemp(ft) == NULL) { /* mode 0700, a fresh name */
            fprintf(stderr, "vmpirun: cannot create a directory for the job's checkpoints in memory in %s: %s\n",
                    base, strerror(errno));
            return false;
        }
        setenv("VMPIRUN_FT_OWNED", "1", 1);
    }
    setenv("VMPIRUN_STATE_PID", pid, 1);
    setenv("VMPIRUN_DIR", ft, 1);
    if (recover) {
        setenv("VMPI_FT_DIR", ft, 1);
        setenv("VMPIRUN_FT_SET", pid, 1);
    }
    return true;
}

bool vmpirun_resize_pending(void)
{
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/resize.req", ft);
    return ft[0] && lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void cleanup(void)
{
    const char *owned = getenv("VMPIRUN_FT_OWNED");
    if (owned && !strcmp(owned, "1") && ft[0])
        vmpirun_remove_tree(ft);
}

/* Whether directory FT/p<j> holds file `name`. */
static bool holds(int j, const char *name)
{
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/p%d/%s", ft, j, name);
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The surviving directory holding process k's part of checkpoint seq (its own first), or -1. */
static int part_at(uint64_t seq, int k, int procs, const int *lost)
{
    char name[64];
    snprintf(name, sizeof name, "vmpi-ckpt-%" PRIu64 ".p%d.part", seq, k);
    for (int d = 0; d < procs; d++) {
        int j = (k + d) % procs;
        if (!lost[j] && holds(j, name))
            return j;
    }
    return -1;
}

/* The sequence number of the newest manifest in a surviving directory below `below`, or 0. */
static uint64_t newest_manifest(int procs, const int *lost, uint64_t below)
{
    uint64_t best = 0;
    for (int j = 0; j < procs; j++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/p%d", ft, j);
        DIR *d = lost[j] ? NULL : opendir(dir);
        for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
            uint64_t s;
            int n = 0;
            if (sscanf(e->d_name, "vmpi-ckpt-%" SCNu64 ".ckpt%n", &s, &n) == 1 && n > 0 && e->d_name[n] == '\0' &&
                s < below && s > best)
                best = s;
        }
        if (d)
            closedir(d);
    }
    return best;
}

static int link_into(const char *restart, int j, const char *name)
{
    char from[4400], to[4400];
    snprintf(from, sizeof from, "%s/p%d/%s", ft, j, name);
    snprintf(to, sizeof to, "%s/%s", restart, name);
    if (link(from, to) != 0) {
        fprintf(stderr, "vmpirun: cannot recover: linking %s into %s: %s\n", from, restart, strerror(errno));
        return -1;
    }
    return 0;
}

static void list_lost(char *out, size_t n, const int *lost, int procs)
{
    size_t at = 0;
    out[0] = '\0';
    for (int k = 0; k < procs && at < n; k++)
        if (lost[k])
            at += (size_t)snprintf(out + at, n - at, "%s%d", at ? ", " : "", k);
}

/* Leaves only the newest checkpoint's files in `dir` (a resize's: the job made one each time). */
static void keep_newest(const char *dir)
{
    uint64_t newest = 0, s;
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    for (struct dirent *e; (e = readdir(d)) != NULL;) { /* the newest manifest */
        int n = 0;
        if (sscanf(e->d_name, "vmpi-ckpt-%" SCNu64 ".ckpt%n", &s, &n) == 1 && n > 0 && e->d_name[n] == '\0' &&
            s > newest)
            newest = s;
    }
    rewinddir(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) /* every other checkpoint's files, temporaries too */
        if (sscanf(e->d_name + (e->d_name[0] == '.'), "vmpi-ckpt-%" SCNu64, &s) == 1 && s != newest)
            unlinkat(dirfd(d), e->d_name, 0);
    closedir(d);
}

/* Removes the kept checkpoints' directories FT/p<K> and FT/restart: a job of another number of processes
 * keeps its own. */
static void forget_kept(bool restart_too)
{
    DIR *d = opendir(ft);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        int k, n = 0;
        if ((restart_too && !strcmp(e->d_name, "restart")) ||
            (sscanf(e->d_name, "p%d%n", &k, &n) == 1 && n > 0 && e->d_name[n] == '\0')) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", ft, e->d_name);
            vmpirun_remove_tree(path);
        }
    }
    if (d)
        closedir(d);
}

static void start_again(char **vmpirun_argv, const char *from)
{
    setenv("VMPIRUN_RESTART_FROM", from, 1);
    execv("/proc/self/exe", vmpirun_argv);
    fprintf(stderr, "vmpirun: cannot start the job again: executing vmpirun: %s\n", strerror(errno));
}

/* The job asked to go on as another number of processes: starts it again so. */
static int resize(int procs, char **vmpirun_argv)
{
    char path[4200], line[32] = "";
    snprintf(path, sizeof path, "%s/resize.req", ft);
    FILE *f = fopen(path, "r");
    int m = 0;
    if (f == NULL || fgets(line, sizeof line, f) == NULL || sscanf(line, "%d", &m) != 1 || m < 1 || m > 1024)
        fprintf(stderr, "vmpirun: the job's request for another number of processes (%s) is unreadable\n", path);
    if (f)
        fclose(f);
    unlink(path);
    if (m < 1 || m > 1024) {
        cleanup();
        return 1;
    }
    forget_kept(true);
    snprintf(path, sizeof path, "%s/resize", ft);
    keep_newest(path);
    fprintf(stderr, "vmpirun: the job goes on as %d process%s (was %d)\n", m, m > 1 ? "es" : "", procs);
    char ms[16];
    snprintf(ms, sizeof ms, "%d", m);
    setenv("VMPIRUN_PROCS", ms, 1);
    start_again(vmpirun_argv, path);
    cleanup();
    return 1;
}

static int recover(int rc, const int *lost, int procs, int max, bool same, char **vmpirun_argv)
{
    int nlost = 0;
    for (int k = 0; k < procs && rc != 0; k++) /* (rc: the first lost process's status) */
        nlost += lost[k] != 0;
    if (nlost == 0) { /* done, or ended otherwise than by a loss: nothing to recover from */
        cleanup();
        return rc;
    }
    const char *r = getenv("VMPIRUN_RECOVERED");
    int made = r ? atoi(r) : 0;
    char who[256];
    list_lost(who, sizeof who, lost, procs);
    if (made >= max) {
        fprintf(stderr, "vmpirun: cannot recover from the loss of process%s %s: the %d recover%s that --recover %d "
                        "allows %s been made; the job ends\n", nlost > 1 ? "es" : "", who, max, max > 1 ? "ies" : "y",
                max, max > 1 ? "have" : "has");
        cleanup();
        return rc;
    }
    /* on the survivors (their processes host the lost ones' ranks), or on as many as before (a spare node,
     * and what restarts only on its own number of processes: MPI windows, ARMCI, which the runtime marks) */
    char path[4400];
    struct stat mst;
    snprintf(path, sizeof path, "%s/same", ft);
    same |= lstat(path, &mst) == 0;
    snprintf(path, sizeof path, "%s/resize.req", ft);
    unlink(path); /* (a resize the loss interrupted) */
    int m = same ? procs : procs - nlost > 0 ? procs - nlost : 1;
    char ms[16];
    snprintf(ms, sizeof ms, "%d", m);
    /* the lost processes' memory went with them (their nodes', as far as the job can tell) */
    for (int k = 0; k < procs; k++)
        if (lost[k]) {
            snprintf(path, sizeof path, "%s/p%d", ft, k);
            vmpirun_remove_tree(path);
        }
    char restart[4200];
    snprintf(restart, sizeof restart, "%s/restart", ft);
    vmpirun_remove_tree(restart);

    /* the newest checkpoint whose manifest and every part survive */
    uint64_t newest = newest_manifest(procs, lost, UINT64_MAX), seq = newest;
    int missing = -1;
    for (; seq > 0; seq = newest_manifest(procs, lost, seq)) {
        missing = -1;
        for (int k = 0; k < procs && missing < 0; k++)
            if (part_at(seq, k, procs, lost) < 0)
                missing = k;
        if (missing < 0)
            break;
        if (seq == newest)
            fprintf(stderr, "vmpirun: in-memory checkpoint %" PRIu64 " cannot be used: process %d's part was kept "
                            "only by lost processes (%s)\n", seq, missing, who);
    }
    snprintf(path, sizeof path, "%s/resize", ft);
    struct stat rst;
    if (seq == 0 && newest == 0 && stat(path, &rst) == 0) { /* the last resize's checkpoint: none kept since */
        fprintf(stderr, "vmpirun: recovering from the loss of process%s %s (recovery %d of %d): the job starts again "
                        "from the checkpoint of its last change of its number of processes, on %d process%s\n",
                nlost > 1 ? "es" : "", who, made + 1, max, m, m > 1 ? "es" : "");
        char made_s[16];
        snprintf(made_s, sizeof made_s, "%d", made + 1);
        setenv("VMPIRUN_RECOVERED", made_s, 1);
        setenv("VMPIRUN_PROCS", ms, 1);
        forget_kept(false);
        start_again(vmpirun_argv, path);
        cleanup();
        return rc;
    }
    if (seq == 0) {
        if (newest == 0)
            fprintf(stderr, "vmpirun: cannot recover from the loss of process%s %s: the job had kept no in-memory "
                            "checkpoint in two processes %s (AMPI_Migrate with ampi_checkpoint=in_memory); the job "
                            "ends\n", nlost > 1 ? "es" : "", who, made ? "since its last recovery" : "yet");
        else
            fprintf(stderr, "vmpirun: cannot recover from the loss of process%s %s: no in-memory checkpoint survives "
                            "whole (each part is kept by its process and its buddy, and both were lost); the job "
                            "ends (a checkpoint to a file, if the program wrote one, is untouched)\n",
                    nlost > 1 ? "es" : "", who);
        cleanup();
        return rc;
    }

    /* the restart's directory: links to the surviving files */
    if (mkdir(restart, 0700) != 0) {
        fprintf(stderr, "vmpirun: cannot recover: cannot create %s: %s\n", restart, strerror(errno));
        cleanup();
        return rc;
    }
    char name[64], from[512] = "";
    snprintf(name, sizeof name, "vmpi-ckpt-%" PRIu64 ".ckpt", seq);
    int at = -1;
    for (int j = 0; j < procs && at < 0; j++)
        if (!lost[j] && holds(j, name))
            at = j;
    if (link_into(restart, at, name) != 0) {
        cleanup();
        return rc;
    }
    for (int k = 0; k < procs; k++) {
        int j = part_at(seq, k, procs, lost);
        snprintf(name, sizeof name, "vmpi-ckpt-%" PRIu64 ".p%d.part", seq, k);
        if (link_into(restart, j, name) != 0) {
            cleanup();
            return rc;
        }
        if (j != k) {
            size_t n = strlen(from);
            snprintf(from + n, sizeof from - n, "; process %d's part from process %d's copy", k, j);
        }
    }
    fprintf(stderr, "vmpirun: recovering from the loss of process%s %s (recovery %d of %d): the job starts again "
                    "from its in-memory checkpoint %" PRIu64 " on %d process%s%s\n", nlost > 1 ? "es" : "", who,
            made + 1, max, seq, m, m > 1 ? "es" : "", from);
    char made_s[16];
    snprintf(made_s, sizeof made_s, "%d", made + 1);
    setenv("VMPIRUN_RECOVERED", made_s, 1);
    setenv("VMPIRUN_PROCS", ms, 1);
    if (m != procs) /* the kept checkpoints are of the old number: the restart's links are the copy now */
        forget_kept(false);
    start_again(vmpirun_argv, restart);
    cleanup();
    return rc;
}

int vmpirun_after(int rc, const int *lost, int procs, int max, bool same, char **vmpirun_argv)
{
    /* the request is written once the resize's checkpoint is complete everywhere: a process lost after it
     * (in the last all-gather) does not undo the resize */
    if (vmpirun_resize_pending())
        return resize(procs, vmpirun_argv);
    if (max == 0) {
        cleanup();
        return rc;
    }
    return recover(rc, lost, procs, max, same, vmpirun_argv);
}
