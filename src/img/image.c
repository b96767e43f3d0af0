/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading the program image once: its segments, its dynamic section, its relocations reduced to the few
 * kinds a copy needs (image.h), its undefined symbols resolved in the process's global scope.  Everything
 * a copy could not handle is found here, at start-up, and named. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "base/log.h"
#include "base/sanitizer.h"
#include "ckpt/ckpt.h"
#include "base/sysmem.h"
#include "img/image.h"
#include "img/libc.h"

img_image vmpi_img_;
#define I vmpi_img_
uintptr_t vmpi_img_proc_base_;
size_t vmpi_img_span_;

vmpi_priv_method vmpi_img_method(void) { return I.method; }

const char *vmpi_img_method_name(vmpi_priv_method m)
{
    return m == VMPI_PRIV_AUTO ? "auto" : m == VMPI_PRIV_TLS ? "tls" : "none";
}

static VMPI_NORETURN void refuse(const char *what, const char *name)
{
    vmpi_fatal("-privatize=%s: the program cannot be privatized: %s%s%s", vmpi_img_method_name(I.method), what,
               name ? ": " : "", name ? name : "");
}

static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(struct dl_phdr_info *)arg = *info;
    return 1; /* the program is always the first object */
}

/* The symbol table and what versions refer to, in the process's copy (read-only data, as in the file). */
static struct {
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Half) *versym;
    const char *verneed;
    uintptr_t *resolved; /* per symbol index: 0 not yet, else the value + 1 */
    size_t nresolved;
} S;

static const char *sym_version(size_t i)
{
    if (!S.versym || !S.verneed)
        return NULL;
    ElfW(Half) v = S.versym[i] & 0x7fff;
    if (v < 2)
        return NULL;
    for (const char *vn = S.verneed;;) {
        const ElfW(Verneed) *n = (const void *)vn;
        const char *va = vn + n->vn_aux;
        for (unsigned k = 0; k < n->vn_cnt; k++) {
            const ElfW(Vernaux) *a = (const void *)va;
            if (a->vna_other == v)
                return S.strtab + a->vna_name;
            va += a->vna_next;
        }
        if (!n->vn_next)
            return NULL;
        vn += n->vn_next;
    }
}

/* Symbol i: true and `*off` when the image defines it (then it is the copy's own), else its address in the
 * global scope (a hook first). */
static bool resolve(size_t i, uintptr_t *val)
{
    const ElfW(Sym) *s = &S.symtab[i];
    if (s->st_shndx != SHN_UNDEF) {
        *val = s->st_value;
        return true;
    }
    if (i < S.nresolved && S.resolved[i]) {
        *val = S.resolved[i] - 1;
        return false;
    }
    const char *name = S.strtab + s->st_name;
    if (strstr(name, "_personality_v0")) /* __gxx_, __gcc_, __gfortran_... */
        I.unwinds = true;
    void *p = vmpi_img_hook(name);
    if (p == NULL && (p = vmpi_img_libc_fn(name)) != NULL)
        I.uses_libc = true;
    if (p == NULL) {
        const char *ver = sym_version(i);
        p = ver ? dlvsym(RTLD_DEFAULT, name, ver) : dlsym(RTLD_DEFAULT, name);
        if (p == NULL && ver)
            p = dlsym(RTLD_DEFAULT, name);
        if (p == NULL && ELF64_ST_BIND(s->st_info) != STB_WEAK)
            refuse("undefined symbol (not in the program nor in the libraries it is linked with)", name);
    }
    if (i >= S.nresolved) {
        size_t n = S.nresolved ? S.nresolved : 256;
        while (n <= i)
            n *= 2;
        S.resolved = vmpi_sys_realloc(S.resolved, n * sizeof *S.resolved);
        if (S.resolved == NULL)
            vmpi_fatal("out of memory reading the program image");
        memset(S.resolved + S.nresolved, 0, (n - S.nresolved) * sizeof *S.resolved);
        S.nresolved = n;
    }
    S.resolved[i] = (uintptr_t)p + 1;
    *val = (uintptr_t)p;
    return false;
}

