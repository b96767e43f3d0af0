/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a checkpoint: a migration of every rank to disk (or to memory), while the world is stopped at a
 * migration point.  Nothing runs and nothing is in flight, every rank waits inside its AMPI_Migrate, so a
 * rank is exactly the used parts of its slot (its stack with its saved context, its heap with its copy of
 * the program and every MPI object it owns), plus its unexpected messages; what ranks share is the job
 * heap and a few of libvmpi's statics (ckpt_job.h says what is written). */
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>
#include "base/clock.h"
#include "base/log.h"
#include "base/sanitizer.h"
#include "base/sysmem.h"
#include "base/tunables.h"
#include "ckpt/ckpt.h"
#include "img/img.h"
#include "iso/iso.h"
#include "mpi/adapt/adapt.h"
#include "mpi/adapt/ckpt_job.h"
#include "mpi/core/comm.h"
#include "mpi/core/group.h"
#include "mpi/core/info.h"
#include "mpi/core/rank.h"
#include "mpi/datatype/datatype.h"
#include "mpi/datatype/f90.h"
#include "mpi/op/op.h"
#include "mpi/core/stdio.h"
#include "msg/loc.h"

/* In-memory checkpoints: the newest in one buffer, the next written into the other, so that a failed one
 * leaves the newest whole (both buffers' pages are reused). */
static vmpi_ckpt_membuf in_memory[2];
static int newest_mem;

const char *vmpi_adapt_checkpoint_unsupported(void)
{
    if (VMPI_SANITIZER)
        return "checkpoints are not available in sanitizer builds (the ranks' blocks are the sanitizer's, not "
               "in their slots)";
    size_t bytes;
    if (vmpi_img_method() == VMPI_PRIV_NONE && vmpi_img_shared_globals(&bytes) > 0) /* one rank too */
        return "the program was built with -privatize=none: its globals are the process's, shared by the ranks, "
               "and are not saved; build it with -privatize=auto";
    return NULL;
}

/* The job's description; the program file's identity is computed once per process. */
static void meta_fill(ck_meta *m, const vmpi_ckpt_part *part)
{
    static uint64_t hash, size;
    static char prog[512];
    if (prog[0] == '\0') {
        ssize_t n = readlink("/proc/self/exe", prog, sizeof prog - 1);
        prog[n > 0 ? n : 0] = '\0';
        if (!vmpi_ckpt_hash_file("/proc/self/exe", &hash, &size))
            hash = size = 0;
    }
    memset(m, 0, sizeof *m);
    m->nranks = (uint32_t)vmpi_world_size();
    m->npes = (uint32_t)vmpi_sched_npes();
    m->priv = (uint32_t)vmpi_img_method();
    int ns;
    vmpi_ckpt_statics(&ns);
    m->nstatics = (uint32_t)ns;
    m->nprocs = part ? (uint32_t)part->nprocs : 1;
    m->proc = part ? (uint32_t)part->proc : 0;
    m->iso_base = vmpi_cfg.iso_base;
    m->slot_size = vmpi_iso_slot_size();
    m->stack_size = vmpi_cfg.stack_size;
    m->stack_guard = *ck_stack_guard();
    m->wtime = part ? part->wtime : vmpi_wtime();
    m->ctx_max = vmpi_comm_ctx_max();
    m->dt_top = vmpi_dt_top();
    m->group_top = vmpi_group_top();
    m->info_top = vmpi_info_top();
    m->op_top = vmpi_op_top();
    m->nf90 = vmpi_dt_f90_count();
    m->prog_size = size;
    m->prog_hash = hash;
    snprintf(m->prog, sizeof m->prog, "%s", prog);
}

typedef struct libs {
    char *buf;
    size_t len, cap;
} libs;

/* What the loaded object is, as a hex string: its GNU build id (in its notes, in memory: the identity of
 * the code as loaded), or else a hash of its read-only segments as loaded. */
