/* SPDX-License-Identifier: BSD-3-Clause */
/* Restarting a job from a checkpoint (vmpirun --restart DIR): a migration of every rank from disk into a
 * fresh process, on however many PEs it has.  Each rank's slot comes back at the addresses it had, so every
 * pointer in it (its stack's saved context and frames, its heap, its copy of the program, its MPI objects)
 * is valid again without being rewritten; the objects ranks share come back the same way in the job heap.
 * What the old process's libraries were is checked (the ranks hold addresses of their code and data), the
 * code of the ranks' copies is mapped from the program file again, and each rank is placed on a PE, ready
 * to return from the AMPI_Migrate that took the checkpoint. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/log.h"
#include "base/sysmem.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "img/img.h"
#include "iso/iso.h"
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"
#include "mpi/coll/coll.h"
#include "mpi/coll/shm.h"
#include "mpi/core/comm.h"
#include "mpi/core/group.h"
#include "mpi/core/info.h"
#include "mpi/datatype/datatype.h"
#include "mpi/op/op.h"
#include "msg/loc.h"
#include "mpi/core/rank.h"
#include "xport/netjob.h"

static struct {
    vmpi_ckpt_in *in;
    double t0;               /* when the restart began */
    int nprocs, self;        /* this job's OS processes, and this one */
    uint32_t nranks;         /* the manifest's */
    bool part;               /* the file is a part of a checkpoint of several processes */
    bool other;              /* this job has another number of processes than the checkpoint's */
    int oldk, oldp;          /* the checkpoint's processes, and the one whose file this process reads first */
    int phi;                 /* the last of the checkpoint's processes whose ranks this one holds (oldp first) */
    int reading;             /* the one whose part is being read */
    int n;                   /* the job's ranks */
    ck_part *parts;          /* the manifest's */
    uint64_t seq;
    char dir[4200];
    int32_t tops[5];         /* of the parts read: the largest context id, datatype, group, info, op index */
    uint64_t digest;         /* of a part: its digest, from the manifest */
    char manifest[4200];     /* and the manifest's name, for messages */
    ck_meta meta;
    uint64_t guard;          /* the boot thread's own stack-protector canary, put back at the end */
} S;

static VMPI_NORETURN void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    vmpi_fatal("checkpoint %s: %s", vmpi_ckpt_name(S.in), msg);
}

/* A refusal every process of the job reaches alike (the manifest's counts): said once, by process 0, whose
 * abort ends the others, which wait for it (and speak up if it does not come). */
#define bad_job(...) (S.self != 0 ? (void)sleep(10) : (void)0, bad(__VA_ARGS__))

/* The next section, which must be of type `type` (0: any): 1, or 0 at the end; errors are fatal. */
static int next(vmpi_ckpt_sec *s, uint32_t type, const char *what)
{
    int k = vmpi_ckpt_next(S.in, s);
    if (k < 0)
        vmpi_fatal("%s", vmpi_ckpt_error(S.in));
    if (type && (k == 0 || s->type != type))
        bad("%s is missing (corrupt or not a job checkpoint)", what);
    return k;
}

static void read_into(void *dst)
{
    if (vmpi_ckpt_read(S.in, dst) != 0)
        vmpi_fatal("%s", vmpi_ckpt_error(S.in));
}

/* The checkpoint's process of rank r, when it had k processes: the same blocks as the runtime's. */
static int old_proc(int r, int n, int k)
{
    int p = (int)((int64_t)r * k / n);
    while (p + 1 < k && (int64_t)(p + 1) * n / k <= r)
        p++;
    while (p > 0 && (int64_t)p * n / k > r)
        p--;
    return p;
}

/* This job has another number of processes than the checkpoint's S.oldk (docs/research/restart-procs.md):
 * each process reads the parts its ranks come from, the first (S.oldp) whole (job heap and statics), the
 * others (up to S.phi) for its ranks only, whose entries and groups are then registered again here. */
