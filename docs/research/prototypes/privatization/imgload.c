/* Prototype: load one private copy of a -fPIC -shared program image per rank at a chosen address (in vmpi:
 * the rank's isomalloc slot).  Text and data are mapped MAP_PRIVATE from the file (text pages stay shared in
 * the page cache; data pages are copied on first write), .bss is anonymous.  Relocations are applied from
 * the image's own tables (exact: no pointer scanning); undefined symbols come from the global scope
 * (libc, libstdc++, libvmpi) with their versions; a few are bound to hooks: __tls_get_addr (thread_local in
 * the image becomes per copy), __cxa_atexit / __cxa_thread_atexit (destructors recorded per copy).
 * Constructors run per copy.  Errors name the relocation that cannot be handled. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "imgload.h"

#define PG 4096UL
#define DN(x) ((x) & ~(PG - 1))
#define UP(x) DN((x) + PG - 1)

static img *cur_img; /* the copy running now (in vmpi: the current rank, set by the scheduler) */
void img_enter(img *m) { cur_img = m; }

typedef struct { unsigned long mod, off; } tls_index;
extern void *__tls_get_addr(tls_index *);
/* Module ids of real TLS modules are small; a copy's tls_index.mod holds its TLS block's address. */
static void *hook_tls_get_addr(tls_index *ti)
{
    if (ti->mod > 0xffff) return (char *)ti->mod + ti->off;
    return __tls_get_addr(ti);
}
static int hook_cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
    (void)dso;
    img *m = cur_img;
    if (m->ndtor == IMG_MAXDTOR) return -1;
    m->dtor[m->ndtor].fn = fn, m->dtor[m->ndtor].arg = arg, m->ndtor++;
    return 0;
}
static int hook_cxa_thread_atexit(void (*fn)(void *), void *arg, void *dso) { return hook_cxa_atexit(fn, arg, dso); }
static void hook_cxa_finalize(void *dso) { (void)dso; }

static const struct { const char *name; void *fn; } hooks[] = {
    {"__tls_get_addr", (void *)hook_tls_get_addr},
    {"__cxa_atexit", (void *)hook_cxa_atexit},
    {"__cxa_thread_atexit", (void *)hook_cxa_thread_atexit},
    {"__cxa_thread_atexit_impl", (void *)hook_cxa_thread_atexit},
    {"__cxa_finalize", (void *)hook_cxa_finalize},
};