static void add_rel(unsigned kind, uint64_t off, uint64_t val)
{
    static size_t cap;
    if (I.nrel == cap) {
        cap = cap ? cap * 2 : 1024;
        I.rel = vmpi_sys_realloc(I.rel, cap * sizeof *I.rel);
        if (I.rel == NULL)
            vmpi_fatal("out of memory reading the program image");
    }
    I.rel[I.nrel++] = (img_rel){(uint64_t)kind << 60 | off, val};
}

static void reduce(const ElfW(Rela) *r, size_t n)
{
    for (size_t k = 0; k < n; k++, r++) {
        size_t si = ELF64_R_SYM(r->r_info);
        uintptr_t v;
        const char *name = si ? S.strtab + S.symtab[si].st_name : NULL;
        switch (ELF64_R_TYPE(r->r_info)) {
        case R_X86_64_NONE:
            break;
        case R_X86_64_RELATIVE:
            add_rel(REL_BASE, r->r_offset, (uint64_t)r->r_addend);
            break;
        case R_X86_64_64:
        case R_X86_64_GLOB_DAT:
        case R_X86_64_JUMP_SLOT: {
            uint64_t add = ELF64_R_TYPE(r->r_info) == R_X86_64_64 ? (uint64_t)r->r_addend : 0;
            long var = si && S.symtab[si].st_shndx == SHN_UNDEF ? vmpi_img_libc_var(name) : -1;
            if (var >= 0) { /* a C library variable each rank has its own of (auto: getopt's) */
                I.uses_libc = true;
                add_rel(REL_LIBC, r->r_offset, (uint64_t)var + add);
            } else if (resolve(si, &v))
                add_rel(REL_BASE, r->r_offset, v + add);
            else
                add_rel(REL_ABS, r->r_offset, v + add);
            break;
        }
        case R_X86_64_IRELATIVE:
            add_rel(REL_IFUNC, r->r_offset, (uint64_t)r->r_addend);
            break;
        case R_X86_64_DTPMOD64:
            if (si && S.symtab[si].st_shndx == SHN_UNDEF)
                refuse("the program uses a thread_local variable defined in a shared library", name);
            add_rel(REL_TLSMOD, r->r_offset, 0);
            break;
        case R_X86_64_DTPOFF64:
            add_rel(REL_ABS, r->r_offset, (si ? S.symtab[si].st_value : 0) + (uint64_t)r->r_addend);
            break;
        case R_X86_64_TPOFF64:
        case R_X86_64_TPOFF32:
            refuse("initial-exec thread_local access (from -ftls-model=initial-exec, a tls_model attribute or "
                   "a non-PIC object); use the default TLS model and -fPIC, or -privatize=none", name);
        case R_X86_64_TLSDESC:
            refuse("TLS descriptors (-mtls-dialect=gnu2); rebuild with -mtls-dialect=gnu", name);
        case R_X86_64_COPY:
            refuse("copy relocation (an object built for an executable)", name);
        default: {
            char b[48];
            snprintf(b, sizeof b, "type %u", (unsigned)ELF64_R_TYPE(r->r_info));
            refuse("relocation of an unsupported type", b);
        }
        }
    }
}

static void noop(void) {}

/* The process's copy was started without its constructors; its fini array must not run either (its
 * objects were never built): every entry becomes a no-op. */
static void disable_proc_fini(uintptr_t fini_array, size_t n)
{
    if (n == 0)
        return;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t lo = (I.proc_base + fini_array) & ~(page - 1);
    uintptr_t hi = (I.proc_base + fini_array + n * sizeof(void *) + page - 1) & ~(page - 1);
    if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
        vmpi_fatal("cannot disable the destructors of the process's copy of the program: %s", strerror(errno));
    for (size_t i = 0; i < n; i++)
        ((void (**)(void))(I.proc_base + fini_array))[i] = noop;
    mprotect((void *)lo, hi - lo, PROT_READ);
}

/* The tls method's process-wide destructors are part of a checkpoint (their objects are in the job heap);
 * registered in every process, whatever the method, so that every process has the same list. */
__attribute__((constructor)) static void register_shared_dtors(void)
{
    vmpi_ckpt_static_register(&I.shared.dtor, sizeof I.shared.dtor, "vmpi_img_.shared.dtor (img/image.c)");
    vmpi_ckpt_static_register(&I.shared.ndtor, sizeof I.shared.ndtor, "vmpi_img_.shared.ndtor (img/image.c)");
    vmpi_ckpt_static_register(&I.shared.cap, sizeof I.shared.cap, "vmpi_img_.shared.cap (img/image.c)");
}

