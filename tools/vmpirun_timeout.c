/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpirun as the job's parent.  vmpirun normally becomes the program (exec); it stays as its parent when it
 * must watch it: MPIEXEC_TIMEOUT, and a job of several processes (--procs, vmpirun_procs.c).
 *
 * MPIEXEC_TIMEOUT, the launcher convention MPICH's and Open MPI's mpiexec honour (MPICH's test suite sets
 * it for every test): the job gets that many seconds, then is stopped with a message and a non-zero exit:
 * SIGTERM (the runtime then writes out what the ranks printed), SIGKILL if that is not enough.  A job of
 * several processes is stopped the same way when one of them fails (a non-zero exit or a signal) while the
 * others run, or asks for it (PMIx_Abort).  Otherwise a one-process job's exit status is passed on as it
 * would have been without vmpirun in between (its signal too).
 *
 * Signal handlers only write the signal's number to a pipe; the supervisor waits on that pipe (poll), so a
 * signal arriving just before the wait is not lost, and the PMIx server's thread wakes it the same way. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/tunables.h"
#include "vmpirun.h"

#define GRACE_SECONDS 5 /* from SIGTERM to SIGKILL */
#define WAKE_ABORT 0    /* the byte vmpirun_supervise_abort writes (no signal has number 0) */

static int wake[2] = {-1, -1};

/* the abort request (vmpirun_supervise_abort), taken by the supervisor once */
static pthread_mutex_t abort_lock = PTHREAD_MUTEX_INITIALIZER;
static int abort_k = -1, abort_status;
static char abort_msg[512];
static int abort_taken;

/* Signals sent to vmpirun itself (a batch system's SIGTERM, kill -HUP) are meant for the job.  Terminal
 * signals (SIGINT, SIGQUIT from the keyboard: si_code SI_KERNEL) reach the job directly, as it is in our
 * process group: not delivered twice.  One sent with kill (si_code <= 0) is forwarded. */
static void on_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if ((sig == SIGINT || sig == SIGQUIT) && si && si->si_code > 0)
        return;
    int saved = errno;
    unsigned char b = (unsigned char)sig;
    if (write(wake[1], &b, 1) < 0) { /* pipe full: a wake-up is pending anyway */
    }
    errno = saved;
}

int vmpirun_timeout_parse(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno || v < 0 || v > 100L * 24 * 3600)
        return -1;
    return (int)v;
}

bool vmpirun_supervise_prepare(void)
{
    if (wake[0] >= 0)
        return true;
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        fprintf(stderr, "vmpirun: cannot watch the job: pipe: %s\n", strerror(errno));
        return false;
    }
    static const int sigs[] = {SIGCHLD, SIGALRM, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2};
    struct sigaction sa = {0};
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction was;
        /* one ignored when vmpirun started (nohup, a background job's SIGINT) stays ignored, by the job too */
        if (sigs[i] != SIGCHLD && sigs[i] != SIGALRM && sigaction(sigs[i], NULL, &was) == 0 && was.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
    return true;
}

void vmpirun_supervise_abort(int k, int status, const char *msg)
{
    pthread_mutex_lock(&abort_lock);
    if (abort_k < 0) {
        abort_k = k;
        abort_status = status;
        snprintf(abort_msg, sizeof abort_msg, "%s", msg ? msg : "");
    }
    pthread_mutex_unlock(&abort_lock);
    unsigned char b = WAKE_ABORT;
    if (write(wake[1], &b, 1) < 0) { /* pipe full: a wake-up is pending anyway */
    }
}

typedef struct {
    vmpirun_child *kids;
    int n, live;
    int seconds;
    bool stopping; /* SIGTERM sent to all; the alarm now counts the grace time */
    bool decided;  /* the exit status is known */
    bool sent[65]; /* the signals vmpirun sent to the children (a child that dies of another was lost) */
    bool user_stop; /* the time limit, or a signal vmpirun forwarded: no loss is recovered from */
    int reaped;     /* children reaped so far */
    int result;
} job;

static void signal_all(job *j, int sig)
{
    if (sig > 0 && sig < 65)
        j->sent[sig] = true;
    for (int k = 0; k < j->n; k++)
        if (!j->kids[k].ended)
            kill(j->kids[k].pid, sig);
}

static void stop_all(job *j)
{
    if (j->stopping)
        return;
    j->stopping = true;
    signal_all(j, SIGTERM);
    alarm(GRACE_SECONDS);
}

static void decide(job *j, int status)
{
    if (!j->decided) {
        j->decided = true;
        j->result = status;
    }
}

static const char *signame(int sig, char *buf, size_t len)
{
    const char *abbrev = sigabbrev_np(sig);
    snprintf(buf, len, "SIG%s", abbrev ? abbrev : "?");
    return buf;
}

/* The pending abort request, if any and not yet acted on: message, stop, status. */
static void take_abort(job *j)
{
    pthread_mutex_lock(&abort_lock);
    int k = abort_taken ? -1 : abort_k;
    if (k >= 0)
        abort_taken = 1;
    pthread_mutex_unlock(&abort_lock);
    if (k < 0)
        return;
    if (!j->decided) {
        fprintf(stderr, "vmpirun: %s called PMIx_Abort(%d)%s%s; stopping the job\n",
                k < j->n && j->kids[k].what[0] ? j->kids[k].what : "a process", abort_status,
                abort_msg[0] ? ": " : "", abort_msg);
        /* an exit status keeps 8 bits: a status they would turn into 0 (256...) gives 1 */
        decide(j, (abort_status & 0xff) || abort_status == 0 ? abort_status & 0xff : 1);
    }
    stop_all(j);
}