static void another_count(int n)
{
    S.other = true;
    if (S.nprocs > n)
        bad_job("it holds %d ranks, and this job has %d processes: every process needs at least one rank (at most "
                "vmpirun --procs %d)", n, S.nprocs, n);
    int lo = (int)((int64_t)S.self * n / S.nprocs), hi = (int)((int64_t)(S.self + 1) * n / S.nprocs) - 1;
    S.oldp = old_proc(lo, n, S.oldk);
    S.phi = old_proc(hi, n, S.oldk);
}

/* Checkpoint S.in starts with a manifest (a job of several processes): checks it against this job and opens
 * this process's part instead. */
static void open_part(const char *dir, const vmpi_ckpt_sec *s)
{
    ck_manifest mf;
    size_t len = s->len;
    char *buf = vmpi_sys_malloc(len ? len : 1);
    if (buf == NULL)
        vmpi_fatal("out of memory restarting");
    read_into(buf);
    if (len < sizeof mf)
        bad("its manifest is malformed (corrupt)");
    memcpy(&mf, buf, sizeof mf);
    if (mf.nprocs < 2 || len != sizeof mf + sizeof(ck_part) * mf.nprocs || mf.seq != vmpi_ckpt_in_seq(S.in))
        bad("its manifest is malformed (corrupt)");
    const char *nr = getenv("VMPI_NRANKS");
    if (nr && *nr && strtol(nr, NULL, 10) != (long)mf.nranks)
        bad_job("it holds %u ranks, and -n %s was given: leave -n out or give -n %u", mf.nranks, nr, mf.nranks);
    S.oldk = (int)mf.nprocs;
    S.oldp = S.phi = S.self;
    if ((int)mf.nprocs != S.nprocs)
        another_count((int)mf.nranks);
    ck_part p;
    memcpy(&p, buf + sizeof mf + sizeof p * (size_t)S.oldp, sizeof p);
    uint32_t first = (uint32_t)((uint64_t)S.oldp * mf.nranks / mf.nprocs);
    if (p.first != first || p.nranks != (uint32_t)((uint64_t)(S.oldp + 1) * mf.nranks / mf.nprocs) - first)
        bad("its manifest is malformed (corrupt)");
    S.nranks = mf.nranks;
    S.parts = vmpi_sys_malloc(sizeof(ck_part) * mf.nprocs);
    if (S.parts == NULL)
        vmpi_fatal("out of memory restarting");
    memcpy(S.parts, buf + sizeof mf, sizeof(ck_part) * mf.nprocs);
    S.seq = mf.seq;
    snprintf(S.dir, sizeof S.dir, "%s", dir);
    vmpi_sys_free(buf);
    snprintf(S.manifest, sizeof S.manifest, "%s", vmpi_ckpt_name(S.in));
    vmpi_ckpt_close(S.in);
    char err[4600];
    if ((S.in = vmpi_ckpt_open_part(dir, mf.seq, S.oldp, err, sizeof err)) == NULL)
        vmpi_fatal("%s (process %d's part of the checkpoint %s)", err, S.oldp, S.manifest);
    if (vmpi_ckpt_in_seq(S.in) != mf.seq || vmpi_ckpt_size(S.in) != p.size)
        bad("it is not the part the manifest %s names (%" PRIu64 " bytes of checkpoint %" PRIu64 "; this is %" PRIu64
            " bytes of checkpoint %" PRIu64 ")", S.manifest, p.size, mf.seq, vmpi_ckpt_size(S.in), vmpi_ckpt_in_seq(S.in));
    S.part = true;
    S.digest = p.digest;
}

