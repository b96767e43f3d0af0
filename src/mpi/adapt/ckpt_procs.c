/* SPDX-License-Identifier: BSD-3-Clause */
/* A checkpoint of a job of several OS processes, taken at a migration point: every process is inside its
 * own stop of the world with its network held (nothing between processes is in flight: migrate.c), and
 * they agree step by step through the launcher (vmpi_xport_net_allgather, a PMIx fence; every process makes
 * the same calls in the same order whatever happens):
 *
 *   1. the hint: every process's ranks asked for the same checkpoint (or none);
 *   2. the start: nothing refuses a checkpoint in any process, the directory is there (process 0 locks it),
 *      and the sequence number is one above every file any process sees there; MPI_Wtime is the latest;
 *   3. the parts: each process writes its ranks and its job heap to DIR/vmpi-ckpt-SEQ.pK.part (flushed,
 *      renamed, the directory flushed) or to memory;
 *   4. the manifest: once every part is on disk, process 0 writes DIR/vmpi-ckpt-SEQ.ckpt naming them by size
 *      and digest.  Only then is the checkpoint complete: before it the previous one is the newest.
 *
 * A failure anywhere fails the checkpoint everywhere, with the same error class, after every process has
 * removed what it wrote of it; process 0 says which process failed and why.  In memory, each process's
 * part becomes its newest only when every process has written its own.  When in-memory checkpoints are
 * kept in two processes (vmpirun --recover: ckpt_buddy.c), each process writes its part as a file into its
 * directory there (memory: tmpfs), the sequence number comes from those directories, each process stores
 * its buddies' copies after step 3, and writes the manifest into its own directory at step 4, then removes
 * its older files. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/clock.h"
#include "base/log.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"
#include "mpi/core/rank.h"
#include "xport/netjob.h"

/* What a process says at each step; a text follows it (the hint's directory, or why it failed). */
typedef struct vote {
    int32_t cls;             /* MPI_SUCCESS, or this process's error class */
    int32_t kind;
    uint64_t seq, size, digest;
    double wtime;
} vote;

typedef struct votes {
    int K;
    void **out;
    size_t *lens;
} votes;

static const vote *at(const votes *g, int k) { return g->out[k]; }
static const char *text(const votes *g, int k) { return (const char *)g->out[k] + sizeof(vote); }

static void gather(votes *g, const vote *mine, const char *txt)
{
    size_t tl = strlen(txt) + 1, len = sizeof *mine + tl;
    char *blob = malloc(len);
    g->K = vmpi_xport_net_job()->nprocs;
    g->out = malloc(sizeof(void *) * (size_t)g->K);
    g->lens = malloc(sizeof(size_t) * (size_t)g->K);
    if (!blob || !g->out || !g->lens)
        vmpi_fatal("out of memory agreeing on a checkpoint between processes");
    memcpy(blob, mine, sizeof *mine);
    memcpy(blob + sizeof *mine, txt, tl);
    vmpi_xport_net_allgather(blob, len, g->out, g->lens);
    free(blob);
    for (int k = 0; k < g->K; k++)
        if (g->lens[k] <= sizeof(vote) || ((char *)g->out[k])[g->lens[k] - 1] != '\0')
            vmpi_fatal("internal error: process %d's word on a checkpoint is malformed (%zu bytes)", k, g->lens[k]);
}

static void done(votes *g)
{
    for (int k = 0; k < g->K; k++)
        free(g->out[k]);
    free(g->out);
    free(g->lens);
}

static int first_rank(int k, int K) { return (int)((long)k * vmpi_world_size() / K); }

/* The first failing process's error class (0: none); process 0 says why each one failed, once per reason
 * (every process refusing alike, e.g. --aslr 1, is one line). */
