/* SPDX-License-Identifier: BSD-3-Clause */
/* Privatization of the program's globals.  A program built by the wrappers with -privatize=auto or tls is
 * linked as a position-independent image that also runs as the executable (see src/start/start.c).  The
 * process's own copy of it only boots vmpi: its constructors never run and its destructors are disabled.
 * The ranks run in copies made by this layer's loader from the same file:
 *
 *   auto  every rank gets a whole copy of the image in its isomalloc slot: code mapped from the file (its
 *         pages shared by all copies), data copy-on-write, .bss and the thread_local block private.  All of
 *         the program's globals, statics, C++ static members and thread_locals are then per rank, and move
 *         with the slot.
 *   tls   one copy for the process; only the image's thread_local block is per rank, in its slot.  The
 *         copy's calls to __tls_get_addr find the running rank's block through the current slot the scheduler
 *         sets at every switch: nothing is added to a switch.
 *
 * Relocations are applied from the image's own tables (exact, no pointer scanning), undefined symbols are
 * resolved once in the process's global scope (libc, libstdc++, libgfortran and libvmpi stay shared), and a
 * few are bound to the functions of hooks.c and to libc.c's, which give each rank its own state of the C
 * library's rand, random, drand48, strtok and (auto) getopt families.  Constructors run per copy on the
 * rank's stack with its heap current, destructors (fini array, atexit, C++ and thread_local destructors)
 * when the rank exits. */
#ifndef VMPI_IMG_IMG_H
#define VMPI_IMG_IMG_H

#include <link.h>
#include <stdbool.h>
#include "iso/heap.h"
#include "iso/iso.h"

typedef int (*vmpi_img_main_fn)(int, char **, char **);

typedef enum { VMPI_PRIV_NONE, VMPI_PRIV_AUTO, VMPI_PRIV_TLS } vmpi_priv_method;

/* Reads the running program's image (the executable, built as an image; `main` is its main in the process's
 * copy), checks that every relocation can be applied per copy and resolves its undefined symbols.  Anything
 * that cannot be privatized is a fatal error naming it.  `nranks` checks the mappings all copies need
 * against vm.max_map_count.  tls: also loads the process's one copy into the job heap and runs its
 * constructors (with the program's arguments) with the job heap current, so that the copy's globals and
 * what they point to are saved with a checkpoint; `restart`: not the constructors (a restart puts back
 * what they made). */
void vmpi_img_open(vmpi_priv_method m, vmpi_img_main_fn main, int nranks, int argc, char **argv, bool restart);
/* The method of the running program (NONE when it was not built as an image). */
vmpi_priv_method vmpi_img_method(void);
const char *vmpi_img_method_name(vmpi_priv_method m);

/* On the rank's own stack, its slot's heap current: maps and relocates the rank's copy (auto) or makes its
 * thread_local block (tls); from then on vmpi_img_rank_addr finds the copy's globals.  Then
 * vmpi_img_rank_construct runs the copy's constructors and returns the main the rank runs. */
void vmpi_img_rank_make(vmpi_iso_heap *h);
vmpi_img_main_fn vmpi_img_rank_construct(vmpi_iso_heap *h, int argc, char **argv, char **envp);
/* On the rank, when it exits: its destructors, last registered first, then the copy's fini array.  Once. */
void vmpi_img_rank_exit(vmpi_iso_heap *h);
/* The running rank's copy of the process's global at `p`: where a library's reference to a symbol of the program
 * was resolved is the process's copy (the Fortran sentinels' COMMON block, which the Fortran layer looks for when
 * a rank starts and keeps in the rank); `p` itself outside the program's image, without privatization or outside
 * a rank.  Inline: a few loads.  (A copy's img record begins with its base: image.h.) */
extern uintptr_t vmpi_img_proc_base_;
extern size_t vmpi_img_span_;
static inline const void *vmpi_img_rank_addr(const void *p)
{
    const vmpi_iso_heap *h = vmpi_iso_cur_;
    if (h == NULL || h->img == NULL)
        return p;
    uintptr_t off = (uintptr_t)p - vmpi_img_proc_base_;
    return off < vmpi_img_span_ ? (const void *)(*(const uintptr_t *)h->img + off) : p;
}
/* Checkpoints: the parts of the rank's copy (slot `h`) mapped read-only from the program file (its code and
 * constants), which a checkpoint need not write: at most `max` ranges in `out`, in address order; their
 * number. */
int vmpi_img_file_ranges(const vmpi_iso_heap *h, vmpi_iso_extent *out, int max);
/* The used parts of slot `h` (iso's extents; `sp` the rank's saved stack pointer, NULL for the job heap) less
 * those file ranges: what a checkpoint writes of a slot and a move to another process sends. */
void vmpi_img_each_saved_part(const vmpi_iso_heap *h, const void *sp, vmpi_iso_extent_fn fn, void *arg);
/* Restart: the rank's slot is back; maps those parts from the file again and registers the copy's frames
 * with the unwinder.  For the job heap (tls: the process's copy is there), the code only (its frames were
 * registered when it was loaded). */
void vmpi_img_rank_restored(vmpi_iso_heap *h);
/* The rank of slot `h` moves to another process (its slot is then vacated): the unwinder forgets its copy's
 * frames, which vmpi_img_rank_restored registers again there. */
void vmpi_img_rank_leaving(vmpi_iso_heap *h);
/* Restart, once the ranks are back and stdout is set up, before any runs: redoes what the constructors of the
 * copies did to the process's libraries, which a restart does not run again: the C++ standard streams
 * (before GCC 13, libstdc++ builds std::cout and the others only in the constructor of a program's
 * std::ios_base::Init object, which <iostream> puts in every file that includes it). */
void vmpi_img_restarted(void);
/* The number of mutable globals and statics in the running program's symbol table and their total size
 * (0 when it has none or no symbol table): what ranks share with -privatize=none. */
size_t vmpi_img_shared_globals(size_t *bytes);
/* At the end of the job, after every rank: destructors of the process's copy (tls). */
void vmpi_img_close(void);

#endif
