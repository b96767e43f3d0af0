/* SPDX-License-Identifier: BSD-3-Clause */
/* Isomalloc slots seen from a program:
 *   - the rank's stack and every block of the malloc family (malloc, calloc, realloc, posix_memalign,
 *     aligned_alloc, memalign, valloc, strdup, a FILE from open_memstream) lie in the rank's own slot
 *     (MPIX_Iso_rank), with the alignment asked for and malloc_usable_size >= the size;
 *   - static data is in no slot, and no two ranks' blocks share a slot;
 *   - blocks sent as pointers to the next rank, which checks their contents and frees them (or reallocs
 *     them into its own slot first): memory allocated by one rank and freed by another;
 *   - after all that, a steady alloc/free loop still works and blocks keep landing in the own slot. */
#include <malloc.h>
#include <stdint.h>
#include "mtest.h"

enum { NBLK = 40 };

static int static_data;

static size_t blk_size(int i) { return (size_t)1 << (i % 22); } /* 1 B .. 2 MiB */

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int local = 0;
    MT_CHECK_INT(errs, "slot of a local variable", rank, MPIX_Iso_rank(&local));
    /* the program's globals are privatized (built with the default -privatize=auto): each rank's copy is
     * in its own slot, so it moves with the rank */
    MT_CHECK_INT(errs, "slot of static data", rank, MPIX_Iso_rank(&static_data));

    /* the whole family */
    void *p[10] = {0};
    p[0] = malloc(24);
    p[1] = calloc(100, 8);
    p[2] = realloc(malloc(10), 100000);
    MT_CHECK(errs, posix_memalign(&p[3], 256, 1000) == 0, "posix_memalign failed");
    p[4] = aligned_alloc(64, 640);
    p[5] = memalign(8192, 100);
    p[6] = valloc(5000);
    p[7] = strdup("isomalloc");
    size_t align[10] = {16, 16, 16, 256, 64, 8192, 4096, 1, 1, 1};
    size_t want[10] = {24, 800, 100000, 1000, 640, 100, 5000, 10, 1, 1};
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    fprintf(f, "rank %d writes a line long enough to make the stream allocate: %0100d\n", rank, rank);
    fclose(f);
    p[8] = text;
    p[9] = malloc(0);
    for (int i = 0; i < 10; i++) {
        MT_CHECK(errs, p[i] != NULL, "block %d is NULL", i);
        if (p[i] == NULL)
            continue;
        MT_CHECK_INT(errs, "slot of a block", MT_HEAP_SLOT(rank), MPIX_Iso_rank(p[i]));
        MT_CHECK(errs, ((uintptr_t)p[i] & (align[i] - 1)) == 0, "block %d at %p is not aligned to %zu", i, p[i],
                 align[i]);
        MT_CHECK(errs, malloc_usable_size(p[i]) >= want[i], "block %d: usable size %zu < %zu", i,
                 malloc_usable_size(p[i]), want[i]);
    }
    for (int i = 0; i < 800; i++)
        MT_CHECK(errs, ((char *)p[1])[i] == 0, "calloc'ed byte %d is %d", i, ((char *)p[1])[i]);
    for (int i = 0; i < 10; i++)
        free(p[i]);

    /* no two ranks in one slot: every rank's slot number, gathered, is its rank */
    void *mine = malloc(32);
    int slot = MPIX_Iso_rank(mine), *slots = mt_malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&slot, 1, MPI_INT, slots, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        MT_CHECK_INT(errs, "gathered slot", MT_HEAP_SLOT(r), slots[r]);
    free(slots);
    free(mine);

    /* blocks passed to the next rank as pointers, freed (or realloc'ed, then freed) there */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    uintptr_t out[NBLK], in[NBLK];
    for (int i = 0; i < NBLK; i++) {
        unsigned char *b = malloc(blk_size(i));
        mt_fill(b, blk_size(i), rank, i);
        out[i] = (uintptr_t)b;
    }
    MPI_Sendrecv(out, NBLK * (int)sizeof(uintptr_t), MPI_BYTE, next, 0, in, NBLK * (int)sizeof(uintptr_t), MPI_BYTE,
                 prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < NBLK; i++) {
        unsigned char *b = (unsigned char *)in[i];
        MT_CHECK_INT(errs, "slot of a received block", MT_HEAP_SLOT(prev), MPIX_Iso_rank(b));
        long bad = mt_verify(b, blk_size(i), prev, i);
        MT_CHECK(errs, bad < 0, "received block %d: byte %ld differs", i, bad);
        if (i % 3 == 0) { /* realloc moves another rank's block into the own slot */
            b = realloc(b, blk_size(i) + 100);
            MT_CHECK_INT(errs, "slot of a realloc'ed received block", MT_HEAP_SLOT(rank), MPIX_Iso_rank(b));
            bad = mt_verify(b, blk_size(i), prev, i);
            MT_CHECK(errs, bad < 0, "realloc'ed received block %d: byte %ld differs", i, bad);
        }
        free(b);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* a steady loop after the remote frees: blocks still in the own slot, contents kept */
    for (int k = 0; k < 2000; k++) {
        size_t n = (size_t)(k * 37 % 70000) + 1;
        unsigned char *b = malloc(n);
        if (MPIX_Iso_rank(b) != MT_HEAP_SLOT(rank)) {
            MT_ERR(errs, "loop block %d in slot %d", k, MPIX_Iso_rank(b));
            break;
        }
        b[0] = b[n - 1] = 7;
        free(b);
    }
    return mt_finish(errs);
}