static int failed(const votes *g, const char *dir)
{
    int cls = MPI_SUCCESS;
    bool speak = vmpi_xport_net_job()->self == 0;
    for (int k = 0; k < g->K; k++) {
        if (at(g, k)->cls == MPI_SUCCESS)
            continue;
        if (cls == MPI_SUCCESS)
            cls = at(g, k)->cls;
        int same = 0, said = 0;
        for (int j = 0; j < g->K; j++)
            if (j != k && at(g, j)->cls != MPI_SUCCESS && !strcmp(text(g, j), text(g, k)))
                *(j < k ? &said : &same) += 1;
        if (speak && !said) {
            char others[64] = "";
            if (same)
                snprintf(others, sizeof others, " and %d other%s alike", same, same > 1 ? "s" : "");
            vmpi_warn("checkpoint failed in process %d of %d (ranks %d-%d)%s%s%s: %s", k, g->K, first_rank(k, g->K),
                      first_rank(k + 1, g->K) - 1, others, dir ? ", to " : "", dir ? dir : "", text(g, k));
        }
    }
    return cls;
}

/* Process 0, once every part is on disk: the manifest naming them. */
static int write_manifest(const char *dir, uint64_t seq, const votes *g, char *err, size_t errlen)
{
    size_t len = sizeof(ck_manifest) + sizeof(ck_part) * (size_t)g->K;
    char *buf = calloc(1, len);
    if (buf == NULL) {
        snprintf(err, errlen, "out of memory writing the checkpoint's manifest");
        return MPI_ERR_NO_MEM;
    }
    *(ck_manifest *)buf = (ck_manifest){(uint32_t)vmpi_world_size(), (uint32_t)g->K, seq};
    ck_part *p = (ck_part *)(buf + sizeof(ck_manifest));
    for (int k = 0; k < g->K; k++)
        p[k] = (ck_part){(uint32_t)first_rank(k, g->K), (uint32_t)(first_rank(k + 1, g->K) - first_rank(k, g->K)),
                         at(g, k)->size, at(g, k)->digest};
    int cls = MPI_SUCCESS;
    vmpi_ckpt_out *o = vmpi_ckpt_create_at(dir, seq, -1, err, errlen);
    if (o == NULL) {
        cls = vmpi_adapt_ckpt_err_class(errno);
    } else {
        int e = vmpi_ckpt_put(o, CK_MANIFEST, 0, 0, buf, len);
        if (e) {
            snprintf(err, errlen, "writing the checkpoint's manifest in %s: %s", dir, strerror(e));
            vmpi_ckpt_discard(o);
            cls = vmpi_adapt_ckpt_err_class(e);
        } else if ((e = vmpi_ckpt_commit(o, err, errlen)) != 0) {
            cls = vmpi_adapt_ckpt_err_class(e);
        }
    }
    free(buf);
    return cls;
}