void vmpi_adapt_restart_open(const char *dir, int nprocs, int me)
{
    char err[4600];
    S.t0 = vmpi_clock_now();
    S.nprocs = nprocs;
    S.self = me;
    if ((S.in = vmpi_ckpt_open(dir, err, sizeof err)) == NULL)
        vmpi_fatal("%s", err);
    vmpi_ckpt_sec s;
    int k = next(&s, 0, NULL);
    if (k == 1 && s.type == CK_MANIFEST) {
        open_part(dir, &s);
        next(&s, CK_META, "the job's description");
    } else if (k == 0 || s.type != CK_META) {
        bad("the job's description is missing (corrupt or not a job checkpoint)");
    } else {
        S.oldk = 1; /* a one-process checkpoint: every process of a job of several reads it, for its own ranks */
        S.oldp = S.phi = 0;
    }
    if (s.len != sizeof S.meta)
        bad("the job's description has %" PRIu64 " bytes, not %zu (written by another vmpi)", s.len, sizeof S.meta);
    read_into(&S.meta);
    ck_meta *m = &S.meta;
    m->prog[sizeof m->prog - 1] = '\0';
    uint64_t hash, size;
    char self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    if (!vmpi_ckpt_hash_file("/proc/self/exe", &hash, &size) || hash != m->prog_hash || size != m->prog_size)
        bad("it was written by the program %s (%" PRIu64 " bytes); %s (%" PRIu64 " bytes) is a different program "
            "file: restart the same program, unchanged", m->prog, m->prog_size, self, size);
    if (m->nprocs != (uint32_t)S.oldk || m->proc != (uint32_t)S.oldp || (S.part && m->nranks != S.nranks))
        bad("it is process %u's file of a job of %u processes and %u ranks; expected process %d's of %d (corrupt or "
            "misplaced)", m->proc, m->nprocs, m->nranks, S.oldp, S.oldk);
    if (!S.part && nprocs > 1)
        another_count((int)m->nranks);
    S.reading = S.oldp;
    S.tops[0] = m->ctx_max, S.tops[1] = m->dt_top, S.tops[2] = m->group_top, S.tops[3] = m->info_top;
    S.tops[4] = m->op_top;
    if (S.other && m->priv == VMPI_PRIV_TLS)
        bad_job("it is of a program built with -privatize=tls, whose globals are shared by the ranks of a process: it "
                "restarts only as %d process%s (vmpirun%s%.0d), or build it with -privatize=auto", S.oldk,
                S.oldk > 1 ? "es" : "", S.oldk > 1 ? " --procs " : "", S.oldk > 1 ? S.oldk : 0);
    int ns;
    vmpi_ckpt_statics(&ns);
    if (m->nstatics != (uint32_t)ns)
        bad("written by another build of libvmpi (%u saved variables, %d here)", m->nstatics, ns);
    const char *nr = getenv("VMPI_NRANKS");
    if (nr && *nr && strtol(nr, NULL, 10) != (long)m->nranks)
        bad("it holds %u ranks, and -n %s was given: leave -n out or give -n %u", m->nranks, nr, m->nranks);
    vmpi_cfg.nranks = m->nranks;
    vmpi_cfg.iso_base = (uintptr_t)m->iso_base;
    vmpi_cfg.iso_slot_size = (size_t)m->slot_size;
    vmpi_cfg.stack_size = (size_t)m->stack_size;
    /* the checkpoint's values, as MPI_T's control variables report them */
    static char given[4][24];
    snprintf(given[0], sizeof given[0], "%u", m->nranks);
    snprintf(given[1], sizeof given[1], "%#" PRIx64, (uint64_t)m->iso_base);
    snprintf(given[2], sizeof given[2], "%" PRIu64, (uint64_t)m->slot_size);
    snprintf(given[3], sizeof given[3], "%" PRIu64, (uint64_t)m->stack_size);
    vmpi_tunable_given("ranks", given[0]);
    vmpi_tunable_given("iso-base", given[1]);
    vmpi_tunable_given("iso-slot-size", given[2]);
    vmpi_tunable_given("stack-size", given[3]);
}

/* Line `*p` of a list of libraries ("address id name"): false at its end or on a malformed line. */
static bool lib_next(const char **p, const char *end, unsigned long *addr, char id[80], char *name, size_t len)
{
    if (*p >= end)
        return false;
    const char *eol = memchr(*p, '\n', (size_t)(end - *p));
    if (eol == NULL)
        return false;
    char *sp, line[4200];
    snprintf(line, sizeof line, "%.*s", (int)(eol - *p), *p);
    *p = eol + 1;
    *addr = strtoul(line, &sp, 16);
    if (sp == line || *sp != ' ')
        return false;
    char *ide = strchr(sp + 1, ' ');
    if (ide == NULL || ide - sp - 1 >= 80)
        return false;
    snprintf(id, 80, "%.*s", (int)(ide - sp - 1), sp + 1);
    snprintf(name, len, "%s", ide + 1);
    return true;
}

