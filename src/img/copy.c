/* SPDX-License-Identifier: BSD-3-Clause */
/* One copy of the program image: its segments mapped from the file at a chosen base (code shared through
 * the page cache, data copy-on-write, .bss anonymous), relocated from the reduced table of image.c, its
 * thread_local block, its constructors and destructors.  A rank's copy is made on the rank itself, so its
 * allocations land in its slot. */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "base/log.h"
#include "base/sanitizer.h"
#include "base/sysmem.h"
#include "img/image.h"
#include "img/libc.h"
#include "iso/heap.h"

#define I vmpi_img_
#define PAGE 4096ul
#define DN(x) ((x) & ~(PAGE - 1))
#define UP(x) DN((x) + PAGE - 1)
#define EH_PE_PCREL_SDATA4 0x1b /* DW_EH_PE_pcrel | DW_EH_PE_sdata4 */

void vmpi_img_map(uintptr_t base)
{
    for (int i = 0; i < I.nph; i++) {
        const ElfW(Phdr) *p = &I.ph[i];
        if (p->p_type != PT_LOAD)
            continue;
        uintptr_t va = base + p->p_vaddr, fend = va + p->p_filesz, mend = va + p->p_memsz;
        /* read-only segments get their final protection at once (no text relocations: tools such as
         * valgrind read the debug information when an executable mapping of the file appears) */
        int prot = p->p_flags & PF_W ? PROT_READ | PROT_WRITE
                                     : PROT_READ | (p->p_flags & PF_X ? PROT_EXEC : 0);
        if (p->p_filesz && mmap((void *)DN(va), fend - DN(va), prot, MAP_PRIVATE | MAP_FIXED, I.fd,
                                (off_t)DN(p->p_offset)) == MAP_FAILED)
            vmpi_fatal("cannot map the program's segment at %#lx for a copy: %s (vm.max_map_count?)",
                       (unsigned long)va, strerror(errno));
        if (mend > fend) { /* .bss: the rest of the last file page, then fresh zero pages */
            if (fend & (PAGE - 1))
                memset((void *)fend, 0, UP(fend) - fend);
            /* MAP_NORESERVE like the slot's heap around it: the kernel then merges the two into one mapping
             * (one fewer per rank against vm.max_map_count), and a large .bss is not charged to the commit
             * limit once per rank */
            if (mend > UP(fend) && mmap((void *)UP(fend), UP(mend) - UP(fend), prot,
                                        MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) ==
                                       MAP_FAILED)
                vmpi_fatal("cannot map the program's .bss for a copy: %s (vm.max_map_count?)", strerror(errno));
        }
    }
}

void vmpi_img_relocate(uintptr_t base, const char *tls, const struct img_libc *libc)
{
    uintptr_t mod = tls ? (uintptr_t)tls : IMG_TLS_CURRENT;
    for (size_t k = 0; k < I.nrel; k++) {
        img_rel r = I.rel[k];
        uintptr_t *where = (uintptr_t *)(base + IMG_REL_OFF(r));
        switch (IMG_REL_KIND(r)) {
        case REL_BASE: *where = base + r.val; break;
        case REL_ABS: *where = r.val; break;
        case REL_IFUNC: *where = ((uintptr_t(*)(void))(base + r.val))(); break;
        case REL_TLSMOD: *where = mod; break;
        case REL_LIBC: *where = (uintptr_t)libc + r.val; break;
        }
    }
}

void vmpi_img_tls_fill(const img_rank *r, uintptr_t base)
{
    memcpy(r->tls, (const void *)(base + I.tls_off), I.tls_filesz);
    memset(r->tls + I.tls_filesz, 0, I.tls_memsz - I.tls_filesz);
}

/* The unwinder finds a copy's frames only if told: glibc's list of objects does not have it. */
static const char *frames_of(const img_rank *r);

static void register_frames(img_rank *r)
{
    const char *f = frames_of(r); /* NULL: not the encoding GNU ld writes, the copy stays without unwinding */
    if (f)
        I.register_frame(f, r->eh_object);
}

