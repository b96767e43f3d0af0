/* SPDX-License-Identifier: BSD-3-Clause */
/* Strided transfers within the process's own block whose source and destination segments overlap (each
 * segment with its own copy only: memmove semantics per segment, as ARMCI_Put gives a contiguous one):
 * ARMCI_PutS and ARMCI_GetS with the destination 1 byte above and 3 bytes below the source, segments of 8
 * (copied in registers) and 200 bytes, 1 and 2 levels, checked byte by byte against per-segment memmove.
 * (A memcpy there is undefined behaviour, which the sanitizer build reports.) */
#include "armci_test.h"

enum { BLOCK = 1 << 16, BASE = 1024 };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned char **p = mt_malloc(sizeof(char *) * (size_t)size), *ref = mt_malloc(BLOCK);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)p, BLOCK));
    unsigned char *me = p[rank];
    static const int seg[2] = {8, 200}, shift[2] = {1, -3};
    for (int s = 0; s < 2; s++)
        for (int d = 0; d < 2; d++)
            for (int levels = 1; levels <= 2; levels++)
                for (int get = 0; get < 2; get++) {
                    at_migrate();
                    for (int i = 0; i < BLOCK; i++)
                        me[i] = (unsigned char)(i * 7 + rank + s);
                    memcpy(ref, me, BLOCK);
                    int count[3] = {seg[s], 5, 3}, stride[2] = {256, 256 * 5 + 64};
                    long n = at_nseg(levels, count);
                    for (long k = 0; k < n; k++) {
                        long off = BASE + at_seg_off(levels, count, stride, k);
                        memmove(ref + off + shift[d], ref + off, (size_t)seg[s]);
                    }
                    unsigned char *src = me + BASE, *dst = me + BASE + shift[d];
                    int rc = get ? ARMCI_GetS(src, stride, dst, stride, count, levels, rank)
                                 : ARMCI_PutS(src, stride, dst, stride, count, levels, rank);
                    char what[96];
                    snprintf(what, sizeof what, "%s of %d-byte segments, shift %d, %d levels", get ? "GetS" : "PutS",
                             seg[s], shift[d], levels);
                    MT_CHECK_INT(errs, what, 0, rc);
                    AT_CMP(errs, what, ref, me, BLOCK);
                }
    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(me));
    free(ref);
    free(p);
    return at_finish(errs);
}