/* Every object loaded when the checkpointed job started must be at the same address here. */
static void check_libs(const char *saved, size_t len)
{
    size_t nlen;
    const char *now = vmpi_adapt_ckpt_libs(&nlen);
    const char *p = saved, *end = saved + len;
    char name[4200], qname[4200], id[80], qid[80], here_id[80] = "";
    unsigned long addr, qa;
    while (p < end) {
        if (!lib_next(&p, end, &addr, id, name, sizeof name))
            bad("its list of libraries is malformed (corrupt)");
        if (name[0] && strchr(name, '/') == NULL)
            continue; /* the kernel's vDSO: nothing of a rank points into it at a migration point, and a
                       * kernel update changes it (when that moves the libraries, their addresses say so).
                       * A library's name has a '/' even when relative (found through LD_LIBRARY_PATH=lib) */
        /* the same name in this process's list */
        unsigned long here = 0;
        bool found = false;
        for (const char *q = now, *qe = now + nlen; !found && lib_next(&q, qe, &qa, qid, qname, sizeof qname);) {
            if (!strcmp(qname, name)) {
                found = true;
                here = qa;
                snprintf(here_id, sizeof here_id, "%s", qid);
            }
        }
        if (!found)
            bad("the checkpointed job had %s loaded, which this one does not have", name[0] ? name : "(the program)");
        if (strcmp(here_id, id) != 0)
            bad("%s is not the one the checkpointed job ran with (build id %s, now %s): restart with the same "
                "libraries", name[0] ? name : "the program", id, here_id);
        if (here != addr)
            bad("%s is at %#lx in this process and was at %#lx in the checkpointed job: restart with the same "
                "libraries, without address-space randomization (vmpirun turns it off; see --aslr)",
                name[0] ? name : "the program", here, addr);
    }
}

static void load_statics(void)
{
    int ns;
    const vmpi_ckpt_static *st = vmpi_ckpt_statics(&ns);
    for (int i = 0; i < ns; i++) {
        vmpi_ckpt_sec s;
        next(&s, CK_STATIC, "a saved variable of libvmpi");
        if (s.id != (uint32_t)i || s.addr != (uint64_t)(uintptr_t)st[i].addr || s.len != st[i].len)
            bad("saved variable %u does not match %s here (written by another build of libvmpi)", s.id, st[i].name);
        read_into(st[i].addr);
    }
}

/* Whether rank r is this process's: a one-process job's every rank, else the ranks of its block (on another
 * number of processes than the checkpoint's too: the part it reads holds them, among others). */
static bool mine(int r, int n) { return S.nprocs == 1 || vmpi_loc_start_proc(r, n) == S.self; }

/* Whether the owner of a table entry (a rank, or -1: the process) is of this process. */
static bool here(int owner) { return owner < 0 || mine(owner, S.n); }

/* On another number of processes, what is process-local by nature is made again for this job's processes:
 * the collectives' shared state (the checkpoint's process's objects are left in the job heap, unused) and
 * what the ranks' communicators cached of it and of the processes of the time (vmpi_adapt_forget_places);
 * context ids and the tables' handles are numbered above the checkpoint's (with the other processes, after
 * the loading: vmpi_adapt_restart_load). */

/* On another number of processes: what a rank may hold that is its process's and is not rebuilt yet (issue
 * 20) is refused by name, before any rank runs. */
static void check_portable(const vmpi_rank *rk)
{
    for (int k = 0; k < VMPI_RANK_EXT_MAX; k++)
        if (rk->ext[k] != NULL)
            bad("rank %d uses ARMCI, whose tables are its process's: it restarts only as %d process%s "
                "(vmpirun%s%.0d)", rk->world_rank, S.oldk, S.oldk > 1 ? "es" : "", S.oldk > 1 ? " --procs " : "",
                S.oldk > 1 ? S.oldk : 0);
    for (int i = 0; i < rk->nwins; i++)
        if (rk->wins[i] != NULL)
            bad("rank %d has an MPI window, whose shared state is its process's: it restarts only as %d "
                "process%s (vmpirun%s%.0d)", rk->world_rank, S.oldk, S.oldk > 1 ? "es" : "",
                S.oldk > 1 ? " --procs " : "", S.oldk > 1 ? S.oldk : 0);
}

