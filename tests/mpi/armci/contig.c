/* SPDX-License-Identifier: BSD-3-Clause */
/* Contiguous ARMCI_Put / ARMCI_Get of 0 B to 4 MiB, checked byte by byte:
 *   - sizes 0..4097 B to every rank (self included): each origin has its own region in every target's
 *     block, every target checks every region (and the bytes between them untouched), every origin reads its
 *     regions back with ARMCI_Get;
 *   - 64 KiB, 1 MiB + 3 and 4 MiB (with more than 16 ranks not 4 MiB, to keep the run short) to the right
 *     neighbour and to oneself (at odd offsets), each size with its own pattern so that stale data shows,
 *     read back with ARMCI_Get from the right neighbour and from the left one;
 *   - a put and a get whose local side is one's own ARMCI memory; ARMCI_Copy between local buffers;
 *   - vmpi: overlapping puts and gets within one's own block (memmove semantics). */
#include "armci_test.h"

static const int small[] = {0, 1, 2, 3, 7, 8, 13, 64, 100, 1000, 4096, 4097};
enum { NSMALL = sizeof small / sizeof small[0], REGION = 4100 + 12, BIG = 4 << 20 };
static const int big[] = {65536, (1 << 20) + 3, BIG};
enum { NBIG = sizeof big / sizeof big[0] };

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    /* the block: `size` regions of REGION bytes for the small transfers, then bmax + 16 bytes for the big ones
     * (from the left neighbour at offset 5), then bmax + 16 for my own (at offset 3) */
    const int nbig = size > 16 ? NBIG - 1 : NBIG, bmax = big[nbig - 1];
    long region_bytes = (long)size * REGION, big_off = region_bytes, self_off = big_off + bmax + 16;
    long bytes = self_off + bmax + 16;
    unsigned char **ptr = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc", 0, ARMCI_Malloc((void **)ptr, bytes));
    unsigned char *mine = ptr[rank], *src = mt_malloc((size_t)bmax + 16), *dst = mt_malloc((size_t)bmax + 16),
                  *exp = mt_malloc((size_t)bmax + 16);
    memset(mine, 0xA5, (size_t)bytes);
    ARMCI_Barrier();

    /* ---- small sizes to every rank: origin o's size s at target offset o*REGION + s-dependent 0..11 ---- */
    for (int j = 0; j < size; j++) {
        int t = (rank + j) % size;
        for (int k = 0; k < NSMALL; k++) {
            /* each size writes [k, k + s) of my region: later sizes overwrite the start of earlier ones */
            mt_fill(src, (size_t)small[k], rank, 10 + k);
            MT_CHECK_INT(errs, "ARMCI_Put (small)", 0,
                         ARMCI_Put(src, ptr[t] + (long)rank * REGION + k, small[k], t));
        }
    }
    ARMCI_Barrier();
    /* what origin o's region must hold: the sizes' patterns layered in order, 0xA5 elsewhere */
    for (int o = 0; o < size; o++) {
        memset(exp, 0xA5, REGION);
        for (int k = 0; k < NSMALL; k++)
            mt_fill(exp + k, (size_t)small[k], o, 10 + k);
        char what[80];
        snprintf(what, sizeof what, "region of origin %d after its small puts", o);
        AT_CMP(errs, what, exp, mine + (long)o * REGION, REGION);
    }
    /* read back my regions everywhere, with every small size */
    for (int j = 0; j < size; j++) {
        int t = (rank + j) % size;
        for (int k = 0; k < NSMALL; k++) {
            memset(dst, 0x5A, (size_t)small[k] + 1);
            MT_CHECK_INT(errs, "ARMCI_Get (small)", 0,
                         ARMCI_Get(ptr[t] + (long)rank * REGION + NSMALL - 1, dst, small[k], t));
            memset(exp, 0xA5, REGION);
            for (int m = 0; m < NSMALL; m++)
                mt_fill(exp + m, (size_t)small[m], rank, 10 + m);
            AT_CMP(errs, "ARMCI_Get (small)", exp + NSMALL - 1, dst, (size_t)small[k]);
            MT_CHECK_INT(errs, "byte after a small get", 0x5A, dst[small[k]]);
        }
    }
    ARMCI_Barrier();
    at_migrate();

    /* ---- big sizes: to the right neighbour (its big area), to myself (my self area), read back ---- */
    for (int k = 0; k < nbig; k++) {
        int n = big[k];
        mt_fill(src, (size_t)n, rank, 30 + k);
        MT_CHECK_INT(errs, "ARMCI_Put (big, right)", 0, ARMCI_Put(src, ptr[right] + big_off + 5, n, right));
        mt_fill(src, (size_t)n, rank, 40 + k);
        MT_CHECK_INT(errs, "ARMCI_Put (big, self)", 0, ARMCI_Put(src, ptr[rank] + self_off + 3, n, rank));
        ARMCI_Barrier();
        mt_fill(exp, (size_t)n, left, 30 + k);
        AT_CMP(errs, "big area after the left neighbour's put", exp, mine + big_off + 5, (size_t)n);
        mt_fill(exp, (size_t)n, rank, 40 + k);
        AT_CMP(errs, "self area after my own put", exp, mine + self_off + 3, (size_t)n);
        MT_CHECK_INT(errs, "byte before the big area", 0xA5, mine[big_off + 4]);
        if (k == nbig - 1) {
            MT_CHECK_INT(errs, "byte after the big area", 0xA5, mine[big_off + 5 + n]);
            MT_CHECK_INT(errs, "byte after the self area", 0xA5, mine[self_off + 3 + n]);
        }
        /* read back: from the right neighbour what I put there, from the left one what it put in its own area */
        memset(dst, 0, (size_t)n);
        MT_CHECK_INT(errs, "ARMCI_Get (big, right)", 0, ARMCI_Get(ptr[right] + big_off + 5, dst, n, right));
        mt_fill(exp, (size_t)n, rank, 30 + k);
        AT_CMP(errs, "ARMCI_Get (big) from the right neighbour", exp, dst, (size_t)n);
        memset(dst, 0, (size_t)n);
        MT_CHECK_INT(errs, "ARMCI_Get (big, left)", 0, ARMCI_Get(ptr[left] + self_off + 3, dst, n, left));
        mt_fill(exp, (size_t)n, left, 40 + k);
        AT_CMP(errs, "ARMCI_Get (big) from the left neighbour", exp, dst, (size_t)n);
        ARMCI_Barrier();
    }

    /* ---- the local side in my own ARMCI memory: put my self area to the right one's region 0, get back ---- */
    MT_CHECK_INT(errs, "ARMCI_Put from my ARMCI memory", 0, ARMCI_Put(mine + self_off + 3, ptr[right], 777, right));
    ARMCI_Barrier();
    mt_fill(exp, 777, left, 40 + nbig - 1);
    AT_CMP(errs, "a put whose source is ARMCI memory", exp, mine, 777);
    MT_CHECK_INT(errs, "ARMCI_Get into my ARMCI memory", 0, ARMCI_Get(ptr[right], mine + big_off, 777, right));
    mt_fill(exp, 777, rank, 40 + nbig - 1);
    AT_CMP(errs, "a get whose destination is ARMCI memory", exp, mine + big_off, 777);

    /* ---- ARMCI_Copy ---- */
    mt_fill(src, 1000, rank, 50);
    memset(dst, 0, 1001);
    ARMCI_Copy(src, dst, 1000);
    AT_CMP(errs, "ARMCI_Copy", src, dst, 1000);
    MT_CHECK_INT(errs, "byte after ARMCI_Copy", 0, dst[1000]);
    ARMCI_Barrier();

#ifdef ARMCI_VMPI
    /* ---- overlapping copies within my own block (vmpi: memmove) ---- */
    unsigned char *o = mine + self_off;
    mt_fill(o, 3000, rank, 60);
    MT_CHECK_INT(errs, "ARMCI_Put, overlapping, forward", 0, ARMCI_Put(o, o + 100, 2000, rank));
    mt_fill(exp, 3000, rank, 60);
    mt_fill(exp + 100, 2000, rank, 60);
    AT_CMP(errs, "overlapping ARMCI_Put to myself (destination after the source)", exp, o, 3000);
    mt_fill(o, 3000, rank, 61);
    MT_CHECK_INT(errs, "ARMCI_Get, overlapping, backward", 0, ARMCI_Get(o + 100, o, 2000, rank));
    mt_fill(exp, 3000, rank, 61);
    memmove(exp, exp + 100, 2000);
    AT_CMP(errs, "overlapping ARMCI_Get from myself (destination before the source)", exp, o, 3000);
#endif

    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free", 0, ARMCI_Free(mine));
    free(ptr);
    free(src);
    free(dst);
    free(exp);
    return at_finish(errs);
}
