/* SPDX-License-Identifier: BSD-3-Clause */
/* Vector transfers (ARMCI_PutV / ARMCI_GetV, armci_giov_t; ARMCI_AccV is in acc.c): one call with four
 * descriptors of different segment sizes (5 x 8 B, 3 x 13 B, 4 x 1 B, 200 x 4 B) whose remote segments lie in
 * two different allocations of the target (one descriptor alternates between them), to the right neighbour
 * and to oneself; every target checks both allocations byte by byte (segments and the bytes around them),
 * then each rank reads its segments back with ARMCI_GetV into other local places; finally a descriptor with
 * one segment of 100,000 bytes. */
#include "armci_test.h"

enum { ND = 4, ABYTES = 8192, BBYTES = 4096, SRCB = 2048, HALF_A = ABYTES / 2, HALF_B = BBYTES / 2, BIG = 100000 };
static const int nseg[ND] = {5, 3, 4, 200}, segb[ND] = {8, 13, 1, 4};

static long src_off(int d, int i) { return d * 100 + (long)i * (segb[d] + 3); }
/* descriptor 2 alternates between A and B (armci-mpi 0.3.1 fails such a descriptor, "Invalid remote address":
 * all in A there) */
static int in_b(int d, int i) { return d == 1 || (d == 2 && i % 2 && !MT_ARMCI_MPI); }
static long dst_off(int d, int i)
{
    switch (d) {
    case 0: return 100 + 37L * i;
    case 1: return 50 + 200L * i;
    case 2: return i % 2 ? 1000 + i : 2000 + i;
    default: return 2500 + 6L * i;
    }
}
static long back_off(int d, int i) { return d * 1000 + 20L * i; } /* where GetV puts segment i of d locally */