static void object_id(const struct dl_phdr_info *info, char *out, size_t len)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type != PT_NOTE)
            continue;
        const char *n = (const char *)(info->dlpi_addr + p->p_vaddr), *end = n + p->p_memsz;
        while (n + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *h = (const ElfW(Nhdr) *)n;
            const char *name = n + sizeof *h, *desc = name + ((h->n_namesz + 3) & ~3u);
            if (h->n_type == NT_GNU_BUILD_ID && h->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
                desc + h->n_descsz <= end) {
                size_t k = 0;
                for (unsigned j = 0; j < h->n_descsz && k + 3 <= len; j++)
                    k += (size_t)snprintf(out + k, len - k, "%02x", (unsigned char)desc[j]);
                return;
            }
            n = desc + ((h->n_descsz + 3) & ~3u);
        }
    }
    uint64_t sum = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD && !(p->p_flags & PF_W))
            sum = sum * 31 + vmpi_ckpt_hash((const void *)(info->dlpi_addr + p->p_vaddr), p->p_memsz);
    }
    snprintf(out, len, "h%016llx", (unsigned long long)sum);
}

static int lib_line(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    libs *L = arg;
    char line[4300], id[80];
    object_id(info, id, sizeof id);
    int n = snprintf(line, sizeof line, "%lx %s %s\n", (unsigned long)info->dlpi_addr, id, info->dlpi_name);
    if (n < 0 || (size_t)n >= sizeof line)
        return 0;
    if (L->len + (size_t)n > L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 4096;
        while (cap < L->len + (size_t)n)
            cap *= 2;
        char *b = vmpi_sys_realloc(L->buf, cap);
        if (b == NULL)
            return 1;
        L->buf = b;
        L->cap = cap;
    }
    memcpy(L->buf + L->len, line, (size_t)n);
    L->len += (size_t)n;
    return 0;
}

/* The objects loaded when the job started, one "address id name" line each, in load order, listed once at
 * boot: with address randomization off they are at the same addresses in every run of the program.  What
 * is loaded later (hwloc's plugins, at a point that depends on the number of PEs) need not be. */
static libs boot_libs;

void vmpi_adapt_ckpt_boot(void) { dl_iterate_phdr(lib_line, &boot_libs); }

const char *vmpi_adapt_ckpt_libs(size_t *len)
{
    *len = boot_libs.len;
    return boot_libs.buf;
}

typedef struct saver {
    vmpi_ckpt_out *o;
    uint32_t slot;
    bool fresh;               /* a restart finds the slot all zeros: its pages of zeros need not be written */
} saver;

static void put_raw(saver *s, char *lo, char *hi)
{
    if (hi > lo)
        vmpi_ckpt_put(s->o, CK_MEM, s->slot, (uint64_t)(uintptr_t)lo, lo, (size_t)(hi - lo));
}

#define PAGE 4096u

static bool zero_page(const char *p)
{
    const uint64_t *w = (const uint64_t *)(const void *)p;
    if (w[0] | w[PAGE / 8 - 1])
        return false;
    uint64_t any = 0;
    for (unsigned i = 1; i < PAGE / 8 - 1; i++)
        any |= w[i];
    return any == 0;
}

/* [lo, hi) less its whole pages of zeros: a restart makes a rank's slot's committed part writable first, so
 * they are zeros there already (bss, stacks never used deep, blocks never written).  Not the job heap: the
 * restarted process has used it before the checkpoint is read (the tls method's copy, the predefined
 * groups), so its pages hold what that boot wrote, which the checkpoint must overwrite. */
