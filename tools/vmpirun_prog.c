/* SPDX-License-Identifier: BSD-3-Clause */
/* What vmpirun is asked to start: a vmpi program is one the wrappers linked, whose start object calls
 * vmpi_boot (vmpi_boot_image for an image) in place of main: its dynamic symbol table has that undefined
 * symbol.  Anything else would run once, with -n ignored (or stop in MPI_Init if it uses libvmpi without
 * the wrappers), so vmpirun refuses it, unless it is a tool that starts a vmpi program named among its
 * arguments (env, time, valgrind, gdb --args, perf, numactl, sh -c ./app...).  A script is refused too: what
 * it starts cannot be known (the runtime's settings are environment variables: VMPI_NRANKS=8 ./script.sh
 * runs its vmpi programs with 8 ranks). */
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "vmpirun.h"

/* Like execvp: a name with a slash is a path, else the first executable file of that name in PATH. */
static bool find(const char *name, char *out, size_t len)
{
    struct stat st;
    if (strchr(name, '/')) {
        snprintf(out, len, "%s", name);
        return stat(out, &st) == 0 && S_ISREG(st.st_mode);
    }
    const char *path = getenv("PATH");
    if (path == NULL)
        path = "/usr/local/bin:/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(out, len, "%.*s%s%s", (int)n, p, n ? "/" : "", name);
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return true;
        if (end == NULL)
            return false;
        p = end;
    }
}

static bool read_at(int fd, void *buf, size_t n, off_t off) { return pread(fd, buf, n, off) == (ssize_t)n; }

/* Reads a section of the file, NULL if it does not fit. */
static void *section(int fd, const Elf64_Shdr *sh, off_t size)
{
    if (sh->sh_offset > (Elf64_Off)size || sh->sh_size > (Elf64_Off)size - sh->sh_offset || sh->sh_size > (64u << 20))
        return NULL;
    void *p = malloc(sh->sh_size ? sh->sh_size : 1);
    if (p && !read_at(fd, p, sh->sh_size, (off_t)sh->sh_offset)) {
        free(p);
        p = NULL;
    }
    return p;
}

static bool named(const char *strtab, size_t strsz, uint64_t off, const char *want)
{
    return off < strsz && strncmp(strtab + off, want, strsz - off) == 0;
}

/* Whether the symbol table of section i shows the start object: __wrap_main defined, or vmpi_boot (an
 * executable) or vmpi_boot_image (an image) undefined, to be found in libvmpi. */
static bool starts_vmpi(int fd, off_t size, const Elf64_Shdr *sh, int i)
{
    char *str = section(fd, &sh[sh[i].sh_link], size);
    const Elf64_Sym *s = section(fd, &sh[i], size);
    size_t strsz = sh[sh[i].sh_link].sh_size;
    bool yes = false;
    for (size_t k = 0; str && s && k < sh[i].sh_size / sizeof *s && !yes; k++) {
        bool undef = s[k].st_shndx == SHN_UNDEF;
        yes = (!undef && named(str, strsz, s[k].st_name, "__wrap_main")) ||
              (undef && (named(str, strsz, s[k].st_name, "vmpi_boot") || named(str, strsz, s[k].st_name, "vmpi_boot_image")));
    }
    free(str);
    free((void *)s);
    return yes;
}

/* Whether the dynamic section (section i) names libvmpi among the libraries it needs. */
static bool needs_libvmpi(int fd, off_t size, const Elf64_Shdr *sh, int i)
{
    char *str = section(fd, &sh[sh[i].sh_link], size);
    const Elf64_Dyn *d = section(fd, &sh[i], size);
    size_t strsz = sh[sh[i].sh_link].sh_size;
    bool yes = false;
    for (size_t k = 0; str && d && k < sh[i].sh_size / sizeof *d && d[k].d_tag != DT_NULL; k++)
        if (d[k].d_tag == DT_NEEDED && d[k].d_un.d_val < strsz && strncmp(str + d[k].d_un.d_val, "libvmpi.so", 10) == 0)
            yes = true;
    free(str);
    free((void *)d);
    return yes;
}

