/* SPDX-License-Identifier: BSD-3-Clause */
/* In-memory checkpoints kept in two processes, so that a job survives losing one (issue 20; the design and
 * its alternatives: docs/research/recovery.md).  In a job of several processes started by
 * `vmpirun --recover`, which sets --ft-dir (a directory in memory, /dev/shm), every in-memory checkpoint is
 * also stored as files there, in the format and names of a checkpoint to a directory:
 *
 *   FT/pK/vmpi-ckpt-S.pK.part   process K's own part
 *   FT/pK/vmpi-ckpt-S.pJ.part   the copy it keeps for each process J whose buddy it is
 *   FT/pK/vmpi-ckpt-S.ckpt      the manifest (every process writes its own)
 *
 * FT/pK stands for process K's node's memory: vmpirun treats it as lost with the process.  The buddy of
 * process K is the process of the same index on the next node (buddy_of), or with one node the next
 * process: every part is then in two directories of two nodes, and losing one process or one node leaves a
 * copy of each part.  The files outlive the processes (tmpfs), not the machine, so they are not flushed.
 * FT/same says that some rank's state restarts only on this number of processes (a window, ARMCI), so
 * that vmpirun recovers on as many rather than on the survivors.
 *
 * ckpt_procs.c calls the keeping once every process has its part in memory, and each process writes its
 * manifest and removes its older files only when every process has stored its parts: at any moment, the
 * directories of all processes but one hold a complete checkpoint, the new one or the previous. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/log.h"
#include "base/sysmem.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "mpi/adapt/adapt.h"
#include "xport/netjob.h"

bool vmpi_adapt_ckpt_kept(void)
{
    const vmpi_net_job *job = vmpi_xport_net_job();
    return vmpi_cfg.ft_dir && vmpi_cfg.ft_dir[0] && job && job->nprocs > 1;
}

const char *vmpi_adapt_ckpt_kept_dir(void)
{
    static char dir[4200];
    if (!vmpi_adapt_ckpt_kept())
        return NULL;
    if (dir[0] == '\0') {
        mkdir(vmpi_cfg.ft_dir, 0700); /* (--ft-dir without vmpirun --recover; its failure is the next one's) */
        snprintf(dir, sizeof dir, "%s/p%d", vmpi_cfg.ft_dir, vmpi_xport_net_job()->self);
    }
    return dir;
}

/* The process that keeps process k's copy: the process of the same index on the next node (nodes in the
 * order of their first process, cyclically; modulo that node's processes), or with one node the next
 * process.  Each node's copies spread over the next node's processes.  Computed once. */
static int buddy_of(int k, int K)
{
    static int *buddy;
    if (buddy == NULL) {
        int *b = vmpi_sys_malloc(sizeof *b * (size_t)K), *first = vmpi_sys_malloc(sizeof *first * (size_t)K);
        if (b == NULL || first == NULL)
            vmpi_fatal("out of memory placing the copies of the in-memory checkpoints");
        for (int j = 0; j < K; j++) { /* first[j]: the first process on j's node */
            first[j] = j;
            for (int i = 0; i < j && first[j] == j; i++)
                if (vmpi_xport_net_node_of(i) == vmpi_xport_net_node_of(j))
                    first[j] = i;
        }
        for (int j = 0; j < K; j++) {
            int next = -1, idx = 0, count = 0; /* the next node's first process; j's index on its node */
            for (int i = first[j] + 1; i < K && next < 0; i++)
                if (first[i] == i)
                    next = i;
            for (int i = 0; i < first[j] && next < 0; i++) /* (cyclically) */
                if (first[i] == i)
                    next = i;
            for (int i = 0; i < j; i++)
                idx += first[i] == first[j];
            if (next < 0) {
                b[j] = (j + 1) % K;
                continue;
            }
            for (int i = 0; i < K; i++)
                count += first[i] == next;
            for (int i = 0, seen = 0; i < K; i++)
                if (first[i] == next && seen++ == idx % count)
                    b[j] = i;
        }
        vmpi_sys_free(first);
        buddy = b;
    }
    return buddy[k];
}

