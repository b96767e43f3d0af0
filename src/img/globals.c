/* SPDX-License-Identifier: BSD-3-Clause */
/* How much mutable state a program built with -privatize=none shares between its ranks: its symbol table's
 * objects in writable data (the count tools/vmpi-globals lists one by one). */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "base/sysmem.h"
#include "img/img.h"

static void *read_at(int fd, size_t len, off_t off)
{
    void *p = vmpi_sys_malloc(len ? len : 1);
    if (p && pread(fd, p, len, off) != (ssize_t)len) {
        vmpi_sys_free(p);
        p = NULL;
    }
    return p;
}

static bool writable_data(const char *name)
{
    return !strcmp(name, ".data") || !strcmp(name, ".bss") || !strcmp(name, ".tdata") || !strcmp(name, ".tbss");
}

/* The C runtime's and linker's own objects, and C library objects copied into the program (name@version). */
static bool runtime_object(const char *name)
{
    return strchr(name, '@') || !strcmp(name, "completed.0") || !strncmp(name, "__", 2);
}

size_t vmpi_img_shared_globals(size_t *bytes)
{
    size_t n = 0;
    *bytes = 0;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ElfW(Ehdr) eh;
    ElfW(Shdr) *sh = NULL;
    char *shstr = NULL, *str = NULL;
    ElfW(Sym) *sym = NULL;
    if (pread(fd, &eh, sizeof eh, 0) != sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) || !eh.e_shoff ||
        eh.e_shstrndx >= eh.e_shnum)
        goto out;
    sh = read_at(fd, (size_t)eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff);
    if (!sh || !(shstr = read_at(fd, sh[eh.e_shstrndx].sh_size, (off_t)sh[eh.e_shstrndx].sh_offset)))
        goto out;
    for (int i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum)
            continue;
        sym = read_at(fd, sh[i].sh_size, (off_t)sh[i].sh_offset);
        str = read_at(fd, sh[sh[i].sh_link].sh_size, (off_t)sh[sh[i].sh_link].sh_offset);
        if (!sym || !str)
            goto out;
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {
            const ElfW(Sym) *s = &sym[k];
            unsigned t = ELF64_ST_TYPE(s->st_info);
            if ((t != STT_OBJECT && t != STT_TLS) || !s->st_size || s->st_shndx == SHN_UNDEF ||
                s->st_shndx >= eh.e_shnum || !writable_data(shstr + sh[s->st_shndx].sh_name) ||
                runtime_object(str + s->st_name))
                continue;
            n++;
            *bytes += s->st_size;
        }
        break;
    }
out:
    vmpi_sys_free(sym);
    vmpi_sys_free(str);
    vmpi_sys_free(shstr);
    vmpi_sys_free(sh);
    close(fd);
    return n;
}