static int fail(const char *what, const char *detail)
{
    fprintf(stderr, "imgload: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return -1;
}

/* The version string of undefined dynamic symbol i, or NULL. */
static const char *sym_version(img *m, size_t i)
{
    if (!m->versym || !m->verneed) return NULL;
    ElfW(Half) v = m->versym[i] & 0x7fff;
    if (v < 2) return NULL;
    const char *vn = (const char *)m->verneed;
    for (;;) {
        const ElfW(Verneed) *n = (const void *)vn;
        const char *va = vn + n->vn_aux;
        for (unsigned k = 0; k < n->vn_cnt; k++) {
            const ElfW(Vernaux) *a = (const void *)va;
            if (a->vna_other == v) return m->strtab + a->vna_name;
            va += a->vna_next;
        }
        if (!n->vn_next) return NULL;
        vn += n->vn_next;
    }
}

static int resolve(img *m, size_t i, uintptr_t *out)
{
    const ElfW(Sym) *s = &m->symtab[i];
    const char *name = m->strtab + s->st_name;
    if (s->st_shndx != SHN_UNDEF) { /* defined here: this copy (link with -Bsymbolic so these are rare) */
        *out = m->base + s->st_value;
        return 0;
    }
    for (size_t h = 0; h < sizeof hooks / sizeof hooks[0]; h++)
        if (!strcmp(name, hooks[h].name)) return *out = (uintptr_t)hooks[h].fn, 0;
    const char *ver = sym_version(m, i);
    void *p = ver ? dlvsym(RTLD_DEFAULT, name, ver) : dlsym(RTLD_DEFAULT, name);
    if (!p && ELF64_ST_BIND(s->st_info) != STB_WEAK) return fail("undefined symbol", name);
    *out = (uintptr_t)p;
    return 0;
}

static int relocate(img *m, const ElfW(Rela) *r, size_t n)
{
    for (size_t k = 0; k < n; k++, r++) {
        uintptr_t *where = (uintptr_t *)(m->base + r->r_offset), s = 0;
        size_t si = ELF64_R_SYM(r->r_info);
        switch (ELF64_R_TYPE(r->r_info)) {
        case R_X86_64_NONE: break;
        case R_X86_64_RELATIVE: *where = m->base + r->r_addend; m->nrel++; break;
        case R_X86_64_64: if (resolve(m, si, &s)) return -1; *where = s + r->r_addend; m->nsym++; break;
        case R_X86_64_GLOB_DAT:
        case R_X86_64_JUMP_SLOT: if (resolve(m, si, &s)) return -1; *where = s; m->nsym++; break;
        case R_X86_64_IRELATIVE: *where = ((uintptr_t(*)(void))(m->base + r->r_addend))(); break;
        case R_X86_64_DTPMOD64: /* only this image's own TLS can be privatized */
            if (si && m->symtab[si].st_shndx == SHN_UNDEF)
                return fail("thread_local defined in a shared library", m->strtab + m->symtab[si].st_name);
            *where = (uintptr_t)m->tls; break;
        case R_X86_64_DTPOFF64: *where = (si ? m->symtab[si].st_value : 0) + r->r_addend; break;
        case R_X86_64_TPOFF64: return fail("initial-exec TLS access in the program (static TLS cannot be "
                                           "privatized per rank): rebuild without -ftls-model=initial-exec", NULL);
        case R_X86_64_TLSDESC: return fail("TLS descriptors (-mtls-dialect=gnu2) not supported", NULL);
        case R_X86_64_COPY: return fail("copy relocation (object built as an executable?)", NULL);
        default: { char b[32]; snprintf(b, sizeof b, "type %lu", (unsigned long)ELF64_R_TYPE(r->r_info));
                   return fail("unsupported relocation", b); }
        }
    }
    return 0;
}

int img_load(img *m, const char *path, uintptr_t base)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return fail("cannot open", path);
    ElfW(Ehdr) eh;
    if (pread(fd, &eh, sizeof eh, 0) != sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_type != ET_DYN ||
        eh.e_machine != EM_X86_64)
        return close(fd), fail("not an x86-64 ET_DYN object", path);
    ElfW(Phdr) ph[64];
    if (eh.e_phnum > 64 || pread(fd, ph, eh.e_phnum * sizeof *ph, eh.e_phoff) != (ssize_t)(eh.e_phnum * sizeof *ph))
        return close(fd), fail("bad program headers", path);
    m->base = base;
    const ElfW(Phdr) *dynph = NULL, *tlsph = NULL, *relro = NULL;
    for (int i = 0; i < eh.e_phnum; i++) {
        const ElfW(Phdr) *p = &ph[i];
        if (p->p_type == PT_DYNAMIC) dynph = p;
        if (p->p_type == PT_TLS) tlsph = p;
        if (p->p_type == PT_GNU_RELRO) relro = p;
        if (p->p_type != PT_LOAD) continue;
        uintptr_t va = base + p->p_vaddr, fend = va + p->p_filesz, mend = va + p->p_memsz;
        /* read-only segments get their final protection at once (no text relocations: tools such as valgrind
         * read the debug information when an executable mapping of the file appears) */
        int prot = p->p_flags & PF_W ? PROT_READ | PROT_WRITE : PROT_READ | (p->p_flags & PF_X ? PROT_EXEC : 0);
        if (p->p_filesz && mmap((void *)DN(va), fend - DN(va), prot, MAP_PRIVATE | MAP_FIXED, fd, DN(p->p_offset)) == MAP_FAILED)
            return close(fd), fail("mmap of a segment failed", path);
        if (mend > fend) { /* .bss: zero the rest of the last file page, anonymous pages after it */
            if (fend & (PG - 1)) memset((void *)fend, 0, UP(fend) - fend);
            if (mend > UP(fend) && mmap((void *)UP(fend), UP(mend) - UP(fend), prot,
                                        MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
                return close(fd), fail("mmap of .bss failed", path);
        }
        if (mend > m->end) m->end = UP(mend);
    }
    close(fd);
    if (!dynph) return fail("no dynamic section", path);
    if (tlsph) { /* the copy's thread_local block: initialized image + zeros (in vmpi: in the slot) */
        m->tls = aligned_alloc(tlsph->p_align > 16 ? tlsph->p_align : 16, UP(tlsph->p_memsz));
        memcpy(m->tls, (void *)(base + tlsph->p_vaddr), tlsph->p_filesz);
        memset((char *)m->tls + tlsph->p_filesz, 0, tlsph->p_memsz - tlsph->p_filesz);
    }
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    size_t relasz = 0, jmprelsz = 0;
    const ElfW(Dyn) *dyn = (void *)(base + dynph->p_vaddr);
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_STRTAB) m->strtab = (void *)(base + d->d_un.d_ptr);
    /* shared libraries the program needs are loaded once into the global scope: they stay shared */
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_NEEDED && !dlopen(m->strtab + d->d_un.d_val, RTLD_NOW | RTLD_GLOBAL))
            return fail("cannot load a needed library", dlerror());
    for (const ElfW(Dyn) *d = dyn; d->d_tag != DT_NULL; d++) {
        uintptr_t a = base + d->d_un.d_ptr;
        switch (d->d_tag) {
        case DT_SYMTAB: m->symtab = (void *)a; break;
        case DT_STRTAB: m->strtab = (void *)a; break;
        case DT_RELA: rela = (void *)a; break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_JMPREL: jmprel = (void *)a; break;
        case DT_PLTRELSZ: jmprelsz = d->d_un.d_val; break;
        case DT_INIT: m->init = (void *)a; break;
        case DT_INIT_ARRAY: m->init_array = (void *)a; break;
        case DT_INIT_ARRAYSZ: m->ninit = d->d_un.d_val / sizeof(void *); break;
        case DT_FINI_ARRAY: m->fini_array = (void *)a; break;
        case DT_FINI_ARRAYSZ: m->nfini = d->d_un.d_val / sizeof(void *); break;
        case DT_VERSYM: m->versym = (void *)a; break;
        case DT_VERNEED: m->verneed = (void *)a; break;
        case DT_GNU_HASH: m->gnu_hash = (void *)a; break;
        case DT_FLAGS: if (d->d_un.d_val & DF_STATIC_TLS) return fail("program uses static TLS (DF_STATIC_TLS)", NULL); break;
        }
    }
    if (relocate(m, rela, relasz / sizeof *rela) || relocate(m, jmprel, jmprelsz / sizeof *jmprel)) return -1;
    /* final protections: text r-x, rodata r--, RELRO r--, data rw- */
    for (int i = 0; i < eh.e_phnum; i++) {
        const ElfW(Phdr) *p = &ph[i];
        if (p->p_type != PT_LOAD) continue;
        int prot = (p->p_flags & PF_R ? PROT_READ : 0) | (p->p_flags & PF_W ? PROT_WRITE : 0) | (p->p_flags & PF_X ? PROT_EXEC : 0);
        mprotect((void *)DN(base + p->p_vaddr), UP(base + p->p_vaddr + p->p_memsz) - DN(base + p->p_vaddr), prot);
    }
    /* C++ exceptions: glibc's _dl_find_object and dl_iterate_phdr do not know this copy, so the unwinder
     * must be told where its .eh_frame is (libgcc keeps registered objects ahead of the loader's list) */
    for (int i = 0; i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_GNU_EH_FRAME) {
            const unsigned char *hdr = (const void *)(base + ph[i].p_vaddr);
            if (hdr[0] != 1 || hdr[1] != 0x1b) return fail(".eh_frame_hdr with an unexpected encoding", NULL);
            const char *ehf = (const char *)(hdr + 4) + *(const int32_t *)(hdr + 4); /* pcrel|sdata4 */
            extern void __register_frame_info(const void *, void *);
            m->eh_object = calloc(1, 64); /* libgcc's struct object: 6 words on x86-64 */
            __register_frame_info(ehf, m->eh_object);
        }
    /* LeakSanitizer scans the data of the objects it knows for pointers; tell it about this copy's */
    void (*lsan_root)(const void *, size_t) = (void (*)(const void *, size_t))dlsym(RTLD_DEFAULT, "__lsan_register_root_region");
    for (int i = 0; lsan_root && i < eh.e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_W)) lsan_root((void *)(base + ph[i].p_vaddr), ph[i].p_memsz);
    if (relro) mprotect((void *)DN(base + relro->p_vaddr), DN(base + relro->p_vaddr + relro->p_memsz) - DN(base + relro->p_vaddr), PROT_READ);
    return 0;
}

