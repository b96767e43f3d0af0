/* SPDX-License-Identifier: BSD-3-Clause */
/* vmpi-mkimage IMAGE: the last step of linking a program with privatized globals (vmpicc, vmpi_program()).
 *
 * The program is linked -shared so that libvmpi can load one copy of it per rank (src/img/), but it also
 * runs as the executable, and ld gives a shared object no DT_DEBUG entry: without one, ld.so has nowhere to
 * publish its list of loaded libraries and gdb sees none of them.  This turns the first of ld's spare
 * DT_NULL slots into DT_DEBUG.  It also refuses, at build time, what a copy could never handle (libvmpi
 * checks again at start-up): initial-exec thread_local accesses and text relocations. */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *prog;

static int refuse(const char *what)
{
    fprintf(stderr, "vmpi-mkimage: %s: the program cannot be privatized: %s; use the default TLS model and -fPIC "
                    "(vmpicc does), or link with -privatize=none\n", prog, what);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: vmpi-mkimage IMAGE\n");
        return 2;
    }
    prog = argv[1];
    int fd = open(prog, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(prog);
        return 1;
    }
    unsigned char *f = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (f == MAP_FAILED) {
        perror(prog);
        return 1;
    }
    Elf64_Ehdr *eh = (Elf64_Ehdr *)f;
    if ((size_t)st.st_size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_machine != EM_X86_64 || eh->e_type != ET_DYN ||
        eh->e_phoff + (size_t)eh->e_phnum * sizeof(Elf64_Phdr) > (size_t)st.st_size) {
        fprintf(stderr, "vmpi-mkimage: %s is not an x86-64 ELF shared object\n", prog);
        return 1;
    }
    Elf64_Phdr *ph = (Elf64_Phdr *)(f + eh->e_phoff);
    Elf64_Dyn *dyn = NULL;
    size_t ndyn = 0;
    for (int i = 0; i < eh->e_phnum; i++)
        if (ph[i].p_type == PT_DYNAMIC && ph[i].p_offset + ph[i].p_filesz <= (size_t)st.st_size) {
            dyn = (Elf64_Dyn *)(f + ph[i].p_offset);
            ndyn = ph[i].p_filesz / sizeof *dyn;
        }
    if (dyn == NULL) {
        fprintf(stderr, "vmpi-mkimage: %s has no dynamic section\n", prog);
        return 1;
    }
    size_t end = ndyn, i;
    for (i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        if (dyn[i].d_tag == DT_TEXTREL)
            return refuse("text relocations (an object or static library not compiled with -fPIC)");
        if (dyn[i].d_tag == DT_FLAGS && (dyn[i].d_un.d_val & DF_STATIC_TLS))
            return refuse("initial-exec thread_local accesses (static TLS)");
        if (dyn[i].d_tag == DT_FLAGS && (dyn[i].d_un.d_val & DF_TEXTREL))
            return refuse("text relocations (an object or static library not compiled with -fPIC)");
        if (dyn[i].d_tag == DT_DEBUG)
            end = 0;
    }
    if (end != 0) { /* no DT_DEBUG yet: the terminator becomes one if a spare DT_NULL follows it */
        if (i + 1 >= ndyn || dyn[i + 1].d_tag != DT_NULL) {
            fprintf(stderr, "vmpi-mkimage: %s: no spare slot in its dynamic section (linked with "
                            "--spare-dynamic-tags=0?); debuggers will not see its libraries\n", prog);
        } else {
            dyn[i].d_tag = DT_DEBUG;
            dyn[i].d_un.d_val = 0;
        }
    }
    if (msync(f, (size_t)st.st_size, MS_SYNC) != 0) {
        perror(prog);
        return 1;
    }
    return 0;
}