/* A rank whose memory is back: checks it, and makes it runnable on PE `pe` of this job. */
static vmpi_rank *adopt_rank(const vmpi_ckpt_sec *s, int n, int npes)
{
    ck_rank rec;
    if (s->len != sizeof rec || s->id >= (uint32_t)n)
        bad("a rank record is malformed (corrupt)");
    read_into(&rec);
    int r = (int)s->id;
    vmpi_iso_heap *h = vmpi_iso_slot_restored(r);
    vmpi_rank *rk = (vmpi_rank *)(uintptr_t)rec.rank;
    if (h == NULL || vmpi_iso_slot_of(rk) != r || rk->world_rank != r || rk->vp.heap != h || rk->vp.id != r)
        bad("rank %d's memory is not a rank's (corrupt)", r);
    vmpi_img_rank_restored(h);
    /* a checkpoint is taken with every rank in its block's process (ranks that moved to another process go
     * back first: migrate.c's ranks_home), so a part holds its process's block only; a one-process job
     * emulating several (--emulate-procs) restarts with as many */
    if (S.other && rec.proc != S.reading)
        bad(S.part ? "rank %d is process %d's, not process %d's (corrupt)"
                   : "rank %d was in process group %d of a job emulating several processes (expected %d): restart it "
                     "in one process with its --emulate-procs",
            r, rec.proc, S.reading);
    if (!S.other && rec.proc != vmpi_loc_start_proc(r, n))
        bad("rank %d was in process %d of the checkpointed job; here it would be in process %d: restart with the "
            "checkpoint's number of processes (--emulate-procs)", r, rec.proc, vmpi_loc_start_proc(r, n));
    if (S.part && rec.proc != S.reading)
        bad("rank %d is process %d's, not this process's (%d) (corrupt)", r, rec.proc, S.reading);
    if (S.other)
        check_portable(rk);
    /* the process runs with the first part's canary (vmpi_adapt_restart_load): a rank whose frames were made
     * with another (another process's part) runs with its own (sched.c) */
    rk->vp.guard = rec.guard != S.meta.stack_guard ? rec.guard : 0;
    int pe = vmpi_loc_start_pe(r, n, npes); /* block mapping over its process's PEs */
    vmpi_loc_adopt(&rk->vp, pe);
    vmpi_msg_ep_restored(&rk->ep, r, NULL, 0);
    if (rk->adapt) { /* it waited at the migration point: it returns from it now, restarted */
        rk->adapt->in_migrate = false;
        rk->adapt->restarted = true;
        /* an AMPI_Migrate_to_pe was for that point (applied after the checkpoint was written; this job places
         * by blocks, maybe on fewer PEs), and the load measured in busy ticks starts again with the VP's */
        rk->adapt->want_pe = -1;
        rk->adapt->excluded = rk->adapt->off_at = 0;
    }
    return rk;
}

/* Reads the sections of S.in after its statics: the job heap (of the first part read only: `foreign` is
 * false), then this process's ranks, skipping the others'; a foreign part's ranks' entries and groups are
 * registered again here (their OWNED records). */
