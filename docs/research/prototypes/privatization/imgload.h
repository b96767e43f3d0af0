#ifndef IMGLOAD_H
#define IMGLOAD_H
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#define IMG_MAXDTOR 256
typedef struct img {
    uintptr_t base, end;
    const ElfW(Sym) *symtab;
    const char *strtab;
    const ElfW(Half) *versym;
    const void *verneed, *gnu_hash;
    void (*init)(void);
    uintptr_t *init_array, *fini_array;
    size_t ninit, nfini, nrel, nsym;
    void *tls, *eh_object;
    int ndtor;
    struct { void (*fn)(void *); void *arg; } dtor[IMG_MAXDTOR];
} img;
int img_load(img *m, const char *path, uintptr_t base);
void img_init(img *m, int argc, char **argv, char **envp);
void img_fini(img *m);
void img_enter(img *m);
void *img_sym(img *m, const char *name);
#endif
