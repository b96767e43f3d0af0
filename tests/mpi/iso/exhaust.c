/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank that fills its isomalloc slot (the testlist gives it a small one: VMPI_ISO_SLOT_SIZE=8M): malloc and
 * calloc return NULL with errno ENOMEM (the runtime warns, naming the rank and --iso-slot-size), realloc
 * leaves the block alone; after the rank frees its blocks, allocation and MPI work again.  Not meaningful in
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
    for (int i = 0; i < n; i++)
        free(b[i]);
    void *again = malloc(BLK);
    MT_CHECK(errs, again != NULL, "malloc after freeing: NULL");
    free(again);
    return mt_finish(errs);
}