static void load_sections(vmpi_rank **ranks, int n, int npes, bool foreign)
{
    vmpi_ckpt_sec s;
    uint64_t span_lo = 0, span_hi = 0; /* the current slot's committed part, writable */
    uint32_t span_id = UINT32_MAX;
    bool span_skipped = false;        /* another process's rank, or a foreign part's job heap: not read */
    for (;;) {
        if (next(&s, 0, NULL) == 0)
            break;
        bool other_rank = s.id < (uint32_t)n && !mine((int)s.id, n) &&
                          (s.type == CK_SLOT || s.type == CK_MEM || s.type == CK_RANK || s.type == CK_UNEXP ||
                           s.type == CK_HELD || s.type == CK_OWNED);
        bool other_heap = foreign && s.id == (uint32_t)n && (s.type == CK_SLOT || s.type == CK_MEM);
        if (other_rank || other_heap) {
            if (s.type == CK_SLOT) {
                span_id = s.id;
                span_skipped = true;
            } else if (s.type == CK_MEM && (s.id != span_id || !span_skipped)) {
                bad("memory of slot %u comes before the slot (corrupt)", s.id);
            }
            vmpi_ckpt_skip(S.in);
            continue;
        }
        switch (s.type) {
        case CK_SLOT: {
            uint64_t len;
            if (s.len != sizeof len || s.id > (uint32_t)n)
                bad("a slot record is malformed (corrupt)");
            read_into(&len);
            int in = vmpi_iso_slot_of((void *)(uintptr_t)s.addr), last = len ? vmpi_iso_slot_of((void *)(uintptr_t)(s.addr + len - 1)) : in;
            if (in != last || (s.id < (uint32_t)n ? in != (int)s.id : in != -1) ||
                !vmpi_iso_make_writable((void *)(uintptr_t)s.addr, len))
                bad("slot %u's memory at %#" PRIx64 " (%" PRIu64 " bytes) is outside it (corrupt)", s.id, s.addr, len);
            span_id = s.id;
            span_skipped = false;
            span_lo = s.addr;
            span_hi = s.addr + len;
            break;
        }
        case CK_MEM:
            if (s.id != span_id || span_skipped || s.addr < span_lo || s.addr + s.len > span_hi ||
                s.addr + s.len < s.addr)
                bad("memory of slot %u at %#" PRIx64 " (%" PRIu64 " bytes) is outside it (corrupt)", s.id, s.addr, s.len);
            read_into((void *)(uintptr_t)s.addr);
            break;
        case CK_RANK:
            ranks[s.id < (uint32_t)n ? s.id : 0] = adopt_rank(&s, n, npes);
            break;
        case CK_UNEXP: {
            vmpi_rank *rk = s.id < (uint32_t)n ? ranks[s.id] : NULL;
            char *buf = vmpi_sys_malloc(s.len ? s.len : 1);
            if (rk == NULL || buf == NULL)
                bad("unexpected messages of rank %u come before the rank (corrupt)", s.id);
            read_into(buf);
            if (!vmpi_msg_ep_restored(&rk->ep, (int)s.id, buf, s.len))
                bad("rank %u's unexpected messages are malformed (corrupt)", s.id);
            vmpi_sys_free(buf);
            break;
        }
        case CK_HELD: { /* messages matched by MPI_Mprobe: each request gets a fresh envelope */
            vmpi_rank *rk = s.id < (uint32_t)n ? ranks[s.id] : NULL;
            char *buf = vmpi_sys_malloc(s.len ? s.len : 1);
            if (rk == NULL || buf == NULL)
                bad("matched messages of rank %u come before the rank (corrupt)", s.id);
            read_into(buf);
            if (!vmpi_adapt_held_load(rk, buf, s.len))
                bad("rank %u's matched messages are malformed (corrupt)", s.id);
            vmpi_sys_free(buf);
            break;
        }
        case CK_OWNED: { /* the rank's entries and groups: already here when its own process's part is */
            vmpi_rank *rk = s.id < (uint32_t)n ? ranks[s.id] : NULL;
            if (!foreign) {
                vmpi_ckpt_skip(S.in);
                break;
            }
            char *buf = vmpi_sys_malloc(s.len ? s.len : 1);
            if (rk == NULL || buf == NULL)
                bad("the objects of rank %u come before the rank (corrupt)", s.id);
            read_into(buf);
            const char *why = vmpi_adapt_owned_load(rk, buf, s.len);
            if (why)
                bad("rank %u's objects: %s", s.id, why);
            vmpi_sys_free(buf);
            break;
        }
        default:
            vmpi_ckpt_skip(S.in); /* records this vmpi does not know: checked and skipped */
            break;
        }
    }
}

