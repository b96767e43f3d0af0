/* SPDX-License-Identifier: BSD-3-Clause */
#include "sched/runwait.h"

#include <fcntl.h>
#include <unistd.h>

int vmpi_runwait_open(void)
{
    /* thread-self is resolved at open: the descriptor keeps reading this thread's line */
    int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd >= 0 && vmpi_runwait_ns(fd) < 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

void vmpi_runwait_close(int fd)
{
    if (fd >= 0)
        close(fd);
}

long long vmpi_runwait_ns(int fd)
{
    char buf[96];
    if (fd < 0)
        return -1;
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* "<time on the CPU> <time waiting for it> <timeslices>", nanoseconds */
    const char *p = buf;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p != ' ')
        return -1;
    p++;
    long long v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (*p++ - '0');
    return v;
}
