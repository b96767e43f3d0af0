/* SPDX-License-Identifier: BSD-3-Clause */
/* Shrinking and expanding a job of several processes (issue 20): at a migration point, the job goes on as
 * another number of processes, asked for by the program (VMPIX_Set_procs) or by the operator (a number
 * written into --procs-file).  The way Charm++'s shrink/expand does it: the job checkpoints itself into
 * memory that outlives its processes (vmpirun's directory in /dev/shm), the processes end, and vmpirun starts
 * the job again on the new number of processes from there: the restart on another number of processes
 * (restart.c), so the ranks are spread over the new processes' blocks and go on where they were.  Only
 * vmpirun's own launch can do it (VMPIRUN_DIR in the environment): another launcher cannot start processes
 * again.
 *
 * The request reaches every process with the migration point's quiescence check (as a checkpoint hint
 * does); inside the stop, one all-gather agrees on it (the first process's request that has one), the
 * ranks go home (ranks_home, migrate.c), the checkpoint is written to VMPIRUN_DIR/resize, process 0 writes
 * the request VMPIRUN_DIR/resize.req (the number, renamed into place), and every process ends with
 * VMPI_EXIT_RESIZE, which vmpirun takes for a resize when the request is there. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/log.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "mpi/adapt/adapt.h"
#include "mpi/core/rank.h"
#include "xport/netjob.h"
#include "xport/procs.h"

static _Atomic int asked;   /* VMPIX_Set_procs's number (0: none), this process's ranks' last call */
static int file_asked;      /* the operator's number not acted on yet (process 0) */
static long file_seen = -1; /* the operator's file's last value acted on or refused */
static bool by_program;     /* the request agreed on is a program's: a refusal is AMPI_Migrate's error */
VMPI_CKPT_STATIC(file_seen) /* a job started again by its resize has seen its number */

const char *vmpi_adapt_resize_unsupported(void)
{
    const char *d = getenv("VMPIRUN_DIR");
    if (d == NULL || *d == '\0')
        return "a job changes its number of processes only under vmpirun's own launch (vmpirun --procs K), which "
               "starts it again on the new number";
    return NULL;
}

void vmpi_adapt_resize_ask(int nprocs) { atomic_store(&asked, nprocs); }

int vmpi_adapt_bound_rank(void)
{
    for (int r = 0; r < vmpi_world_size(); r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        for (int k = 0; rk && k < VMPI_RANK_EXT_MAX; k++)
            if (rk->ext[k])
                return r;
        for (int i = 0; rk && i < rk->nwins; i++)
            if (rk->wins[i])
                return r;
    }
    return -1;
}

/* The operator's number, read by process 0 at each migration point: 0 when there is none, it is this job's
 * number, or it was seen before (a bad one is said once). */
static int from_file(void)
{
    const char *path = vmpi_cfg.procs_file;
    if (path == NULL || *path == '\0' || vmpi_xport_self_proc() != 0)
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    char buf[32];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    char *end;
    long v = strtol(buf, &end, 10);
    while (*end == ' ' || *end == '\n' || *end == '\t')
        end++;
    if (v == file_seen)
        return 0;
    file_seen = v;
    int most = vmpi_world_size() < VMPI_PROCS_MAX ? vmpi_world_size() : VMPI_PROCS_MAX;
    if (end == buf || *end != '\0' || v < 1 || v > most) {
        vmpi_warn("--procs-file %s: '%.*s' is not a number of processes from 1 to %d: ignored", path,
                  (int)strcspn(buf, "\n"), buf, most);
        return 0;
    }
    const char *why = vmpi_adapt_resize_unsupported();
    if (why) {
        vmpi_warn("--procs-file %s asks for %ld processes: ignored, %s", path, v, why);
        return 0;
    }
    return v == vmpi_xport_nprocs() ? 0 : (int)v;
}

bool vmpi_adapt_resize_wanted(void)
{
    if (vmpi_xport_net_job() == NULL && vmpi_xport_nprocs() > 1)
        return false; /* the emulated mode (one process standing for several) */
    int a = atomic_load(&asked);
    if (a > 0 && a == vmpi_xport_nprocs())
        atomic_store(&asked, a = 0); /* already so */
    int f = from_file();
    file_asked = f > 0 ? f : file_asked;
    return a > 0 || file_asked > 0;
}