/* Another of the checkpoint's processes' part, for this process's ranks of it (a restart on fewer processes,
 * or across the checkpoint's blocks): its job heap and statics are not read (the first part's are this
 * process's), its ranks' entries and groups are registered again from their records. */
static void load_foreign(int q, vmpi_rank **ranks, int n, int npes)
{
    char err[4600];
    vmpi_ckpt_in *first = S.in;
    if ((S.in = vmpi_ckpt_open_part(S.dir, S.seq, q, err, sizeof err)) == NULL)
        vmpi_fatal("%s (process %d's part of the checkpoint %s)", err, q, S.manifest);
    if (vmpi_ckpt_in_seq(S.in) != S.seq || vmpi_ckpt_size(S.in) != S.parts[q].size)
        bad("it is not the part the manifest %s names (%" PRIu64 " bytes of checkpoint %" PRIu64 "; this is %" PRIu64
            " bytes of checkpoint %" PRIu64 ")", S.manifest, S.parts[q].size, S.seq, vmpi_ckpt_size(S.in),
            vmpi_ckpt_in_seq(S.in));
    vmpi_ckpt_sec s;
    ck_meta m;
    next(&s, CK_META, "the job's description");
    if (s.len != sizeof m)
        bad("the job's description has %" PRIu64 " bytes, not %zu (written by another vmpi)", s.len, sizeof m);
    read_into(&m);
    if (m.nprocs != (uint32_t)S.oldk || m.proc != (uint32_t)q || m.nranks != S.nranks ||
        m.prog_hash != S.meta.prog_hash || m.prog_size != S.meta.prog_size || m.nstatics != S.meta.nstatics ||
        m.priv != S.meta.priv || m.iso_base != S.meta.iso_base || m.slot_size != S.meta.slot_size)
        bad("it is not process %d's part of the job of %d processes whose process %d's part is %s (corrupt or "
            "misplaced)", q, S.oldk, S.oldp, vmpi_ckpt_name(first));
    if (m.nf90 > 0)
        bad("process %d of the checkpointed job made types with MPI_Type_create_f90_*, which its ranks share: its "
            "ranks cannot share a process with another's (restart with its blocks: on %d processes, or on a number "
            "that splits each)", q, S.oldk);
    int32_t tops[5] = {m.ctx_max, m.dt_top, m.group_top, m.info_top, m.op_top};
    for (int k = 0; k < 5; k++)
        S.tops[k] = tops[k] > S.tops[k] ? tops[k] : S.tops[k];
    next(&s, CK_LIBS, "the list of libraries"); /* the same as the first part's: one job */
    vmpi_ckpt_skip(S.in);
    for (uint32_t i = 0; i < m.nstatics; i++) {
        next(&s, CK_STATIC, "a saved variable of libvmpi");
        vmpi_ckpt_skip(S.in);
    }
    vmpi_adapt_owned_part_begin();
    S.reading = q;
    load_sections(ranks, n, npes, true);
    S.reading = S.oldp;
    if (vmpi_ckpt_in_digest(S.in) != S.parts[q].digest)
        bad("its contents are not what the manifest %s says (a part of another checkpoint?)", S.manifest);
    vmpi_ckpt_close(S.in);
    S.in = first;
}

