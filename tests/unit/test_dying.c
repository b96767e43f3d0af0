/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test of two threads ending the process at once (base/log.c): the first runs the die hook, the second
 * waits for it; when the hook hangs (here: forever), the second still ends the process after DYING_WAIT_S,
 * with its own message and exit code, instead of hanging beside it.  Run in a child process, which the
 * parent gives 60 s and whose stderr it reads. */
#include "base/log.h"

#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit_check.h"

static _Atomic int in_hook;

static void hanging_hook(void)
{
    atomic_store(&in_hook, 1);
    for (;;)
        pause();
}

static void *first(void *arg)
{
    (void)arg;
    vmpi_fatal("the first thread's error");
}

static void child(void)
{
    vmpi_log_set_die_hook(hanging_hook);
    pthread_t t;
    pthread_create(&t, NULL, first, NULL);
    while (!atomic_load(&in_hook))
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
    vmpi_fatal("the second thread's error");
}

int main(void)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], STDERR_FILENO);
        close(fd[0]);
        child();
    }
    close(fd[1]);
    char out[4096];
    size_t n = 0;
    bool eof = false;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) { /* read until the child closes its end (it ended), or 60 s */
        clock_gettime(CLOCK_MONOTONIC, &now);
        int left = 60000 - (int)((now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd p = {fd[0], POLLIN, 0};
        if (left <= 0 || poll(&p, 1, left) <= 0)
            break;
        ssize_t r = read(fd[0], out + n, sizeof out - 1 - n);
        if (r <= 0) {
            eof = r == 0;
            break;
        }
        n += (size_t)r;
    }
    out[n] = '\0';
    int st = 0;
    if (!eof) {
        CHECK(0, "the second dying thread hung with the first (still running after 60 s); its output:\n%s", out);
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    } else {
        waitpid(pid, &st, 0);
        CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1, "the child ended with status %#x, expected exit code 1", st);
        CHECK(strstr(out, "vmpi: the thread that began ending the process first did not finish") != NULL,
              "no word that the first thread hung; output:\n%s", out);
        CHECK(strstr(out, "vmpi: the second thread's error") != NULL, "no second message; output:\n%s", out);
        CHECK(strstr(out, "the first thread's error") == NULL, "the hung thread went on; output:\n%s", out);
    }
    if (errs == 0)
        printf(" No Errors\n");
    return errs != 0;
}