void vmpi_img_open(vmpi_priv_method m, vmpi_img_main_fn main, int nranks, int argc, char **argv, bool restart)
{
    I.method = m;
    struct dl_phdr_info pi;
    dl_iterate_phdr(first_object, &pi);
    I.proc_base = pi.dlpi_addr;
    I.ph = pi.dlpi_phdr;
    I.nph = pi.dlpi_phnum;
    I.main_off = (uintptr_t)main - I.proc_base;
    I.fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (I.fd < 0)
        vmpi_fatal("cannot open the program file (/proc/self/exe) to privatize its globals: %s", strerror(errno));
    const ElfW(Phdr) *dynph = NULL;
    I.align = 4096;
    int nload = 0;
    for (int i = 0; i < I.nph; i++) {
        const ElfW(Phdr) *p = &I.ph[i];
        if (p->p_type == PT_DYNAMIC)
            dynph = p;
        else if (p->p_type == PT_GNU_EH_FRAME)
            I.eh_frame_hdr = p->p_vaddr;
        else if (p->p_type == PT_TLS) {
            I.has_tls = true;
            I.tls_off = p->p_vaddr;
            I.tls_filesz = p->p_filesz;
            I.tls_memsz = p->p_memsz;
            I.tls_align = p->p_align > 16 ? p->p_align : 16;
        } else if (p->p_type == PT_LOAD) {
            nload++;
            if (p->p_vaddr + p->p_memsz > I.span)
                I.span = p->p_vaddr + p->p_memsz;
            if (p->p_align > I.align)
                I.align = p->p_align;
        }
    }
    I.span = (I.span + 4095) & ~(size_t)4095;
    vmpi_img_proc_base_ = I.proc_base;
    vmpi_img_span_ = I.span;
    if (dynph == NULL)
        refuse("it has no dynamic section (not linked by vmpicc as an image)", NULL);
    /* the file's dynamic section: ld.so has rewritten some entries of the copy in memory */
    ElfW(Dyn) *dyn = vmpi_sys_malloc(dynph->p_filesz);
    if (dyn == NULL || pread(I.fd, dyn, dynph->p_filesz, (off_t)dynph->p_offset) != (ssize_t)dynph->p_filesz)
        vmpi_fatal("cannot read the dynamic section of the program file: %s", strerror(errno));
    size_t nd = dynph->p_filesz / sizeof *dyn;
    uintptr_t rela = 0, jmprel = 0, fini_array = 0;
    size_t relasz = 0, jmprelsz = 0, nfini = 0;
    for (size_t i = 0; i < nd && dyn[i].d_tag != DT_NULL; i++) {
        uintptr_t v = dyn[i].d_un.d_ptr;
        switch (dyn[i].d_tag) {
        case DT_SYMTAB: S.symtab = (const void *)(I.proc_base + v); break;
        case DT_STRTAB: S.strtab = (const void *)(I.proc_base + v); break;
        case DT_VERSYM: S.versym = (const void *)(I.proc_base + v); break;
        case DT_VERNEED: S.verneed = (const void *)(I.proc_base + v); break;
        case DT_RELA: rela = v; break;
        case DT_RELASZ: relasz = dyn[i].d_un.d_val; break;
        case DT_JMPREL: jmprel = v; break;
        case DT_PLTRELSZ: jmprelsz = dyn[i].d_un.d_val; break;
        case DT_INIT: I.init = v; break;
        case DT_INIT_ARRAY: I.init_array = v; break;
        case DT_INIT_ARRAYSZ: I.ninit = dyn[i].d_un.d_val / sizeof(void *); break;
        case DT_FINI_ARRAY: fini_array = v; break;
        case DT_FINI_ARRAYSZ: nfini = dyn[i].d_un.d_val / sizeof(void *); break;
        case DT_TEXTREL:
            refuse("text relocations (an object not compiled with -fPIC); rebuild it with vmpicc", NULL);
        case DT_REL:
#ifdef DT_RELR
        case DT_RELR:
#endif
            refuse("REL or RELR relocation tables (link without -z pack-relative-relocs)", NULL);
        case DT_FLAGS:
            if (dyn[i].d_un.d_val & DF_STATIC_TLS)
                refuse("initial-exec thread_local accesses (static TLS, from -ftls-model=initial-exec or a "
                       "tls_model attribute); use the default TLS model or -privatize=none", NULL);
            if (dyn[i].d_un.d_val & DF_TEXTREL)
                refuse("text relocations (an object not compiled with -fPIC); rebuild it with vmpicc", NULL);
            break;
        }
    }
    vmpi_sys_free(dyn);
    I.fini_array = fini_array;
    I.nfini = nfini;
    if (rela)
        reduce((const void *)(I.proc_base + rela), relasz / sizeof(ElfW(Rela)));
    if (jmprel)
        reduce((const void *)(I.proc_base + jmprel), jmprelsz / sizeof(ElfW(Rela)));
    vmpi_sys_free(S.resolved);
    S.resolved = NULL;
    S.nresolved = 0;
    disable_proc_fini(fini_array, nfini);
    /* C++ exceptions thrown in a copy: the unwinder must be told where its frame tables are (libgcc, loaded
     * with libstdc++ or libgfortran).  Only images with a personality routine have frames to unwind: a
     * C program's copies are not registered (each registered object slows every throw in the process). */
    I.register_frame = (void (*)(const void *, void *))dlsym(RTLD_DEFAULT, "__register_frame_info");
    I.deregister_frame = (void *(*)(const void *))dlsym(RTLD_DEFAULT, "__deregister_frame_info");
    /* LeakSanitizer scans the objects it knows for pointers; a copy's globals must be among them */
    I.lsan_root = (void (*)(const void *, size_t))dlsym(RTLD_DEFAULT, "__lsan_register_root_region");
    if (m == VMPI_PRIV_AUTO) {
        /* each copy needs a mapping per loaded segment, one for its .bss and splits the heap's */
        long max = 65530;
        FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
        if (f) {
            if (fscanf(f, "%ld", &max) != 1)
                max = 65530;
            fclose(f);
        }
        long need = (long)nranks * (nload + 4) + 2000;
        if (need > max)
            vmpi_fatal("-privatize=auto: %d ranks need about %ld memory mappings, more than vm.max_map_count "
                       "(%ld); raise it (sysctl -w vm.max_map_count=%ld) or build with -privatize=tls", nranks,
                       need, max, need * 2);
    } else if (m == VMPI_PRIV_TLS) {
        /* The process's one copy, in the job heap (its first block, so at the same address in every run)
         * with everything its constructors allocate: its globals are the job's, saved with a checkpoint.
         * Sanitizer builds (no checkpoints) map it anywhere: their job heap is the sanitizer's. */
        uintptr_t base;
        if (VMPI_SANITIZER) {
            size_t len = I.span + I.align;
            char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (p == MAP_FAILED)
                vmpi_fatal("cannot reserve room for the program's copy: %s", strerror(errno));
            base = ((uintptr_t)p + I.align - 1) & ~(uintptr_t)(I.align - 1);
        } else {
            void *room = vmpi_iso_job_memalign(I.align, I.span);
            if (room == NULL)
                vmpi_fatal("no room for the program's copy (%zu bytes) in the job heap", I.span);
            base = (uintptr_t)room;
        }
        I.shared.base = base;
        I.shared.proc = true;
        I.shared.copy = true;
        vmpi_img_map(base);
        vmpi_img_relocate(base, NULL, NULL);
        if (I.has_tls) { /* the block thread_locals use outside any rank (constructors of the copy) */
            I.shared.tls = vmpi_iso_job_memalign(I.tls_align, I.tls_memsz ? I.tls_memsz : 1);
            if (I.shared.tls == NULL)
                vmpi_fatal("out of memory for the program's thread_local block");
            vmpi_img_tls_fill(&I.shared, base);
        }
        extern char **environ;
        /* a restart puts back what the constructors made (checkpoint of the job heap): only the frames */
        vmpi_iso_enter(VMPI_SANITIZER ? NULL : vmpi_iso_job_heap());
        vmpi_img_run_ctors(&I.shared, argc, argv, environ, !restart);
        vmpi_iso_leave();
    }
}

void vmpi_img_close(void)
{
    if (I.method == VMPI_PRIV_TLS)
        vmpi_img_run_dtors(&I.shared);
}