void vmpi_adapt_restart_load(vmpi_rank **ranks, int n)
{
    int npes = vmpi_sched_npes();
    vmpi_ckpt_sec s;
    next(&s, CK_LIBS, "the list of libraries");
    char *libs = vmpi_sys_malloc(s.len + 1);
    if (libs == NULL)
        vmpi_fatal("out of memory restarting");
    read_into(libs);
    check_libs(libs, s.len);
    vmpi_sys_free(libs);
    load_statics();
    load_sections(ranks, n, npes, false);
    if (S.part && vmpi_ckpt_in_digest(S.in) != S.digest)
        bad("its contents are not what the manifest %s says (a part of another checkpoint?)", S.manifest);
    if (vmpi_iso_slot_restored(n) != vmpi_iso_job_heap())
        bad("the job heap is malformed (corrupt)");
    vmpi_img_rank_restored(vmpi_iso_job_heap()); /* tls: the shared copy's code, made writable above */
    if (S.other) { /* the entries of the first part's ranks now in other processes go */
        S.n = n;
        vmpi_dt_keep_only(here);
        vmpi_group_keep_only(here);
        vmpi_info_keep_only(here);
        vmpi_op_keep_only(here);
    }
    for (int q = S.oldp + 1; q <= S.phi; q++)
        load_foreign(q, ranks, n, npes);
    for (int r = 0; r < n; r++) {
        if (mine(r, n) && ranks[r] == NULL)
            bad("rank %d is missing", r);
        if (!mine(r, n)) /* another process's: placed there by the same blocks */
            vmpi_loc_set(r, vmpi_loc_start_pe(r, n, npes));
    }
    if (S.other)
        vmpi_adapt_forget_places();
    if (vmpi_cfg.ckpt_verbose) {
        double t = vmpi_clock_now() - S.t0;
        uint64_t bytes = vmpi_ckpt_size(S.in);
        int here = 0;
        for (int r = 0; r < n; r++)
            here += ranks[r] != NULL;
        vmpi_warn("restart of %d ranks on %d PEs from %s%s: %.3f MB in %.4f s (%.1f MB/s)", here,
                  S.nprocs > 1 ? vmpi_sched_local_npes() : npes, vmpi_ckpt_name(S.in),
                  S.phi > S.oldp ? " and the next parts" : "", 1e-6 * (double)bytes, t, 1e-6 * (double)bytes / t);
    }
    vmpi_ckpt_close(S.in);
    S.in = NULL;
    vmpi_sys_free(S.parts);
    S.parts = NULL;
    vmpi_adapt_set_active(npes);
    vmpi_loc_moves_done(); /* the shared-memory collectives, grouped by this job's PEs */
    /* the ranks' saved frames were made with the old process's canary: the PE threads (started from here)
     * and this one run with it until the job ends */
    S.guard = *ck_stack_guard();
    *ck_stack_guard() = S.meta.stack_guard;
    double now = vmpi_clock_now();
    vmpi_wtime_offset = S.meta.wtime - now;
    int32_t tops[5]; /* the largest context id and table indices of every part of the checkpoint */
    memcpy(tops, S.tops, sizeof tops);
    if (S.nprocs > 1) { /* no rank runs anywhere before every process has loaded its part */
        struct {
            double now;
            int32_t tops[5]; /* the largest context id and table indices of the checkpoint's parts read here */
        } mine = {now, {0}}, *all = malloc(sizeof mine * (size_t)S.nprocs);
        if (all == NULL)
            vmpi_fatal("out of memory restarting");
        memcpy(mine.tops, S.tops, sizeof mine.tops);
        vmpi_xport_net_allgather_fixed(&mine, sizeof mine, all);
        /* the processes of one node read one clock (MPI_WTIME_IS_GLOBAL): one offset for all, from the latest
         * of their readings, so that every MPI_Wtime after the fence is at least the checkpoint's */
        for (int k = 0; k < S.nprocs; k++) {
            if (vmpi_xport_net_one_node() && S.meta.wtime - all[k].now < vmpi_wtime_offset)
                vmpi_wtime_offset = S.meta.wtime - all[k].now;
            for (int j = 0; j < 5; j++)
                tops[j] = all[k].tops[j] > tops[j] ? all[k].tops[j] : tops[j];
        }
        free(all);
    }
    /* another number of processes numbers context ids and handles otherwise: the new ones above every old one,
     * which the ranks still hold (every part of the checkpoint was read by one of these processes) */
    if (S.other) {
        vmpi_comm_ctx_rebase(tops[0]);
        vmpi_dt_rebase(tops[1]);
        vmpi_group_rebase(tops[2]);
        vmpi_info_rebase(tops[3]);
        vmpi_op_rebase(tops[4]);
    }
}

double vmpi_wtime_offset;

void vmpi_adapt_restart_done(void) { *ck_stack_guard() = S.guard; }