int vmpi_adapt_checkpoint_procs(int err, vmpi_ckpt_kind kind, const char *dir)
{
    int self = vmpi_xport_net_job()->self;
    const char *where = kind == VMPI_CKPT_TO_FILE ? dir : NULL;
    bool kept = kind == VMPI_CKPT_IN_MEMORY && vmpi_adapt_ckpt_kept(); /* also as files (ckpt_buddy.c) */
    const char *files = kept ? vmpi_adapt_ckpt_kept_dir() : dir;
    char msg[4600] = "";
    votes g;

    /* 1. the same hint everywhere (each process checked its own ranks, and said so when they differ) */
    vote v = {.cls = err, .kind = (int32_t)kind | (kept ? 0x100 : 0)}; /* (kept: the same in every process) */
    gather(&g, &v, kind == VMPI_CKPT_TO_FILE && dir ? dir : "");
    int cls = MPI_SUCCESS;
    for (int k = 0; k < g.K && cls == MPI_SUCCESS; k++)
        cls = at(&g, k)->cls;
    for (int k = 1; k < g.K && cls == MPI_SUCCESS; k++)
        if (at(&g, k)->kind != at(&g, 0)->kind || strcmp(text(&g, k), text(&g, 0)) != 0) {
            if (self == 0)
                vmpi_warn("AMPI_Migrate: ranks %d and %d (processes 0 and %d) give different ampi_checkpoint hints: "
                          "no checkpoint is taken", 0, first_rank(k, g.K), k);
            cls = MPI_ERR_INFO_VALUE;
        }
    done(&g);
    if (cls != MPI_SUCCESS || kind == VMPI_CKPT_NONE)
        return cls;

    /* 2. the start */
    double t0 = vmpi_clock_now();
    v = (vote){.cls = vmpi_adapt_ckpt_refused(kind, msg, sizeof msg), .wtime = vmpi_wtime()};
    if (v.cls == MPI_SUCCESS && (kind == VMPI_CKPT_TO_FILE || kept)) {
        int e = vmpi_ckpt_next_seq(files, kept || self == 0, &v.seq, msg, sizeof msg);
        if (e)
            v.cls = vmpi_adapt_ckpt_err_class(e);
    }
    gather(&g, &v, v.cls ? msg : "");
    vmpi_ckpt_part part = {.nprocs = g.K, .proc = self};
    for (int k = 0; k < g.K; k++) {
        part.seq = at(&g, k)->seq > part.seq ? at(&g, k)->seq : part.seq;
        part.wtime = at(&g, k)->wtime > part.wtime ? at(&g, k)->wtime : part.wtime;
    }
    cls = failed(&g, where);
    done(&g);
    if (cls != MPI_SUCCESS)
        return cls;

    /* 3. the parts */
    v = (vote){.cls = vmpi_adapt_checkpoint_part(kind, dir, &part, msg, sizeof msg)};
    v.size = part.size;
    v.digest = part.digest;
    gather(&g, &v, v.cls ? msg : "");
    uint64_t bytes = 0;
    for (int k = 0; k < g.K; k++)
        bytes += at(&g, k)->size;
    if ((cls = failed(&g, where)) != MPI_SUCCESS) {
        if ((kind == VMPI_CKPT_TO_FILE || kept) && v.cls == MPI_SUCCESS)
            vmpi_ckpt_remove(files, part.seq, self);
        done(&g);
        return cls;
    }

    /* 3b. kept in two processes: each part's copy to its buddy, both stored */
    if (kept) {
        votes sg;
        uint64_t sizes[g.K];
        for (int k = 0; k < g.K; k++)
            sizes[k] = at(&g, k)->size;
        vote s = {.cls = vmpi_adapt_ckpt_keep(part.seq, sizes, msg, sizeof msg)};
        gather(&sg, &s, s.cls ? msg : "");
        cls = failed(&sg, files);
        done(&sg);
        if (cls != MPI_SUCCESS) {
            if (s.cls == MPI_SUCCESS)
                vmpi_adapt_ckpt_keep_undo(part.seq);
            done(&g);
            return cls;
        }
    }

    /* 4. the manifest, last (in memory: none, each part becomes its process's newest; kept in two processes:
     * one in each process's directory) */
    if (kind == VMPI_CKPT_TO_FILE || kept) {
        vote m = {.cls = kept || self == 0 ? write_manifest(files, part.seq, &g, msg, sizeof msg) : MPI_SUCCESS};
        if (m.cls != MPI_SUCCESS)
            vmpi_ckpt_remove(files, part.seq, -1); /* a manifest renamed before the failure goes first */
        done(&g);
        gather(&g, &m, m.cls ? msg : "");
        if ((cls = failed(&g, files)) != MPI_SUCCESS)
            kept ? vmpi_adapt_ckpt_keep_undo(part.seq) : vmpi_ckpt_remove(dir, part.seq, self);
    }
    if (kept && cls == MPI_SUCCESS) /* every process has the new checkpoint: the older ones go */
        vmpi_adapt_ckpt_kept_done();
    else if (kind == VMPI_CKPT_IN_MEMORY && cls == MPI_SUCCESS)
        vmpi_adapt_ckpt_mem_newest();
    done(&g);
    if (cls == MPI_SUCCESS && vmpi_cfg.ckpt_verbose && self == 0) {
        double t = vmpi_clock_now() - t0;
        vmpi_warn("checkpoint of %d ranks in %d processes %s%s: %.3f MB in %.4f s (%.1f MB/s)", vmpi_world_size(),
                  part.nprocs, where ? "to " : kept ? "in memory, kept in two processes under " : "in memory",
                  where ? where : kept ? vmpi_cfg.ft_dir : "", 1e-6 * (double)bytes, t, 1e-6 * (double)bytes / t);
    }
    return cls;
}
