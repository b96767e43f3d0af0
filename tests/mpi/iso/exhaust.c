/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank that fills its isomalloc slot (the testlist gives it a small one: VMPI_ISO_SLOT_SIZE=8M): malloc and
 * calloc return NULL with errno ENOMEM (the runtime warns, naming the rank and --iso-slot-size), realloc
 * leaves the block alone; printf of long lines still works with the slot full to the last byte (output is
 * buffered outside the slots); after the rank frees its blocks, allocation and MPI work again.  Not meaningful in
 * sanitizer builds, whose malloc is the sanitizer's (make test-asan leaves it out). */
#include <errno.h>
#include "mtest.h"

enum { BLK = 256 * 1024, MAXB = 64 };

int main(int argc, char **argv)
{
    int errs = 0, rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    void *b[MAXB];
    int n = 0;
    errno = 0;
    while (n < MAXB && (b[n] = malloc(BLK)) != NULL)
        n++;
    int e = errno;
    MT_CHECK(errs, n > 4 && n < MAXB, "an 8 MiB slot held %d blocks of 256 KiB", n);
    MT_CHECK_INT(errs, "errno of the failed malloc", ENOMEM, e);
    errno = 0;
    MT_CHECK(errs, calloc(1, BLK) == NULL && errno == ENOMEM, "calloc in a full slot: expected NULL, ENOMEM");
    char *small = n ? b[0] : NULL;
    if (small) {
        small[0] = 42;
        errno = 0;
        MT_CHECK(errs, realloc(small, 64 << 20) == NULL && errno == ENOMEM && small[0] == 42,
                 "realloc in a full slot: expected NULL, ENOMEM and the block unchanged");
    }
    /* the rest of the slot, in smaller and smaller blocks, then lines longer than any buffer so far */
    enum { MAXS = 4096 };
    void **rest = b[0] ? b[0] : NULL; /* the pointers live in the first block */
    int nrest = 0;
    for (size_t sz = BLK / 2; rest && sz >= 16 && nrest < MAXS; sz /= 2)
        while (nrest < MAXS && (rest[nrest] = malloc(sz)) != NULL)
            nrest++;
    char *line = rest ? (char *)b[1] : NULL; /* and the line in the second */
    if (line) {
        for (int len = 1000; len <= 64000; len *= 4) {
            memset(line, 'x', (size_t)len);
            line[len] = '\0';
            printf("rank %d, a line of %d bytes in a full slot: %s\n", rank, len, line);
            fprintf(stderr, "rank %d, a line of %d bytes to stderr: %s\n", rank, len, line);
        }
        fflush(stdout);
    }
    for (int i = 0; i < nrest; i++)
        free(rest[i]);
    for (int i = 0; i < n; i++)
        free(b[i]);
    void *again = malloc(BLK);
    MT_CHECK(errs, again != NULL, "malloc after freeing: NULL");
    free(again);
    return mt_finish(errs);
}