/* Where register_frames told the unwinder the copy's frames are, or NULL when it did not. */
static const char *frames_of(const img_rank *r)
{
    if (!I.eh_frame_hdr || !I.register_frame || !I.unwinds)
        return NULL;
    const unsigned char *hdr = (const void *)(r->base + I.eh_frame_hdr);
    if (hdr[0] != 1 || hdr[1] != EH_PE_PCREL_SDATA4)
        return NULL;
    return (const char *)(hdr + 4) + *(const int32_t *)(hdr + 4);
}

/* The file's read-only segments of the copy at `base`: [lo, hi) page-rounded, as vmpi_img_map maps them. */
static int ro_ranges(uintptr_t base, vmpi_iso_extent *out, int max)
{
    int n = 0;
    for (int i = 0; i < I.nph && n < max; i++) {
        const ElfW(Phdr) *p = &I.ph[i];
        if (p->p_type != PT_LOAD || (p->p_flags & PF_W) || p->p_filesz == 0)
            continue;
        uintptr_t va = base + p->p_vaddr;
        out[n++] = (vmpi_iso_extent){(void *)DN(va), UP(va + p->p_filesz) - DN(va)};
    }
    return n;
}

/* The copy whose code is in slot `h`: the rank's own, or, in the job heap, the tls method's shared one. */
static img_rank *copy_in(const vmpi_iso_heap *h)
{
    if (h->img)
        return h->img;
    return I.method == VMPI_PRIV_TLS && !VMPI_SANITIZER && h == vmpi_iso_job_heap() ? &I.shared : NULL;
}

int vmpi_img_file_ranges(const vmpi_iso_heap *h, vmpi_iso_extent *out, int max)
{
    const img_rank *r = copy_in(h);
    return r && r->copy ? ro_ranges(r->base, out, max) : 0;
}

typedef struct saved_parts {
    vmpi_iso_extent holes[4];
    int nholes;
    vmpi_iso_extent_fn fn;
    void *arg;
} saved_parts;

static void less_holes(void *arg, void *addr, size_t len)
{
    saved_parts *a = arg;
    char *lo = addr, *hi = lo + len;
    for (int i = 0; i < a->nholes && lo < hi; i++) {
        char *hl = a->holes[i].addr, *hh = hl + a->holes[i].len;
        if (hh <= lo || hl >= hi)
            continue;
        if (hl > lo)
            a->fn(a->arg, lo, (size_t)(hl - lo));
        lo = hh > lo ? hh : lo;
    }
    if (hi > lo)
        a->fn(a->arg, lo, (size_t)(hi - lo));
}

void vmpi_img_each_saved_part(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent_fn fn, void *arg)
{
    saved_parts a = {.fn = fn, .arg = arg};
    a.nholes = vmpi_img_file_ranges(h, a.holes, 4);
    vmpi_iso_each_extent(h, sp, less_holes, &a);
}

void vmpi_img_rank_restored(vmpi_iso_heap *h)
{
    img_rank *r = copy_in(h);
    if (r == NULL || !r->copy)
        return;
    for (int i = 0; i < I.nph; i++) {
        const ElfW(Phdr) *p = &I.ph[i];
        if (p->p_type != PT_LOAD || (p->p_flags & PF_W) || p->p_filesz == 0)
            continue;
        uintptr_t va = r->base + p->p_vaddr;
        int prot = PROT_READ | (p->p_flags & PF_X ? PROT_EXEC : 0);
        if (mmap((void *)DN(va), UP(va + p->p_filesz) - DN(va), prot, MAP_PRIVATE | MAP_FIXED, I.fd,
                 (off_t)DN(p->p_offset)) == MAP_FAILED)
            vmpi_fatal("cannot map the program's segment at %#lx again for rank %d: %s (vm.max_map_count?)",
                       (unsigned long)va, h->slot, strerror(errno));
    }
    if (r == &I.shared)
        return; /* registered at load, in this process */
    memset(r->eh_object, 0, sizeof r->eh_object); /* the unwinder's record of the old process */
    if (r->started)
        register_frames(r);
}

void vmpi_img_rank_leaving(vmpi_iso_heap *h)
{
    img_rank *r = copy_in(h);
    const char *f = r && r->copy && r->started && r != &I.shared ? frames_of(r) : NULL;
    if (f && I.deregister_frame)
        I.deregister_frame(f);
}