/* Child k ended with wait status st. */
static void ended(job *j, int k, int st)
{
    vmpirun_child *c = &j->kids[k];
    c->ended = true;
    c->status = st;
    c->order = ++j->reaped;
    /* lost: killed by a signal neither vmpirun nor a user stopping the job sent (SIGKILL from outside, a
     * crash: the first failure only); the others' failures that follow (a fence failed, an abort) are its
     * consequences */
    int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    c->lost = sig > 0 && sig < 65 && !j->sent[sig] && sig != SIGINT && sig != SIGQUIT && sig != SIGTERM &&
              sig != SIGHUP && sig != SIGPIPE && (sig == SIGKILL || !j->decided) ? sig : 0;
    j->live--;
    take_abort(j); /* an abort comes before the aborting process's exit: it decides */
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    /* PMIx_Finalize answers the client only after the server's upcall: a process that finalized is marked
     * DONE before its exit.  INIT: it exited without PMIx_Finalize (vmpirun_procs.c) */
    bool unfinished = code == 0 && atomic_load(&c->pmix) == VMPIRUN_PMIX_INIT;
    if (code == VMPI_EXIT_RESIZE && vmpirun_resize_pending()) { /* the job goes on as another number */
        decide(j, code);
        return;
    }
    if ((code == 0 && !unfinished) || j->decided)
        return;
    if (unfinished)
        code = 1;
    if (c->what[0]) {
        char how[64], name[32];
        if (unfinished)
            snprintf(how, sizeof how, "exited with status 0 before PMIx_Finalize");
        else if (WIFEXITED(st))
            snprintf(how, sizeof how, "exited with status %d", code);
        else
            snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(st), signame(WTERMSIG(st), name, sizeof name));
        fprintf(stderr, "vmpirun: %s %s%s\n", c->what, how, j->live > 0 ? "; stopping the job" : "");
    }
    decide(j, code);
    if (j->live > 0)
        stop_all(j);
}

static void on_alarm(job *j)
{
    if (!j->stopping) {
        fprintf(stderr, "vmpirun: the job ran out of its time limit (MPIEXEC_TIMEOUT=%d s): stopping it\n", j->seconds);
        j->user_stop = true;
        decide(j, VMPIRUN_TIMEOUT_EXIT);
        stop_all(j);
    } else {
        fprintf(stderr, "vmpirun: the job did not end %d s after SIGTERM: killing it\n", GRACE_SECONDS);
        signal_all(j, SIGKILL);
    }
}

int vmpirun_supervise(vmpirun_child *kids, int n, int seconds)
{
    job j = {.kids = kids, .n = n, .live = 0, .seconds = seconds};
    for (int k = 0; k < n; k++)
        j.live += !kids[k].ended;
    if (seconds > 0)
        alarm((unsigned)seconds);
    while (j.live > 0) {
        struct pollfd p = {.fd = wake[0], .events = POLLIN};
        if (poll(&p, 1, -1) < 0 && errno != EINTR) {
            fprintf(stderr, "vmpirun: waiting for the job: %s\n", strerror(errno));
            signal_all(&j, SIGKILL);
            return 1;
        }
        unsigned char buf[64];
        ssize_t r;
        while ((r = read(wake[0], buf, sizeof buf)) > 0)
            for (ssize_t i = 0; i < r; i++) {
                if (buf[i] == SIGALRM)
                    on_alarm(&j);
                else if (buf[i] != SIGCHLD && buf[i] != WAKE_ABORT)
                    signal_all(&j, buf[i]), j.user_stop = true; /* forwarded */
            }
        take_abort(&j);
        int st;
        pid_t pid;
        while (j.live > 0 && (pid = waitpid(-1, &st, WNOHANG)) > 0)
            for (int k = 0; k < n; k++)
                if (kids[k].pid == pid && !kids[k].ended)
                    ended(&j, k, st);
    }
    alarm(0);
    /* a process that dies of SIGKILL from outside was lost (its node, as far as the job can tell); the others'
     * deaths that follow (UCX aborts when a peer vanishes under its shared-memory copy) are consequences, in
     * whatever order waitpid gave them.  Without such a loss, a crash is the loss. */
    bool killed = false;
    for (int k = 0; k < n; k++)
        killed |= kids[k].lost == SIGKILL;
    for (int k = 0; k < n; k++)
        if (j.user_stop || (killed && kids[k].lost != SIGKILL))
            kids[k].lost = 0;
    return j.decided ? j.result : 0;
}

/* dies of the signal sig, as the shell would have seen the job die without vmpirun (no core of vmpirun) */
static void die_of(int sig)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}

int vmpirun_exec_timeout(char **argv, int seconds) { return vmpirun_exec_supervised(argv, seconds, true); }

int vmpirun_exec_supervised(char **argv, int seconds, bool die)
{
    if (!vmpirun_supervise_prepare())
        return 1;
    vmpirun_child c = {0};
    c.pid = fork();
    if (c.pid < 0) {
        fprintf(stderr, "vmpirun: cannot start '%s': fork: %s\n", argv[0], strerror(errno));
        return 126;
    }
    if (c.pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "vmpirun: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    int rc = vmpirun_supervise(&c, 1, seconds);
    if (die && c.ended && WIFSIGNALED(c.status) && rc == 128 + WTERMSIG(c.status))
        die_of(WTERMSIG(c.status));
    return rc;
}
