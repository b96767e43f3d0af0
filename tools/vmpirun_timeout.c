/* SPDX-License-Identifier: BSD-3-Clause */
/* MPIEXEC_TIMEOUT, the launcher convention MPICH's and Open MPI's mpiexec honour (MPICH's test suite sets
 * it for every test): the job gets that many seconds, then is stopped with a message and a non-zero exit.
 * vmpirun normally becomes the program (exec); with a timeout it stays as its parent, waits, and on expiry
 * sends SIGTERM (the runtime then writes out what the ranks printed), SIGKILL if that is not enough.
 * Otherwise the job's exit status is passed on as it would have been without vmpirun in between. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "vmpirun.h"

#define GRACE_SECONDS 5 /* from SIGTERM to SIGKILL */

static volatile sig_atomic_t alarm_rang;
static volatile pid_t child;

static void on_alarm(int sig)
{
    (void)sig;
    alarm_rang = 1;
}

/* a signal sent to vmpirun itself (a batch system's SIGTERM, kill -HUP) is meant for the job */
static void forward(int sig)
{
    if (child > 0)
        kill(child, sig);
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

int vmpirun_exec_timeout(char **argv, int seconds)
{
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "vmpirun: cannot start '%s': fork: %s\n", argv[0], strerror(errno));
        return 126;
    }
    if (pid == 0) {
        execvp(argv[0], argv);
        fprintf(stderr, "vmpirun: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(errno == ENOENT ? 127 : 126);
    }
    child = pid;
    /* no SA_RESTART: the alarm must interrupt waitpid.  Terminal signals (SIGINT, SIGQUIT) reach the job
     * directly, as it is in our process group: ignore them here rather than deliver them twice. */
    struct sigaction sa = {0};
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = forward;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    alarm((unsigned)seconds);
    int status, stage = 0;
    for (;;) {
        if (waitpid(pid, &status, 0) == pid)
            break;
        if (errno != EINTR) {
            fprintf(stderr, "vmpirun: waiting for the job: %s\n", strerror(errno));
            return 1;
        }
        if (!alarm_rang)
            continue;
        alarm_rang = 0;
        if (stage++ == 0) {
            fprintf(stderr, "vmpirun: the job ran out of its time limit (MPIEXEC_TIMEOUT=%d s): stopping it\n",
                    seconds);
            kill(pid, SIGTERM);
            alarm(GRACE_SECONDS);
        } else {
            fprintf(stderr, "vmpirun: the job did not end %d s after SIGTERM: killing it\n", GRACE_SECONDS);
            kill(pid, SIGKILL);
        }
    }
    if (stage > 0)
        return VMPIRUN_TIMEOUT_EXIT;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    /* die of the job's signal, as the shell would have seen it without vmpirun (no core of vmpirun) */
    int sig = WTERMSIG(status);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    return 128 + sig;
}