/* Runs the copy's constructors (in vmpi: on the rank's stack, with its heap current). */
void img_init(img *m, int argc, char **argv, char **envp)
{
    cur_img = m;
    if (m->init) m->init();
    for (size_t i = 0; i < m->ninit; i++) ((void (*)(int, char **, char **))m->init_array[i])(argc, argv, envp);
    cur_img = NULL;
}

/* Destructors: registered ones in reverse order, then the fini array (as exit() does). */
void img_fini(img *m)
{
    cur_img = m; /* destructors may register more */
    while (m->ndtor > 0) { m->ndtor--; m->dtor[m->ndtor].fn(m->dtor[m->ndtor].arg); }
    for (size_t i = m->nfini; i-- > 0;) ((void (*)(void))m->fini_array[i])();
    cur_img = NULL;
}

void *img_sym(img *m, const char *name)
{ /* linear scan of the dynamic symbols up to the GNU hash table's count (enough for a prototype) */
    const uint32_t *h = m->gnu_hash;
    uint32_t nb = h[0], symoff = h[1], bloom = h[2];
    const uint32_t *buckets = (const uint32_t *)((const uintptr_t *)(h + 4) + bloom), *chain = buckets + nb;
    uint32_t last = 0;
    for (uint32_t b = 0; b < nb; b++) if (buckets[b] > last) last = buckets[b];
    if (last) while (!(chain[last - symoff] & 1)) last++;
    for (uint32_t i = 1; i <= last; i++)
        if (m->symtab[i].st_shndx != SHN_UNDEF && !strcmp(m->strtab + m->symtab[i].st_name, name))
            return (void *)(m->base + m->symtab[i].st_value);
    return NULL;
}