int vmpi_adapt_ckpt_keep(uint64_t seq, const uint64_t *sizes, char *err, size_t errlen)
{
    const vmpi_net_job *job = vmpi_xport_net_job();
    int K = job->nprocs, self = job->self;
    const char *dir = vmpi_adapt_ckpt_kept_dir();
    char why[4600] = "";
    int e = 0;

    /* this process's part, mapped from its file; the copies it keeps, received straight into theirs (the
     * exchange is collective: every process takes part with what it has, a failure is said afterwards) */
    vmpi_ckpt_map **maps = vmpi_sys_calloc((size_t)K, sizeof *maps);
    vmpi_net_iov *iov = vmpi_sys_calloc((size_t)K, sizeof *iov);
    vmpi_net_bulk *recvs = vmpi_sys_calloc((size_t)K, sizeof *recvs);
    if (maps == NULL || iov == NULL || recvs == NULL)
        vmpi_fatal("out of memory keeping a copy of the in-memory checkpoint");
    int nr = 0;
    for (int k = 0; k < K; k++) {
        if (k != self && buddy_of(k, K) != self)
            continue;
        maps[k] = k == self ? vmpi_ckpt_map_part(dir, seq, self, why, sizeof why)
                            : vmpi_ckpt_map_new(dir, seq, k, sizes[k], why, sizeof why);
        if (maps[k] == NULL && !e)
            e = errno ? errno : EIO;
        if (maps[k] && vmpi_ckpt_map_len(maps[k]) != sizes[k])
            vmpi_fatal("internal error: process %d's part of checkpoint %llu holds %zu bytes, the agreed size %llu",
                       k, (unsigned long long)seq, vmpi_ckpt_map_len(maps[k]), (unsigned long long)sizes[k]);
        /* without a file, the bytes still come (and go) through a scratch buffer */
        iov[k] = maps[k] ? (vmpi_net_iov){vmpi_ckpt_map_addr(maps[k]), sizes[k]}
                         : (vmpi_net_iov){vmpi_sys_malloc(sizes[k]), sizes[k]};
        if (iov[k].addr == NULL)
            vmpi_fatal("out of memory keeping process %d's part of the in-memory checkpoint", k);
        if (k != self)
            recvs[nr++] = (vmpi_net_bulk){k, (uint64_t)k, &iov[k], 1};
    }
    /* what restarts only on this number of processes (windows, ARMCI): vmpirun recovers on as many */
    if (vmpi_adapt_bound_rank() >= 0) {
        char same[4300];
        snprintf(same, sizeof same, "%s/same", vmpi_cfg.ft_dir);
        int fd = open(same, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0)
            close(fd);
    }
    vmpi_net_bulk send = {buddy_of(self, K), (uint64_t)self, &iov[self], 1};
    vmpi_xport_net_bulk(&send, 1, recvs, nr);

    for (int k = 0; k < K; k++) {
        char later[4600];
        if (maps[k]) { /* the copies renamed only when every one is whole */
            int u = vmpi_ckpt_unmap(maps[k], !e, e ? later : why, e ? sizeof later : sizeof why);
            e = e ? e : u;
        } else if (iov[k].addr) {
            vmpi_sys_free(iov[k].addr);
        }
    }
    vmpi_sys_free(maps);
    vmpi_sys_free(iov);
    vmpi_sys_free(recvs);
    if (e) {
        snprintf(err, errlen, "keeping the in-memory checkpoint %llu in %s: %s", (unsigned long long)seq, dir, why);
        vmpi_adapt_ckpt_keep_undo(seq);
        return vmpi_adapt_ckpt_err_class(e);
    }
    return MPI_SUCCESS;
}

/* Removes directory `name` of --ft-dir and the files in it (vmpirun's: no subdirectories). */
static void remove_flat(const char *name)
{
    char dir[4300];
    snprintf(dir, sizeof dir, "%s/%s", vmpi_cfg.ft_dir, name);
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlinkat(dirfd(d), e->d_name, 0);
    if (d) {
        closedir(d);
        rmdir(dir);
    }
}

void vmpi_adapt_ckpt_kept_done(void)
{
    vmpi_ckpt_prune(vmpi_adapt_ckpt_kept_dir());
    if (vmpi_xport_net_job()->self == 0) {
        remove_flat("restart");
        remove_flat("resize");
    }
}

void vmpi_adapt_ckpt_keep_undo(uint64_t seq)
{
    const char *dir = vmpi_adapt_ckpt_kept_dir();
    vmpi_ckpt_remove(dir, seq, -1);
    for (int k = 0; k < vmpi_xport_net_job()->nprocs; k++)
        vmpi_ckpt_remove(dir, seq, k);
}