int vmpi_adapt_resize_agree(void)
{
    int K = vmpi_xport_nprocs();
    int32_t mine[2] = {atomic_load(&asked), file_asked}, (*all)[2] = malloc(sizeof *all * (size_t)K);
    if (all == NULL)
        vmpi_fatal("out of memory changing the job's number of processes");
    vmpi_xport_net_allgather_fixed(mine, sizeof mine, all);
    int m = 0;
    for (int k = 0; k < K && m == 0; k++) /* a program's request first, then the operator's */
        if (all[k][0] > 0 && all[k][0] != K)
            m = all[k][0];
    by_program = m > 0;
    for (int k = 0; k < K && m == 0; k++)
        if (all[k][1] > 0 && all[k][1] != K)
            m = all[k][1];
    free(all);
    atomic_store(&asked, 0);
    file_asked = 0;
    return m;
}

/* Process 0, once the checkpoint is complete: the request, renamed into place. */
static int write_request(const char *dir, int m)
{
    char tmp[4200], final[4200], line[32];
    snprintf(tmp, sizeof tmp, "%s/.resize.req.tmp", dir);
    snprintf(final, sizeof final, "%s/resize.req", dir);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    int len = snprintf(line, sizeof line, "%d\n", m);
    if (fd < 0 || write(fd, line, (size_t)len) != len || close(fd) != 0 || rename(tmp, final) != 0) {
        int e = errno;
        vmpi_warn("resizing the job: cannot write %s: %s", final, strerror(e));
        unlink(tmp);
        return MPI_ERR_IO;
    }
    return MPI_SUCCESS;
}

int vmpi_adapt_resize(int m, int home)
{
    int K = vmpi_xport_nprocs(), self = vmpi_xport_self_proc();
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/resize", getenv("VMPIRUN_DIR"));
    /* what restarts only on its own number of processes (restart.c's check_portable) refuses here, before
     * anything is written: every process says whether it has such a rank */
    int32_t stuck = vmpi_adapt_bound_rank(), *all = malloc(sizeof *all * (size_t)K);
    if (all == NULL)
        vmpi_fatal("out of memory changing the job's number of processes");
    vmpi_xport_net_allgather_fixed(&stuck, sizeof stuck, all);
    int first = -1;
    for (int k = 0; k < K && first < 0; k++)
        first = all[k];
    if (first >= 0) {
        free(all);
        if (self == 0)
            vmpi_warn("the job stays as %d process%s (%d asked for%s): rank %d has an MPI window or ARMCI state, "
                      "which is its process's", K, K > 1 ? "es" : "", m, by_program ? "" : " in --procs-file", first);
        return by_program ? MPI_ERR_UNSUPPORTED_OPERATION : MPI_SUCCESS;
    }
    int cls;
    if (K > 1) {
        cls = vmpi_adapt_checkpoint_procs(home, VMPI_CKPT_TO_FILE, dir);
    } else { /* a job of one process (after a resize: vmpirun supervises it all the same) */
        char err[4600];
        if ((cls = vmpi_adapt_checkpoint(VMPI_CKPT_TO_FILE, dir, err, sizeof err)) != MPI_SUCCESS)
            vmpi_warn("the job stays as it is: its checkpoint failed: %s", err);
    }
    if (cls != MPI_SUCCESS) { /* (the operator's request: said, and the program goes on) */
        free(all);
        return by_program ? cls : MPI_SUCCESS;
    }
    /* the request, before any process ends: vmpirun takes an end without it for a failure */
    int32_t req = self == 0 ? write_request(getenv("VMPIRUN_DIR"), m) : MPI_SUCCESS;
    vmpi_xport_net_allgather_fixed(&req, sizeof req, all);
    cls = all[0];
    free(all);
    if (cls != MPI_SUCCESS)
        return by_program ? cls : MPI_SUCCESS;
    fflush(NULL);
    _exit(VMPI_EXIT_RESIZE);
}