void vmpi_img_restarted(void)
{
    /* std::ios_base::Init::Init(), when libstdc++ is loaded.  Its object (an empty class) is never destroyed:
     * the copies' own ones are, when their ranks exit, and the last flushes the streams. */
    static char ios_init;
    void (*init)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "_ZNSt8ios_base4InitC1Ev");
    if (init)
        init(&ios_init);
}

void vmpi_img_run_ctors(img_rank *r, int argc, char **argv, char **envp, bool ctors)
{
    if (r->copy)
        register_frames(r);
    if (I.lsan_root) { /* the copy's writable segments and its thread_local block hold pointers */
        for (int i = 0; i < I.nph; i++)
            if (I.ph[i].p_type == PT_LOAD && (I.ph[i].p_flags & PF_W))
                I.lsan_root((void *)(r->base + I.ph[i].p_vaddr), I.ph[i].p_memsz);
        if (r->tls)
            I.lsan_root(r->tls, I.tls_memsz);
    }
    r->started = true;
    if (r->copy && ctors) {
        if (I.init)
            ((void (*)(void))(r->base + I.init))();
        for (size_t i = 0; i < I.ninit; i++)
            ((void (**)(int, char **, char **))(r->base + I.init_array))[i](argc, argv, envp);
    }
}

void vmpi_img_run_dtors(img_rank *r)
{
    if (!r->started || r->exited)
        return;
    r->exited = true; /* exit() in a destructor must not start over */
    while (r->ndtor > 0) { /* destructors may register more */
        img_dtor d = r->dtor[--r->ndtor];
        d.fn(d.arg);
    }
    if (r->copy) /* its frames stay registered: libgcc's deregistration is a linear search under a lock,
                  * quadratic over thousands of ranks ending, and the copy stays mapped anyway */
        for (size_t i = I.nfini; i-- > 0;)
            ((void (**)(void))(r->base + I.fini_array))[i]();
    if (r->dtor && r->proc)
        free(r->dtor); /* the job heap's (hooks.c), or the sanitizer's */
    else if (r->dtor)
        vmpi_iso_free_any(r->dtor);
    r->dtor = NULL;
    r->cap = 0;
}

void vmpi_img_rank_make(vmpi_iso_heap *h)
{
    img_rank *r = vmpi_iso_heap_calloc(h, sizeof *r);
    if (r == NULL)
        vmpi_fatal("no room for the program's copy in rank %d's slot; raise --iso-slot-size", h->slot);
    if (I.has_tls) {
        r->tls = vmpi_iso_heap_memalign(h, I.tls_align, I.tls_memsz ? I.tls_memsz : 1);
        if (r->tls == NULL)
            vmpi_fatal("no room for the program's thread_local block in rank %d's slot; raise --iso-slot-size",
                       h->slot);
    }
    if (I.uses_libc) { /* before the relocations: auto binds getopt's globals to it */
        r->libc = vmpi_iso_heap_calloc(h, sizeof *r->libc);
        if (r->libc == NULL)
            vmpi_fatal("no room for the C library's state in rank %d's slot; raise --iso-slot-size", h->slot);
        vmpi_img_libc_init(r->libc);
    }
    if (I.method == VMPI_PRIV_AUTO) {
        void *room = vmpi_iso_heap_memalign(h, I.align, I.span);
        if (room == NULL)
            vmpi_fatal("no room for the program's copy (%zu bytes) in rank %d's slot; raise --iso-slot-size",
                       I.span, h->slot);
        r->base = (uintptr_t)room;
        r->copy = true;
        vmpi_img_map(r->base);
        vmpi_img_relocate(r->base, r->tls, r->libc);
    } else {
        r->base = I.shared.base;
    }
    if (r->tls)
        vmpi_img_tls_fill(r, r->base);
    h->img = r;
    h->img_tls = r->tls;
}

vmpi_img_main_fn vmpi_img_rank_construct(vmpi_iso_heap *h, int argc, char **argv, char **envp)
{
    img_rank *r = h->img;
    vmpi_img_run_ctors(r, argc, argv, envp, true);
    return (vmpi_img_main_fn)(r->base + I.main_off);
}

void vmpi_img_rank_exit(vmpi_iso_heap *h)
{
    img_rank *r = h->img;
    if (r)
        vmpi_img_run_dtors(r);
}