static void put_mem(saver *s, char *lo, char *hi)
{
    char *run = lo, *p = (char *)(((uintptr_t)lo + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
    for (; s->fresh && p + PAGE <= hi; p += PAGE)
        if (zero_page(p)) {
            put_raw(s, run, p);
            run = p + PAGE;
        }
    put_raw(s, run, hi);
}

/* A used part of a slot (not the copy's code: mapped from the file again at restart). */
static void put_part(void *arg, void *addr, size_t len)
{
    put_mem(arg, addr, (char *)addr + len);
}

static void put_slot(vmpi_ckpt_out *o, uint32_t id, const vmpi_iso_heap *h)
{
    vmpi_iso_extent c = vmpi_iso_slot_committed(h);
    uint64_t len = c.len;
    vmpi_ckpt_put(o, CK_SLOT, id, (uint64_t)(uintptr_t)c.addr, &len, sizeof len);
}

/* Writes this process's ranks (all of a one-process job's) and what they share here. */
static int write_job(vmpi_ckpt_out *o, const vmpi_ckpt_part *part)
{
    ck_meta m;
    meta_fill(&m, part);
    vmpi_ckpt_put(o, CK_META, 0, 0, &m, sizeof m);
    size_t llen;
    const char *libs = vmpi_adapt_ckpt_libs(&llen);
    vmpi_ckpt_put(o, CK_LIBS, 0, 0, libs, llen);
    int ns;
    const vmpi_ckpt_static *st = vmpi_ckpt_statics(&ns);
    for (int i = 0; i < ns; i++)
        vmpi_ckpt_put(o, CK_STATIC, (uint32_t)i, (uint64_t)(uintptr_t)st[i].addr, st[i].addr, st[i].len);
    int n = vmpi_world_size();
    saver s = {.o = o, .slot = (uint32_t)n};
    int err = 0; /* write errors are sticky: the last put returns the first */
    put_slot(o, (uint32_t)n, vmpi_iso_job_heap());
    vmpi_img_each_saved_part(vmpi_iso_job_heap(), NULL, put_part, &s); /* (tls: less the shared copy's code) */
    for (int r = 0; r < n; r++) {
        vmpi_rank *rk = vmpi_rank_get(r);
        if (rk == NULL)
            continue; /* another process's: in its part */
        vmpi_iso_heap *h = rk->vp.heap;
        s.slot = (uint32_t)r;
        s.fresh = true;
        put_slot(o, (uint32_t)r, h);
        vmpi_img_each_saved_part(h, rk->vp.ctx, put_part, &s);
        ck_rank rec = {(uint64_t)(uintptr_t)rk, rk->vp.pe->id, vmpi_loc_of(r).proc,
                       rk->vp.guard ? rk->vp.guard : *ck_stack_guard()};
        err = vmpi_ckpt_put(o, CK_RANK, (uint32_t)r, 0, &rec, sizeof rec);
        size_t ulen;
        void *unexp = vmpi_msg_save_unexpected(&rk->ep, &ulen);
        if (unexp) {
            vmpi_ckpt_put(o, CK_UNEXP, (uint32_t)r, 0, unexp, ulen);
            vmpi_sys_free(unexp);
        }
        char *held = vmpi_adapt_held_save(rk, &ulen);
        if (held) {
            vmpi_ckpt_put(o, CK_HELD, (uint32_t)r, 0, held, ulen);
            vmpi_sys_free(held);
        }
        void *owned = vmpi_adapt_owned_save(rk, &ulen);
        vmpi_ckpt_put(o, CK_OWNED, (uint32_t)r, 0, owned, ulen);
        vmpi_sys_free(owned);
    }
    return err;
}

int vmpi_adapt_ckpt_err_class(int e)
{
    return e == ENOSPC || e == EDQUOT ? MPI_ERR_NO_SPACE : e == EACCES || e == EPERM || e == EROFS ? MPI_ERR_ACCESS
                                                                                                     : MPI_ERR_IO;
}

int vmpi_adapt_ckpt_refused(vmpi_ckpt_kind kind, char *err, size_t errlen)
{
    const char *why = vmpi_adapt_checkpoint_unsupported();
    if (why) {
        snprintf(err, errlen, "%s", why);
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    int pers = personality(0xffffffff);
    bool kept = kind == VMPI_CKPT_IN_MEMORY && vmpi_adapt_ckpt_kept(); /* a restart may read it */
    if ((kind == VMPI_CKPT_TO_FILE || kept) && (pers == -1 || !(pers & ADDR_NO_RANDOMIZE))) {
        snprintf(err, errlen, "address-space randomization is on (%s), so the libraries would be elsewhere in "
                 "a restarted job: no checkpoint to a %s is taken", vmpi_cfg.aslr ? "--aslr 1"
                 : "it could not be turned off: is personality(2) filtered?", kept ? "process's buddy" : "file");
        return MPI_ERR_UNSUPPORTED_OPERATION;
    }
    return MPI_SUCCESS;
}

/* Writes this process's file: with `part` NULL a one-process job's whole checkpoint (to the next number in
 * `dir`), else its part of a checkpoint of several processes (its size and digest returned in `part`). */
static int write_file(vmpi_ckpt_kind kind, const char *dir, vmpi_ckpt_part *part, char *err, size_t errlen)
{
    double t0 = vmpi_clock_now();
    vmpi_ckpt_out *o;
    /* in memory and kept in two processes: a file in memory (tmpfs), which outlives the process */
    bool mem = kind == VMPI_CKPT_IN_MEMORY && !(part && vmpi_adapt_ckpt_kept());
    if (kind == VMPI_CKPT_IN_MEMORY && !mem)
        dir = vmpi_adapt_ckpt_kept_dir();
    if (mem) {
        if ((o = vmpi_ckpt_create_mem(&in_memory[1 - newest_mem], part ? part->seq : 1)) == NULL) {
            snprintf(err, errlen, "out of memory for an in-memory checkpoint");
            return MPI_ERR_NO_MEM;
        }
    } else if ((o = part ? vmpi_ckpt_create_at(dir, part->seq, part->proc, err, errlen)
                         : vmpi_ckpt_create(dir, err, errlen)) == NULL) {
        return vmpi_adapt_ckpt_err_class(errno);
    }
    /* the ranks' whole lines belong to no checkpoint: out now, or a job killed after the checkpoint loses them
     * and the restarted one does not print them again; their unfinished lines go into their slots */
    vmpi_stdio_ckpt_begin();
    int e = write_job(o, part);
    vmpi_stdio_ckpt_end();
    if (e) {
        snprintf(err, errlen, "writing the checkpoint in %s: %s (the previous checkpoint is kept)",
                 mem ? "memory" : dir, strerror(e));
        vmpi_ckpt_discard(o);
        return mem ? MPI_ERR_NO_MEM : vmpi_adapt_ckpt_err_class(e);
    }
    uint64_t bytes = vmpi_ckpt_written(o);
    if (part) {
        part->digest = vmpi_ckpt_out_digest(o);
        part->size = vmpi_ckpt_out_total(o);
    }
    double t1 = vmpi_clock_now();
    e = vmpi_ckpt_commit(o, err, errlen);
    if (e)
        return vmpi_adapt_ckpt_err_class(e);
    if (vmpi_cfg.ckpt_verbose && part == NULL) {
        double t2 = vmpi_clock_now();
        vmpi_warn("checkpoint of %d ranks %s%s: %.3f MB in %.4f s (%.1f MB/s; written in %.4f s, flushed in %.4f s)",
                  vmpi_world_size(), kind == VMPI_CKPT_IN_MEMORY ? "in memory" : "to ",
                  kind == VMPI_CKPT_IN_MEMORY ? "" : dir, 1e-6 * (double)bytes, t2 - t0,
                  1e-6 * (double)bytes / (t2 - t0), t1 - t0, t2 - t1);
    }
    return MPI_SUCCESS;
}

int vmpi_adapt_checkpoint(vmpi_ckpt_kind kind, const char *dir, char *err, size_t errlen)
{
    int cls = vmpi_adapt_ckpt_refused(kind, err, errlen);
    if (cls == MPI_SUCCESS && (cls = write_file(kind, dir, NULL, err, errlen)) == MPI_SUCCESS &&
        kind == VMPI_CKPT_IN_MEMORY)
        vmpi_adapt_ckpt_mem_newest();
    return cls;
}

int vmpi_adapt_checkpoint_part(vmpi_ckpt_kind kind, const char *dir, vmpi_ckpt_part *part, char *err, size_t errlen)
{
    return write_file(kind, dir, part, err, errlen);
}

void vmpi_adapt_ckpt_mem_newest(void) { newest_mem = 1 - newest_mem; }