/* An ELF file: whether it was linked with the start object (a vmpi program), else whether it needs libvmpi.
 * The dynamic symbol table tells for what the wrappers link; the full one (when not stripped) for programs
 * that link libvmpi's objects themselves (tests/unit). */
static vmpirun_kind elf_kind(int fd, off_t size)
{
    Elf64_Ehdr eh;
    if (!read_at(fd, &eh, sizeof eh, 0) || eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr))
        return VMPIRUN_UNKNOWN;
    if (eh.e_shnum == 0 || eh.e_shoff > (Elf64_Off)size ||
        (Elf64_Off)eh.e_shnum * sizeof(Elf64_Shdr) > (Elf64_Off)size - eh.e_shoff)
        return VMPIRUN_UNKNOWN; /* no section headers (stripped of them): cannot tell */
    Elf64_Shdr *sh = malloc(eh.e_shnum * sizeof *sh);
    if (sh == NULL || !read_at(fd, sh, eh.e_shnum * sizeof *sh, (off_t)eh.e_shoff)) {
        free(sh);
        return VMPIRUN_UNKNOWN;
    }
    bool boots = false, needs = false;
    for (unsigned pass = 0; pass < 2 && !boots; pass++)
        for (int i = 0; i < eh.e_shnum && !boots; i++) {
            if (sh[i].sh_link >= eh.e_shnum)
                continue;
            if (sh[i].sh_type == (pass ? SHT_SYMTAB : SHT_DYNSYM))
                boots = starts_vmpi(fd, size, sh, i);
            else if (pass == 0 && sh[i].sh_type == SHT_DYNAMIC)
                needs = needs_libvmpi(fd, size, sh, i);
        }
    free(sh);
    return boots ? VMPIRUN_VMPI : needs ? VMPIRUN_LIBVMPI : VMPIRUN_OTHER;
}

/* The kind of the file `name` (found as execvp would), and its path in `path`. */
static vmpirun_kind kind_of(const char *name, char *path, size_t len, int depth)
{
    if (!find(name, path, len))
        return VMPIRUN_UNKNOWN; /* execvp will say what is wrong */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (fd >= 0)
            close(fd);
        return VMPIRUN_UNKNOWN;
    }
    char head[256] = "";
    ssize_t n = pread(fd, head, sizeof head - 1, 0);
    vmpirun_kind k = VMPIRUN_UNKNOWN;
    if (n >= 4 && memcmp(head, ELFMAG, SELFMAG) == 0) {
        k = elf_kind(fd, st.st_size);
    } else if (n >= 2 && head[0] == '#' && head[1] == '!' && depth < 4) {
        /* a script: its interpreter decides (#!/usr/bin/env NAME: NAME) */
        head[n] = '\0';
        char *line = head + 2, *save = NULL;
        line[strcspn(line, "\n")] = '\0';
        char *interp = strtok_r(line, " \t", &save), *arg = strtok_r(NULL, " \t", &save);
        if (interp && arg && strcmp(strrchr(interp, '/') ? strrchr(interp, '/') + 1 : interp, "env") == 0) {
            while (arg && arg[0] == '-') /* env -S, env -i ... */
                arg = strtok_r(NULL, " \t", &save);
            interp = arg;
        }
        char ipath[4096];
        if (interp && kind_of(interp, ipath, sizeof ipath, depth + 1) != VMPIRUN_UNKNOWN)
            k = VMPIRUN_OTHER; /* a script (of a shell, python...): not a vmpi program itself */
    }
    close(fd);
    return k;
}

vmpirun_kind vmpirun_check(int argc, char **argv, char *path, size_t len)
{
    vmpirun_kind k = kind_of(argv[0], path, len, 0);
    if (k != VMPIRUN_OTHER && k != VMPIRUN_LIBVMPI)
        return k;
    /* a tool starting a vmpi program given among its arguments */
    char other[4096];
    for (int i = 1; i < argc; i++)
        if (argv[i][0] != '-' && kind_of(argv[i], other, sizeof other, 0) == VMPIRUN_VMPI)
            return VMPIRUN_VMPI;
    return k;
}
