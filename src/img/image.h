/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside the img layer: what is known of the program image once (image.c) and what each rank's copy
 * holds (copy.c).  A copy at `base` is the file's segments at base + p_vaddr, relocated by `rel`. */
#ifndef VMPI_IMG_IMAGE_H
#define VMPI_IMG_IMAGE_H

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include "img/img.h"

/* A relocation reduced to what differs between copies: the word at base + off becomes ... */
enum {
    REL_BASE,  /* base + val (relative, and symbols the image defines) */
    REL_ABS,   /* val (a symbol of a shared library, or a hook) */
    REL_IFUNC, /* the result of the copy's resolver at base + val */
    REL_TLSMOD, /* the copy's thread_local block (auto), or IMG_TLS_CURRENT (tls) */
    REL_LIBC    /* the rank's record of C library state + val (auto: getopt's globals, libc.h) */
};
typedef struct img_rel {
    uint64_t off, val;
} img_rel;
#define IMG_REL_KIND(r) ((unsigned)((r).off >> 60))
#define IMG_REL_OFF(r) ((r).off & ((1ull << 60) - 1))

/* The module id a tls-method copy's tls_index holds: "the running rank's block" (real ids are small). */
#define IMG_TLS_CURRENT ((uintptr_t)0x7fff0001)

typedef struct img_dtor {
    void (*fn)(void *);
    void *arg;
} img_dtor;

/* A rank's copy, allocated at the bottom of its slot (or the process's, for the tls method's one copy). */
typedef struct img_rank {
    uintptr_t base; /* first: vmpi_img_rank_addr (img.h) reads it */
    char *tls;            /* its thread_local block */
    img_dtor *dtor;       /* atexit, C++ and thread_local destructors, in registration order */
    struct img_libc *libc; /* the C library's hidden state, per rank (libc.h), when the program uses it */
    int ndtor, cap;
    bool started, exited;
    bool proc;            /* the process's record: its arrays come from the system allocator */
    bool copy;            /* it has a copy of the image of its own (auto, and tls's shared one) */
    uintptr_t eh_object[8]; /* libgcc's struct object (6 words) for its frames: the unwinder keeps it */
} img_rank;

typedef struct img_image {
    vmpi_priv_method method;
    int fd;                         /* the program file, kept open: every copy maps from it */
    uintptr_t proc_base;            /* where ld.so put the process's copy */
    const ElfW(Phdr) *ph;
    int nph;
    size_t span, align;             /* virtual size and alignment of a copy */
    uintptr_t main_off;
    img_rel *rel;
    size_t nrel;
    uintptr_t init, init_array, fini_array; /* offsets, 0 if absent */
    size_t ninit, nfini;
    uintptr_t eh_frame_hdr;         /* offset of PT_GNU_EH_FRAME, 0 if absent */
    uintptr_t tls_off;              /* PT_TLS: its initialization image's offset, sizes, alignment */
    size_t tls_filesz, tls_memsz, tls_align;
    bool has_tls;
    bool unwinds;                   /* it refers to a personality routine: exceptions or cleanups unwind it */
    bool uses_libc;                 /* some of its symbols are bound to libc.h's per-rank state */
    void (*register_frame)(const void *, void *);
    void *(*deregister_frame)(const void *);
    void (*lsan_root)(const void *, size_t);
    img_rank shared;                /* tls: the process's one copy and its destructors */
} img_image;

extern img_image vmpi_img_;

/* copy.c: maps the image's segments at `base` (room reserved by the caller) and applies the relocations;
 * `tls` is the block DTPMOD64 words point at (auto) or NULL (tls: IMG_TLS_CURRENT); `libc` the rank's C
 * library state (auto; NULL for the tls method's one copy, which has no REL_LIBC). */
void vmpi_img_map(uintptr_t base);
void vmpi_img_relocate(uintptr_t base, const char *tls, const struct img_libc *libc);
/* Fills `r->tls` (room the caller gave it) from the relocated initialization image of the copy at `base`. */
void vmpi_img_tls_fill(const img_rank *r, uintptr_t base);
/* Registers the copy's frames (and LSan roots), then runs its constructors if `ctors`. */
void vmpi_img_run_ctors(img_rank *r, int argc, char **argv, char **envp, bool ctors);
void vmpi_img_run_dtors(img_rank *r);

/* hooks.c: the functions bound in place of some of the image's undefined symbols, or NULL. */
void *vmpi_img_hook(const char *name);

#endif