int main(int argc, char **argv)
{
    int errs = 0, rank, size;
    at_init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    unsigned char **A = mt_malloc(sizeof(void *) * (size_t)size), **B = mt_malloc(sizeof(void *) * (size_t)size);
    MT_CHECK_INT(errs, "ARMCI_Malloc (A)", 0, ARMCI_Malloc((void **)A, ABYTES));
    MT_CHECK_INT(errs, "ARMCI_Malloc (B)", 0, ARMCI_Malloc((void **)B, BBYTES + BIG));
    unsigned char *src = mt_malloc(SRCB), *ea = mt_malloc(ABYTES), *eb = mt_malloc(BBYTES + BIG),
                  *back = mt_malloc(ND * 1000 + 4096), *eback = mt_malloc(ND * 1000 + 4096), *ref = mt_malloc(SRCB);
    void **sp[ND], **dp[ND];
    armci_giov_t iov[ND];
    for (int d = 0; d < ND; d++) {
        sp[d] = mt_malloc(sizeof(void *) * (size_t)nseg[d]);
        dp[d] = mt_malloc(sizeof(void *) * (size_t)nseg[d]);
    }
    for (long i = 0; i < ABYTES; i++)
        A[rank][i] = (unsigned char)(i * 3 + 1);
    for (long i = 0; i < BBYTES; i++)
        B[rank][i] = (unsigned char)(i * 5 + 2);
    ARMCI_Barrier();

    /* to the right neighbour (first halves), then to myself (second halves) */
    for (int self = 0; self < 2; self++) {
        int t = self ? rank : right;
        mt_fill(src, SRCB, rank, self);
        for (int d = 0; d < ND; d++) {
            for (int i = 0; i < nseg[d]; i++) {
                sp[d][i] = src + src_off(d, i);
                dp[d][i] = in_b(d, i) ? B[t] + dst_off(d, i) + self * HALF_B : A[t] + dst_off(d, i) + self * HALF_A;
            }
            iov[d].src_ptr_array = sp[d];
            iov[d].dst_ptr_array = dp[d];
            iov[d].ptr_array_len = nseg[d];
            iov[d].bytes = segb[d];
        }
        MT_CHECK_INT(errs, "ARMCI_PutV", 0, ARMCI_PutV(iov, ND, t));
    }
    ARMCI_Barrier();
    for (long i = 0; i < ABYTES; i++)
        ea[i] = (unsigned char)(i * 3 + 1);
    for (long i = 0; i < BBYTES; i++)
        eb[i] = (unsigned char)(i * 5 + 2);
    for (int self = 0; self < 2; self++) {
        mt_fill(ref, SRCB, self ? rank : left, self);
        for (int d = 0; d < ND; d++)
            for (int i = 0; i < nseg[d]; i++)
                memcpy(in_b(d, i) ? eb + dst_off(d, i) + self * HALF_B : ea + dst_off(d, i) + self * HALF_A,
                       ref + src_off(d, i), (size_t)segb[d]);
    }
    AT_CMP(errs, "allocation A after ARMCI_PutV from the left neighbour and myself", ea, A[rank], ABYTES);
    AT_CMP(errs, "allocation B after ARMCI_PutV from the left neighbour and myself", eb, B[rank], BBYTES);

    /* read back from the right neighbour what I put there */
    memset(back, 0xEE, ND * 1000 + 4096);
    memset(eback, 0xEE, ND * 1000 + 4096);
    mt_fill(ref, SRCB, rank, 0);
    for (int d = 0; d < ND; d++) {
        for (int i = 0; i < nseg[d]; i++) {
            sp[d][i] = in_b(d, i) ? B[right] + dst_off(d, i) : A[right] + dst_off(d, i);
            dp[d][i] = back + back_off(d, i);
            memcpy(eback + back_off(d, i), ref + src_off(d, i), (size_t)segb[d]);
        }
        iov[d].src_ptr_array = sp[d];
        iov[d].dst_ptr_array = dp[d];
    }
    MT_CHECK_INT(errs, "ARMCI_GetV", 0, ARMCI_GetV(iov, ND, right));
    AT_CMP(errs, "segments read back with ARMCI_GetV", eback, back, ND * 1000 + 4096);
    ARMCI_Barrier();
    at_migrate();

    /* one segment of BIG bytes into B after BBYTES */
    unsigned char *big = mt_malloc(BIG), *ebig = mt_malloc(BIG);
    void *bs = big, *bd = B[right] + BBYTES;
    mt_fill(big, BIG, rank, 7);
    armci_giov_t one = {.src_ptr_array = &bs, .dst_ptr_array = &bd, .ptr_array_len = 1, .bytes = BIG};
    MT_CHECK_INT(errs, "ARMCI_PutV (one segment of 100,000 bytes)", 0, ARMCI_PutV(&one, 1, right));
    ARMCI_Barrier();
    mt_fill(ebig, BIG, left, 7);
    AT_CMP(errs, "one segment of 100,000 bytes", ebig, B[rank] + BBYTES, BIG);
    memset(big, 0, BIG);
    bs = B[right] + BBYTES;
    bd = big;
    MT_CHECK_INT(errs, "ARMCI_GetV (one segment of 100,000 bytes)", 0, ARMCI_GetV(&one, 1, right));
    mt_fill(ebig, BIG, rank, 7);
    AT_CMP(errs, "one segment of 100,000 bytes read back", ebig, big, BIG);

    ARMCI_Barrier();
    MT_CHECK_INT(errs, "ARMCI_Free (A)", 0, ARMCI_Free(A[rank]));
    MT_CHECK_INT(errs, "ARMCI_Free (B)", 0, ARMCI_Free(B[rank]));
    for (int d = 0; d < ND; d++) {
        free(sp[d]);
        free(dp[d]);
    }
    free(A);
    free(B);
    free(src);
    free(ea);
    free(eb);
    free(back);
    free(eback);
    free(ref);
    free(big);
    free(ebig);
    return at_finish(errs);
}
